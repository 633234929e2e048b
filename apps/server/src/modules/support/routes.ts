import { support } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok, paginated } from '../../lib/reply';
import { route } from '../../lib/route';
import * as service from './service';

const supportRoutes: FastifyPluginAsync = async (app) => {
  route(app, support.list, async (req) => {
    const { rows, total } = await service.listTickets(app.ctx.db, req.user.id, { page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
  route(app, support.create, async (req) => ok(await service.createTicket(app.ctx.db, req.user.id, req.body), 'Support ticket created!'), {
    config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } },
  });
  route(app, support.reply, async (req) => ok(await service.replyAsUser(app.ctx.db, req.user.id, req.params.id, req.body.message), 'Reply sent'), {
    config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } },
  });
};
export default supportRoutes;
