import { z } from 'zod';
import { toMicro } from '../money';

const percent = (label: string, max: number) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(max, `${label} cannot exceed ${max}`)
    .refine((v) => toMicro(v) !== null, `${label} can have at most 6 decimals`);

/** PUT /api/admin/settings: every field optional; a change applies to future accruals only. */
export const ZAdminSettings = z
  .object({
    roi_income_percentage: percent('Daily ROI', 100),
    stake_cap_percentage: percent('Stake cap', 10000).refine((v) => v > 0, 'Stake cap must be above 0'),
    direct_referral_percentage: percent('Direct referral', 100),
    withdrawal_fee_percentage: percent('Withdrawal fee', 100),
    maintenance_mode: z.boolean({ error: 'Maintenance mode must be true or false' }),
  })
  .partial();

const usdAmount = (label: string) =>
  z
    .number({ error: `${label} must be a number` })
    .min(0, `${label} cannot be negative`)
    .max(1_000_000_000, `${label} is too large`)
    .refine((v) => toMicro(v) !== null, `${label} can have at most 6 decimals`);

/** PUT /api/admin/reward-levels: levels 1..n in order, each with a positive reward. */
export const ZAdminRewardLevels = z.object({
  levels: z
    .array(
      z.object({
        level: z.number().int().min(1).max(20),
        self_investment: usdAmount('Self investment'),
        direct_investment: usdAmount('Direct investment'),
        reward: usdAmount('Reward').refine((v) => v > 0, 'Reward must be above 0'),
      }),
    )
    .max(20)
    .refine((ls) => ls.every((l, i) => l.level === i + 1), 'Levels must be numbered 1, 2, 3… in order'),
});

export const ZAdminIdParams = z.object({
  id: z
    .string()
    .regex(/^\d{1,18}$/, 'Invalid id')
    .transform((v) => BigInt(v)),
});
/** POST /api/admin/tickets/:id/reply: support's answer; the ticket becomes 'answered' and the user gets a mail. */
export const ZAdminTicketReplyRequest = z.object({
  message: z.string({ error: 'Message is required' }).trim().min(1, 'Message is required').max(2000, 'Message cannot exceed 2000 characters'),
});
export const ZCloseTicketRequest = z.object({
  adminRemark: z.string({ error: 'Remark is required' }).trim().min(1, 'Remark is required').max(2000, 'Remark cannot exceed 2000 characters'),
});
/**
 * A payout's transaction hash as the chains write it: 64 hex digits, `0x` first on BSC and Polygon
 * (the withdrawal's network is checked by the server, which knows it). It is shown to the user as
 * a block-explorer link and mailed, so a typo must not pass.
 */
export const TX_HASH_PATTERN = { evm: /^0x[0-9a-fA-F]{64}$/, tron: /^[0-9a-fA-F]{64}$/ } as const;
export const INVALID_TX_HASH_MESSAGE = 'Invalid transaction hash';
export const ZCompleteWithdrawalRequest = z.object({
  tx_hash: z
    .string({ error: 'Transaction hash is required' })
    .trim()
    .min(1, 'Transaction hash is required')
    .refine((v) => TX_HASH_PATTERN.evm.test(v) || TX_HASH_PATTERN.tron.test(v), INVALID_TX_HASH_MESSAGE),
});
export const ZRejectWithdrawalRequest = z.object({
  reason: z.string({ error: 'Reason is required' }).trim().min(1, 'Reason is required').max(500, 'Reason is too long'),
});
export const ZRunRoiRequest = z.object({ date: z.iso.date('Date must be YYYY-MM-DD') });
