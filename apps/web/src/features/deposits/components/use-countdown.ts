import { PAYMENT_WINDOW_SECONDS } from '@app/core/constants';
import { useEffect, useState } from 'react';

/** Seconds left until timedout_at (or 300 when the payment has no timeout time). */
export function useCountdown(timedoutAt: string | null | undefined, startedAt: number): number {
  const end = timedoutAt ? Date.parse(timedoutAt) : startedAt + PAYMENT_WINDOW_SECONDS * 1000;
  const calc = () => Math.max(0, Math.ceil((end - Date.now()) / 1000));
  const [left, setLeft] = useState(calc);
  useEffect(() => {
    setLeft(calc());
    const t = setInterval(() => setLeft(calc()), 1000);
    return () => clearInterval(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- recomputed from `end` only
  }, [end]);
  return left;
}
