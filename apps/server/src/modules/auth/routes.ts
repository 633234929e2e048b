import { ZCheckUserQuery, ZLoginRequest, ZRegisterRequest, ZResendOtpRequest, ZVerifyOtpRequest } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { ok } from '../../lib/reply';
import * as auth from './service';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const perMinute = app.ctx.config.rateLimitAuthPerMin;
  const limited = { rateLimit: { max: perMinute, timeWindow: '1 minute' } };
  // Login is also limited per e-mail, so one address cannot be guessed at from many IPs.
  const loginPerEmail = app.createRateLimit({
    max: perMinute,
    timeWindow: '1 minute',
    keyGenerator: (req) => `login-email:${String((req.body as { email?: unknown } | undefined)?.email ?? '').trim().toLowerCase()}`,
  });

  app.post('/auth/register', { schema: { tags: ['auth'], body: ZRegisterRequest }, config: limited }, async (req) =>
    ok(await auth.register(app.ctx, req.log, req.body), 'Registration successful. Please verify your email.'),
  );

  app.post('/auth/verify-otp', { schema: { tags: ['auth'], body: ZVerifyOtpRequest }, config: limited }, async (req) =>
    ok(await auth.verifyOtp(app.ctx, req.body.access_id, req.body.otp), 'OTP verified successfully'),
  );

  app.post('/auth/resend-otp', { schema: { tags: ['auth'], body: ZResendOtpRequest }, config: limited }, async (req) =>
    ok(await auth.resendOtp(app.ctx, req.log, req.body.access_id), 'OTP resent successfully'),
  );

  app.post('/auth/login', { schema: { tags: ['auth'], body: ZLoginRequest }, config: limited }, async (req) => {
    const limit = await loginPerEmail(req);
    if (!limit.isAllowed && limit.isExceeded) throw new AppError('RATE_LIMITED', 'Too many requests, please try again later.');
    const { verified, ...data } = await auth.login(app.ctx, req.log, req.body);
    return ok(data, verified ? 'Login successful' : 'Please verify your email to continue');
  });

  app.post('/auth/logout', { schema: { tags: ['auth'] }, onRequest: app.authenticate }, async (req) => {
    await auth.logout(app.ctx, req.token);
    return ok(undefined, 'Logged out successfully');
  });

  app.get('/auth/checkuser', { schema: { tags: ['auth'], querystring: ZCheckUserQuery }, config: limited }, async (req) => {
    const sponsor = await auth.findUserByReferral(app.ctx, req.query.referral_id);
    if (!sponsor || sponsor.status === 'blocked') throw new AppError('NOT_FOUND', 'Invalid referral ID');
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
