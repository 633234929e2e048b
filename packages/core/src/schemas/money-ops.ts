import { z } from 'zod';
import {
  DEMO_DEPOSIT_MIN_USD,
  DEPOSIT_MIN_USD,
  PAY_CURRENCIES,
  STAKE_MIN_USD,
  STAKE_STEP_USD,
  TRANSFER_MIN_USD,
  TRANSFER_TYPES,
  WITHDRAW_MIN_USD,
  WITHDRAW_NETWORKS,
  WITHDRAW_STEP_USD,
} from '../constants';
import { isValidAddress } from '../addresses';
import { amountNumber, hasAtMostDecimals, isMultipleOf } from './fields';
import { ZUsername } from './auth';

const MAX_AMOUNT = 1_000_000_000; // far above any balance; keeps bigint maths and inputs sane

/** POST /api/stake/create */
export const ZStakeAmount = amountNumber()
  .min(STAKE_MIN_USD, { error: 'Minimum staking amount is $50', abort: true })
  .max(MAX_AMOUNT, { error: 'Insufficient balance', abort: true })
  .refine((v) => isMultipleOf(v, STAKE_STEP_USD), 'Amount must be a multiple of 10');
export const ZCreateStakeRequest = z.object({ amount_usd: ZStakeAmount });
export type TCreateStakeRequest = z.infer<typeof ZCreateStakeRequest>;

/** POST /api/withdraw/create */
export const ZWithdrawAmount = amountNumber()
  .min(WITHDRAW_MIN_USD, { error: 'Minimum withdrawal amount is $10', abort: true })
  .max(MAX_AMOUNT, { error: 'Insufficient balance', abort: true })
  .refine((v) => isMultipleOf(v, WITHDRAW_STEP_USD), 'Amount must be a multiple of 10');
export const ZWithdrawNetwork = z.enum(WITHDRAW_NETWORKS, { error: 'Network is required' });
export const ZCreateWithdrawalRequest = z
  .object({
    amount_usd: ZWithdrawAmount,
    network: ZWithdrawNetwork,
    wallet_address: z
      .string({ error: 'Wallet address is required' })
      .trim()
      .min(1, 'Wallet address is required')
      .max(100, 'Invalid wallet address for the selected network'),
    token: z.literal('USDT', { error: 'Token is required' }),
    /** Required (server-side) when the user has two-factor authentication on. */
    totp_code: z.string().trim().max(32, 'Invalid two-factor code').optional(),
  })
  .superRefine((v, ctx) => {
    if (v.wallet_address && v.network && !isValidAddress(v.network, v.wallet_address)) {
      ctx.addIssue({ code: 'custom', path: ['wallet_address'], message: 'Invalid wallet address for the selected network' });
    }
  });
export type TCreateWithdrawalRequest = z.infer<typeof ZCreateWithdrawalRequest>;

/** POST /api/user/fund-transfer */
export const ZTransferAmount = amountNumber()
  .refine((v) => v > 0, { error: 'Please enter a valid amount', abort: true })
  .refine((v) => hasAtMostDecimals(v, 2), { error: 'Please enter a valid amount', abort: true })
  .refine((v) => v >= TRANSFER_MIN_USD, { error: 'Minimum transfer amount is 10 USDT', abort: true })
  .refine((v) => v <= MAX_AMOUNT, 'Insufficient balance');
export const ZTransferType = z.enum(TRANSFER_TYPES, { error: 'Transfer type is required' });
export const ZCreateTransferRequest = z.object({
  username: ZUsername,
  amount_usd: ZTransferAmount,
  type: ZTransferType,
});
export type TCreateTransferRequest = z.infer<typeof ZCreateTransferRequest>;

/** POST /api/payments/create (the first deposit flow) */
export const ZPayCurrency = z.enum(PAY_CURRENCIES, { error: 'Currency is required' });
export const ZCreatePaymentRequest = z.object({
  amount: amountNumber()
    .min(DEPOSIT_MIN_USD, { error: 'Minimum amount is 1 USD', abort: true })
    .max(MAX_AMOUNT, { error: 'Amount is too large', abort: true })
    .refine((v) => hasAtMostDecimals(v, 2), 'Amount must have at most 2 decimals'),
  currency: ZPayCurrency,
});
export type TCreatePaymentRequest = z.infer<typeof ZCreatePaymentRequest>;

/** POST /api/demo-payments/create: the spec hides its bounds; the hints say minimum 10, step 10. */
export const ZCreateDemoPaymentRequest = z.object({
  amount: amountNumber()
    .min(DEMO_DEPOSIT_MIN_USD, { error: 'Minimum amount is 10 USD', abort: true })
    .max(MAX_AMOUNT, { error: 'Amount is too large', abort: true })
    .refine((v) => hasAtMostDecimals(v, 2), 'Amount must have at most 2 decimals'),
  currency: z.enum(PAY_CURRENCIES, { error: 'Please select a chain' }),
});
export type TCreateDemoPaymentRequest = z.infer<typeof ZCreateDemoPaymentRequest>;

export const ZPaymentIdRequest = z.object({
  payment_id: z
    .union([z.string(), z.number()], { error: 'Payment ID is required' })
    .transform((v) => String(v).trim())
    .refine((v) => v.length > 0 && v.length <= 64, 'Payment ID is required'),
});
