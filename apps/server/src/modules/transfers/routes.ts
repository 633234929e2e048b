import { ZCreateTransferRequest, ZTransferHistoryQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, paginated } from '../../lib/reply';
import { createTransfer, listTransfers } from './service';

const transfersRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/user/fund-transfer', { schema: { tags: ['transfers'], body: ZCreateTransferRequest }, onRequest: app.authenticate }, async (req) => {
    const r = await createTransfer(app.ctx.db, req.user.id, req.body);
    return ok({ id: String(r.id) }, `Transfer of ${req.body.amount_usd} USDT to ${r.receiver} successful`);
  });

  app.get('/user/fund-transfer', { schema: { tags: ['transfers'], querystring: ZTransferHistoryQuery }, onRequest: app.authenticate }, async (req) => {
    const { rows, total } = await listTransfers(app.ctx.db, req.user.id, { page: req.query.page, perPage: req.query.per_page, type: req.query.type, startDate: req.query.start_date, endDate: req.query.end_date });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default transfersRoutes;
