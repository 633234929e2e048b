import { formatAmount } from '@app/core/format';
import clsx from 'clsx';
import { AMOUNT_TONE_CLASS, paymentAmountText, presentPayment } from '../lib/payment-status';
import { Badge } from './ui/badge';

/** A payment's status badge, from the one table (lib/payment-status.ts). `statusKey` is paymentStatusKey(status, extra). */
export function PaymentStatusBadge({ statusKey }: { statusKey: string }) {
  const p = presentPayment(statusKey);
  return (
    <Badge tone={p.tone} data-status={statusKey}>
      {p.words}
    </Badge>
  );
}

/**
 * A payment's amount, from the same table: what to send while waiting, what arrived once complete,
 * and "X of Y" otherwise, coloured by the table. `currency` '$' writes "$20.00"; 'USDT' "20.00 USDT".
 */
export function PaymentAmount({
  statusKey,
  received,
  asked,
  currency,
  className,
  testId,
}: {
  statusKey: string;
  received: number;
  asked: number;
  currency: '$' | 'USDT';
  className?: string;
  testId?: string;
}) {
  const text = paymentAmountText(
    statusKey,
    { received, asked },
    currency === '$' ? { money: (n) => `$${formatAmount(n)}` } : { money: formatAmount, unit: 'USDT' },
  );
  return (
    <span className={clsx('font-semibold', AMOUNT_TONE_CLASS[presentPayment(statusKey).amountTone], className)} data-testid={testId}>
      {text}
    </span>
  );
}
