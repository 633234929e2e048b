import { formatAmount } from '@app/core/format';
import clsx from 'clsx';
import { AMOUNT_TONE_CLASS, paymentAmountText, presentPayment, underReview } from '../lib/payment-status';

/**
 * A payment's amount, from the same table: what to send while waiting, what arrived once complete,
 * and "X of Y" otherwise, coloured by the table. Once complete it is the amount credited (`credited`,
 * the server's credited_amount), and money held for review says so in amber. `currency` '$' writes "$20.00"; 'USDT' "20.00 USDT".
 */
export function PaymentAmount({
  statusKey,
  received,
  asked,
  credited,
  currency,
  className,
  testId,
}: {
  statusKey: string;
  received: number;
  asked: number;
  credited?: number | null;
  currency: '$' | 'USDT';
  className?: string;
  testId?: string;
}) {
  const text = paymentAmountText(
    statusKey,
    { received, asked, credited },
    currency === '$' ? { money: (n) => `$${formatAmount(n)}` } : { money: formatAmount, unit: 'USDT' },
  );
  return (
    <span
      className={clsx(
        'font-semibold',
        AMOUNT_TONE_CLASS[underReview(statusKey, { received, credited }) ? 'warning' : presentPayment(statusKey).amountTone],
        className,
      )}
      data-testid={testId}
    >
      {text}
    </span>
  );
}
