import { z } from 'zod';
import {
  ZAdminIdParams,
  ZAdminRewardLevels,
  ZAdminSettings,
  ZAdminTicketReplyRequest,
  ZCloseTicketRequest,
  ZCompleteWithdrawalRequest,
  ZRejectWithdrawalRequest,
  ZRunRoiRequest,
} from '../schemas/admin';
import { ZPageQuery } from '../schemas/common';
import { defineContract, pageOf, ZId, ZIsoTime, ZMoney, ZPagination } from './define';
import { ZRewardLevel } from './money';
import { ZTicket } from './support';
import { ZSettings } from './user';
import { TICKET_STATUSES, WITHDRAWAL_STATUSES, ZPaymentStatusValue, ZStakeStatus, ZUserStatus, ZWithdrawalStatus } from '../statuses';

const tag = 'admin';
const auth = 'admin';

export const ZAdminUser = z.object({
  id: ZId,
  name: z.string(),
  email: z.string(),
  username: z.string(),
  status: ZUserStatus,
  is_admin: z.boolean(),
  eligible_level: z.number().int(),
  verified: z.boolean(),
  createdAt: ZIsoTime,
});

const ZCountAmount = z.object({ count: z.number().int(), amount: ZMoney });
export const ZAdminStats = z.object({
  users: z.number().int(),
  active_users: z.number().int(),
  total_deposits: ZMoney,
  total_staked: ZMoney,
  liabilities: ZMoney,
  withdrawals_pending: ZCountAmount,
  withdrawals_paid: ZCountAmount,
  daily: z.array(z.object({ date: z.string(), deposits: ZMoney, withdrawals: ZMoney })),
  ledger_system_balances: z.object({ staked_principal: ZMoney }),
});

export const ZAdminUserDetail = z.object({
  user: ZAdminUser.extend({ referrer: z.string().nullable(), active_date: z.string().nullable() }),
  balances: z.object({ deposit: ZMoney, income: ZMoney }),
  totals: z.record(z.string(), ZMoney),
  team: z.object({
    total_directs: z.number().int(),
    total_direct_business: ZMoney,
    total_network: z.number().int(),
    team_business: z.object({ users: z.number().int(), amount: ZMoney }),
  }),
  ledger: z.array(
    z.object({
      id: ZId,
      kind: z.string(),
      key: z.string(),
      memo: z.string().nullable(),
      createdAt: ZIsoTime,
      postings: z.array(z.object({ account: z.string(), amount: ZMoney })),
    }),
  ),
  stakes: z.array(z.object({ id: ZId, amount: ZMoney, roi_paid: ZMoney, status: ZStakeStatus, createdAt: ZIsoTime })),
  payments: z.array(z.object({ id: ZId, payment_id: z.string(), status: ZPaymentStatusValue, amount: ZMoney, credited: ZMoney, createdAt: ZIsoTime })),
  withdrawals: z.array(z.object({ id: ZId, amount: ZMoney, status: ZWithdrawalStatus, network: z.string(), createdAt: ZIsoTime })),
});

export const ZAdminTicket = ZTicket.extend({
  user: z.object({ id: ZId, username: z.string(), email: z.string(), name: z.string() }),
  closedAt: ZIsoTime.nullable(),
});

export const ZAdminWithdrawal = z.object({
  id: ZId,
  user_id: ZId,
  amount: ZMoney,
  fee: ZMoney,
  receive_amount: ZMoney,
  network: z.string(),
  wallet_address: z.string(),
  status: ZWithdrawalStatus,
  tx_hash: z.string().nullable(),
  reject_reason: z.string().nullable(),
  /** the signer's nonce on record for a sent payout (PAYOUTS=signer) */
  payout_nonce: z.string().nullable(),
  /** why the signer holds it, or why its last transaction failed (shown to the admin) */
  payout_note: z.string().nullable(),
  /** the admin may hand it to the signer (PAYOUTS=signer, pending, on a network the server watches) */
  can_approve: z.boolean(),
  createdAt: ZIsoTime,
  processedAt: ZIsoTime.nullable(),
});

export const ZAdminPayment = z.object({
  id: ZId,
  payment_id: z.string(),
  user: z.object({ id: ZId, username: z.string() }),
  pay_currency: z.string(),
  price_amount: ZMoney,
  actually_paid: ZMoney,
  credited_amount: ZMoney,
  status: ZPaymentStatusValue,
  needs_review: z.boolean(),
  createdAt: ZIsoTime,
});

export const ZAdminSettingsData = ZSettings.extend({ maintenance_mode: z.boolean() });

export const ZLedgerReport = z.object({
  ok: z.boolean(),
  entries: z.number().int(),
  accounts: z.number().int(),
  unbalancedEntries: z.array(z.object({ entryId: z.string(), sum: z.string() })),
  mismatchedAccounts: z.array(z.object({ accountId: z.string(), cached: z.string(), posted: z.string() })),
  negativeUserAccounts: z.array(z.object({ accountId: z.string(), userId: z.string(), balance: z.string() })),
  mismatchedTotals: z.array(
    z.object({
      userId: z.string(),
      field: z.enum(['roi_income', 'referral_income', 'reward_income']),
      total: z.string(),
      records: z.string(),
      posted: z.string(),
    }),
  ),
  /** stakes whose roi_paid differs from the ROI posted for them */
  mismatchedStakes: z.array(z.object({ stakeId: z.string(), userId: z.string(), paid: z.string(), posted: z.string() })),
  totalOfAllBalances: z.string(),
});

export const ZAuditRow = z.object({
  id: ZId,
  action: z.string(),
  targetType: z.string().nullable(),
  targetId: z.string().nullable(),
  /** the state before and after, as recorded (JSON) */
  before: z.unknown(),
  after: z.unknown(),
  admin: z.string().nullable(),
  createdAt: ZIsoTime,
});

const ZHeight = z.number().int().nullable();
/** Ages in whole seconds, counted by the server when it answers. */
const ZAgeS = z.number().int().nonnegative().nullable();
export const ZCustodyNetwork = z.object({
  network: z.string(),
  /**
   * ok; stale: the node has not answered for longer than CHAIN_STALE_AFTER_S (its head and lag are
   * old news), or too few endpoints have confirmed the final transfers for that long; halted: a reorg
   * under the credited line; disputed: the endpoints disagreed on a transfer (held in not_credited
   * until an admin dismisses it); unknown: the watcher has not asked it yet
   */
  state: z.enum(['ok', 'stale', 'halted', 'disputed', 'unknown']),
  /** why it is stale, halted or disputed */
  reason: z.string().nullable(),
  /** the node's head as last seen, and how long ago it was first seen (a head that stops moving grows old) */
  head: ZHeight,
  head_age_s: ZAgeS,
  /** the node's last answer */
  answered_at: ZIsoTime.nullable(),
  scanned_to: ZHeight,
  final_height: ZHeight,
  finalized_tag: ZHeight,
  /** the last-seen head − what the watcher has read (read it with head_age_s) */
  lag: ZHeight,
  head_at: ZIsoTime.nullable(),
  halted: z.boolean(),
  halted_reason: z.string().nullable(),
  halted_at: ZIsoTime.nullable(),
  confirmations: z.number().int(),
  deposits: z.object({
    seen: z.number().int(),
    credited: z.number().int(),
    below_minimum: z.number().int(),
    held: z.number().int(),
    orphaned: z.number().int(),
  }),
  credited_total: ZMoney,
  /** from the balances the balances job stored (never read from a node inside the request) */
  reconciliation: z.object({
    at_block: ZHeight,
    /** when the stored balances were read, and their age */
    read_at: ZIsoTime.nullable(),
    age_s: ZAgeS,
    /** addresses read, and how many hold the token */
    addresses: z.number().int(),
    holding: z.number().int(),
    on_chain: ZMoney,
    expected: ZMoney,
    ledger_credited: ZMoney,
    difference: ZMoney,
    flagged: z.boolean(),
    error: z.string().optional(),
  }),
  /**
   * One page (`page`, `per_page`) of the addresses holding the token, for a manual sweep; index: the
   * address's key is m/44'/<coin>'/0'/0/<index> of the operator's seed; age_s: how old the stored balance is
   */
  sweep: z.array(
    z.object({
      address: z.string(),
      user_id: ZId,
      index: z.number().int().nonnegative(),
      path: z.string(),
      balance: ZMoney,
      read_at: ZIsoTime,
      age_s: ZAgeS,
    }),
  ),
  sweep_pagination: ZPagination,
});
/** One sweep of a deposit address the signer reported and the server found final on chain. */
export const ZPayoutSweep = z.object({
  id: ZId,
  network: z.string(),
  address: z.string(),
  /** in USDT, cut to 6 decimals (the token may have 18) */
  amount: ZMoney,
  destination: z.enum(['hot', 'cold']),
  /** the gas top-up, null when the address already held enough gas */
  gas_tx: z.string().nullable(),
  gas_explorer_url: z.string().nullable(),
  token_tx: z.string(),
  token_explorer_url: z.string().nullable(),
  block: z.number().int(),
  recorded_at: ZIsoTime,
});
export const ZCustodyView = z.object({
  gateway: z.string(),
  networks: z.array(ZCustodyNetwork),
  /** transfers recorded and not credited (under the minimum, or held above the bound): an admin credits or dismisses them */
  not_credited: z.array(
    z.object({
      id: ZId,
      network: z.string(),
      user_id: ZId,
      username: z.string(),
      amount: ZMoney,
      tx_hash: z.string(),
      seen_at: ZIsoTime,
      note: z.string().nullable(),
      /** below_minimum: under the minimum deposit; held: above the automatic credit bound, or the endpoints disagree on it (the note says which) */
      status: z.enum(['below_minimum', 'held']),
      /** what arrived, in USDT, exact (a held transfer's `amount` is 0: it is never converted to micro-units) */
      token_amount: z.string(),
      /** what an admin can do with it: credit (at least one micro-USDT, under the bound), dismiss (always) */
      actions: z.array(z.enum(['credit', 'dismiss'])),
    }),
  ),
});

export const admin = {
  users: defineContract({
    method: 'GET',
    path: '/admin/users',
    auth,
    tag,
    summary: 'Users by e-mail, name or username',
    query: ZPageQuery.extend({ q: z.string().trim().max(100, 'q must be at most 100 characters').optional() }),
    data: pageOf(ZAdminUser),
  }),
  stats: defineContract({ method: 'GET', path: '/admin/stats', auth, tag, summary: 'Dashboard figures', data: ZAdminStats }),
  user: defineContract({ method: 'GET', path: '/admin/users/:id', auth, tag, summary: 'One user in full', params: ZAdminIdParams, data: ZAdminUserDetail }),
  block: defineContract({
    method: 'POST',
    path: '/admin/users/:id/block',
    auth,
    tag,
    summary: 'Blocks a user',
    params: ZAdminIdParams,
    data: z.object({ id: ZId, status: ZUserStatus }),
  }),
  unblock: defineContract({
    method: 'POST',
    path: '/admin/users/:id/unblock',
    auth,
    tag,
    summary: 'Unblocks a user',
    params: ZAdminIdParams,
    data: z.object({ id: ZId, status: ZUserStatus }),
  }),
  tickets: defineContract({
    method: 'GET',
    path: '/admin/tickets',
    auth,
    tag,
    summary: 'Every support ticket',
    query: ZPageQuery.extend({ status: z.enum(TICKET_STATUSES, { error: 'status must be open, answered or closed' }).optional() }),
    data: pageOf(ZAdminTicket),
  }),
  replyTicket: defineContract({
    method: 'POST',
    path: '/admin/tickets/:id/reply',
    auth,
    tag,
    summary: 'Answers a ticket: it becomes answered and the user gets a mail',
    params: ZAdminIdParams,
    body: ZAdminTicketReplyRequest,
    data: ZTicket,
  }),
  closeTicket: defineContract({
    method: 'POST',
    path: '/admin/tickets/:id/close',
    auth,
    tag,
    summary: 'Closes a ticket with a remark',
    params: ZAdminIdParams,
    body: ZCloseTicketRequest,
    data: ZTicket,
  }),
  withdrawals: defineContract({
    method: 'GET',
    path: '/admin/withdrawals',
    auth,
    tag,
    summary: 'The withdrawal queue',
    query: ZPageQuery.extend({ status: z.enum(WITHDRAWAL_STATUSES, { error: 'status must be pending, approved, sent, completed or rejected' }).optional() }),
    data: pageOf(ZAdminWithdrawal.extend({ user: z.object({ id: ZId, username: z.string(), email: z.string() }) })),
  }),
  completeWithdrawal: defineContract({
    method: 'POST',
    path: '/admin/withdrawals/:id/complete',
    auth,
    tag,
    summary: 'Marks a withdrawal paid',
    params: ZAdminIdParams,
    body: ZCompleteWithdrawalRequest,
    data: ZAdminWithdrawal,
  }),
  payouts: defineContract({
    method: 'GET',
    path: '/admin/payouts',
    auth,
    tag,
    summary: "Who pays withdrawals, the signer's last contact, its limits used today and the hot wallet (as the signer last reported them)",
    data: z.object({
      mode: z.enum(['manual', 'signer']),
      queue: z.object({ approved: z.number().int(), held: z.number().int(), sent: z.number().int() }),
      /** per network: deposit addresses + hot wallet + swept to cold = credited − paid out by the signer */
      reconciliation: z.array(
        z.object({
          network: z.string(),
          on_deposit_addresses: ZMoney,
          hot: ZMoney.nullable(),
          swept_to_cold: ZMoney,
          swept_to_hot: ZMoney,
          credited: ZMoney,
          paid_out: ZMoney,
          difference: ZMoney,
          flagged: z.boolean(),
        }),
      ),
      signer: z
        .object({
          last_contact_at: ZIsoTime,
          limits: z.array(z.object({ network: z.string(), used: ZMoney, limit: ZMoney, max_payout: ZMoney })),
          hot: z.array(z.object({ network: z.string(), address: z.string(), token: ZMoney, gas: z.string() })),
        })
        .nullable(),
      /** the latest sweeps the server recorded (newest first, at most `shown`) and how many there are in all */
      sweeps: z.object({
        total: z.number().int(),
        shown: z.number().int(),
        items: z.array(ZPayoutSweep),
      }),
    }),
  }),
  approveWithdrawal: defineContract({
    method: 'POST',
    path: '/admin/withdrawals/:id/approve',
    auth,
    tag,
    summary: 'Hands a pending withdrawal to the signer (PAYOUTS=signer), which pays it on chain',
    params: ZAdminIdParams,
    data: ZAdminWithdrawal,
  }),
  rejectWithdrawal: defineContract({
    method: 'POST',
    path: '/admin/withdrawals/:id/reject',
    auth,
    tag,
    summary: 'Rejects and refunds a withdrawal',
    params: ZAdminIdParams,
    body: ZRejectWithdrawalRequest,
    data: ZAdminWithdrawal,
  }),
  payments: defineContract({
    method: 'GET',
    path: '/admin/payments',
    auth,
    tag,
    summary: 'Deposits, optionally only those needing review',
    query: ZPageQuery.extend({
      status: z.string().max(20, 'status must be at most 20 characters').optional(),
      review: z.enum(['true', 'false'], { error: 'review must be true or false' }).optional(),
    }),
    data: pageOf(ZAdminPayment),
  }),
  settings: defineContract({ method: 'GET', path: '/admin/settings', auth, tag, summary: 'The rates and maintenance mode', data: ZAdminSettingsData }),
  saveSettings: defineContract({
    method: 'PUT',
    path: '/admin/settings',
    auth,
    tag,
    summary: 'Changes rates (future accruals only)',
    body: ZAdminSettings,
    data: ZAdminSettingsData,
  }),
  rewardLevels: defineContract({ method: 'GET', path: '/admin/reward-levels', auth, tag, summary: 'The reward levels', data: z.array(ZRewardLevel) }),
  saveRewardLevels: defineContract({
    method: 'PUT',
    path: '/admin/reward-levels',
    auth,
    tag,
    summary: 'Replaces the reward levels',
    body: ZAdminRewardLevels,
    data: z.array(ZRewardLevel),
  }),
  runRoi: defineContract({
    method: 'POST',
    path: '/admin/jobs/roi',
    auth,
    tag,
    summary: 'Credits ROI up to a date',
    body: ZRunRoiRequest,
    data: z.object({ date: z.string(), stakes: z.number().int(), credits: z.number().int(), total: ZMoney, completed: z.number().int() }),
  }),
  custody: defineContract({
    method: 'GET',
    path: '/admin/custody',
    auth,
    tag,
    summary: 'The chain gateway: watchers, deposits, chain against ledger (stored balances; the addresses holding the token paged)',
    query: ZPageQuery,
    data: ZCustodyView,
  }),
  custodyResume: defineContract({
    method: 'POST',
    path: '/admin/custody/:network/resume',
    auth,
    tag,
    summary: 'Resumes a network halted by a deep reorg',
    params: z.object({ network: z.enum(['bsc', 'polygon', 'tron'], { message: 'Unknown network' }) }),
    data: z.object({ resumed_from: ZHeight }),
  }),
  custodyCredit: defineContract({
    method: 'POST',
    path: '/admin/custody/observations/:id/credit',
    auth,
    tag,
    summary: 'Credits a chain transfer recorded under the minimum',
    params: ZAdminIdParams,
    data: null,
  }),
  custodyDismiss: defineContract({
    method: 'POST',
    path: '/admin/custody/observations/:id/dismiss',
    auth,
    tag,
    summary: 'Takes a transfer that waits for an admin (dust, held) off the list without crediting it',
    params: ZAdminIdParams,
    data: null,
  }),
  verifyLedger: defineContract({ method: 'GET', path: '/admin/ledger/verify', auth, tag, summary: 'Proves the ledger balances', data: ZLedgerReport }),
  auditLog: defineContract({ method: 'GET', path: '/admin/audit-log', auth, tag, summary: 'Who did what', query: ZPageQuery, data: pageOf(ZAuditRow) }),
};

export type TCustodyView = z.output<typeof ZCustodyView>;
export type AdminStats = z.output<typeof ZAdminStats>;
export type AdminUserRow = z.output<typeof ZAdminUser>;
export type AdminUserDetail = z.output<typeof ZAdminUserDetail>;
export type AdminWithdrawal = z.output<typeof admin.withdrawals.data>['data'][number];
export type AdminTicket = z.output<typeof ZAdminTicket>;
export type AdminPayment = z.output<typeof ZAdminPayment>;
export type AdminSettings = z.output<typeof ZAdminSettingsData>;
export type AdminRewardLevel = z.output<typeof ZRewardLevel>;
export type AdminAuditEntry = z.output<typeof ZAuditRow>;
export type LedgerReport = z.output<typeof ZLedgerReport>;
export type TAdminSettingsRequest = z.input<typeof ZAdminSettings>;
