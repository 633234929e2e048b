import { OTP_RESEND_SECONDS } from '@app/core/constants';
import { storage } from '../../../lib/storage';

/**
 * No token yet: keep the access_id and start the 300 s resend countdown, persisted (spec section
 * 4); remember the address the code went to, for the OTP page to name it.
 */
export function startOtp(accessId: string, email?: string): void {
  storage.setAccessId(accessId);
  if (email) storage.setOtpEmail(email);
  else storage.clearOtpEmail();
  storage.setOtpExpiry(Date.now() + OTP_RESEND_SECONDS * 1000);
}
