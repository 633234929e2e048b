import { security } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { devicesOf, disableTwoFactor, enableTwoFactor, setupTwoFactor } from '../auth/service';
import { changePassword, getSecurity, revokeSession } from './service';

/** The /security screen's calls (server design, section 9). */
const securityRoutes: FastifyPluginAsync = async (app) => {
  const limited = { config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } } };

  route(app, security.info, async (req) => ok(await getSecurity(app.ctx, req.user.id, req.user.session_id)));

  route(app, security.revokeSession, async (req) => {
    await revokeSession(app.ctx, req.user.id, BigInt(req.params.id));
    return ok(undefined, 'Session revoked');
  });

  route(
    app,
    security.changePassword,
    async (req) => {
      await changePassword(app.ctx, req.user.id, req.user.session_id, req.body.current_password, req.body.new_password);
      return ok(undefined, 'Password changed successfully');
    },
    limited,
  );

  route(app, security.setup2fa, async (req) => ok(await setupTwoFactor(app.ctx, req.user.id), 'Scan the QR code with your authenticator app'), limited);

  route(
    app,
    security.enable2fa,
    async (req) => ok(await enableTwoFactor(app.ctx, req.user.id, req.body.code, devicesOf(app.ctx.secret, req)), 'Two-factor authentication enabled'),
    limited,
  );

  route(
    app,
    security.disable2fa,
    async (req) => {
      await disableTwoFactor(app.ctx, req.user.id, req.body.code, devicesOf(app.ctx.secret, req));
      return ok(undefined, 'Two-factor authentication disabled');
    },
    limited,
  );
};
export default securityRoutes;
