import { z } from 'zod';
import { amountNumber, hasAtMostDecimals } from './fields';

/** POST /api/sandbox/payments/:payment_id/pay: a simulated transfer of `amount` USDT (sandbox gateway only). */
export const ZSandboxPayRequest = z.object({
  amount: amountNumber()
    .refine((v) => v > 0, { error: 'Amount must be greater than 0', abort: true })
    .refine((v) => v <= 1_000_000_000, { error: 'Amount is too large', abort: true })
    .refine((v) => hasAtMostDecimals(v, 6), 'Amount must have at most 6 decimals'),
});
export type TSandboxPayRequest = z.infer<typeof ZSandboxPayRequest>;
