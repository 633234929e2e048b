import { microToNumber } from '@app/core';
import { INVALID_TX_HASH_MESSAGE, TX_HASH_PATTERN } from '@app/core/schemas/admin';
import { admin } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { fieldError } from '../../lib/errors';
import { ok, paginated } from '../../lib/reply';
import { route } from '../../lib/route';
import * as ledger from '../ledger/service';
import * as support from '../support/service';
import { runRoi } from '../income/service';
import { utcDay } from '@app/core/days';
import { getRewardLevels, getSettings, replaceRewardLevels, rewardLevelToJson, settingsToJson, updateSettings } from '../settings/service';
import { audit, listAudit } from './audit';
import { listPayments } from './payments-admin';
import { getStats } from './stats';
import { completeWithdrawal, listWithdrawalsForAdmin, rejectWithdrawal } from '../withdrawals/service';
import { getUserDetail } from './user-detail';
import { searchUsers, setBlocked } from './users';

/** /api/admin/*: every route needs an admin token (401 without a token, 403 for a user token). */
const adminRoutes: FastifyPluginAsync = async (app) => {
  route(app, admin.users, async (req) => {
    const { rows, total } = await searchUsers(app.ctx.db, { q: req.query.q, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  route(app, admin.stats, async () => ok(await getStats(app.ctx.db)));

  route(app, admin.user, async (req) => ok(await getUserDetail(app.ctx.db, req.params.id)));

  route(app, admin.block, async (req) => ok(await setBlocked(app.ctx.db, req.user.id, req.params.id, true), 'User blocked'));
  route(app, admin.unblock, async (req) => ok(await setBlocked(app.ctx.db, req.user.id, req.params.id, false), 'User unblocked'));

  route(app, admin.tickets, async (req) => {
    const { rows, total } = await support.listAllTickets(app.ctx.db, { status: req.query.status, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  route(app, admin.closeTicket, async (req) => {
    const result = await app.ctx.db.transaction().execute(async (tx) => {
      const r = await support.closeTicket(tx, req.params.id, req.user.id, req.body.adminRemark);
      await audit(tx, { adminId: req.user.id, action: 'ticket.close', targetType: 'ticket', targetId: req.params.id, before: r.before, after: r.after });
      return r.after;
    });
    return ok(result, 'Ticket closed');
  });

  route(app, admin.withdrawals, async (req) => {
    const { rows, total } = await listWithdrawalsForAdmin(app.ctx.db, { status: req.query.status, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  route(app, admin.completeWithdrawal, async (req) => {
    // The hash's form follows the withdrawal's chain: 0x-prefixed on BSC and Polygon, bare on Tron.
    const w = await app.ctx.db.selectFrom('withdrawals').select('network').where('id', '=', req.params.id).executeTakeFirst();
    if (w && !TX_HASH_PATTERN[w.network === 'TRON' ? 'tron' : 'evm'].test(req.body.tx_hash)) {
      throw fieldError(
        'tx_hash',
        `${INVALID_TX_HASH_MESSAGE} for ${w.network === 'TRON' ? 'Tron (64 hex digits, no 0x)' : `${w.network === 'BSC' ? 'BSC' : 'Polygon'} (0x and 64 hex digits)`}`,
      );
    }
    const r = await completeWithdrawal(app.ctx.db, req.params.id, {
      txHash: req.body.tx_hash,
      adminId: req.user.id,
      onDone: (tx, c) =>
        audit(tx, { adminId: req.user.id, action: 'withdrawal.complete', targetType: 'withdrawal', targetId: req.params.id, before: c.before, after: c.after }),
    });
    return ok(r.after, 'Withdrawal marked as paid');
  });

  route(app, admin.rejectWithdrawal, async (req) => {
    const r = await rejectWithdrawal(app.ctx.db, req.params.id, {
      reason: req.body.reason,
      adminId: req.user.id,
      onDone: (tx, c) =>
        audit(tx, { adminId: req.user.id, action: 'withdrawal.reject', targetType: 'withdrawal', targetId: req.params.id, before: c.before, after: c.after }),
    });
    return ok(r.after, 'Withdrawal rejected and refunded');
  });

  route(app, admin.payments, async (req) => {
    const { rows, total } = await listPayments(app.ctx.db, {
      status: req.query.status,
      review: req.query.review === 'true',
      page: req.query.page,
      perPage: req.query.per_page,
    });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  route(app, admin.settings, async () => ok(settingsToJson(await getSettings(app.ctx.db))));

  route(app, admin.saveSettings, async (req) => {
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

  route(app, admin.rewardLevels, async () => ok((await getRewardLevels(app.ctx.db)).map(rewardLevelToJson)));

  route(app, admin.saveRewardLevels, async (req) => {
    const after = await app.ctx.db.transaction().execute(async (tx) => {
      const before = (await getRewardLevels(tx)).map(rewardLevelToJson);
      const next = (await replaceRewardLevels(tx, req.body.levels)).map(rewardLevelToJson);
      await audit(tx, { adminId: req.user.id, action: 'reward_levels.update', targetType: 'reward_levels', before, after: next });
      return next;
    });
    return ok(after, 'Reward levels saved');
  });

  route(app, admin.runRoi, async (req) => {
    // A future date credits every day up to it at once, as withdrawable income. The sandbox keeps it
    // (it is how tests and demos move time forward); with a real gateway that is real money paid
    // ahead of its day, so the console stops at today and only the CLI can go further.
    if (app.ctx.config.payments.gateway !== 'sandbox' && req.body.date > utcDay())
      throw fieldError('date', 'ROI can only be run up to today (UTC) with a real payment gateway');
    const r = await runRoi(app.ctx, req.body.date);
    const result = { date: r.date, stakes: r.stakes, credits: r.credits, total: microToNumber(r.total), completed: r.completed };
    await audit(app.ctx.db, { adminId: req.user.id, action: 'jobs.roi', targetType: 'job', targetId: req.body.date, after: result });
    return ok(result, `ROI credited up to ${req.body.date}`);
  });

  route(app, admin.verifyLedger, async (req) => {
    const report = await ledger.verify(app.ctx.db);
    await audit(app.ctx.db, { adminId: req.user.id, action: 'ledger.verify', after: { ok: report.ok, entries: report.entries } });
    return ok(report, report.ok ? 'The ledger balances' : 'The ledger has breaks');
  });

  route(app, admin.auditLog, async (req) => {
    const { rows, total } = await listAudit(app.ctx.db, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default adminRoutes;
