import { admin, csvExports } from '@app/core/contracts';
import type { FastifyPluginAsync } from 'fastify';
import { ok, paginated } from '../../lib/reply';
import { route } from '../../lib/route';
import * as support from '../support/service';
import { getRewardLevels, getSettings, rewardLevelToJson, settingsToJson } from '../settings/service';
import { listAudit } from './audit';
import { exportAdminList } from './export-csv';
import { listPayments } from './payments-admin';
import {
  closeTicket,
  approveWithdrawal,
  completeWithdrawal,
  creditCustodyTransfer,
  dismissCustodyTransfer,
  rejectWithdrawal,
  replyTicket,
  resumeCustodyNetwork,
  runRoiUpTo,
  saveRewardLevels,
  saveSettings,
  verifyLedger,
} from './service';
import { getStats } from './stats';
import { listWithdrawalsForAdmin } from '../withdrawals/service';
import { custodyView } from '../custody/service';
import { CUSTODY_NETWORK_OF, payoutView, signerPays, type WithdrawalNetwork } from '../payouts/service';
import { getUserDetail } from './user-detail';
import { searchUsers, setBlocked } from './users';

/** /api/admin/*: every route needs an admin token (401 without a token, 403 for a user token). */
const adminRoutes: FastifyPluginAsync = async (app) => {
  // Whether the console offers "Approve": the signer pays this withdrawal's network (payouts/policy.ts).
  const withApproval = <W extends { network: string; status: string }>(w: W) => ({
    ...w,
    can_approve: w.status === 'pending' && w.network in CUSTODY_NETWORK_OF && signerPays(app.ctx.config, w.network as WithdrawalNetwork),
  });
  route(app, admin.users, async (req) => {
    const { rows, total } = await searchUsers(app.ctx.db, { q: req.query.q, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  route(app, admin.stats, async () => ok(await getStats(app.ctx.db)));

  // The chain gateway (custody.md section 4): the operator's view, resuming a halted network, crediting what waits.
  route(app, admin.custody, async (req) => ok(await custodyView(app.ctx, { page: req.query.page, perPage: req.query.per_page })));
  route(app, admin.custodyResume, async (req) => ok(await resumeCustodyNetwork(app.ctx, req.user.id, req.params.network), 'Network resumed'));
  route(app, admin.custodyCredit, async (req) => {
    await creditCustodyTransfer(app.ctx.db, req.user.id, BigInt(req.params.id));
    return ok(undefined, 'Deposit credited');
  });
  route(app, admin.custodyDismiss, async (req) => {
    await dismissCustodyTransfer(app.ctx, req.user.id, BigInt(req.params.id));
    return ok(undefined, 'Transfer dismissed');
  });
  // Any admin list as CSV, whole, with its filters (issue 32, item 18).
  route(app, csvExports.admin, async (req, reply) => exportAdminList(app.ctx.db, reply, req.query), {
    config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
  });

  route(app, admin.user, async (req) => ok(await getUserDetail(app.ctx.db, req.params.id)));

  route(app, admin.block, async (req) => ok(await setBlocked(app.ctx.db, req.user.id, req.params.id, true), 'User blocked'));
  route(app, admin.unblock, async (req) => ok(await setBlocked(app.ctx.db, req.user.id, req.params.id, false), 'User unblocked'));

  route(app, admin.tickets, async (req) => {
    const { rows, total } = await support.listAllTickets(app.ctx.db, { status: req.query.status, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });

  route(app, admin.replyTicket, async (req) => ok(await replyTicket(app.ctx.db, req.user.id, req.params.id, req.body.message), 'Reply sent'));

  route(app, admin.closeTicket, async (req) => ok(await closeTicket(app.ctx.db, req.user.id, req.params.id, req.body.adminRemark), 'Ticket closed'));

  route(app, admin.withdrawals, async (req) => {
    const { rows, total } = await listWithdrawalsForAdmin(app.ctx.db, { status: req.query.status, page: req.query.page, perPage: req.query.per_page });
    return ok(paginated(rows.map(withApproval), total, req.query.page, req.query.per_page));
  });

  route(app, admin.completeWithdrawal, async (req) =>
    ok(withApproval(await completeWithdrawal(app.ctx, req.user.id, req.params.id, req.body.tx_hash)), 'Withdrawal marked as paid'),
  );

  route(app, admin.payouts, async () => ok(await payoutView(app.ctx)));

  route(app, admin.approveWithdrawal, async (req) =>
    ok(withApproval(await approveWithdrawal(app.ctx, req.user.id, req.params.id)), 'Withdrawal approved: the signer will pay it'),
  );

  route(app, admin.rejectWithdrawal, async (req) =>
    ok(withApproval(await rejectWithdrawal(app.ctx.db, req.user.id, req.params.id, req.body.reason)), 'Withdrawal rejected and refunded'),
  );

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
    const after = await saveSettings(app.ctx.db, req.user.id, req.body);
    app.resetMaintenanceCache();
    return ok(after, 'Settings saved. They apply to new stakes and future accruals only.');
  });

  route(app, admin.rewardLevels, async () => ok((await getRewardLevels(app.ctx.db)).map(rewardLevelToJson)));

  route(app, admin.saveRewardLevels, async (req) => ok(await saveRewardLevels(app.ctx.db, req.user.id, req.body.levels), 'Reward levels saved'));

  route(app, admin.runRoi, async (req) => ok(await runRoiUpTo(app.ctx, req.user.id, req.body.date), `ROI credited up to ${req.body.date}`));

  route(app, admin.verifyLedger, async (req) => {
    const report = await verifyLedger(app.ctx.db, req.user.id);
    return ok(report, report.ok ? 'The ledger balances' : 'The ledger has breaks');
  });

  route(app, admin.auditLog, async (req) => {
    const { rows, total } = await listAudit(app.ctx.db, req.query.page, req.query.per_page);
    return ok(paginated(rows, total, req.query.page, req.query.per_page));
  });
};
export default adminRoutes;
