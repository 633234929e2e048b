import { microToNumber, percentOf, toMicro, type TCreateWithdrawalRequest, type WithdrawalStatus } from '@app/core';
import type { DB, Executor, Tx } from '../../db/types';
import { withTx } from '../../db/tx';
import { paginate } from '../../lib/paginate';
import { AppError } from '../../lib/errors';
import * as ledger from '../ledger/service';
import { getSettings } from '../settings/service';
import { queueMail, usdtText } from '../mail/service';
import './table';

export { checkPayoutHash } from './payout-hash';

/**
 * A withdrawal request (server design, section 4): the full amount leaves `income` now into
 * withdrawals payable; the fee (withdrawal_fee_percentage, rounded down) and the receive amount
 * are fixed on the record, which stays pending until an admin completes or rejects it.
 */
export async function createWithdrawal(db: DB, userId: bigint, input: TCreateWithdrawalRequest): Promise<{ id: bigint }> {
  const amount = toMicro(input.amount_usd)!;
  return withTx(db, async (tx) => {
    // Checked inside the transaction, under a share lock on the user's row: a block that lands
    // while this request is in flight either waits for it or is seen here (server design, section 9).
    const user = await tx.selectFrom('users').select('status').where('id', '=', userId).forShare().executeTakeFirst();
    if (!user || user.status === 'blocked') throw new AppError('FORBIDDEN', 'Your account has been blocked');
    const settings = await getSettings(tx);
    const fee = percentOf(amount, settings.withdrawal_fee_percentage);
    const row = await tx
      .insertInto('withdrawals')
      .values({ user_id: userId, amount, fee, receive_amount: amount - fee, network: input.network, wallet_address: input.wallet_address, token: input.token })
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      await ledger.post(tx, {
        key: `withdrawal:${row.id}`,
        kind: 'withdrawal',
        userId,
        memo: `Withdrawal #${row.id} to ${input.network} ${input.wallet_address}`,
        postings: [
          { account: ledger.userAccount(userId, 'income'), amount: -amount },
          { account: ledger.systemAccount(ledger.SYSTEM.withdrawalsPayable), amount },
        ],
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'INSUFFICIENT_BALANCE')
        throw new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance', { amount_usd: 'Insufficient balance' });
      throw err;
    }
    await queueMail(tx, userId, 'withdrawal_requested', {
      amount: usdtText(amount),
      fee: usdtText(fee),
      receive: usdtText(amount - fee),
      network: input.network,
      address: input.wallet_address,
    });
    return { id: row.id };
  });
}

/**
 * Locks the row and checks it is in one of the states the action starts from: a second or
 * concurrent action then fails (the first one moved it on).
 */
async function lockIn(tx: Tx, id: bigint, from: readonly WithdrawalStatus[]) {
  const w = await tx.selectFrom('withdrawals').selectAll().where('id', '=', id).forUpdate().executeTakeFirst();
  if (!w) throw new AppError('NOT_FOUND', 'Withdrawal not found');
  if (!from.includes(w.status)) throw new AppError('CONFLICT', 'Withdrawal already processed');
  return w;
}

/** Runs in the action's transaction: the admin's audit row commits or rolls back with the action. */
export type OnProcessed = (tx: Tx, change: { before: ReturnType<typeof toJson>; after: ReturnType<typeof toJson> }) => Promise<void>;

type Locked = Awaited<ReturnType<typeof lockIn>>;

/**
 * What every action on a withdrawal shares: the row locked in a state the action starts from, the
 * action's own ledger entry and row update, and the change handed to `onDone` inside the same
 * transaction.
 */
export async function processWithdrawal(
  db: DB,
  id: bigint,
  from: readonly WithdrawalStatus[],
  onDone: OnProcessed | undefined,
  apply: (tx: Tx, w: Locked) => Promise<Row>,
) {
  return withTx(db, async (tx) => {
    const w = await lockIn(tx, id, from);
    const after = await apply(tx, w);
    const change = { before: toJson(w), after: toJson(after) };
    await onDone?.(tx, change);
    return change;
  });
}

/** Writes the admin's decision on the locked row (processed now, by the admin if one acted) and returns the row. */
function recordDecision(
  tx: Tx,
  id: bigint,
  adminId: bigint | undefined,
  decision: { status: 'completed'; tx_hash: string } | { status: 'rejected'; reject_reason: string },
) {
  return tx
    .updateTable('withdrawals')
    .set({ ...decision, processed_by: adminId ?? null, processed_at: new Date() })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Marks a withdrawal paid with the payout's tx hash: payable → fees (the fee) and payouts (what the
 * user receives). An admin completes a pending one (a manual payout); the server's payout watcher
 * completes a sent one, on chain evidence only.
 */
export async function completeWithdrawal(db: DB, id: bigint, opts: { txHash: string; adminId?: bigint; onDone?: OnProcessed; from?: 'pending' | 'sent' }) {
  return processWithdrawal(db, id, [opts.from ?? 'pending'], opts.onDone, async (tx, w) => {
    const amount = BigInt(w.amount);
    const fee = BigInt(w.fee);
    await ledger.post(tx, {
      key: `withdrawal-complete:${id}`,
      kind: 'withdrawal_complete',
      userId: w.user_id,
      memo: `Withdrawal #${id} paid, tx ${opts.txHash}`,
      postings: [
        { account: ledger.systemAccount(ledger.SYSTEM.withdrawalsPayable), amount: -amount },
        { account: ledger.systemAccount(ledger.SYSTEM.withdrawalFees), amount: fee },
        { account: ledger.systemAccount(ledger.SYSTEM.payouts), amount: amount - fee },
      ],
    });
    await ledger.bumpTotals(tx, w.user_id, { total_withdrawn: amount });
    const after = await recordDecision(tx, id, opts.adminId, { status: 'completed', tx_hash: opts.txHash });
    await queueMail(tx, w.user_id, 'withdrawal_completed', {
      amount: usdtText(amount),
      receive: usdtText(amount - fee),
      network: w.network,
      tx_hash: opts.txHash,
    });
    return after;
  });
}

/**
 * Refuses a withdrawal with a reason; the full amount returns to the user's income. A pending one,
 * or an approved one the signer has not sent (a sent one may still be mined: only chain evidence
 * decides it).
 */
export async function rejectWithdrawal(db: DB, id: bigint, opts: { reason: string; adminId?: bigint; onDone?: OnProcessed }) {
  return processWithdrawal(db, id, ['pending', 'approved'], opts.onDone, async (tx, w) => {
    const amount = BigInt(w.amount);
    await ledger.post(tx, {
      key: `withdrawal-refund:${id}`,
      kind: 'withdrawal_refund',
      userId: w.user_id,
      memo: `Withdrawal #${id} rejected: ${opts.reason}`,
      postings: [
        { account: ledger.systemAccount(ledger.SYSTEM.withdrawalsPayable), amount: -amount },
        { account: ledger.userAccount(w.user_id, 'income'), amount },
      ],
    });
    const after = await recordDecision(tx, id, opts.adminId, { status: 'rejected', reject_reason: opts.reason });
    await queueMail(tx, w.user_id, 'withdrawal_rejected', { amount: usdtText(amount), reason: opts.reason });
    return after;
  });
}

type Row = {
  id: bigint;
  user_id: bigint;
  amount: bigint;
  fee: bigint;
  receive_amount: bigint;
  network: string;
  wallet_address: string;
  status: WithdrawalStatus;
  tx_hash: string | null;
  reject_reason: string | null;
  payout_nonce: bigint | null;
  payout_note: string | null;
  created_at: Date;
  processed_at: Date | null;
};

/** The admin's view of a withdrawal; `canApprove` says the signer could pay it (payouts/policy.ts). */
export function toJson(w: Row, canApprove = false) {
  return {
    id: String(w.id),
    user_id: String(w.user_id),
    amount: microToNumber(BigInt(w.amount)),
    fee: microToNumber(BigInt(w.fee)),
    receive_amount: microToNumber(BigInt(w.receive_amount)),
    network: w.network,
    wallet_address: w.wallet_address,
    status: w.status,
    tx_hash: w.tx_hash,
    reject_reason: w.reject_reason,
    payout_nonce: w.payout_nonce === null ? null : String(w.payout_nonce),
    payout_note: w.payout_note,
    can_approve: canApprove && w.status === 'pending',
    createdAt: w.created_at.toISOString(),
    processedAt: w.processed_at ? w.processed_at.toISOString() : null,
  };
}

/** The admin queue, newest first, optionally by status. */
export async function listWithdrawalsForAdmin(db: Executor, opts: { status?: string | undefined; page: number; perPage: number }) {
  let q = db.selectFrom('withdrawals as w').innerJoin('users as u', 'u.id', 'w.user_id');
  if (opts.status) q = q.where('w.status', '=', opts.status as 'pending');
  const { rows, total } = await paginate(q, opts.page, opts.perPage, (p) => p.selectAll('w').select(['u.username', 'u.email']).orderBy('w.id', 'desc'));
  return { total, rows: rows.map((r) => ({ ...toJson(r), user: { id: String(r.user_id), username: r.username, email: r.email } })) };
}
