import { toMicro, ZCreateStakeRequest, ZPageQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../lib/errors';
import { ok, paginated } from '../../lib/reply';
import * as staking from './service';

const stakingRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/stake/create', { schema: { tags: ['staking'], body: ZCreateStakeRequest }, onRequest: app.authenticate }, async (req) => {
    try {
      await staking.createStake(app.ctx.db, req.user.id, toMicro(req.body.amount_usd)!);
    } catch (err) {
      // The browser attaches a message that names amount_usd to the field.
      if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE') throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', { amount_usd: 'Insufficient balance' });
      throw err;
    }
    return ok(undefined, 'Staking successful');
  });

  app.get('/stake/history', { schema: { tags: ['staking'], querystring: ZPageQuery }, onRequest: app.authenticate }, async (req) => {
    const { rows, total } = await staking.listStakes(app.ctx.db, req.user.id, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default stakingRoutes;
