import { toMicro } from '@app/core';
import { staking } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { AppError } from '../../lib/errors';
import { ok, paginated } from '../../lib/reply';
import { rangeOf } from '../../lib/date-range';
import { route } from '../../lib/route';
import { perAccountLimit } from '../../plugins/rate-limit';
import * as service from './service';

const stakingRoutes: FastifyPluginAsync = async (app) => {
  route(
    app,
    staking.create,
    async (req) => {
      try {
        await service.createStake(app.ctx.db, req.user.id, toMicro(req.body.amount_usd)!);
      } catch (err) {
        // The browser attaches a message that names amount_usd to the field.
        if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE')
          throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', { amount_usd: 'Insufficient balance' });
        throw err;
      }
      return ok(undefined, 'Staking successful');
    },
    { config: perAccountLimit(app) },
  );

  route(app, staking.history, async (req) => {
    const { rows, total } = await service.listStakes(app.ctx.db, req.user.id, req.query.page, req.query.per_page, new Date(), rangeOf(req.query));
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default stakingRoutes;
