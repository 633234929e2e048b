import { team } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok, paginated } from '../../lib/reply';
import { route } from '../../lib/route';
import { listDirects } from './service';

const teamRoutes: FastifyPluginAsync = async (app) => {
  route(app, team.directs, async (req) => {
    const { rows, total } = await listDirects(app.ctx.db, req.user.id, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default teamRoutes;
