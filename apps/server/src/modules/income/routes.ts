import { income } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok, paginated } from '../../lib/reply';
import { rangeOf } from '../../lib/date-range';
import { route } from '../../lib/route';
import { incomeChart } from './chart';
import * as service from './service';

const incomeRoutes: FastifyPluginAsync = async (app) => {
  route(app, income.history, async (req) => {
    const { rows, total } = await service.listIncome(app.ctx.db, req.user.id, req.query.income_type, req.query.page, req.query.per_page, rangeOf(req.query));
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
  route(app, income.chart, async (req) => ok(await incomeChart(app.ctx.db, req.user.id, req.query.days)));
  route(app, income.rewardLevels, async (req) => ok(await service.rewardLevelsFor(app.ctx.db, req.user.id)));
};
export default incomeRoutes;
