import { RESET_SENT_MESSAGE, ZCheckUserQuery, ZForgotPasswordRequest, ZLogin2faRequest, ZLoginRequest, ZRegisterRequest, ZResendOtpRequest, ZResetPasswordRequest, ZVerifyOtpRequest } from '@app/core';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { ok } from '../../lib/reply';
import * as auth from './service';

const LOGIN_MESSAGES = {
  'signed-in': 'Login successful',
  verify: 'Please verify your email to continue',
  code: 'We sent a code to your e-mail. Enter it to continue.',
  '2fa': 'Two-factor code required',
} as const;

/** Where a session comes from, shown on /security (the IP as TRUST_PROXY lets us see it). */
export const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const perMinute = app.ctx.config.rateLimitAuthPerMin;
  const limited = { rateLimit: { max: perMinute, timeWindow: '1 minute' } };

  app.post('/auth/register', { schema: { tags: ['auth'], body: ZRegisterRequest }, config: limited }, async (req) =>
    ok(await auth.register(app.ctx, req.log, req.body), 'Registration successful. Please verify your email.'),
  );

  app.post('/auth/verify-otp', { schema: { tags: ['auth'], body: ZVerifyOtpRequest }, config: limited }, async (req) =>
    ok(await auth.verifyOtp(app.ctx, req.body.access_id, req.body.otp, meta(req)), 'OTP verified successfully'),
  );

  app.post('/auth/resend-otp', { schema: { tags: ['auth'], body: ZResendOtpRequest }, config: limited }, async (req) =>
    ok(await auth.resendOtp(app.ctx, req.log, req.body.access_id), 'OTP resent successfully'),
  );

  // Per IP only: a per-e-mail limit would let anyone lock the owner out. Guessing one account from
  // many IPs meets the per-account back-off in the service instead.
  app.post('/auth/login', { schema: { tags: ['auth'], body: ZLoginRequest }, config: limited }, async (req) => {
    const { step, ...data } = await auth.login(app.ctx, req.log, req.body, meta(req));
    return ok(data, LOGIN_MESSAGES[step]);
  });

  app.post('/auth/login/2fa', { schema: { tags: ['auth'], body: ZLogin2faRequest }, config: limited }, async (req) =>
    ok(await auth.loginSecondStep(app.ctx, req.body.challenge_id, req.body.code, meta(req)), 'Login successful'),
  );

  app.post('/auth/forgot-password', { schema: { tags: ['auth'], body: ZForgotPasswordRequest }, config: limited }, async (req) =>
    ok(await auth.forgotPassword(app.ctx, req.log, req.body.email), RESET_SENT_MESSAGE),
  );

  app.post('/auth/reset-password', { schema: { tags: ['auth'], body: ZResetPasswordRequest }, config: limited }, async (req) => ok(undefined, await auth.resetPassword(app.ctx, req.body)));

  app.post('/auth/logout', { schema: { tags: ['auth'] }, onRequest: app.authenticate }, async (req) => {
    await auth.logout(app.ctx, req.token);
    return ok(undefined, 'Logged out successfully');
  });

  app.get('/auth/checkuser', { schema: { tags: ['auth'], querystring: ZCheckUserQuery }, config: limited }, async (req) => {
    const sponsor = await auth.findUserByReferral(app.ctx, req.query.referral_id);
    if (!sponsor || sponsor.status === 'blocked' || !sponsor.email_verified_at) throw new AppError('NOT_FOUND', 'Invalid referral ID');
    return ok({ userName: sponsor.name }, 'Referral ID is valid');
  });

  /** Which social sign-ins are configured: the browser hides the buttons of the others. */
  app.get('/auth/providers', { schema: { tags: ['auth'] } }, async () => {
    const o = app.ctx.config.oauth;
    const on = (p: { clientId?: string | undefined; clientSecret?: string | undefined }) => Boolean(p.clientId && p.clientSecret);
    return ok({ google: on(o.google), facebook: on(o.facebook), instagram: on(o.instagram) });
  });
};
export default authRoutes;
