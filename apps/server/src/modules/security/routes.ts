import { ZChangePasswordRequest, ZSessionIdParams, ZTwoFactorCodeRequest } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../auth/two-factor';
import { changePassword, getSecurity, revokeSession } from './service';

/** The /security screen's calls (server design, section 9). */
const securityRoutes: FastifyPluginAsyncZod = async (app) => {
  const limited = { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } };
  const user = { onRequest: app.authenticate, schema: { tags: ['security'] } };

  app.get('/user/security', user, async (req) => ok(await getSecurity(app.ctx, req.user.id, req.user.session_id)));

  app.delete('/user/sessions/:id', { ...user, schema: { tags: ['security'], params: ZSessionIdParams } }, async (req) => {
    await revokeSession(app.ctx, req.user.id, BigInt(req.params.id));
    return ok(undefined, 'Session revoked');
  });

  app.post('/user/change-password', { ...user, config: limited, schema: { tags: ['security'], body: ZChangePasswordRequest } }, async (req) => {
    await changePassword(app.ctx, req.user.id, req.user.session_id, req.body.current_password, req.body.new_password);
    return ok(undefined, 'Password changed successfully');
  });

  app.post('/user/2fa/setup', { ...user, config: limited }, async (req) => ok(await setupTwoFactor(app.ctx, req.user.id), 'Scan the QR code with your authenticator app'));

  app.post('/user/2fa/enable', { ...user, config: limited, schema: { tags: ['security'], body: ZTwoFactorCodeRequest } }, async (req) =>
    ok(await enableTwoFactor(app.ctx, req.user.id, req.body.code), 'Two-factor authentication enabled'),
  );

  app.post('/user/2fa/disable', { ...user, config: limited, schema: { tags: ['security'], body: ZTwoFactorCodeRequest } }, async (req) => {
    await disableTwoFactor(app.ctx, req.user.id, req.body.code);
    return ok(undefined, 'Two-factor authentication disabled');
  });
};
export default securityRoutes;
