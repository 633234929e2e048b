import type { THistoryRecord } from '@app/core/contracts';
import { formatAmount } from '@app/core/format';
import { PaymentAmount } from '../../../components/payment-status';
import { StatusBadge } from '../../../components/status-badge';
import { paymentStatusKey } from '../../../lib/payment-status';
import type { HistoryType } from '../../../lib/history-api';
import { parseExtra } from '../../../lib/history-record';
import { signedTransfer, transferCounterparty } from './history-format';

const dollars = (n: number) => `$${formatAmount(n)}`;

/**
 * The Amount cell of /transaction, one rule per kind:
 * - a deposit follows the payment status table (lib/payment-status.ts): "$0.00 of $20.00" in grey
 *   for one that ended without money, green only when finished;
 * - a withdrawal shows what left the balance (red), with its fee and what is sent;
 * - a transfer is signed, with its counterparty: "+$20.00 From X", "−$10.00 To Y".
 * `compact` leaves out the second line (the details dialog has its own rows for it).
 */
export function HistoryAmount({ record: r, type, compact = false }: { record: THistoryRecord; type: HistoryType; compact?: boolean }) {
  const e = parseExtra(r.extra);
  if (type === 'transaction') {
    return (
      <PaymentAmount
        statusKey={paymentStatusKey(r.status, e)}
        received={e.amount_received ?? 0}
        asked={r.amount_usd}
        credited={e.credited_amount}
        currency="$"
        testId="history-amount"
      />
    );
  }
  if (type === 'withdrawal') {
    return (
      <span className="inline-flex flex-col items-end sm:items-start">
        <span className="font-semibold text-red-300" data-testid="history-amount">
          {dollars(Math.abs(r.amount_usd))}
        </span>
        {typeof e.fee === 'number' && !compact ? (
          <span className="text-xs text-slate-300">{`fee $${formatAmount(e.fee)} · receive $${formatAmount(e.expected_amount ?? 0)}`}</span>
        ) : null}
      </span>
    );
  }
  const who = transferCounterparty(r);
  return (
    <span className="inline-flex flex-col items-end sm:items-start">
      <span className={r.amount < 0 ? 'font-semibold text-red-300' : 'font-semibold text-emerald-300'} data-testid="history-amount">
        {signedTransfer(r, dollars)}
      </span>
      {who && !compact ? <span className="text-xs text-slate-300">{who}</span> : null}
    </span>
  );
}

/** The Status cell (and the details dialog's): the record's status as the one table says (lib/status-presentation.ts). */
export function HistoryStatus({ record: r, type }: { record: THistoryRecord; type: HistoryType }) {
  if (type === 'transaction') return <StatusBadge kind="payment" status={paymentStatusKey(r.status, parseExtra(r.extra))} />;
  return <StatusBadge kind={type} status={r.status} />;
}
