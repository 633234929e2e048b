import { withdrawals } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import { perAccountLimit } from '../../plugins/rate-limit';
import { devicesOf, requireSecondFactor } from '../auth/service';
import { createWithdrawal } from './service';

const withdrawalsRoutes: FastifyPluginAsync = async (app) => {
  route(
    app,
    withdrawals.create,
    async (req) => {
      await requireSecondFactor(app.ctx, req.user.id, req.body.totp_code, devicesOf(app.ctx.secret, req));
      const r = await createWithdrawal(app.ctx.db, req.user.id, req.body);
      return ok({ id: String(r.id) }, 'Withdrawal request created successfully!');
    },
    { config: perAccountLimit(app) },
  );
};
export default withdrawalsRoutes;
