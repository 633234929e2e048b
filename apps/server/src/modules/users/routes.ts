import { user } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { userDetailSource, activitySources } from '../../wiring';
import * as users from './service';

const usersRoutes: FastifyPluginAsync = async (app) => {
  route(app, user.info, async (req) => ok(await users.getUserInfo(app.ctx.db, req.user.id, userDetailSource, activitySources)));
  route(app, user.profile, async (req) => ok(await users.getProfile(app.ctx.db, req.user.id)));
  route(app, user.check, async (req) => ok(await users.checkUsername(app.ctx.db, req.user.id, req.query.username), 'User found'), {
    config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } },
  });
};
export default usersRoutes;
