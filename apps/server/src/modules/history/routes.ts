import { csvExports, history } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { rangeOf } from '../../lib/date-range';
import { exportUserList } from './export';
import { getHistory } from './service';

const historyRoutes: FastifyPluginAsync = async (app) => {
  route(app, history.list, async (req) => {
    const h = await getHistory(app.ctx.db, req.user.id, req.query.type, req.query.page, req.query.per_page, rangeOf(req.query));
    return ok({
      data: h.data,
      pagination: { total: h.total, page: req.query.page, perPage: req.query.per_page },
      total_deposits: h.total_deposits,
      total_withdrawals: h.total_withdrawals,
    });
  });
  // Every history of the caller as CSV, whole, with its date range (issue 32, item 18).
  // An export reads the whole history: a few a minute per address is plenty for a person.
  route(app, csvExports.user, async (req, reply) => exportUserList(app.ctx.db, reply, req.user.id, req.query), {
    config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
  });
};
export default historyRoutes;
