import { ZPageQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, paginated } from '../../lib/reply';
import { listDirects } from './service';

const teamRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/my-team', { schema: { tags: ['team'], querystring: ZPageQuery }, onRequest: app.authenticate }, async (req) => {
    const { rows, total } = await listDirects(app.ctx.db, req.user.id, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default teamRoutes;
