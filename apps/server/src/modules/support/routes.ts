import { support } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok } from '../../lib/reply';
import { route } from '../../lib/route';
import * as service from './service';

const supportRoutes: FastifyPluginAsync = async (app) => {
  route(app, support.list, async (req) => ok({ data: await service.listTickets(app.ctx.db, req.user.id) }));
  route(app, support.create, async (req) => ok(await service.createTicket(app.ctx.db, req.user.id, req.body), 'Support ticket created!'), {
    config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } },
  });
};
export default supportRoutes;
