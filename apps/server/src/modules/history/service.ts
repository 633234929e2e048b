import { explorerTxUrl, microToNumber, type TDateRange } from '@app/core';
import type { THistoryRecord } from '@app/core/contracts';
import type { WithdrawalStatus } from '@app/core/statuses';
import { sql } from 'kysely';
import type { Executor } from '../../db/types';
import { createdWithin } from '../../lib/date-range';
import { paginate } from '../../lib/paginate';
import * as ledger from '../ledger/service';
import { listDepositHistory } from '../payments/service';
import { listTransfers } from '../transfers/service';
import '../withdrawals/table';

/** What the user reads for each state of a withdrawal (with PAYOUTS=signer it is approved, then sent, before it is paid). */
const WITHDRAWAL_DESCRIPTION: Record<WithdrawalStatus, (reason: string | null) => string> = {
  pending: () => 'Waiting for review',
  approved: () => 'Approved: the payout is being sent',
  sent: () => 'Sent on chain: waiting for the transaction to be final',
  completed: () => 'Paid to your wallet',
  rejected: (reason) => `Rejected: ${reason ?? ''}`.trim(),
};

export interface HistoryPage {
  data: THistoryRecord[];
  total: number;
  total_deposits: number;
  total_withdrawals: number;
}

/**
 * GET /api/user/get-history. total_deposits = everything credited from deposits;
 * total_withdrawals = every withdrawal not rejected (pending and completed: the money has left
 * the user's balance). Money leaving the user is a negative amount. The totals are all-time; the
 * list is within the date range if one is given (UTC days, both included).
 */
export async function getHistory(
  db: Executor,
  userId: bigint,
  type: 'transaction' | 'withdrawal' | 'transfer',
  page: number,
  perPage: number,
  range?: TDateRange,
): Promise<HistoryPage> {
  const [totals, out] = await Promise.all([
    ledger.getTotals(db, userId),
    sql<{ total: bigint | null }>`select sum(amount)::bigint as total from withdrawals where user_id = ${userId} and status <> 'rejected'`.execute(db),
  ]);
  const base = { total_deposits: microToNumber(totals.total_deposited), total_withdrawals: microToNumber(BigInt(out.rows[0]?.total ?? 0n)) };
  if (type === 'transaction') {
    const r = await listDepositHistory(db, userId, page, perPage, range);
    return { ...base, data: r.data, total: r.total };
  }
  if (type === 'withdrawal') {
    const mine = createdWithin(db.selectFrom('withdrawals').where('user_id', '=', userId), range);
    const { rows, total } = await paginate(mine, page, perPage, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'));
    return {
      ...base,
      total,
      data: rows.map((w) => {
        const amount = microToNumber(-BigInt(w.amount));
        return {
          id: String(w.id),
          createdAt: w.created_at.toISOString(),
          amount,
          amount_usd: amount,
          status: w.status,
          extra: JSON.stringify({
            expected_amount: microToNumber(BigInt(w.receive_amount)),
            amount_received: w.status === 'completed' ? microToNumber(BigInt(w.receive_amount)) : null,
            fee: microToNumber(BigInt(w.fee)),
            network: w.network,
            status: w.status,
            status_description: WITHDRAWAL_DESCRIPTION[w.status](w.reject_reason),
            wallet_address: w.wallet_address,
            last_transaction_hash: w.tx_hash,
            // A payout the signer sent (approved first) is on the chain the server watches, whose
            // explorer deposits link to too; a pasted hash keeps the app's default explorer.
            explorer_url: w.tx_hash && w.approved_at ? explorerTxUrl(w.network.toLowerCase(), w.tx_hash) : null,
            created_at: w.created_at.toISOString(),
            expires_at: null,
          }),
        };
      }),
    };
  }
  const r = await listTransfers(db, userId, { page, perPage, startDate: range?.start_date, endDate: range?.end_date });
  return {
    ...base,
    total: r.total,
    data: r.rows.map((t) => {
      const amount = t.direction === 'sent' ? -t.amount_usd : t.amount_usd;
      return {
        id: t.id,
        createdAt: t.createdAt,
        amount,
        amount_usd: amount,
        status: 'completed',
        extra: JSON.stringify({
          description: `${t.direction === 'sent' ? 'Sent to' : 'Received from'} ${t.direction === 'sent' ? t.Receiver.username : t.Sender.username} (${t.type} wallet)`,
          direction: t.direction,
          counterparty: t.direction === 'sent' ? t.Receiver.username : t.Sender.username,
          amount_received: Math.abs(amount),
          status: 'completed',
          created_at: t.createdAt,
        }),
      };
    }),
  };
}
