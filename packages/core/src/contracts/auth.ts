import { z } from 'zod';
import { ZCheckUserQuery, ZLoginRequest, ZRegisterRequest, ZResendOtpRequest, ZUpdateReferralRequest, ZVerifyOtpRequest } from '../schemas/auth';
import { ZForgotPasswordRequest, ZLogin2faRequest, ZResetPasswordRequest } from '../schemas/security';
import { defineContract } from './define';

/** A sign-in step: a token when signed in, an access_id when a code was mailed, a challenge with 2FA. */
export const ZAuthData = z.object({
  token: z.string().optional(),
  access_id: z.string().optional(),
  is_admin: z.boolean().optional(),
  requires_2fa: z.literal(true).optional(),
  challenge_id: z.string().optional(),
  /** false when the code could not be mailed yet (the mail server is down): it follows as soon as mail works */
  code_sent: z.literal(false).optional(),
});

const tag = 'auth';
export const SOCIAL_PROVIDER_NAMES = ['google', 'facebook', 'instagram'] as const;
const ZRedirect = z.null().describe('302 to the provider, or back to /signup');

const socialStart = (provider: (typeof SOCIAL_PROVIDER_NAMES)[number]) =>
  defineContract({
    method: 'GET',
    path: `/auth/${provider}`,
    auth: 'public',
    tag,
    summary: `Starts ${provider} sign-in (redirects to the provider)`,
    query: z.object({ ref: z.string().max(64).optional() }),
    data: null,
    responses: { 302: ZRedirect },
  });
const socialCallback = (provider: (typeof SOCIAL_PROVIDER_NAMES)[number]) =>
  defineContract({
    method: 'GET',
    path: `/auth/${provider}/callback`,
    auth: 'public',
    tag,
    summary: `${provider} returns here (redirects to /signup)`,
    data: null,
    responses: { 302: ZRedirect },
  });

export const auth = {
  register: defineContract({
    method: 'POST',
    path: '/auth/register',
    errors: ['VALIDATION', 'CONFLICT'],
    auth: 'public',
    tag,
    summary: 'Creates an account and mails a code',
    body: ZRegisterRequest,
    data: ZAuthData,
  }),
  verifyOtp: defineContract({
    method: 'POST',
    path: '/auth/verify-otp',
    errors: ['BAD_REQUEST', 'TOO_MANY_ATTEMPTS', 'FORBIDDEN'],
    auth: 'public',
    tag,
    summary: 'Checks the mailed code',
    body: ZVerifyOtpRequest,
    data: ZAuthData,
  }),
  resendOtp: defineContract({
    method: 'POST',
    path: '/auth/resend-otp',
    errors: ['BAD_REQUEST', 'RATE_LIMITED'],
    auth: 'public',
    tag,
    summary: 'Mails a new code',
    body: ZResendOtpRequest,
    data: ZAuthData,
  }),
  login: defineContract({
    method: 'POST',
    path: '/auth/login',
    errors: ['UNAUTHENTICATED', 'FORBIDDEN', 'RATE_LIMITED'],
    auth: 'public',
    tag,
    summary: 'E-mail and password sign-in',
    body: ZLoginRequest,
    data: ZAuthData,
  }),
  login2fa: defineContract({
    method: 'POST',
    path: '/auth/login/2fa',
    errors: ['BAD_REQUEST', 'INVALID_2FA', 'TOO_MANY_ATTEMPTS', 'FORBIDDEN'],
    auth: 'public',
    tag,
    summary: 'The second step of a sign-in with 2FA',
    body: ZLogin2faRequest,
    data: ZAuthData,
  }),
  forgotPassword: defineContract({
    method: 'POST',
    path: '/auth/forgot-password',
    errors: ['RATE_LIMITED'],
    auth: 'public',
    tag,
    summary: 'Mails a reset code',
    body: ZForgotPasswordRequest,
    data: z.object({ access_id: z.string() }),
  }),
  resetPassword: defineContract({
    method: 'POST',
    path: '/auth/reset-password',
    errors: ['BAD_REQUEST', 'VALIDATION', 'TOO_MANY_ATTEMPTS'],
    auth: 'public',
    tag,
    summary: 'Sets a new password with the mailed code',
    body: ZResetPasswordRequest,
    data: null,
  }),
  logout: defineContract({ method: 'POST', path: '/auth/logout', auth: 'user', tag, summary: 'Ends this session', data: null }),
  checkUser: defineContract({
    method: 'GET',
    path: '/auth/checkuser',
    auth: 'public',
    tag,
    summary: 'Whether a referral ID is valid',
    query: ZCheckUserQuery,
    data: z.object({ userName: z.string() }),
  }),
  providers: defineContract({
    method: 'GET',
    path: '/auth/providers',
    auth: 'public',
    tag,
    summary: 'Which social sign-ins are configured',
    data: z.object({ google: z.boolean(), facebook: z.boolean(), instagram: z.boolean() }),
  }),
  updateReferral: defineContract({
    method: 'POST',
    path: '/auth/update-referral',
    auth: 'public',
    tag,
    summary: 'Completes a social sign-up (signup cookie)',
    body: ZUpdateReferralRequest,
    data: z.object({ token: z.string(), is_admin: z.boolean() }),
  }),
  googleStart: socialStart('google'),
  googleCallback: socialCallback('google'),
  facebookStart: socialStart('facebook'),
  facebookCallback: socialCallback('facebook'),
  instagramStart: socialStart('instagram'),
  instagramCallback: socialCallback('instagram'),
};

/** The start and callback contracts of one social provider. */
export const socialContracts = {
  google: { start: auth.googleStart, callback: auth.googleCallback },
  facebook: { start: auth.facebookStart, callback: auth.facebookCallback },
  instagram: { start: auth.instagramStart, callback: auth.instagramCallback },
} as const;

export type TAuthData = z.output<typeof ZAuthData>;
