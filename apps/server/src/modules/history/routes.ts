import { ZHistoryQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import { getHistory } from './service';

const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/user/get-history', { schema: { tags: ['history'], querystring: ZHistoryQuery }, onRequest: app.authenticate }, async (req) => {
    const h = await getHistory(app.ctx.db, req.user.id, req.query.type, req.query.page, req.query.per_page);
    return ok({ data: h.data, pagination: { total: h.total, page: req.query.page, perPage: req.query.per_page }, total_deposits: h.total_deposits, total_withdrawals: h.total_withdrawals });
  });
};
export default historyRoutes;
