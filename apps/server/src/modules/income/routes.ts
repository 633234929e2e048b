import { ZIncomeHistoryQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok, paginated } from '../../lib/reply';
import * as income from './service';

const incomeRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/income/history', { schema: { tags: ['income'], querystring: ZIncomeHistoryQuery }, onRequest: app.authenticate }, async (req) => {
    const { rows, total } = await income.listIncome(app.ctx.db, req.user.id, req.query.income_type, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
  app.get('/income/reward-levels', { schema: { tags: ['income'] }, onRequest: app.authenticate }, async (req) => ok(await income.rewardLevelsFor(app.ctx.db, req.user.id)));
};
export default incomeRoutes;
