import { auth, socialContracts } from '@app/core/contracts';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { readCookie } from '../../lib/cookies';
import { AppError } from '../../lib/errors';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { devicesOf, setDeviceCookie } from '../auth/service';
import * as social from './service';

const socialRoutes: FastifyPluginAsync = async (app) => {
  const ctx = app.ctx;
  const limited = { config: { rateLimit: { max: ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } } };
  const secure = ctx.config.publicUrl.startsWith('https:') ? '; Secure' : '';
  const setSignupCookie = (reply: FastifyReply, value: string, maxAge: number) =>
    reply.header('set-cookie', `${social.SIGNUP_COOKIE}=${value}; Max-Age=${maxAge}; Path=/api/auth; HttpOnly; SameSite=Lax${secure}`);
  // Lax: it comes back on the provider's top-level GET redirect to the callback, and only there (Path).
  const setStateCookie = (reply: FastifyReply, provider: (typeof social.SOCIAL_PROVIDERS)[number], value: string, maxAge: number) =>
    reply.header('set-cookie', `${social.STATE_COOKIE}=${value}; Max-Age=${maxAge}; Path=${social.stateCookiePath(provider)}; HttpOnly; SameSite=Lax${secure}`);

  for (const provider of social.SOCIAL_PROVIDERS) {
    const contracts = socialContracts[provider];
    route(
      app,
      contracts.start,
      async (req, reply) => {
        let url: string;
        try {
          const started = await social.start(ctx, provider, req.query.ref);
          url = started.url;
          setStateCookie(reply, provider, started.stateCookie, social.STATE_COOKIE_MAX_AGE);
        } catch (err) {
          if (err instanceof AppError) throw err;
          // The provider cannot be reached (discovery failed): back to the page that shows the failure.
          req.log.warn({ err, provider }, 'social sign-in start failed');
          url = social.failureUrl(ctx, provider);
        }
        reply.header('cache-control', 'no-store');
        return reply.redirect(url, 302);
      },
      limited,
    );

    route(
      app,
      contracts.callback,
      async (req, reply) => {
        const raw = req.raw.url ?? '';
        const q = raw.indexOf('?');
        const result = await social.callback(ctx, req.log, provider, q >= 0 ? raw.slice(q + 1) : '', readCookie(req, social.STATE_COOKIE));
        if (result.clearStateCookie) setStateCookie(reply, provider, '', 0);
        if (result.signupCookie) setSignupCookie(reply, result.signupCookie, social.SIGNUP_COOKIE_MAX_AGE);
        if (result.signedIn) setDeviceCookie(reply, { secret: ctx.secret, secure: secure !== '' }, devicesOf(ctx.secret, req), result.signedIn);
        reply.header('cache-control', 'no-store');
        // The token travels in the URL only to our own /signup page; keep it out of Referer headers.
        reply.header('referrer-policy', 'no-referrer');
        return reply.redirect(result.location, 302);
      },
      limited,
    );
  }

  route(
    app,
    auth.updateReferral,
    async (req, reply) => {
      const data = await social.updateReferral(ctx, readCookie(req, social.SIGNUP_COOKIE), req.body);
      setSignupCookie(reply, '', 0);
      return ok(data, 'Referral updated successfully');
    },
    limited,
  );
};
export default socialRoutes;
