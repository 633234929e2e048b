import { REDIRECT_DELAY_SECONDS } from '@app/core/constants';
import { formatAmount } from '@app/core/format';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import { toast } from 'sonner';
import { CLOSED_PAYMENT_STATUSES } from '../api/payments-api';
import { parseExtra } from './payment-extra';
import { underReview } from '../../../lib/payment-status';

/** server.md section 6: only these end a payment. `confirmed` and `sending` are on the way to one of them. */
export const FINAL_PAYMENT_STATUSES: ReadonlySet<string> = CLOSED_PAYMENT_STATUSES;

/**
 * What a refreshed status means for the person (spec section 4, Demo payment): a change from
 * waiting is announced; finished and expired end with a 5-second countdown to /transaction; a
 * partial payment and a failed one stay (issue 32, item 6: the partial box must not leave by
 * itself, the person may pay the rest). The transient `confirmed` never toasts or
 * redirects: a short payment passes through it on its way to partially_paid, and announcing it
 * told people their 40 of 100 was a success. Each payment's final outcome is announced once,
 * however many refreshes (poll, Check Status, the pending list) see it.
 */
/** 'Redirecting to transaction page in N seconds...', and '1 second' for one. */
function redirectText(n: number): string {
  return n === 1 ? 'Redirecting to transaction page in 1 second...' : `Redirecting to transaction page in ${n} seconds...`;
}

export function useStatusOutcome() {
  const navigate = useNavigate();
  const timer = useRef<ReturnType<typeof setInterval> | null>(null);
  const toastId = useRef<string | number | null>(null);
  const announced = useRef(new Set<string>());
  useEffect(
    () => () => {
      if (timer.current) clearInterval(timer.current);
    },
    [],
  );

  // "Stay here" ends this countdown and resets it, so the next closed payment can count down again.
  const stay = () => {
    if (timer.current) clearInterval(timer.current);
    timer.current = null;
    if (toastId.current !== null) toast.dismiss(toastId.current);
    toastId.current = null;
  };

  const redirect = () => {
    if (timer.current) return;
    let n = REDIRECT_DELAY_SECONDS;
    const action = { label: 'Stay here', onClick: stay };
    const id = toast.info(redirectText(n), { duration: (n + 1) * 1000, action });
    toastId.current = id;
    timer.current = setInterval(() => {
      n -= 1;
      if (n <= 0) {
        stay();
        void navigate('/transaction');
        return;
      }
      toast.info(redirectText(n), { id, duration: (n + 1) * 1000, action });
    }, 1000);
  };

  const onStatus = (paymentId: string, previous: string, next: string, extraText: string | null, amount: number) => {
    if (previous === next) return;
    const extra = parseExtra(extraText, amount);
    const final = FINAL_PAYMENT_STATUSES.has(next);
    if (previous === 'waiting' && !final) {
      // The chain has seen a transfer; how much of it counts is only known at a final status.
      toast.info(`Payment status changed to: ${next === 'confirming' ? extra.status_description || next : 'Transaction detected, waiting for confirmations'}`);
    } else if (previous === 'waiting' && final) {
      toast.info(`Payment status changed to: ${extra.status_description || next}`);
    }
    if (!final || announced.current.has(paymentId)) return;
    announced.current.add(paymentId);
    // 'Payment completed with partial amount! Received X CUR (Expected: Y CUR).' and 'Payment confirmed! Received X CUR.'
    if (next === 'partially_paid') {
      // No countdown away from the page: the person reads what arrived and may pay the rest.
      toast.warning(
        `Payment completed with partial amount! Received ${formatAmount(extra.amount_received)} ${extra.pay_currency} (Expected: ${formatAmount(extra.expected_amount)} ${extra.pay_currency}).`,
      );
    } else if (next === 'finished' && underReview('finished', { received: extra.amount_received, credited: extra.credited_amount })) {
      // Received but held for review: never toasted as credited (issue 47).
      toast.info(`Payment received: ${formatAmount(extra.amount_received)} ${extra.pay_currency} is under review and is credited once checked.`);
      redirect();
    } else if (next === 'finished') {
      toast.success(
        extra.amount_received > 0 ? `Payment confirmed! Received ${formatAmount(extra.amount_received)} ${extra.pay_currency}.` : 'Payment confirmed!',
      );
      redirect();
    } else if (next === 'expired') {
      toast.error('Payment window expired');
      redirect();
    } else if (next === 'failed') {
      toast.error('Payment failed');
    }
  };
  return { onStatus, stay };
}
