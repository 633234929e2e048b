import { ZCreateTicketRequest } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ok } from '../../lib/reply';
import * as support from './service';

const supportRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/support', { preHandler: app.authenticate, schema: { tags: ['support'] } }, async (req) => ok({ data: await support.listTickets(app.ctx.db, req.user.id) }));

  app.post(
    '/support',
    {
      preHandler: app.authenticate,
      schema: { tags: ['support'], body: ZCreateTicketRequest },
      config: { rateLimit: { max: app.ctx.config.rateLimitAuthPerMin, timeWindow: '1 minute' } },
    },
    async (req) => ok(await support.createTicket(app.ctx.db, req.user.id, req.body), 'Support ticket created!'),
  );
};
export default supportRoutes;
