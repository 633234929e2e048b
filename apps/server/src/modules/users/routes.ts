import { user } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import * as users from './service';

const usersRoutes: FastifyPluginAsync = async (app) => {
  // One statement: the session check, the user, the figures and the activity (issue 14).
  route(app, user.info, async (req) => ok(await users.getUserInfoOneStatement(app.ctx.db, req.tokenHash)), {
    config: { sessionInStatement: true },
  });
  route(app, user.profile, async (req) => ok(await users.getProfile(app.ctx.db, req.user.id)));
  route(app, user.check, async (req) => ok(await users.checkUsername(app.ctx.db, req.user.id, req.query.username), 'User found'), {
    config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } },
  });
};
export default usersRoutes;
