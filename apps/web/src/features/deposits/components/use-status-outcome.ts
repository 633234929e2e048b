import { REDIRECT_DELAY_SECONDS } from '@app/core/constants';
import { formatAmount } from '@app/core/format';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { parseExtra } from './payment-extra';

/**
 * What a refreshed status means for the person (spec section 4, Demo payment): a change from
 * waiting is announced; partial, confirmed/finished and expired end with a 5-second countdown
 * to /transaction; failed shows an error and stays.
 */
export function useStatusOutcome() {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  useEffect(() => () => void (timer.current && clearInterval(timer.current)), []);

  const redirect = () => {
    if (timer.current) return;
    let n = REDIRECT_DELAY_SECONDS;
    const id = toast.info(`Redirecting to transaction page in ${n} seconds...`, { duration: (n + 1) * 1000 });
    timer.current = setInterval(() => {
      n -= 1;
      if (n <= 0) {
        clearInterval(timer.current!);
        toast.dismiss(id);
        void navigate('/transaction');
        return;
      }
      toast.info(`Redirecting to transaction page in ${n} seconds...`, { id, duration: (n + 1) * 1000 });
    }, 1000);
  };

  return (previous: string, next: string, extraText: string | null, amount: number) => {
    if (previous === next) return;
    const extra = parseExtra(extraText, amount);
    if (previous === 'waiting') toast.info(`Payment status changed to: ${extra.status_description || next}`);
    // 'Payment completed with partial amount! Received X CUR (Expected: Y CUR).' and 'Payment confirmed! Received X CUR.'
    if (next === 'partially_paid') {
      toast.success(`Payment completed with partial amount! Received ${formatAmount(extra.amount_received)} ${extra.pay_currency} (Expected: ${formatAmount(extra.expected_amount)} ${extra.pay_currency}).`);
      redirect();
    } else if (next === 'confirmed' || next === 'finished') {
      toast.success(extra.amount_received > 0 ? `Payment confirmed! Received ${formatAmount(extra.amount_received)} ${extra.pay_currency}.` : 'Payment confirmed!');
      redirect();
    } else if (next === 'expired') {
      toast.error('Payment window expired');
      redirect();
    } else if (next === 'failed') {
      toast.error('Payment failed');
    }
  };
}
