import { WITHDRAWAL_STATUSES } from '@app/core/statuses';
import { formatAmount, formatDateTimeShort, shortenAddress } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { toast } from 'sonner';
import { StatusBadge } from '../../../components/status-badge';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';
import { PageHeader } from '../../../components/ui/page-header';
import { admin } from '@app/core/contracts/admin';
import type { DataOut } from '@app/core/contracts/define';
import { errorMessage } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { payoutsQuery, useAdminAction, withdrawalsQuery, type AdminWithdrawal } from '../api/admin-api';
import { AdminTable, StatusFilter } from '../components/admin-table';
import { useAdminList } from '../components/use-admin-list';

type Action = { kind: 'complete' | 'reject' | 'approve'; row: AdminWithdrawal } | null;

export default function AdminWithdrawalsPage() {
  const list = useAdminList('withdrawals', { status: 'pending' });
  const [action, setAction] = useState<Action>(null);
  const [text, setText] = useState('');
  const rows = useQuery(withdrawalsQuery(list.filter.status, list.page));
  const run = useAdminAction((b: { id: string; kind: 'complete' | 'reject' | 'approve'; text: string }) =>
    b.kind === 'complete'
      ? call(admin.completeWithdrawal, { params: { id: b.id }, body: { tx_hash: b.text } })
      : b.kind === 'approve'
        ? call(admin.approveWithdrawal, { params: { id: b.id } })
        : call(admin.rejectWithdrawal, { params: { id: b.id }, body: { reason: b.text } }),
  );
  const submit = async () => {
    if (!action) return;
    try {
      const res = await run.mutateAsync({ id: action.row.id, kind: action.kind, text: text.trim() });
      toast.success(res.message ?? 'Done');
      setAction(null);
      setText('');
    } catch (err) {
      toast.error(errorMessage(err, 'Action failed'));
    }
  };
  return (
    <div>
      <PageHeader title="Withdrawals" subtitle="Pay or refuse withdrawal requests" action={<StatusFilter list={list} options={WITHDRAWAL_STATUSES} />} />
      <SignerPanel />
      <AdminTable<AdminWithdrawal>
        list={list}
        query={rows}
        empty="No withdrawals"
        columns={[
          { header: 'Requested', cell: (w) => formatDateTimeShort(w.createdAt) },
          { header: 'User', cell: (w) => <span className="font-mono">{w.user.username}</span> },
          { header: 'Amount', cell: (w) => `$${formatAmount(w.amount)}` },
          { header: 'Pay out', cell: (w) => `$${formatAmount(w.receive_amount)} (fee ${formatAmount(w.fee)})` },
          { header: 'Network', cell: (w) => w.network },
          {
            header: 'Address',
            cell: (w) => (
              <span className="font-mono text-xs" title={w.wallet_address}>
                {shortenAddress(w.wallet_address)}
              </span>
            ),
          },
          {
            header: 'Status',
            cell: (w) => <StatusBadge kind="withdrawal" status={w.status} />,
          },
          {
            header: 'Action',
            // Not kept on one line: the signer's held reason or a failed transaction's note wraps under the buttons.
            className: 'text-slate-200',
            cell: (w) =>
              w.status === 'pending' || w.status === 'approved' ? (
                <div className="flex flex-col gap-1">
                  <div className="flex gap-2">
                    {w.can_approve && (
                      <Button className="px-3 py-1.5 text-xs" onClick={() => setAction({ kind: 'approve', row: w })}>
                        Approve
                      </Button>
                    )}
                    {w.status === 'pending' && (
                      <Button
                        variant={w.can_approve ? 'secondary' : 'primary'}
                        className="px-3 py-1.5 text-xs"
                        onClick={() => setAction({ kind: 'complete', row: w })}
                      >
                        Complete
                      </Button>
                    )}
                    <Button variant="danger" className="px-3 py-1.5 text-xs" onClick={() => setAction({ kind: 'reject', row: w })}>
                      Reject
                    </Button>
                  </div>
                  {w.payout_note && <span className="max-w-xs text-xs text-amber-300 sm:min-w-48">{w.payout_note}</span>}
                </div>
              ) : (
                <span className="font-mono text-xs text-slate-400" title={w.tx_hash ?? undefined}>
                  {w.tx_hash ? `${w.payout_nonce !== null ? `nonce ${w.payout_nonce} · ` : ''}${shortenAddress(w.tx_hash)}` : (w.reject_reason ?? '-')}
                </span>
              ),
          },
        ]}
      />
      <Modal
        open={action !== null}
        onClose={() => setAction(null)}
        title={action?.kind === 'complete' ? 'Complete withdrawal' : action?.kind === 'approve' ? 'Approve withdrawal' : 'Reject withdrawal'}
        description={action ? `$${formatAmount(action.row.receive_amount)} to ${action.row.wallet_address} (${action.row.network})` : undefined}
      >
        {action?.kind === 'approve' ? (
          <p className="text-sm text-slate-300">The signer pays it from the hot wallet; it is completed once its transaction is final on chain.</p>
        ) : (
          <>
            <label htmlFor="admin-action-text" className="label">
              {action?.kind === 'complete' ? 'Payout transaction hash' : 'Reason (the full amount returns to the user)'}
            </label>
            <input id="admin-action-text" className="input" value={text} onChange={(e) => setText(e.target.value)} />
          </>
        )}
        <div className="mt-4 flex justify-end gap-2">
          <Button variant="secondary" onClick={() => setAction(null)}>
            Cancel
          </Button>
          <Button
            variant={action?.kind === 'reject' ? 'danger' : 'primary'}
            disabled={(action?.kind !== 'approve' && !text.trim()) || run.isPending}
            onClick={() => void submit()}
          >
            {run.isPending
              ? 'Processing...'
              : action?.kind === 'complete'
                ? 'Mark as paid'
                : action?.kind === 'approve'
                  ? 'Approve payout'
                  : 'Reject and refund'}
          </Button>
        </div>
      </Modal>
    </div>
  );
}

/**
 * With PAYOUTS=signer: the payout queue by state, the signer's last contact, its limits used today
 * and the hot wallet as the signer last reported them (custody.md section 6). Nothing with manual payouts.
 */
function SignerPanel() {
  const q = useQuery(payoutsQuery());
  const v = q.data;
  if (!v || v.mode !== 'signer') return null;
  const ago = v.signer ? Math.max(0, Math.round((Date.now() - new Date(v.signer.last_contact_at).getTime()) / 1000)) : null;
  return (
    <section aria-label="Signer" className="card mb-4 grid gap-3 p-4 text-sm sm:grid-cols-3">
      <div>
        <h2 className="font-semibold text-white">Signer</h2>
        <p className={ago === null || ago > 120 ? 'text-red-300' : 'text-slate-300'}>
          {ago === null ? 'Never in contact' : `Last contact ${ago < 60 ? `${ago} s` : `${Math.round(ago / 60)} min`} ago`}
        </p>
        <p className="text-slate-400">
          Queue: {v.queue.approved} approved ({v.queue.held} held), {v.queue.sent} sent
        </p>
      </div>
      <div>
        <h3 className="font-semibold text-white">Limits used today</h3>
        {v.signer?.limits.map((l) => (
          <p key={l.network} className="text-slate-300">
            {l.network.toUpperCase()}: ${formatAmount(l.used)} of ${formatAmount(l.limit)} (max ${formatAmount(l.max_payout)} each)
          </p>
        ))}
      </div>
      <div>
        <h3 className="font-semibold text-white">Hot wallet</h3>
        {v.signer?.hot.map((h) => (
          <p key={h.network} className="text-slate-300" title={h.address}>
            {h.network.toUpperCase()}: ${formatAmount(h.token)} USDT, gas {h.gas}
          </p>
        ))}
      </div>
      {v.reconciliation.map((r) => (
        <p key={r.network} className={`sm:col-span-3 ${r.flagged ? 'text-red-300' : 'text-slate-400'}`}>
          {r.network.toUpperCase()}: addresses ${formatAmount(r.on_deposit_addresses)} + hot {r.hot === null ? 'unknown' : `$${formatAmount(r.hot)}`} + cold $
          {formatAmount(r.swept_to_cold)} = credited ${formatAmount(r.credited)} − paid ${formatAmount(r.paid_out)}
          {r.flagged ? ` (difference $${formatAmount(r.difference)})` : ' ✓'}
        </p>
      ))}
      <Sweeps sweeps={v.sweeps} />
    </section>
  );
}

type PayoutSweeps = DataOut<typeof admin.payouts>['sweeps'];

/** A transaction hash shortened, linked to the network's explorer when it has one. */
function TxLink({ hash, url, label }: { hash: string; url: string | null; label: string }) {
  const text = `${label} ${shortenAddress(hash)}`;
  return url ? (
    // A fingertip's height on a phone, where the two links stack (margins given back would lay one
    // link's touch area over the other's); a line's height side by side on a desktop.
    <a
      href={url}
      target="_blank"
      rel="noreferrer noopener"
      title={hash}
      className="inline-flex min-h-11 items-center font-mono text-brand-400 hover:underline sm:min-h-0"
    >
      {text}
    </a>
  ) : (
    <span title={hash} className="font-mono">
      {text}
    </span>
  );
}

/**
 * The latest sweeps the server recorded (each one found final on chain): where the token went, the
 * gas top-up and the token transfer with their explorer links. One item per line on a phone, not a
 * table: a sweep has two hashes and an address, which no phone-width row holds.
 */
function Sweeps({ sweeps }: { sweeps: PayoutSweeps }) {
  return (
    <section aria-label="Sweeps" className="sm:col-span-3">
      <h3 className="font-semibold text-white">Sweeps{sweeps.total > sweeps.items.length ? ` (latest ${sweeps.items.length} of ${sweeps.total})` : ''}</h3>
      {!sweeps.items.length ? (
        <p className="text-slate-400">No sweeps yet: deposit addresses holding at least the sweep minimum are swept by the signer.</p>
      ) : (
        <ul className="mt-1 divide-y divide-white/5">
          {sweeps.items.map((s) => (
            <li key={s.id} data-testid="sweep" className="flex flex-wrap items-baseline gap-x-3 gap-y-1 py-2 text-xs text-slate-300">
              <span className="text-sm font-semibold text-white">
                {s.network.toUpperCase()} ${formatAmount(s.amount)} → {s.destination === 'hot' ? 'hot wallet' : 'cold wallet'}
              </span>
              <span className="text-slate-400">
                {formatDateTimeShort(s.recorded_at)} · block {s.block}
              </span>
              <span className="basis-full font-mono text-slate-400" title={s.address}>
                from {shortenAddress(s.address)}
              </span>
              {s.gas_tx ? <TxLink hash={s.gas_tx} url={s.gas_explorer_url} label="gas" /> : null}
              <TxLink hash={s.token_tx} url={s.token_explorer_url} label="token" />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
