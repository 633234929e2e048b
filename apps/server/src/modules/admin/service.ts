import { microToNumber, type TCustodyNetwork } from '@app/core';
import type { admin } from '@app/core/contracts';
import type { Parsed } from '@app/core/contracts/define';
import { utcDay } from '@app/core/days';
import type { AppContext } from '../../context';
import type { DB } from '../../db/types';
import { AppError, fieldError } from '../../lib/errors';
import * as custody from '../custody/service';
import * as payments from '../payments/service';
import { runRoi } from '../income/service';
import * as ledger from '../ledger/service';
import * as settings from '../settings/service';
import * as support from '../support/service';
import * as withdrawals from '../withdrawals/service';
import * as payouts from '../payouts/service';

import { audit } from './audit';

/**
 * The admin console's actions. Each runs the owning module's service and writes its audit row in
 * the same transaction (the row commits or rolls back with the action); the routes only parse,
 * call one of these and answer.
 */

/** Closes a ticket with the admin's remark. */
export async function closeTicket(db: DB, adminId: bigint, ticketId: bigint, remark: string) {
  return db.transaction().execute(async (tx) => {
    const r = await support.closeTicket(tx, ticketId, adminId, remark);
    await audit(tx, { adminId, action: 'ticket.close', targetType: 'ticket', targetId: ticketId, before: r.before, after: r.after });
    return r.after;
  });
}

/** Answers a ticket: the user sees it as answered and is mailed (issue 32, item 20). */
export async function replyTicket(db: DB, adminId: bigint, ticketId: bigint, message: string) {
  return db.transaction().execute(async (tx) => {
    const r = await support.replyAsAdmin(tx, ticketId, adminId, message);
    await audit(tx, { adminId, action: 'ticket.reply', targetType: 'ticket', targetId: ticketId, before: r.before, after: r.after });
    return r.after;
  });
}

/** Resumes a chain network halted by a reorg under its credited line (custody.md section 4). */
export async function resumeCustodyNetwork(ctx: AppContext, adminId: bigint, network: TCustodyNetwork) {
  const r = await custody.resumeNetwork(ctx, network);
  if (r.resumedFrom === null) throw new AppError('BAD_REQUEST', 'This network is not halted');
  await audit(ctx.db, { adminId, action: 'custody.resume', targetType: 'network', targetId: network, after: { resumed_from: r.resumedFrom } });
  return { resumed_from: Number(r.resumedFrom) };
}

/** Credits a chain transfer that was under the minimum (held for an admin). */
export async function creditCustodyTransfer(db: DB, adminId: bigint, observationId: bigint) {
  await db.transaction().execute(async (tx) => {
    const r = await payments.creditBelowMinimumObservation(tx, observationId, adminId);
    if (!r) throw new AppError('NOT_FOUND', 'No transfer waiting for an admin credit');
    await audit(tx, { adminId, action: 'custody.credit', targetType: 'chain_observation', targetId: observationId, before: r.before, after: r.after });
  });
}

/** An admin dismisses a transfer that waits for them (dust, held): audited, with a log line. */
export async function dismissCustodyTransfer(ctx: AppContext, adminId: bigint, observationId: bigint) {
  await ctx.db.transaction().execute(async (tx) => {
    const r = await payments.dismissObservation(tx, observationId);
    if (!r) throw new AppError('NOT_FOUND', 'No transfer waiting for an admin');
    await audit(tx, { adminId, action: 'custody.dismiss', targetType: 'chain_observation', targetId: observationId, before: r.before, after: r.after });
    ctx.log.info({ network: r.network, txHash: r.txHash, observationId: String(observationId), adminId: String(adminId) }, 'custody transfer dismissed');
  });
}

/**
 * Marks a withdrawal paid with the payout's hash, which must have the form of its chain and, where
 * the server watches the network, be a final transfer of exactly the receive amount to the
 * withdrawal's address (payouts/manual-evidence.ts).
 */
export async function completeWithdrawal(ctx: AppContext, adminId: bigint, id: bigint, txHash: string) {
  await withdrawals.checkPayoutHash(ctx.db, id, txHash);
  await payouts.checkManualPayout(ctx, id, txHash);
  const r = await withdrawals.completeWithdrawal(ctx.db, id, {
    txHash,
    adminId,
    onDone: (tx, c) => audit(tx, { adminId, action: 'withdrawal.complete', targetType: 'withdrawal', targetId: id, before: c.before, after: c.after }),
  });
  return r.after;
}

/** Hands a pending withdrawal to the signer (PAYOUTS=signer). */
export async function approveWithdrawal(ctx: AppContext, adminId: bigint, id: bigint) {
  const r = await payouts.approveWithdrawal(ctx, id, {
    adminId,
    onDone: (tx, c) => audit(tx, { adminId, action: 'withdrawal.approve', targetType: 'withdrawal', targetId: id, before: c.before, after: c.after }),
  });
  return r.after;
}

/** Rejects a pending or approved withdrawal with a reason; the full amount returns to the user. */
export async function rejectWithdrawal(db: DB, adminId: bigint, id: bigint, reason: string) {
  const r = await withdrawals.rejectWithdrawal(db, id, {
    reason,
    adminId,
    onDone: (tx, c) => audit(tx, { adminId, action: 'withdrawal.reject', targetType: 'withdrawal', targetId: id, before: c.before, after: c.after }),
  });
  return r.after;
}

/** Saves the settings given (percentages kept as exact decimal text) and answers them as JSON. */
export async function saveSettings(db: DB, adminId: bigint, body: Parsed<typeof admin.saveSettings>['Body']) {
  const after = await db.transaction().execute(async (tx) => {
    const before = await settings.getSettings(tx);
    const patch = Object.fromEntries(Object.entries(body).map(([k, v]) => [k, typeof v === 'number' ? String(v) : v]));
    const next = await settings.updateSettings(tx, patch);
    await audit(tx, { adminId, action: 'settings.update', targetType: 'settings', targetId: '1', before, after: next });
    return next;
  });
  return settings.settingsToJson(after);
}

/** Replaces the reward levels. */
export async function saveRewardLevels(db: DB, adminId: bigint, levels: Parsed<typeof admin.saveRewardLevels>['Body']['levels']) {
  return db.transaction().execute(async (tx) => {
    const before = (await settings.getRewardLevels(tx)).map(settings.rewardLevelToJson);
    const next = (await settings.replaceRewardLevels(tx, levels)).map(settings.rewardLevelToJson);
    await audit(tx, { adminId, action: 'reward_levels.update', targetType: 'reward_levels', before, after: next });
    return next;
  });
}

/**
 * Credits ROI up to `date`. A future date credits every day up to it at once, as withdrawable
 * income. The sandbox keeps it (it is how tests and demos move time forward); with a real gateway
 * that is real money paid ahead of its day, so the console stops at today and only the CLI can go
 * further.
 */
export async function runRoiUpTo(ctx: AppContext, adminId: bigint, date: string) {
  if (ctx.config.payments.gateway !== 'sandbox' && date > utcDay())
    throw fieldError('date', 'ROI can only be run up to today (UTC) with a real payment gateway');
  const r = await runRoi(ctx, date);
  const result = { date: r.date, stakes: r.stakes, credits: r.credits, total: microToNumber(r.total), completed: r.completed };
  await audit(ctx.db, { adminId, action: 'jobs.roi', targetType: 'job', targetId: date, after: result });
  return result;
}

/** Proves the ledger balances; the check itself is audited. */
export async function verifyLedger(db: DB, adminId: bigint) {
  const report = await ledger.verify(db);
  await audit(db, { adminId, action: 'ledger.verify', after: { ok: report.ok, entries: report.entries } });
  return report;
}
