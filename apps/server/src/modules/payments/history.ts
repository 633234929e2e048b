import { microToNumber } from '@app/core';
import type { TDateRange } from '@app/core';
import type { THistoryRecord } from '@app/core/contracts';
import type { Executor } from '../../db/types';
import { createdWithin } from '../../lib/date-range';
import { paginate } from '../../lib/paginate';
import { historyExtra, type PaymentRow } from './present';
import { CREDIT_STATUSES } from './status';
import './table';

/**
 * What a deposit shows as its amount: what was credited once anything was (an overpayment in
 * full); nothing for money that arrived and is not credited (under review, or under the minimum),
 * never the USD asked or the amount received as if credited (issue 47); the USD asked while the
 * payment waits for money. So the Total Deposits above the list (the ledger's running total of deposit credits) is the sum of the rows.
 */
function shownAmount(row: Pick<PaymentRow, 'credited_amount' | 'price_amount' | 'actually_paid' | 'status'>): bigint {
  if (row.credited_amount > 0n || row.actually_paid > 0n || CREDIT_STATUSES.includes(row.status)) return row.credited_amount;
  return row.price_amount;
}

/**
 * The Deposits tab of the transaction history (`get-history?type=transaction`): every payment of
 * the user, newest first, within the date range if one is given. `amount` is the USD credited (or asked, before anything arrived),
 * `amount_usd` the USD asked, `extra` the spec's JSON text.
 */
export async function listDepositHistory(
  db: Executor,
  userId: bigint,
  page: number,
  perPage: number,
  range?: TDateRange,
): Promise<{ data: THistoryRecord[]; total: number }> {
  const base = createdWithin(db.selectFrom('payments').where('user_id', '=', userId), range);
  const { rows, total } = await paginate(base, page, perPage, (q) => q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'));
  return {
    total,
    data: rows.map((r) => ({
      id: String(r.id),
      createdAt: r.created_at.toISOString(),
      amount: microToNumber(shownAmount(r)),
      amount_usd: microToNumber(r.price_amount),
      status: r.status,
      extra: historyExtra(r),
    })),
  };
}
