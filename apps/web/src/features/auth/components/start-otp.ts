import { OTP_RESEND_SECONDS } from '@app/core/constants';
import { storage } from '../../../lib/storage';

/** No token yet: keep the access_id and start the 300 s resend countdown, persisted (spec section 4). */
export function startOtp(accessId: string): void {
  storage.setAccessId(accessId);
  storage.setOtpExpiry(Date.now() + OTP_RESEND_SECONDS * 1000);
}
