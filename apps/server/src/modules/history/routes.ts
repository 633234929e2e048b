import { history } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { getHistory } from './service';

const historyRoutes: FastifyPluginAsync = async (app) => {
  route(app, history.list, async (req) => {
    const h = await getHistory(app.ctx.db, req.user.id, req.query.type, req.query.page, req.query.per_page);
    return ok({
      data: h.data,
      pagination: { total: h.total, page: req.query.page, perPage: req.query.per_page },
      total_deposits: h.total_deposits,
      total_withdrawals: h.total_withdrawals,
    });
  });
};
export default historyRoutes;
