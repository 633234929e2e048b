import { CODE_DELAYED_MESSAGE, RESET_SENT_MESSAGE } from '@app/core';
import { auth as contract } from '@app/core/contracts';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { emailKey } from './otp';
import * as auth from './service';

const LOGIN_MESSAGES = {
  'signed-in': 'Login successful',
  verify: 'Please verify your email to continue',
  code: 'We sent a code to your e-mail. Enter it to continue.',
  '2fa': 'Two-factor code required',
} as const;

/** Where a session comes from, shown on /security (the IP as TRUST_PROXY lets us see it). */
export const meta = (req: FastifyRequest) => ({ ip: req.ip, userAgent: req.headers['user-agent'] });

const authRoutes: FastifyPluginAsync = async (app) => {
  const perMinute = app.ctx.config.rateLimitAuthPerMin;
  const secret = app.ctx.secret;
  const cookieOpts = { secret, secure: app.ctx.config.publicUrl.startsWith('https:') };
  /** The device tokens the request carries (device.ts): which budgets its codes and passwords draw on. */
  const devices = (req: FastifyRequest) => auth.devicesOf(secret, req);
  /** A sign-in that gave a token hands this browser the account's device token; `signedIn` itself is never sent. */
  const handOut = <T extends auth.AuthResult>(req: FastifyRequest, reply: FastifyReply, result: T): Omit<T, 'signedIn'> => {
    const { signedIn, ...data } = result;
    if (signedIn) auth.setDeviceCookie(reply, cookieOpts, devices(req), signedIn);
    return data;
  };
  const limited = { config: { rateLimit: { max: perMinute, timeWindow: '1 minute' } } };
  /**
   * The per-e-mail limit of login and forgot-password (server design, section 1): the same budget
   * and 429 as per IP, counted in the same store (Redis when REDIS_URL is set, so every process
   * shares it), keyed by the keyed hash of the normalized e-mail, for known and unknown e-mails
   * alike. Checked in the handler, after the per-IP limit and the body's validation. A device of
   * the account (its token names the e-mail) is counted on its own, so an outsider filling the
   * e-mail's minute never holds the owner's known devices back (issue 46).
   */
  const perEmail = (name: string) => {
    const limiter = app.createRateLimit({
      max: perMinute,
      timeWindow: '1 minute',
      keyGenerator: (req) => {
        const email = (req.body as { email: string }).email;
        const device = auth.deviceOfEmail(secret, devices(req), email);
        return device ? `${name}-device:${device.id}` : `${name}-email:${emailKey(secret, email)}`;
      },
    });
    return async (req: FastifyRequest, reply: FastifyReply) => {
      const r = await limiter(req);
      if (r.isAllowed || !r.isExceeded) return;
      void reply.header('retry-after', r.ttlInSeconds);
      throw new AppError('RATE_LIMITED', 'Too many requests, please try again later.');
    };
  };
  const loginPerEmail = perEmail('login');
  const forgotPerEmail = perEmail('forgot');

  route(
    app,
    contract.register,
    async (req) => {
      const data = await auth.register(app.ctx, req.log, req.body);
      // The account exists either way; a code the mail server did not take yet is said plainly.
      return ok(data, data.code_sent === false ? `Registration successful. ${CODE_DELAYED_MESSAGE}` : 'Registration successful. Please verify your email.');
    },
    limited,
  );

  route(
    app,
    contract.verifyOtp,
    async (req, reply) =>
      ok(handOut(req, reply, await auth.verifyOtp(app.ctx, req.body.access_id, req.body.otp, meta(req), devices(req))), 'OTP verified successfully'),
    limited,
  );

  route(
    app,
    contract.resendOtp,
    async (req) => {
      const data = await auth.resendOtp(app.ctx, req.log, req.body.access_id);
      return ok(data, data.code_sent === false ? CODE_DELAYED_MESSAGE : 'OTP resent successfully');
    },
    limited,
  );

  // Per IP and per e-mail. The per-e-mail limit holds an owner back for at most a minute; guessing
  // one e-mail slowly from many IPs meets the per-e-mail back-off in the service.
  route(
    app,
    contract.login,
    async (req, reply) => {
      await loginPerEmail(req, reply);
      const { step, ...result } = await auth.login(app.ctx, req.log, req.body, meta(req), devices(req));
      const data = handOut(req, reply, result);
      return ok(data, data.code_sent === false ? CODE_DELAYED_MESSAGE : LOGIN_MESSAGES[step]);
    },
    limited,
  );

  route(
    app,
    contract.login2fa,
    async (req, reply) =>
      ok(handOut(req, reply, await auth.loginSecondStep(app.ctx, req.body.challenge_id, req.body.code, meta(req), devices(req))), 'Login successful'),
    limited,
  );

  route(
    app,
    contract.forgotPassword,
    async (req, reply) => {
      await forgotPerEmail(req, reply);
      return ok(await auth.forgotPassword(app.ctx, req.log, req.body.email), RESET_SENT_MESSAGE);
    },
    limited,
  );

  route(app, contract.resetPassword, async (req) => ok(undefined, await auth.resetPassword(app.ctx, req.body, devices(req))), limited);

  route(app, contract.logout, async (req) => {
    await auth.logout(app.ctx, req.token);
    return ok(undefined, 'Logged out successfully');
  });

  route(
    app,
    contract.checkUser,
    async (req) => {
      const sponsor = await auth.findUserByReferral(app.ctx, req.query.referral_id);
      if (!sponsor || sponsor.status === 'blocked' || !sponsor.email_verified_at) throw new AppError('NOT_FOUND', 'Invalid referral ID');
      return ok({ userName: sponsor.name }, 'Referral ID is valid');
    },
    limited,
  );

  /** Which social sign-ins are configured: the browser hides the buttons of the others. */
  route(app, contract.providers, async () => {
    const o = app.ctx.config.oauth;
    const on = (p: { clientId?: string | undefined; clientSecret?: string | undefined }) => Boolean(p.clientId && p.clientSecret);
    return ok({ google: on(o.google), facebook: on(o.facebook), instagram: on(o.instagram) });
  });
};
export default authRoutes;
