import { transfers } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok, paginated } from '../../lib/reply';
import { route } from '../../lib/route';
import { perAccountLimit } from '../../plugins/rate-limit';
import { createTransfer, listTransfers } from './service';

const transfersRoutes: FastifyPluginAsync = async (app) => {
  // app_transfer_as checks the session in the transfer's own statement: authentication may use the session cache.
  route(
    app,
    transfers.create,
    async (req) => {
      const r = await createTransfer(app.ctx.db, req.user.id, req.body, req.tokenHash);
      return ok({ id: String(r.id) }, `Transfer of ${req.body.amount_usd} USDT to ${r.receiver} successful`);
    },
    { config: { sessionRechecked: true, ...perAccountLimit(app) } },
  );

  route(app, transfers.list, async (req) => {
    const { rows, total } = await listTransfers(app.ctx.db, req.user.id, {
      page: req.query.page,
      perPage: req.query.per_page,
      type: req.query.type,
      startDate: req.query.start_date,
      endDate: req.query.end_date,
    });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default transfersRoutes;
