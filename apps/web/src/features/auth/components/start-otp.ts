import { OTP_RESEND_SECONDS } from '@app/core/constants';
import { storage } from '../../../lib/storage';

/**
 * No token yet: keep the access_id and start the 300 s resend countdown, persisted (spec section 4).
 * `codeSent` false (the server's `code_sent: false`: its mail server was down) makes /verify-otp
 * say the code will come late.
 */
export function startOtp(accessId: string, codeSent = true): void {
  storage.setAccessId(accessId);
  storage.setOtpExpiry(Date.now() + OTP_RESEND_SECONDS * 1000);
  if (codeSent) storage.clearOtpDelayed();
  else storage.setOtpDelayed(accessId);
}
