import { z } from 'zod';
import { ZCreateStakeRequest, ZCreateTransferRequest, ZCreateWithdrawalRequest } from '../schemas/money-ops';
import { ZHistoryQuery, ZIncomeHistoryQuery, ZPageQuery, ZStakeHistoryQuery, ZTransferHistoryQuery } from '../schemas/common';
import { defineContract, pageOf, ZId, ZIsoTime, ZMoney, ZPagination } from './define';
import { ZHistoryStatus, ZStakeStatus, ZUserStatus } from '../statuses';

export const ZStakeRow = z.object({
  id: ZId,
  createdAt: ZIsoTime,
  type: z.string(),
  amount_usd: ZMoney,
  status: ZStakeStatus,
  /** the stake's first day (yyyy-mm-dd, UTC) */
  start_date: z.string(),
  /** whole days since start_date, today (UTC) counted from 0 */
  days_elapsed: z.number().int(),
  /** ROI paid on this stake so far */
  earned: ZMoney,
  /** what the stake pays in all: amount × its cap percentage */
  cap: ZMoney,
});
/** `for_date`: the UTC day an ROI credit is for (a catch-up run credits past days), as the income chart dates it. */
export const ZIncomeItem = z.object({ id: ZId, createdAt: ZIsoTime, amount: ZMoney, note: z.string(), for_date: z.string().optional() });
export const ZRewardLevel = z.object({
  level: z.number().int(),
  self_investment: ZMoney,
  direct_investment: ZMoney,
  reward: ZMoney,
  achieved: z.boolean().optional(),
});
/** The income chart's range: the last 7, 30 or 90 days, today included (UTC days). */
export const INCOME_CHART_DAYS = [7, 30, 90] as const;
export const ZIncomeChartQuery = z.object({
  days: z.preprocess(
    (v) => (v === undefined || v === '' ? undefined : Number(v)),
    z.union([z.literal(7), z.literal(30), z.literal(90)], { error: 'days must be 7, 30 or 90' }).default(30),
  ),
});
/** One UTC day's income by type; days without income are present with zeros. */
export const ZIncomeDay = z.object({ date: z.string(), roi: ZMoney, referral: ZMoney, reward: ZMoney, total: ZMoney });
export const ZIncomeChart = z.object({
  days: z.number().int(),
  from: z.string(),
  to: z.string(),
  points: z.array(ZIncomeDay),
  totals: z.object({ roi: ZMoney, referral: ZMoney, reward: ZMoney, total: ZMoney }),
});
export const ZTeamMember = z.object({
  avatar: z.string().nullable(),
  /** null while the member has not verified the e-mail (the username names an account for a transfer) */
  username: z.string().nullable(),
  name: z.string(),
  createdAt: ZIsoTime,
  status: ZUserStatus,
});
export const ZTransferRecord = z.object({
  id: ZId,
  createdAt: ZIsoTime,
  amount_usd: ZMoney,
  sender_id: ZId,
  type: z.enum(['deposit', 'withdraw']),
  /** computed once, on the server */
  direction: z.enum(['sent', 'received']),
  Sender: z.object({ username: z.string() }),
  Receiver: z.object({ username: z.string() }),
});
export const ZHistoryRecord = z.object({
  id: ZId,
  createdAt: ZIsoTime,
  amount: ZMoney,
  amount_usd: ZMoney,
  status: ZHistoryStatus,
  extra: z.string().nullable(),
});

export const staking = {
  create: defineContract({
    method: 'POST',
    path: '/stake/create',
    errors: ['VALIDATION', 'INSUFFICIENT_BALANCE', 'FORBIDDEN'],
    auth: 'user',
    tag: 'staking',
    summary: 'Stakes from the deposit balance',
    body: ZCreateStakeRequest,
    data: null,
  }),
  history: defineContract({
    method: 'GET',
    path: '/stake/history',
    auth: 'user',
    tag: 'staking',
    summary: 'My stakes',
    query: ZStakeHistoryQuery,
    data: pageOf(ZStakeRow),
  }),
};

export const income = {
  history: defineContract({
    method: 'GET',
    path: '/income/history',
    auth: 'user',
    tag: 'income',
    summary: 'ROI, referral or reward income',
    query: ZIncomeHistoryQuery,
    data: pageOf(ZIncomeItem),
  }),
  rewardLevels: defineContract({
    method: 'GET',
    path: '/income/reward-levels',
    auth: 'user',
    tag: 'income',
    summary: 'Reward levels and which I reached',
    data: z.array(ZRewardLevel),
  }),
  chart: defineContract({
    method: 'GET',
    path: '/user/income-chart',
    auth: 'user',
    tag: 'income',
    summary: 'Income per UTC day by type (ROI, referral, reward) over the last 7, 30 or 90 days',
    query: ZIncomeChartQuery,
    data: ZIncomeChart,
  }),
};

export const team = {
  directs: defineContract({
    method: 'GET',
    path: '/user/my-team',
    auth: 'user',
    tag: 'team',
    summary: 'My direct referrals',
    query: ZPageQuery,
    data: pageOf(ZTeamMember),
  }),
};

export const transfers = {
  create: defineContract({
    method: 'POST',
    path: '/user/fund-transfer',
    errors: ['VALIDATION', 'NOT_FOUND', 'INSUFFICIENT_BALANCE', 'FORBIDDEN'],
    auth: 'user',
    tag: 'transfers',
    summary: 'Sends USDT to another user',
    body: ZCreateTransferRequest,
    data: z.object({ id: ZId }),
  }),
  list: defineContract({
    method: 'GET',
    path: '/user/fund-transfer',
    auth: 'user',
    tag: 'transfers',
    summary: 'Transfers sent and received',
    query: ZTransferHistoryQuery,
    data: pageOf(ZTransferRecord),
  }),
};

export const withdrawals = {
  create: defineContract({
    method: 'POST',
    path: '/withdraw/create',
    errors: ['VALIDATION', 'INSUFFICIENT_BALANCE', 'TWO_FA_REQUIRED', 'INVALID_2FA', 'TOO_MANY_ATTEMPTS', 'BAD_REQUEST', 'FORBIDDEN'],
    auth: 'user',
    tag: 'withdrawals',
    summary: 'Requests a withdrawal',
    body: ZCreateWithdrawalRequest,
    data: z.object({ id: ZId }),
  }),
};

export const history = {
  list: defineContract({
    method: 'GET',
    path: '/user/get-history',
    auth: 'user',
    tag: 'history',
    summary: 'Deposits, withdrawals or transfers with their totals',
    query: ZHistoryQuery,
    data: z.object({ data: z.array(ZHistoryRecord), pagination: ZPagination, total_deposits: ZMoney, total_withdrawals: ZMoney }),
  }),
};

export type TStakeRow = z.output<typeof ZStakeRow>;
export type TIncomeItem = z.output<typeof ZIncomeItem>;
export type TIncomeDay = z.output<typeof ZIncomeDay>;
export type TIncomeChart = z.output<typeof ZIncomeChart>;
export type TRewardLevel = z.output<typeof ZRewardLevel>;
export type TTeamMember = z.output<typeof ZTeamMember>;
export type TTransferRecord = z.output<typeof ZTransferRecord>;
export type THistoryRecord = z.output<typeof ZHistoryRecord>;
