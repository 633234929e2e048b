import {
  PAYMENT_STATUSES,
  STAKE_STATUSES,
  TICKET_STATUSES,
  TRANSFER_STATUSES,
  USER_STATUSES,
  WITHDRAWAL_STATUSES,
  type StakeStatus,
  type TicketStatus,
  type UserStatus,
  type WithdrawalStatus,
} from '@app/core/statuses';
import type { BadgeTone } from '../components/ui/badge';

/**
 * How every record's status is shown, written once (docs/ux-rules.md, "Statuses"): one table per
 * kind of record, keyed by core's own status lists, so a status added in packages/core/src/statuses.ts
 * is a compile error here until it has its words and colour. Every status badge of the app is
 * `<StatusBadge kind status />` (components/status-badge.tsx), which reads these tables; no other
 * file maps a status to a colour or to words (app/status-presentation.test.tsx scans for that).
 *
 * Colours: green is done and good, amber is waiting on someone, red is refused or ended badly,
 * blue is in progress or answered, purple is a deposit waiting for money, grey ended without harm.
 */
export interface StatusPresentation {
  /** The words on the badge, exactly as shown (the badge does not change their case). */
  label: string;
  tone: BadgeTone;
  /** A dot before the words, for a state that asks for the person's attention (an answered ticket). */
  dot?: boolean;
}

/** A deposit's statuses: the gateway's, and `cancelled` (an expired payment the user cancelled; lib/payment-status.ts). */
export const PAYMENT_STATUS_KEYS = [...PAYMENT_STATUSES, 'cancelled'] as const;
export type PaymentStatusKey = (typeof PAYMENT_STATUS_KEYS)[number];
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];

/**
 * Deposits (the payment status table of docs/ux-rules.md; the amount rules are in lib/payment-status.ts).
 * Only `finished` is green; the gateway's transient statuses are one blue "Confirming…".
 */
const PAYMENT = {
  waiting: { label: 'Waiting', tone: 'purple' },
  confirming: { label: 'Confirming…', tone: 'info' },
  confirmed: { label: 'Confirming…', tone: 'info' },
  sending: { label: 'Confirming…', tone: 'info' },
  partially_paid: { label: 'Partially paid', tone: 'warning' },
  finished: { label: 'Finished', tone: 'success' },
  failed: { label: 'Failed', tone: 'danger' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  expired: { label: 'Expired', tone: 'danger' },
  cancelled: { label: 'Cancelled', tone: 'neutral' },
} as const satisfies Record<PaymentStatusKey, StatusPresentation>;

/** Withdrawals. A rejected one is red everywhere (it was grey on /transaction, the spec's history "secondary"). */
const WITHDRAWAL = {
  pending: { label: 'Pending', tone: 'warning' },
  approved: { label: 'Approved', tone: 'info' },
  sent: { label: 'Sent', tone: 'info' },
  completed: { label: 'Completed', tone: 'success' },
  rejected: { label: 'Rejected', tone: 'danger' },
} as const satisfies Record<WithdrawalStatus, StatusPresentation>;

/** Stakes (spec section 4, "Stake status badges": green active and completed). */
const STAKE = {
  active: { label: 'Active', tone: 'success' },
  completed: { label: 'Completed', tone: 'success' },
} as const satisfies Record<StakeStatus, StatusPresentation>;

/** Support tickets (docs/ux-rules.md, "Support"): open green, answered blue with a dot, closed red. */
const TICKET = {
  open: { label: 'Open', tone: 'success' },
  answered: { label: 'Answered', tone: 'info', dot: true },
  closed: { label: 'Closed', tone: 'danger' },
} as const satisfies Record<TicketStatus, StatusPresentation>;

/** Accounts (spec section 4: active green, anything else red; "inactive" is red in the activity colours too). */
const USER = {
  active: { label: 'Active', tone: 'success' },
  inactive: { label: 'Inactive', tone: 'danger' },
  blocked: { label: 'Blocked', tone: 'danger' },
} as const satisfies Record<UserStatus, StatusPresentation>;

/** Transfers between users are done when written (spec section 4, history badges: completed is green). */
const TRANSFER = {
  completed: { label: 'Completed', tone: 'success' },
} as const satisfies Record<TransferStatus, StatusPresentation>;

/** Every kind of record with a status, and its table. */
export const STATUS_PRESENTATION = {
  payment: PAYMENT,
  withdrawal: WITHDRAWAL,
  stake: STAKE,
  ticket: TICKET,
  user: USER,
  transfer: TRANSFER,
} as const satisfies { [K in keyof StatusOf]: Record<StatusOf[K], StatusPresentation> };

/** The statuses of each kind, from core (payment with the browser's `cancelled`). */
export interface StatusOf {
  payment: PaymentStatusKey;
  withdrawal: WithdrawalStatus;
  stake: StakeStatus;
  ticket: TicketStatus;
  user: UserStatus;
  transfer: TransferStatus;
}
export type StatusKind = keyof StatusOf;

/** Core's lists, by kind: what the tables must cover (the test checks this at run time too). */
export const STATUS_LISTS: { [K in StatusKind]: readonly StatusOf[K][] } = {
  payment: PAYMENT_STATUS_KEYS,
  withdrawal: WITHDRAWAL_STATUSES,
  stake: STAKE_STATUSES,
  ticket: TICKET_STATUSES,
  user: USER_STATUSES,
  transfer: TRANSFER_STATUSES,
};

/** A status the table does not know (a newer server): grey, a deposit's blue, with its own words capitalised. */
export function presentStatus(kind: StatusKind, status: string): StatusPresentation {
  const s = status.toLowerCase();
  const table: Record<string, StatusPresentation> = STATUS_PRESENTATION[kind];
  if (Object.hasOwn(table, s)) return table[s]!;
  return { label: capitalise(s), tone: kind === 'payment' ? 'info' : 'neutral' };
}

const capitalise = (s: string) => (s ? s.charAt(0).toUpperCase() + s.slice(1).replace(/_/g, ' ') : s);
