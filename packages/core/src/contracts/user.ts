import { z } from 'zod';
import { ZCheckUsernameQuery } from '../schemas/auth';
import { defineContract, ZId, ZIsoTime, ZMoney } from './define';
import { ZPaymentStatusValue, ZStakeStatus, ZUserStatus, ZWithdrawalStatus } from '../statuses';

const tag = 'user';

export const ZUserDetail = z.object({
  deposit_balance: ZMoney,
  total_staked: ZMoney,
  total_income: ZMoney,
  roi_income: ZMoney,
  direct_referral_income: ZMoney,
  reward_income: ZMoney,
  balance: ZMoney,
});

const activity = { id: ZId, amount_usd: ZMoney.optional(), amount: ZMoney.optional(), createdAt: ZIsoTime };
/** A row of the dashboard's recent activity: the status is of the record's own kind. */
export const ZActivityItem = z.discriminatedUnion('recordType', [
  z.object({ recordType: z.literal('staking'), ...activity, status: ZStakeStatus }),
  z.object({
    recordType: z.literal('transaction'),
    ...activity,
    status: ZPaymentStatusValue,
    /** what arrived and what was asked (USDT), for the payment status table's amount rule (docs/ux-rules.md) */
    received: ZMoney.optional(),
    asked: ZMoney.optional(),
    /** when the user cancelled it (kept as `expired`: the screens call it cancelled) */
    cancelled_at: ZIsoTime.nullable().optional(),
  }),
  z.object({ recordType: z.literal('withdrawal'), ...activity, status: ZWithdrawalStatus }),
]);

export const ZUserInfo = z.object({
  name: z.string(),
  username: z.string(),
  status: ZUserStatus,
  eligible_level: z.number().int(),
  user_detail: ZUserDetail,
  activity: z.array(ZActivityItem),
});

export const ZProfile = z.object({
  avatar: z.string().nullable(),
  name: z.string(),
  username: z.string(),
  email: z.string(),
  referral_id: z.string().nullable(),
  status: ZUserStatus,
  active_date: z.string().nullable(),
});

export const ZSettings = z.object({
  roi_income_percentage: z.number(),
  direct_referral_percentage: z.number(),
  stake_cap_percentage: z.number(),
  withdrawal_fee_percentage: z.number(),
});

export const ZWallet = z.object({
  user_id: ZId,
  balance: ZMoney,
  deposit_balance: ZMoney,
  total_staked: ZMoney,
  total_income: ZMoney,
  total_withdraw: ZMoney,
  total_directs: z.number().int(),
  total_direct_business: ZMoney,
  total_network: z.number().int(),
  team_business: z.object({ users: z.number().int(), amount: ZMoney }),
});

export const user = {
  info: defineContract({ method: 'GET', path: '/user/get-info', auth: 'user', tag, summary: 'The dashboard: balances and recent activity', data: ZUserInfo }),
  profile: defineContract({ method: 'GET', path: '/user/profile', auth: 'user', tag, summary: 'The signed-in user', data: ZProfile }),
  check: defineContract({
    method: 'GET',
    path: '/user/check',
    auth: 'user',
    tag,
    summary: 'Finds another user by username (transfers)',
    query: ZCheckUsernameQuery,
    data: z.object({ userName: z.string(), username: z.string() }),
  }),
  settings: defineContract({
    method: 'GET',
    path: '/user/settings',
    auth: 'user',
    tag,
    summary: 'The rates that apply',
    data: z.object({ settings: ZSettings }),
  }),
  wallet: defineContract({ method: 'GET', path: '/user/wallet', auth: 'user', tag, summary: 'Balances, totals and team figures', data: ZWallet }),
};

export type TUserDetail = z.output<typeof ZUserDetail>;
export type TActivityItem = z.output<typeof ZActivityItem>;
export type TActivityRecordType = TActivityItem['recordType'];
export type TUserInfo = z.output<typeof ZUserInfo>;
export type TProfile = z.output<typeof ZProfile>;
export type TSettings = z.output<typeof ZSettings>;
export type TWallet = z.output<typeof ZWallet>;
