import { z } from 'zod';
import { PASSWORD_MAX, PASSWORD_MIN, REFERRAL_ID_LENGTH } from '../constants';
import { ALNUM9_RE, emailField } from './fields';

export const ZName = z.string({ error: 'Name is required' }).trim().min(1, 'Name is required').max(100, 'Name must not exceed 100 characters');

export const ZPassword = z
  .string({ error: 'Password is required' })
  .min(PASSWORD_MIN, { error: 'Password must be at least 6 characters', abort: true })
  .max(PASSWORD_MAX, { error: 'Password must not exceed 30 characters', abort: true })
  .regex(/[A-Z]/, 'Password must contain at least one uppercase letter')
  .regex(/[a-z]/, 'Password must contain at least one lowercase letter')
  .regex(/[0-9]/, 'Password must contain at least one number');

/** The referral ID rule as it reads while typing: shorter shows the count ('Referral ID must be 9 characters (n/9)'), else the shape message. */
export function referralIdMessage(value: string): string | null {
  const v = value.trim().toUpperCase();
  if (v === '') return null;
  if (v.length < REFERRAL_ID_LENGTH && /^[A-Z0-9]*$/.test(v)) return `Referral ID must be 9 characters (${v.length}/9)`;
  if (!ALNUM9_RE.test(v)) return 'Referral ID must be 9 alphanumeric characters';
  return null;
}

/** Optional referral ID: '' or missing means none; otherwise exactly 9 letters or digits, uppercased. */
export const ZOptionalReferralId = z
  .string({ error: 'Referral ID must be 9 alphanumeric characters' })
  .trim()
  .transform((v) => v.toUpperCase())
  .superRefine((v, ctx) => {
    const msg = referralIdMessage(v);
    if (msg) ctx.addIssue({ code: 'custom', message: msg });
  })
  .optional();

export const ZReferralId = z
  .string({ error: 'Referral ID must be 9 alphanumeric characters' })
  .trim()
  .transform((v) => v.toUpperCase())
  .refine((v) => ALNUM9_RE.test(v), 'Referral ID must be 9 alphanumeric characters');

/** POST /api/auth/register */
export const ZRegisterRequest = z.object({
  name: ZName,
  email: emailField(),
  password: ZPassword,
  // null means none; anything else that is not text gets the referral message, not 'Invalid input'.
  referral_id: z.preprocess((v) => (v === null ? undefined : v), ZOptionalReferralId),
});
export type TRegisterRequest = z.infer<typeof ZRegisterRequest>;

/** The signup form: the register payload plus confirmPassword and terms. */
export const ZSignupForm = z
  .object({
    name: ZName,
    email: emailField(),
    password: ZPassword,
    confirmPassword: z.string({ error: "Passwords don't match" }),
    referral_id: ZOptionalReferralId,
    terms: z
      .boolean()
      .default(false)
      .refine((v) => v, 'You must accept the terms and conditions to continue'),
  })
  .superRefine((v, ctx) => {
    if (v.password !== v.confirmPassword) ctx.addIssue({ code: 'custom', path: ['confirmPassword'], message: "Passwords don't match" });
  });
export type TSignupForm = z.input<typeof ZSignupForm>;

/** POST /api/auth/login */
export const ZLoginRequest = z.object({
  email: emailField(),
  password: z.string({ error: 'Password is required' }).min(1, 'Password is required').max(200, 'Password is required'),
});
export type TLoginRequest = z.infer<typeof ZLoginRequest>;

export const ZAccessId = z
  .string({ error: 'Access ID not found. Please sign up again.' })
  .trim()
  .min(1, 'Access ID not found. Please sign up again.')
  .max(200, 'Access ID not found. Please sign up again.');

export const ZOtp = z.string({ error: 'OTP must be 6 digits.' }).regex(/^\d{6}$/, 'OTP must be 6 digits.');

/** POST /api/auth/verify-otp */
export const ZVerifyOtpRequest = z.object({ access_id: ZAccessId, otp: ZOtp });
export type TVerifyOtpRequest = z.infer<typeof ZVerifyOtpRequest>;

/** POST /api/auth/resend-otp */
export const ZResendOtpRequest = z.object({ access_id: ZAccessId });

/** GET /api/auth/checkuser?referral_id= */
export const ZCheckUserQuery = z.object({ referral_id: ZReferralId, name: z.string().optional() });

/** GET /api/user/check?username= — an empty username is 'Username is required'. */
export const ZUsername = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, { error: 'Username is required', abort: true })
  .transform((v) => v.toUpperCase())
  .refine((v) => ALNUM9_RE.test(v), 'Username must be exactly 9 characters');
export const ZCheckUsernameQuery = z.object({ username: ZUsername, name: z.string().optional() });

/** POST /api/auth/update-referral */
export const ZUpdateReferralRequest = z.object({
  referral_id: ZOptionalReferralId,
  username: ZUsername,
});
