import type { TActivityItem, THistoryRecord, TProfile, TStakeRow, TTeamMember, TTicket, TUserInfo } from '@app/core/contracts';
import {
  PAYMENT_STATUSES,
  STAKE_STATUSES,
  TICKET_STATUSES,
  TRANSFER_STATUSES,
  USER_STATUSES,
  WITHDRAWAL_STATUSES,
  type PaymentStatus,
  type StakeStatus,
  type UserStatus,
  type WithdrawalStatus,
} from '@app/core/statuses';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { StatusBadge } from '../components/status-badge';
import ActivityRows from '../features/dashboard/components/activity-rows';
import DashboardPage from '../features/dashboard/pages/dashboard-page';
import ProfilePage from '../features/profile/pages/profile-page';
import { profileQueryOptions } from '../features/profile/api/profile';
import StakingHistoryPage from '../features/staking/pages/staking-history-page';
import { stakeHistoryQueryOptions } from '../features/staking/api/staking-api';
import { TicketTable } from '../features/support/components/ticket-table';
import { ticketsQueryOptions } from '../features/support/api/tickets';
import TeamPage from '../features/team/pages/team-page';
import { teamQueryOptions } from '../features/team/api/team-api';
import { DetailsDialog } from '../features/transactions/components/details-dialog';
import { HistoryStatus } from '../features/transactions/components/history-cells';
import AdminPaymentsPage from '../features/admin/pages/admin-payments-page';
import AdminTicketsPage from '../features/admin/pages/admin-tickets-page';
import AdminUserDetailPage from '../features/admin/pages/admin-user-detail-page';
import AdminUsersPage from '../features/admin/pages/admin-users-page';
import AdminWithdrawalsPage from '../features/admin/pages/admin-withdrawals-page';
import {
  paymentsQuery,
  ticketsQuery,
  userQuery,
  usersQuery,
  withdrawalsQuery,
  type AdminPayment,
  type AdminTicket,
  type AdminUserDetail,
  type AdminUserRow,
  type AdminWithdrawal,
} from '../features/admin/api/admin-api';
import type { HistoryType } from '../lib/history-api';
import { userInfoQueryOptions } from '../lib/shared-queries';
import { STATUS_PRESENTATION, type StatusKind } from '../lib/status-presentation';

// The dialog's portal needs a document: here it renders its content in place, when open.
vi.mock('../components/ui/modal', () => ({
  Modal: ({ open, title, children }: { open: boolean; title: string; children: ReactNode }) =>
    open ? (
      <div role="dialog" aria-label={title}>
        {children}
      </div>
    ) : null,
}));

/**
 * Every status of every record, in every place a status shows (docs/ux-rules.md, "Statuses"): the
 * same words and colour everywhere. The expectations are written here by hand, not read from
 * lib/status-presentation.ts, so a change to the table fails until this agrees. Deposits' amounts
 * and panel are checked in payment-status.test.tsx.
 */
type Colour = 'purple' | 'sky' | 'amber' | 'emerald' | 'red' | 'slate';
const EXPECTED: Record<StatusKind, Record<string, [words: string, colour: Colour]>> = {
  payment: {
    waiting: ['Waiting', 'purple'],
    confirming: ['Confirming…', 'sky'],
    confirmed: ['Confirming…', 'sky'],
    sending: ['Confirming…', 'sky'],
    partially_paid: ['Partially paid', 'amber'],
    finished: ['Finished', 'emerald'],
    failed: ['Failed', 'red'],
    refunded: ['Refunded', 'slate'],
    expired: ['Expired', 'red'],
    cancelled: ['Cancelled', 'slate'],
  },
  // Rejected is red in every place (it was grey on /transaction and red elsewhere).
  withdrawal: {
    pending: ['Pending', 'amber'],
    approved: ['Approved', 'sky'],
    sent: ['Sent', 'sky'],
    completed: ['Completed', 'emerald'],
    rejected: ['Rejected', 'red'],
  },
  stake: { active: ['Active', 'emerald'], completed: ['Completed', 'emerald'] },
  ticket: { open: ['Open', 'emerald'], answered: ['Answered', 'sky'], closed: ['Closed', 'red'] },
  // Inactive is red everywhere (it was grey on the admin pages and red on the user's own).
  user: { active: ['Active', 'emerald'], inactive: ['Inactive', 'red'], blocked: ['Blocked', 'red'] },
  transfer: { completed: ['Completed', 'emerald'] },
};

/** Core's lists, read here from core itself (payment with the browser's `cancelled`). */
const CORE: Record<StatusKind, readonly string[]> = {
  payment: [...PAYMENT_STATUSES, 'cancelled'],
  withdrawal: WITHDRAWAL_STATUSES,
  stake: STAKE_STATUSES,
  ticket: TICKET_STATUSES,
  user: USER_STATUSES,
  transfer: TRANSFER_STATUSES,
};
const KINDS = Object.keys(CORE) as StatusKind[];

interface Shown {
  kind: string;
  status: string;
  words: string;
  colour: string;
}
/** Every status badge in the markup: its kind, status, words and the colour family of its text. */
function badgesOf(html: string): Shown[] {
  const out: Shown[] = [];
  // The words, after the dot an answered ticket has.
  for (const m of html.matchAll(/<span class="([^"]*)" data-tone="[^"]*" data-kind="([^"]*)" data-status="([^"]*)">((?:<span[^>]*><\/span>)?[^<]*)<\/span>/g)) {
    out.push({ kind: m[2]!, status: m[3]!, words: m[4]!.replace(/<[^>]*>/g, ''), colour: /text-(\w+)-\d00/.exec(m[1]!)?.[1] ?? '?' });
  }
  return out;
}
const expected = (kind: StatusKind, status: string): Shown => ({ kind, status, words: EXPECTED[kind][status]![0], colour: EXPECTED[kind][status]![1] });

/**
 * What a place must show: one badge of `kind` for each of `statuses` (in that order, once or more:
 * a table draws a row twice, as a phone card and as a table row), each as EXPECTED says.
 */
function expectBadges(html: string, kind: StatusKind, statuses: readonly string[]) {
  const shown = badgesOf(html);
  expect([...new Set(shown.map((b) => b.status))]).toEqual([...new Set(statuses)]);
  for (const b of shown) expect(b).toEqual(expected(kind, b.status));
}

const T0 = '2026-11-20T10:00:00.000Z';
const page = <T,>(data: T[]) => ({ data, pagination: { total: data.length, page: 1, perPage: 10 } });

/** Renders `node` with a query cache holding `seed` (key, data) and a router at `path`. */
function render(node: ReactNode, seed: [readonly unknown[], unknown][] = [], path = '/', route?: string) {
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  for (const [key, data] of seed) qc.setQueryData(key, data);
  return renderToStaticMarkup(
    <QueryClientProvider client={qc}>
      <MemoryRouter initialEntries={[path]}>
        {route ? (
          <Routes>
            <Route path={route} element={node} />
          </Routes>
        ) : (
          node
        )}
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('one table per kind of record, covering core', () => {
  for (const kind of KINDS) {
    it(`${kind}: every status in core has its words and colour, and nothing else is in the table`, () => {
      expect(Object.keys(STATUS_PRESENTATION[kind]).sort()).toEqual([...CORE[kind]].sort());
      expect(Object.keys(EXPECTED[kind]).sort()).toEqual([...CORE[kind]].sort());
    });
  }

  it('StatusBadge draws every status of every kind as the table says', () => {
    for (const kind of KINDS) {
      for (const status of CORE[kind]) expect(badgesOf(renderToStaticMarkup(<StatusBadge kind={kind} status={status} />))).toEqual([expected(kind, status)]);
    }
  });

  it('a status the table does not know shows its own words in grey (a deposit in blue), not a crash', () => {
    expect(badgesOf(renderToStaticMarkup(<StatusBadge kind="withdrawal" status="on_hold" />))).toEqual([
      { kind: 'withdrawal', status: 'on_hold', words: 'On hold', colour: 'slate' },
    ]);
    expect(badgesOf(renderToStaticMarkup(<StatusBadge kind="payment" status="wrong_asset_confirmed" />))[0]!.colour).toBe('sky');
    expect(badgesOf(renderToStaticMarkup(<StatusBadge kind="user" status="constructor" />))[0]!.words).toBe('Constructor');
  });
});

const record = (status: string, extra: object = {}): THistoryRecord => ({
  id: status,
  createdAt: T0,
  amount: 20,
  amount_usd: 20,
  status: status as THistoryRecord['status'],
  extra: JSON.stringify({ fee: 1, expected_amount: 19, ...extra }),
});

describe('every place a status shows, every status', () => {
  it('/transaction: the Withdrawals, Transfers and Deposits tabs, and the details dialog', () => {
    const tabs: [HistoryType, StatusKind, readonly string[]][] = [
      ['withdrawal', 'withdrawal', WITHDRAWAL_STATUSES],
      ['transfer', 'transfer', TRANSFER_STATUSES],
      ['transaction', 'payment', PAYMENT_STATUSES],
    ];
    for (const [type, kind, statuses] of tabs) {
      expectBadges(render(statuses.map((s) => <HistoryStatus key={s} record={record(s)} type={type} />)), kind, statuses);
      for (const s of statuses) expectBadges(render(<DetailsDialog record={record(s)} type={type} onClose={() => undefined} />), kind, [s]);
    }
  });

  it("the details dialog of a cancelled deposit says 'Cancelled', not 'Payment window expired'", () => {
    const cancelled = record('expired', { status_description: 'Payment window expired', cancelled_at: T0 });
    const html = render(<DetailsDialog record={cancelled} type="transaction" onClose={() => undefined} />);
    expectBadges(html, 'payment', ['cancelled']);
    expect(html).toContain('<dd class="ml-auto min-w-0 text-right text-slate-100">Cancelled</dd>');
    expect(html).not.toContain('Payment window expired');
    // Known by its history too: the user's own `expired` (payments/service.ts cancelPayment).
    const byHistory = record('expired', { status_description: 'Payment window expired', history: [{ status: 'expired', at: T0, by: 'user' }] });
    expect(render(<DetailsDialog record={byHistory} type="transaction" onClose={() => undefined} />)).not.toContain('Payment window expired');
    // One whose window ran out keeps the gateway's words.
    const expired = record('expired', { status_description: 'Payment window expired', history: [{ status: 'expired', at: T0, by: 'poller' }] });
    const html2 = render(<DetailsDialog record={expired} type="transaction" onClose={() => undefined} />);
    expectBadges(html2, 'payment', ['expired']);
    expect(html2).toContain('Payment window expired');
  });

  it("the dashboard's Recent Activities: stakes, withdrawals and deposits", () => {
    const items: TActivityItem[] = [
      ...STAKE_STATUSES.map((status): TActivityItem => ({ recordType: 'staking', id: `s-${status}`, createdAt: T0, amount_usd: 50, status })),
      ...WITHDRAWAL_STATUSES.map((status): TActivityItem => ({ recordType: 'withdrawal', id: `w-${status}`, createdAt: T0, amount_usd: 20, status })),
      ...PAYMENT_STATUSES.map((status): TActivityItem => ({ recordType: 'transaction', id: `p-${status}`, createdAt: T0, amount: 20, status })),
    ];
    const shown = badgesOf(render(<ActivityRows items={items} />));
    expect(shown).toEqual([
      ...STAKE_STATUSES.map((s) => expected('stake', s)),
      ...WITHDRAWAL_STATUSES.map((s) => expected('withdrawal', s)),
      ...PAYMENT_STATUSES.map((s) => expected('payment', s)),
    ]);
  });

  it('/staking/history', () => {
    const rows = STAKE_STATUSES.map((status, i): TStakeRow => ({
      id: String(i + 1),
      createdAt: T0,
      type: 'stake',
      amount_usd: 50,
      status,
      start_date: '2026-11-20',
      days_elapsed: 1,
      earned: 1,
      cap: 100,
    }));
    expectBadges(render(<StakingHistoryPage />, [[stakeHistoryQueryOptions(1, {}).queryKey, page(rows)]], '/staking/history'), 'stake', STAKE_STATUSES);
  });

  it('/support: the ticket history', () => {
    const rows = TICKET_STATUSES.map((status, i): TTicket => ({
      id: String(i + 1),
      type: 'general',
      message: 'A question',
      status,
      createdAt: T0,
      adminRemark: null,
      replies: [],
    }));
    expectBadges(render(<TicketTable page={1} onPage={() => undefined} />, [[ticketsQueryOptions(1).queryKey, page(rows)]]), 'ticket', TICKET_STATUSES);
  });

  it('/team', () => {
    const rows = USER_STATUSES.map((status, i): TTeamMember => ({ avatar: null, username: `member00${i}`, name: `Member ${i}`, createdAt: T0, status }));
    expectBadges(render(<TeamPage />, [[teamQueryOptions(1).queryKey, page(rows)]]), 'user', USER_STATUSES);
  });

  for (const status of USER_STATUSES) {
    it(`/profile and /dashboard, a user ${status}`, () => {
      const profile: TProfile = { avatar: null, name: 'Ann', username: 'ann000001', email: 'ann@example.test', referral_id: null, status, active_date: null };
      expectBadges(render(<ProfilePage />, [[profileQueryOptions().queryKey, profile]]), 'user', [status]);
      const info: TUserInfo = {
        name: 'Ann',
        username: 'ann000001',
        status,
        eligible_level: 0,
        user_detail: { deposit_balance: 0, total_staked: 0, total_income: 0, roi_income: 0, direct_referral_income: 0, reward_income: 0, balance: 0 },
        activity: [],
      };
      // The referral link reads the page's origin.
      vi.stubGlobal('window', { location: { origin: 'https://usdt.example.test' } });
      try {
        expectBadges(render(<DashboardPage />, [[userInfoQueryOptions().queryKey, info]], '/dashboard'), 'user', [status]);
      } finally {
        vi.unstubAllGlobals();
      }
    });
  }

  it('/admin/users', () => {
    const rows = USER_STATUSES.map((status, i): AdminUserRow => ({
      id: String(i + 1),
      name: `U ${i}`,
      email: `u${i}@example.test`,
      username: `user0000${i}`,
      status,
      is_admin: false,
      eligible_level: 0,
      verified: true,
      createdAt: T0,
    }));
    expectBadges(render(<AdminUsersPage />, [[usersQuery('', 1).queryKey, page(rows)]]), 'user', USER_STATUSES);
  });

  it('/admin/payments', () => {
    const rows = PAYMENT_STATUSES.map((status: PaymentStatus, i): AdminPayment => ({
      id: String(i + 1),
      payment_id: `90000000${i}`,
      user: { id: '1', username: 'ann000001' },
      pay_currency: 'usdtbsc',
      price_amount: 20,
      actually_paid: 0,
      credited_amount: 0,
      status,
      needs_review: false,
      createdAt: T0,
    }));
    expectBadges(render(<AdminPaymentsPage />, [[paymentsQuery('', 1).queryKey, page(rows)]]), 'payment', PAYMENT_STATUSES);
  });

  it('/admin/withdrawals', () => {
    const rows = WITHDRAWAL_STATUSES.map((status: WithdrawalStatus, i): AdminWithdrawal & { user: { id: string; username: string; email: string } } => ({
      id: String(i + 1),
      user_id: '1',
      amount: 20,
      fee: 1,
      receive_amount: 19,
      network: 'BSC',
      wallet_address: '0x52908400098527886E0F7030069857D2E4169EE7',
      status,
      tx_hash: null,
      reject_reason: null,
      payout_nonce: null,
      payout_note: null,
      can_approve: false,
      createdAt: T0,
      processedAt: null,
      user: { id: '1', username: 'ann000001', email: 'ann@example.test' },
    }));
    expectBadges(render(<AdminWithdrawalsPage />, [[withdrawalsQuery('pending', 1).queryKey, page(rows)]]), 'withdrawal', WITHDRAWAL_STATUSES);
  });

  it('/admin/tickets', () => {
    const rows = TICKET_STATUSES.map((status, i): AdminTicket => ({
      id: String(i + 1),
      type: 'general',
      message: 'A question',
      status,
      createdAt: T0,
      adminRemark: null,
      replies: [],
      user: { id: '1', username: 'ann000001', email: 'ann@example.test', name: 'Ann' },
      closedAt: null,
    }));
    expectBadges(render(<AdminTicketsPage />, [[ticketsQuery('open', 1).queryKey, page(rows)]]), 'ticket', TICKET_STATUSES);
  });

  for (const status of USER_STATUSES) {
    it(`/admin/users/:id, a user ${status}, with a stake, a payment and a withdrawal of every status`, () => {
      const detail: AdminUserDetail = {
        user: {
          id: '7',
          name: 'Ann',
          email: 'ann@example.test',
          username: 'ann000001',
          status: status as UserStatus,
          is_admin: false,
          eligible_level: 0,
          verified: true,
          createdAt: T0,
          referrer: null,
          active_date: null,
        },
        balances: { deposit: 0, income: 0 },
        totals: {},
        team: { total_directs: 0, total_direct_business: 0, total_network: 0, team_business: { users: 0, amount: 0 } },
        ledger: [],
        stakes: STAKE_STATUSES.map((s: StakeStatus, i) => ({ id: `s${i}`, amount: 50, roi_paid: 0, status: s, createdAt: T0 })),
        payments: PAYMENT_STATUSES.map((s, i) => ({ id: `p${i}`, payment_id: `9${i}`, status: s, amount: 20, credited: 0, createdAt: T0 })),
        withdrawals: WITHDRAWAL_STATUSES.map((s, i) => ({ id: `w${i}`, amount: 20, status: s, network: 'BSC', createdAt: T0 })),
      };
      const shown = badgesOf(render(<AdminUserDetailPage />, [[userQuery('7').queryKey, detail]], '/admin/users/7', '/admin/users/:id'));
      expect(shown).toEqual([
        expected('user', status),
        ...STAKE_STATUSES.map((s) => expected('stake', s)),
        ...PAYMENT_STATUSES.map((s) => expected('payment', s)),
        ...WITHDRAWAL_STATUSES.map((s) => expected('withdrawal', s)),
      ]);
    });
  }
});

/**
 * No file but the presentation module maps a status to a colour or to words. Kept simple, one line
 * at a time: a status of core compared or listed and then a badge tone or a Tailwind colour given
 * for it, a table entry of a status with a tone or a colour, a tone computed from a status, a
 * `Record<…Status, …>`, a function answering a `BadgeTone`, or a Badge whose words are a raw status.
 * lib/payment-status.ts is the deposit's amount table (which amount, in which colour): it is the
 * other half of the payment entry, and is exempt.
 */
describe('no other status → colour or words map in apps/web/src', () => {
  const ROOT = fileURLToPath(new URL('..', import.meta.url));
  const OWNERS = new Set(['lib/status-presentation.ts', 'lib/payment-status.ts', 'components/status-badge.tsx', 'components/ui/badge.tsx']);
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (/\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name)) files.push(p);
    }
  };
  walk(ROOT);

  const S = `(?:${[...new Set(Object.values(CORE).flat())].join('|')})`;
  const TONE = `['"](?:success|warning|danger|info|neutral|secondary|purple|pink)['"]`;
  const COLOUR = `['"\`][^'"\`]*\\b(?:text|bg|ring|border)-(?:red|rose|emerald|green|amber|yellow|sky|blue|slate|gray|purple|pink)-\\d00\\b`;
  const RULES: [string, RegExp][] = [
    ['a status compared, then a tone or colour for it', new RegExp(`(?:===|!==)\\s*['"]${S}['"][^;]*?(?:\\?|&&|return)\\s*(?:${TONE}|${COLOUR})`, 'i')],
    [
      'statuses listed, then a tone or colour for them',
      new RegExp(`\\[[^\\]]*['"]${S}['"][^\\]]*\\]\\.includes\\([^)]*\\)\\)?\\s*return\\s*(?:${TONE}|${COLOUR})`, 'i'),
    ],
    ['a table entry: a status and its tone or colour', new RegExp(`^\\s*['"]?${S}['"]?\\s*:\\s*(?:\\{[^}]*\\btone\\s*:\\s*)?(?:${TONE}|${COLOUR})`, 'i')],
    ['a tone computed from a status', /tone=\{[^}]*status/i],
    ['a table keyed by a status type', /Record<\s*\w*Status\w*\s*,/],
    ['a function answering a tone', /\)\s*:\s*BadgeTone\b/],
    ['a badge showing a raw status', /<Badge\b[^>]*>\s*\{[^}]*\.status\b/],
  ];
  // A button's variant is not a badge's tone, though two of their names are the same ('danger').
  const hits = (line: string) => {
    const text = line.replace(/variant=\{[^}]*\}/g, '');
    return RULES.filter(([, re]) => re.test(text)).map(([rule]) => rule);
  };

  it('finds the old maps (a sample of each shape)', () => {
    const old = [
      "if (['failed', 'error', 'expired'].includes(s)) return 'danger';",
      "if (status === 'pending') return 'warning';",
      "cell: (w) => <Badge tone={w.status === 'completed' ? 'success' : 'warning'}>{w.status}</Badge>,",
      '<Badge tone={tone(r.status)}>{r.status}</Badge>',
      "<span className={status === 'rejected' ? 'text-red-300' : 'text-slate-300'}>",
      "  rejected: 'text-red-300',",
      "  rejected: { label: 'Rejected', tone: 'danger' },",
      'const WITHDRAWAL: Record<WithdrawalStatus, string> = {',
      'function tone(status: string): BadgeTone {',
    ];
    for (const line of old) expect(hits(line), line).not.toEqual([]);
    // And the one module's own tables: one hit per status of every kind, and one per table's type.
    const own = readFileSync(join(ROOT, 'lib/status-presentation.ts'), 'utf8')
      .split('\n')
      .filter((line) => hits(line).length > 0);
    expect(own.length).toBe(Object.values(CORE).flat().length + KINDS.length);
  });

  it('lib/status-presentation.ts is the only place', () => {
    const found: string[] = [];
    for (const file of files) {
      const rel = relative(ROOT, file).split('\\').join('/');
      if (OWNERS.has(rel)) continue;
      readFileSync(file, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          for (const rule of hits(line)) found.push(`${rel}:${i + 1} ${rule}: ${line.trim()}`);
        });
    }
    expect(files.length).toBeGreaterThan(100);
    expect(found).toEqual([]);
  });
});
