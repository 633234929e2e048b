import { ZCheckUsernameQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { userDetailSource, activitySources } from '../../wiring';
import * as users from './service';

const usersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/get-info', { schema: { tags: ['user'] }, onRequest: app.authenticate }, async (req) =>
    ok(await users.getUserInfo(app.ctx.db, req.user.id, userDetailSource, activitySources)),
  );

  app.get('/user/profile', { schema: { tags: ['user'] }, onRequest: app.authenticate }, async (req) => ok(await users.getProfile(app.ctx.db, req.user.id)));

  app.get(
    '/user/check',
    { schema: { tags: ['user'], querystring: ZCheckUsernameQuery }, onRequest: app.authenticate, config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } } },
    async (req) => ok(await users.checkUsername(app.ctx.db, req.user.id, req.query.username), 'User found'),
  );
};
export default usersRoutes;
