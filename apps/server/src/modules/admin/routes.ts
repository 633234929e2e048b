import { ZPageQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, paginated } from '../../lib/reply';
import * as ledger from '../ledger/service';
import * as support from '../support/service';
import { audit, listAudit } from './audit';
import { searchUsers, setBlocked } from './users';

const ZIdParam = z.object({ id: z.string().regex(/^\d{1,18}$/, 'Invalid id').transform((v) => BigInt(v)) });

/** /api/admin/*: every route needs an admin token (401 without a token, 403 for a user token). */
const adminRoutes: FastifyPluginAsyncZod = async (app) => {
  // onRequest, before body validation, so a caller without admin rights learns nothing about the payload rules.
  app.addHook('onRequest', app.requireAdmin);

  app.get('/admin/users', { schema: { tags: ['admin'], querystring: ZPageQuery.extend({ q: z.string().trim().max(100).optional() }) } }, async (req) => {
    const { rows, total } = await searchUsers(app.ctx.db, { q: req.query.q, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  app.post('/admin/users/:id/block', { schema: { tags: ['admin'], params: ZIdParam } }, async (req) => ok(await setBlocked(app.ctx.db, req.user.id, req.params.id, true), 'User blocked'));
  app.post('/admin/users/:id/unblock', { schema: { tags: ['admin'], params: ZIdParam } }, async (req) => ok(await setBlocked(app.ctx.db, req.user.id, req.params.id, false), 'User unblocked'));

  app.get('/admin/tickets', { schema: { tags: ['admin'], querystring: ZPageQuery.extend({ status: z.enum(['open', 'closed']).optional() }) } }, async (req) => {
    const { rows, total } = await support.listAllTickets(app.ctx.db, { status: req.query.status, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  app.post(
    '/admin/tickets/:id/close',
    { schema: { tags: ['admin'], params: ZIdParam, body: z.object({ adminRemark: z.string({ error: 'Remark is required' }).trim().min(1, 'Remark is required').max(2000, 'Remark cannot exceed 2000 characters') }) } },
    async (req) => {
      const result = await app.ctx.db.transaction().execute(async (tx) => {
        const r = await support.closeTicket(tx, req.params.id, req.user.id, req.body.adminRemark);
        await audit(tx, { adminId: req.user.id, action: 'ticket.close', targetType: 'ticket', targetId: req.params.id, before: r.before, after: r.after });
        return r.after;
      });
      return ok(result, 'Ticket closed');
    },
  );

  app.get('/admin/ledger/verify', { schema: { tags: ['admin'] } }, async (req) => {
    const report = await ledger.verify(app.ctx.db);
    await audit(app.ctx.db, { adminId: req.user.id, action: 'ledger.verify', after: { ok: report.ok, entries: report.entries } });
    return ok(report, report.ok ? 'The ledger balances' : 'The ledger has breaks');
  });

  app.get('/admin/audit-log', { schema: { tags: ['admin'], querystring: ZPageQuery } }, async (req) => {
    const { rows, total } = await listAudit(app.ctx.db, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default adminRoutes;
