import type { TDemoPayment, THistoryRecord, TPendingPayment } from '@app/core/contracts';
import type { PaymentStatus } from '@app/core/statuses';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PaymentPanel } from '../features/deposits/components/payment-panel';
import ActivityRows from '../features/dashboard/components/activity-rows';
import { PendingList } from '../features/deposits/components/pending-list';
import { HistoryAmount, HistoryStatus } from '../features/transactions/components/history-cells';
import { PAYMENT_STATUS_KEYS } from '../lib/payment-status';

/**
 * The payment status table (lib/payment-status.ts, docs/ux-rules.md) rendered in the four places
 * that read it: the payment panel, a 'Pending Payments' card, a /transaction row and the dashboard's
 * Recent Activities. Each status must have the same colour, words and amount rule in all four. The expectations are written
 * here by hand, not read from the table, so a change to the table fails until this agrees.
 */
type Colour = 'purple' | 'sky' | 'amber' | 'emerald' | 'red' | 'slate' | 'white';
const ASKED = 20;
const ROWS: {
  status: PaymentStatus;
  cancelled?: boolean;
  received: number;
  badge: Colour;
  words: string;
  /** the amount in USDT (panel and pending card); /transaction writes the same figures with $ */
  amount: string;
  amountColour: Colour;
  closed: boolean;
}[] = [
  { status: 'waiting', received: 0, badge: 'purple', words: 'Waiting', amount: '20.00 USDT', amountColour: 'white', closed: false },
  { status: 'confirming', received: 12, badge: 'sky', words: 'Confirming…', amount: '12.00 of 20.00 USDT', amountColour: 'white', closed: false },
  { status: 'confirmed', received: 12, badge: 'sky', words: 'Confirming…', amount: '12.00 of 20.00 USDT', amountColour: 'white', closed: false },
  { status: 'sending', received: 12, badge: 'sky', words: 'Confirming…', amount: '12.00 of 20.00 USDT', amountColour: 'white', closed: false },
  { status: 'partially_paid', received: 12, badge: 'amber', words: 'Partially paid', amount: '12.00 of 20.00 USDT', amountColour: 'amber', closed: true },
  { status: 'finished', received: 20, badge: 'emerald', words: 'Finished', amount: '20.00 USDT', amountColour: 'emerald', closed: true },
  { status: 'failed', received: 0, badge: 'red', words: 'Failed', amount: '0.00 of 20.00 USDT', amountColour: 'slate', closed: true },
  { status: 'refunded', received: 0, badge: 'slate', words: 'Refunded', amount: '0.00 of 20.00 USDT', amountColour: 'slate', closed: true },
  { status: 'expired', received: 0, badge: 'red', words: 'Expired', amount: '0.00 of 20.00 USDT', amountColour: 'slate', closed: true },
  { status: 'expired', cancelled: true, received: 0, badge: 'slate', words: 'Cancelled', amount: '0.00 of 20.00 USDT', amountColour: 'slate', closed: true },
];

const extraOf = (r: (typeof ROWS)[number]) =>
  JSON.stringify({
    amount_received: r.received,
    expected_amount: ASKED,
    pay_currency: 'USDT',
    status_description: null,
    confirmations_received: 0,
    last_transaction_hash: null,
    cancelled_at: r.cancelled ? '2026-11-20T10:01:00.000Z' : null,
  });

const ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';
const payment: TDemoPayment = {
  paymentId: '9000000001',
  status: 'waiting',
  amount: ASKED,
  payAmount: ASKED,
  payCurrency: 'usdtbsc',
  payAddress: ADDRESS,
  timedout_at: new Date(Date.now() + 200_000).toISOString(),
  extra: null,
  meta_data: { token: { iconUrl: '', symbol: 'USDT', name: 'Tether USD' }, chain: { iconUrl: '', name: 'Binance Smart Chain' } },
};

const noop = () => undefined;
const render = (node: React.ReactNode) => renderToStaticMarkup(<MemoryRouter>{node}</MemoryRouter>);

/** The badge: its words and the colour family of its text. */
function badgeOf(html: string): { words: string; colour: string } {
  const m = /<span class="([^"]*)" data-tone="[^"]*" data-kind="payment" data-status="[^"]*">([^<]*)<\/span>/.exec(html);
  if (!m) throw new Error(`no status badge in ${html.slice(0, 300)}`);
  return { words: m[2]!, colour: /text-(\w+)-\d00/.exec(m[1]!)?.[1] ?? '?' };
}
/** The amount element (by its test id, or the first `font-semibold` span): its text and colour family. */
function amountOf(html: string, testId?: string): { text: string; colour: string } {
  const re = testId ? new RegExp(`<span class="([^"]*)" data-testid="${testId}">([^<]*)</span>`) : /<span class="(font-semibold[^"]*)">([^<]*)<\/span>/;
  const m = re.exec(html);
  if (!m) throw new Error(`no amount in ${html.slice(0, 300)}`);
  return { text: m[2]!.replace(/&amp;/g, '&'), colour: /text-(\w+)(-\d00)?(\s|$)/.exec(m[1]!.replace('font-semibold', ''))?.[1] ?? '?' };
}

describe('the payment status table in the panel, the pending list, /transaction and the dashboard', () => {
  it('covers every status the gateway reports, and cancelled', () => {
    expect([...new Set(ROWS.map((r) => (r.cancelled ? 'cancelled' : r.status)))]).toEqual([...PAYMENT_STATUS_KEYS]);
  });

  for (const r of ROWS) {
    const name = r.cancelled ? 'cancelled' : r.status;
    it(`${name}: ${r.badge} '${r.words}', amount '${r.amount}' (${r.amountColour}) in all four places`, () => {
      // The payment panel.
      const panel = render(
        <PaymentPanel
          payment={payment}
          status={r.status}
          extra={extraOf(r)}
          startedAt={Date.now()}
          onCancel={noop}
          onCheck={noop}
          checking={false}
          sandbox={false}
          onSimulate={noop}
          simulating={false}
          onNew={noop}
        />,
      );
      expect(badgeOf(panel)).toEqual({ words: r.words, colour: r.badge });
      expect(amountOf(panel, 'panel-amount')).toEqual({ text: r.amount, colour: r.amountColour });
      // A closed payment shows no QR and no address, and says so.
      expect(panel.includes('data-testid="payment-qr"')).toBe(!r.closed);
      expect(panel.includes(ADDRESS.slice(2, 6))).toBe(!r.closed);
      expect(panel.includes('This address is closed, do not send to it')).toBe(r.closed);

      // A 'Pending Payments' card.
      const card: TPendingPayment = {
        id: '1',
        payment_id: '9000000001',
        status: r.status,
        createdAt: '2026-11-20T10:00:00.000Z',
        amount: ASKED,
        pay_amount: ASKED,
        pay_currency: 'usdtbsc',
        pay_address: ADDRESS,
        timedout_at: null,
        confirmations: 0,
        required_confirmations: null,
        extra: extraOf(r),
      };
      const pending = render(<PendingList items={[card]} loading={false} error={null} onRefresh={async () => undefined} onOpen={noop} activeId={null} />);
      expect(badgeOf(pending)).toEqual({ words: r.words, colour: r.badge });
      expect(amountOf(pending)).toEqual({ text: r.amount, colour: r.amountColour });

      // A row of /transaction (Deposits): the same figures in dollars.
      const record: THistoryRecord = {
        id: '1',
        createdAt: card.createdAt,
        amount: r.received || ASKED,
        amount_usd: ASKED,
        status: r.status,
        extra: extraOf(r),
      };
      const row = render(
        <>
          <HistoryAmount record={record} type="transaction" />
          <HistoryStatus record={record} type="transaction" />
        </>,
      );
      expect(badgeOf(row)).toEqual({ words: r.words, colour: r.badge });
      const dollars = r.amount.replace(' USDT', '').replace(/(\d+\.\d\d)/g, '$$$1');
      expect(amountOf(row, 'history-amount')).toEqual({ text: dollars, colour: r.amountColour });

      // The dashboard's Recent Activities: the same figures in dollars (it showed one amount before,
      // "$12.00" in amber for a partial payment, where /transaction said "$12.00 of $20.00").
      const activity = render(
        <ActivityRows
          items={[
            {
              recordType: 'transaction',
              id: '1',
              createdAt: card.createdAt,
              amount: r.received || ASKED,
              received: r.received,
              asked: ASKED,
              status: r.status,
              cancelled_at: r.cancelled ? '2026-11-20T10:01:00.000Z' : null,
            },
          ]}
        />,
      );
      expect(badgeOf(activity)).toEqual({ words: r.words, colour: r.badge });
      expect(amountOf(activity, 'activity-amount')).toEqual({ text: dollars, colour: r.amountColour });
    });
  }
});
