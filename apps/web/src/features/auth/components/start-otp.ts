import { OTP_RESEND_SECONDS } from '@app/core/constants';
import { storage } from '../../../lib/storage';

/**
 * No token yet: keep the access_id and start the 300 s resend countdown, persisted (spec section
 * 4); remember the address the code went to, for the OTP page to name it (issue 32, item 21).
 * `codeSent` false (the server's `code_sent: false`: its mail server was down) makes /verify-otp
 * say the code will come late (issue 30).
 */
export function startOtp(accessId: string, opts: { email?: string; codeSent?: boolean } = {}): void {
  storage.setAccessId(accessId);
  if (opts.email) storage.setOtpEmail(opts.email);
  else storage.clearOtpEmail();
  storage.setOtpExpiry(Date.now() + OTP_RESEND_SECONDS * 1000);
  if (opts.codeSent ?? true) storage.clearOtpDelayed();
  else storage.setOtpDelayed(accessId);
}
