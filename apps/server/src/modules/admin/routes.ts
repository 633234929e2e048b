import { microToNumber, ZPageQuery } from '@app/core';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ok, paginated } from '../../lib/reply';
import * as ledger from '../ledger/service';
import * as support from '../support/service';
import { runRoi } from '../income/roi';
import { getRewardLevels, getSettings, replaceRewardLevels, rewardLevelToJson, settingsToJson, updateSettings } from '../settings/service';
import { audit, listAudit } from './audit';
import { listPayments } from './payments-admin';
import { ZAdminRewardLevels, ZAdminSettings } from './settings-admin';
import { getStats } from './stats';
import { completeWithdrawal, listWithdrawalsForAdmin, rejectWithdrawal } from '../withdrawals/service';
import { getUserDetail } from './user-detail';
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

  app.get('/admin/stats', { schema: { tags: ['admin'] } }, async () => ok(await getStats(app.ctx.db)));

  app.get('/admin/users/:id', { schema: { tags: ['admin'], params: ZIdParam } }, async (req) => ok(await getUserDetail(app.ctx.db, req.params.id)));

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

  app.get('/admin/withdrawals', { schema: { tags: ['admin'], querystring: ZPageQuery.extend({ status: z.enum(['pending', 'completed', 'rejected']).optional() }) } }, async (req) => {
    const { rows, total } = await listWithdrawalsForAdmin(app.ctx.db, { status: req.query.status, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  app.post(
    '/admin/withdrawals/:id/complete',
    { schema: { tags: ['admin'], params: ZIdParam, body: z.object({ tx_hash: z.string({ error: 'Transaction hash is required' }).trim().min(1, 'Transaction hash is required').max(200, 'Transaction hash is too long') }) } },
    async (req) => {
      const r = await completeWithdrawal(app.ctx.db, req.params.id, { txHash: req.body.tx_hash, adminId: req.user.id });
      await audit(app.ctx.db, { adminId: req.user.id, action: 'withdrawal.complete', targetType: 'withdrawal', targetId: req.params.id, before: r.before, after: r.after });
      return ok(r.after, 'Withdrawal marked as paid');
    },
  );

  app.post(
    '/admin/withdrawals/:id/reject',
    { schema: { tags: ['admin'], params: ZIdParam, body: z.object({ reason: z.string({ error: 'Reason is required' }).trim().min(1, 'Reason is required').max(500, 'Reason is too long') }) } },
    async (req) => {
      const r = await rejectWithdrawal(app.ctx.db, req.params.id, { reason: req.body.reason, adminId: req.user.id });
      await audit(app.ctx.db, { adminId: req.user.id, action: 'withdrawal.reject', targetType: 'withdrawal', targetId: req.params.id, before: r.before, after: r.after });
      return ok(r.after, 'Withdrawal rejected and refunded');
    },
  );

  app.get('/admin/payments', { schema: { tags: ['admin'], querystring: ZPageQuery.extend({ status: z.string().max(20).optional(), review: z.enum(['true', 'false']).optional() }) } }, async (req) => {
    const { rows, total } = await listPayments(app.ctx.db, { status: req.query.status, review: req.query.review === 'true', page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  app.get('/admin/settings', { schema: { tags: ['admin'] } }, async () => ok(settingsToJson(await getSettings(app.ctx.db))));

  app.put('/admin/settings', { schema: { tags: ['admin'], body: ZAdminSettings } }, async (req) => {
    const after = await app.ctx.db.transaction().execute(async (tx) => {
      const before = await getSettings(tx);
      const patch = Object.fromEntries(Object.entries(req.body).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
      const next = await updateSettings(tx, patch);
      await audit(tx, { adminId: req.user.id, action: 'settings.update', targetType: 'settings', targetId: '1', before, after: next });
      return next;
    });
    app.resetMaintenanceCache();
    return ok(settingsToJson(after), 'Settings saved. They apply to new stakes and future accruals only.');
  });

  app.get('/admin/reward-levels', { schema: { tags: ['admin'] } }, async () => ok((await getRewardLevels(app.ctx.db)).map(rewardLevelToJson)));

  app.put('/admin/reward-levels', { schema: { tags: ['admin'], body: ZAdminRewardLevels } }, async (req) => {
    const after = await app.ctx.db.transaction().execute(async (tx) => {
      const before = (await getRewardLevels(tx)).map(rewardLevelToJson);
      const next = (await replaceRewardLevels(tx, req.body.levels)).map(rewardLevelToJson);
      await audit(tx, { adminId: req.user.id, action: 'reward_levels.update', targetType: 'reward_levels', before, after: next });
      return next;
    });
    return ok(after, 'Reward levels saved');
  });

  app.post('/admin/jobs/roi', { schema: { tags: ['admin'], body: z.object({ date: z.iso.date('Date must be YYYY-MM-DD') }) } }, async (req) => {
    const r = await runRoi(app.ctx, req.body.date);
    const result = { date: r.date, stakes: r.stakes, credits: r.credits, total: microToNumber(r.total), completed: r.completed };
    await audit(app.ctx.db, { adminId: req.user.id, action: 'jobs.roi', targetType: 'job', targetId: req.body.date, after: result });
    return ok(result, `ROI credited up to ${req.body.date}`);
  });

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
