import type { THistoryRecord } from '@app/core/contracts';
import { formatAmount, formatDateTime, shortenAddress } from '@app/core/format';
import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import type { HistoryType } from '../../../lib/history-api';
import { parseExtra, type Extra } from '../../../lib/history-record';
import { paymentStatusKey } from '../../../lib/payment-status';
import { presentStatus } from '../../../lib/status-presentation';
import { HistoryAmount, HistoryStatus } from './history-cells';
import { explorerUrl } from './history-format';

function Row({ label, value }: { label: string; value: ReactNode }) {
  return (
    // A value too long to sit beside its label moves under it (flex-wrap) rather than breaking.
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-0.5 py-1.5 text-sm">
      <dt className="text-slate-400">{label}</dt>
      <dd className="ml-auto min-w-0 text-right text-slate-100">{value}</dd>
    </div>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-4">
      <h3 className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-400">{title}</h3>
      <dl className="divide-y divide-white/5 rounded-xl bg-surface-900/70 px-3">{children}</dl>
    </section>
  );
}

const num = (v: unknown) => (typeof v === 'number' ? `${formatAmount(v)} USDT` : 'N/A');

/** A withdrawal's payout line, in every state: on approval while pending, nothing once rejected (the full amount came back). */
function sentToWallet(status: string, receive: unknown): string {
  const s = status.toLowerCase();
  if (s === 'rejected') return 'Nothing: the full amount was returned';
  return s === 'pending' ? `${num(receive)} on approval` : num(receive);
}

/**
 * The Description line. A deposit the user cancelled is kept `expired` by the server, whose
 * description is then 'Payment window expired': it says "Cancelled", as its badge does.
 */
function description(record: THistoryRecord, type: HistoryType, e: Extra): string {
  if (type === 'transaction' && paymentStatusKey(record.status, e) === 'cancelled') return presentStatus('payment', 'cancelled').label;
  return e.description || e.status_description || 'N/A';
}

/**
 * 'Transaction Details'. The headline amount is the row's own (the same cell): for a withdrawal
 * always what was debited, with the fee and what is sent to the wallet as separate lines in every
 * state (issue 32, item 5: it showed the gross while pending and the net once paid).
 */
export function DetailsDialog({ record, type, onClose }: { record: THistoryRecord | null; type: HistoryType; onClose: () => void }) {
  const e = parseExtra(record?.extra);
  return (
    <Modal open={record !== null} onClose={onClose} title="Transaction Details" description="Complete transaction information">
      {record ? (
        <div>
          <div className="grid grid-cols-3 gap-2 rounded-xl bg-surface-900/70 p-3 text-center">
            <div>
              <p className="text-xs text-slate-400">Amount</p>
              <p data-testid="details-amount">
                <HistoryAmount record={record} type={type} compact />
              </p>
            </div>
            <div>
              <p className="text-xs text-slate-400">Status</p>
              <HistoryStatus record={record} type={type} />
            </div>
            <div>
              <p className="text-xs text-slate-400">Date</p>
              <p className="text-xs text-slate-200">{formatDateTime(record.createdAt)}</p>
            </div>
          </div>
          <Section title="Transaction Information">
            <Row label="Description" value={description(record, type, e)} />
            <Row label="Expected Amount" value={num(e.expected_amount)} />
            <Row label="Amount Received" value={num(e.amount_received)} />
            {type === 'transaction' && typeof e.credited_amount === 'number' ? <Row label="Amount Credited" value={num(e.credited_amount)} /> : null}
            {typeof e.fee === 'number' ? <Row label="Fee" value={num(e.fee)} /> : null}
            {typeof e.fee === 'number' ? <Row label="Sent to your wallet" value={sentToWallet(record.status, e.expected_amount)} /> : null}
          </Section>
          <Section title="Blockchain Details">
            {e.network_code ? <Row label="Network" value={e.network ?? e.network_code} /> : null}
            {typeof e.confirmations_received === 'number' && e.network_code ? (
              <Row
                label="Confirmations"
                value={typeof e.required_confirmations === 'number' ? `${e.confirmations_received} / ${e.required_confirmations}` : e.confirmations_received}
              />
            ) : null}
            {e.not_credited ? <Row label="Not credited" value={<span className="text-amber-300">{e.not_credited}</span>} /> : null}
            <Row label="Wallet Address" value={<span className="font-mono text-xs [overflow-wrap:anywhere]">{shortenAddress(e.wallet_address)}</span>} />
            <Row
              label="Transaction Hash"
              value={
                e.last_transaction_hash ? (
                  // The hash is one short line of small text: the link grows to a fingertip's height and
                  // gives the extra back through its margins, so the row keeps its height.
                  <a
                    href={explorerUrl(e.last_transaction_hash, e)}
                    target="_blank"
                    rel="noreferrer noopener"
                    className="-my-3.5 inline-flex min-h-11 items-center font-mono text-xs text-brand-400 [overflow-wrap:anywhere] hover:underline"
                  >
                    {shortenAddress(e.last_transaction_hash)}
                  </a>
                ) : (
                  'N/A'
                )
              }
            />
          </Section>
          <Section title="Timeline">
            <Row label="Created At" value={formatDateTime(e.created_at ?? record.createdAt)} />
            <Row label="Expires At" value={formatDateTime(e.expires_at)} />
          </Section>
          <div className="mt-5 flex justify-end">
            <Button variant="secondary" onClick={onClose}>
              Close
            </Button>
          </div>
        </div>
      ) : null}
    </Modal>
  );
}
