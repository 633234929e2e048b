import { z } from 'zod';
import { ZAccessId, ZOtp, ZPassword } from './auth';
import { emailField } from './fields';

/** Account security (server.md section 9): password reset, change of password, TOTP two-factor. */

export const RESET_SENT_MESSAGE = 'If an account exists for this e-mail, a reset code has been sent.';
export const RESET_DONE_MESSAGE = 'Password reset successfully';
export const INVALID_CODE_MESSAGE = 'Invalid or expired code';
/**
 * Sign-up, resend and sign-in answer this (with the access_id, `code_sent: false`) when the code
 * could not be mailed yet: the mail server is down; the code follows as soon as it is back.
 */
export const CODE_DELAYED_MESSAGE =
  'We could not send your verification code yet. It will be e-mailed to you as soon as our mail service is back; you can also request a new code when the timer ends.';
/** A code answered wrong OTP_MAX_TRIES times is dead: the page then waits for a new one. */
export const OTP_TOO_MANY_MESSAGE = 'Too many wrong attempts. Please request a new code.';
// The messages of the error table's codes live with it (errors.ts has no imports, so the browser's
// entry takes the table without the schemas).
import { INVALID_2FA_MESSAGE, TOO_MANY_ATTEMPTS_MESSAGE, TWO_FA_REQUIRED_MESSAGE } from '../errors';
export { INVALID_2FA_MESSAGE, TOO_MANY_ATTEMPTS_MESSAGE, TWO_FA_REQUIRED_MESSAGE };
/** A right TOTP for a time step already accepted (a double submit, a second tab): no guess, but refused. */
export const TOTP_REUSED_MESSAGE = 'This code was just used. Wait for the next one.';
/** A recovery code that was right once and is spent: no guess, but refused. */
export const RECOVERY_REUSED_MESSAGE = 'This recovery code has already been used.';
export const CURRENT_PASSWORD_WRONG_MESSAGE = 'Current password is incorrect';

/** POST /api/auth/forgot-password */
export const ZForgotPasswordRequest = z.object({ email: emailField() });
export type TForgotPasswordRequest = z.infer<typeof ZForgotPasswordRequest>;

/** POST /api/auth/reset-password */
export const ZResetPasswordRequest = z.object({ access_id: ZAccessId, otp: ZOtp, password: ZPassword });
export type TResetPasswordRequest = z.infer<typeof ZResetPasswordRequest>;

/** The /reset-password form: the request plus a confirmation. */
export const ZResetPasswordForm = z
  .object({ otp: ZOtp, password: ZPassword, confirmPassword: z.string({ error: "Passwords don't match" }) })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: "Passwords don't match" });
  });
export type TResetPasswordForm = z.infer<typeof ZResetPasswordForm>;

/** POST /api/user/change-password */
export const ZChangePasswordRequest = z.object({
  current_password: z.string({ error: 'Current password is required' }).min(1, 'Current password is required').max(200, CURRENT_PASSWORD_WRONG_MESSAGE),
  new_password: ZPassword,
});
export type TChangePasswordRequest = z.infer<typeof ZChangePasswordRequest>;

/** The change-password form on /security. */
export const ZChangePasswordForm = z
  .object({
    current_password: ZChangePasswordRequest.shape.current_password,
    new_password: ZPassword,
    confirmPassword: z.string({ error: "Passwords don't match" }),
  })
  .superRefine((v, ctx) => {
    if (v.new_password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: "Passwords don't match" });
  });
export type TChangePasswordForm = z.infer<typeof ZChangePasswordForm>;

/** A TOTP (6 digits) or a recovery code (xxxxx-xxxxx); spaces and case are forgiven. */
export const ZTwoFactorCode = z
  .string({ error: TWO_FA_REQUIRED_MESSAGE })
  .trim()
  .min(1, { error: TWO_FA_REQUIRED_MESSAGE, abort: true })
  .max(32, INVALID_2FA_MESSAGE)
  .transform((v) => v.replace(/\s+/g, '').toLowerCase())
  .refine((v) => /^\d{6}$/.test(v) || /^[a-z0-9]{5}-?[a-z0-9]{5}$/.test(v), INVALID_2FA_MESSAGE);

/** POST /api/user/2fa/enable and /disable */
export const ZTwoFactorCodeRequest = z.object({ code: ZTwoFactorCode });
export type TTwoFactorCodeRequest = z.infer<typeof ZTwoFactorCodeRequest>;

/** POST /api/auth/login/2fa */
export const ZLogin2faRequest = z.object({ challenge_id: ZAccessId, code: ZTwoFactorCode });
export type TLogin2faRequest = z.infer<typeof ZLogin2faRequest>;

/** DELETE /api/user/sessions/:id */
export const ZSessionIdParams = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Session not found') });
