import { admin } from '@app/core/contracts/admin';
import { formatAmount, formatDateTime } from '@app/core/format';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { AlertTriangle, CheckCircle2 } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { NumberedPagination } from '../../../components/ui/pagination';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { custodyQuery, useAdminAction, type TCustodyView } from '../api/admin-api';

type Network = TCustodyView['networks'][number];

const LABEL: Record<string, string> = { bsc: 'BSC', polygon: 'Polygon', tron: 'Tron' };
const counts = new Intl.NumberFormat('en-US');
const height = (v: number | null) => (v === null ? '—' : counts.format(v));
/** An age in seconds as the operator reads it: 42 s, 3 min, 2 h. */
function age(s: number | null): string {
  if (s === null) return 'never';
  if (s < 120) return `${s} s ago`;
  if (s < 7_200) return `${Math.floor(s / 60)} min ago`;
  return `${Math.floor(s / 3_600)} h ago`;
}

function Figure({ label, value, testId }: { label: string; value: string; testId?: string }) {
  return (
    <div className="rounded-xl bg-surface-900/70 p-3">
      <p className="text-xs text-slate-400">{label}</p>
      <p className="font-mono text-sm font-semibold text-white" data-testid={testId}>
        {value}
      </p>
    </div>
  );
}

function NetworkCard({ n, onResume, resuming, onPage }: { n: Network; onResume: () => void; resuming: boolean; onPage: (p: number) => void }) {
  const r = n.reconciliation;
  return (
    <section className="card space-y-3" aria-label={`${LABEL[n.network] ?? n.network} watcher`} data-testid={`custody-${n.network}`}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-base font-semibold text-white">{LABEL[n.network] ?? n.network}</h2>
        {n.halted ? (
          <Badge tone="danger">Halted</Badge>
        ) : n.state === 'stale' ? (
          <Badge tone="warning">Stale</Badge>
        ) : n.state === 'disputed' ? (
          <Badge tone="danger">Endpoints disagree</Badge>
        ) : (
          <Badge tone="success">Watching</Badge>
        )}
      </div>
      {n.state === 'disputed' ? (
        // A transfer one endpoint reported and another denied: held below, never credited by the watcher.
        <div role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-200" data-testid={`disputed-${n.network}`}>
          <p className="flex items-center gap-2 font-semibold">
            <AlertTriangle className="h-4 w-4" aria-hidden /> The endpoints disagree: {n.reason ?? 'a transfer is held'}
          </p>
          <p>Check the transfer on a block explorer and the endpoint that reported it, then dismiss it under Not credited.</p>
        </div>
      ) : null}
      {n.state === 'stale' ? (
        // The heights below are what the node said last: not the chain's now.
        <div role="alert" className="rounded-xl border border-amber-400/40 bg-amber-400/10 p-3 text-sm text-amber-100" data-testid={`stale-${n.network}`}>
          <p className="flex items-center gap-2 font-semibold">
            <AlertTriangle className="h-4 w-4" aria-hidden /> The node does not answer: {n.reason ?? 'no answer'}
          </p>
          <p>Deposits on this network are not seen until it answers again. Head and lag below are as it last said ({age(n.head_age_s)}).</p>
        </div>
      ) : null}
      {n.halted ? (
        <div role="alert" className="space-y-2 rounded-xl border border-red-500/30 bg-red-500/10 p-3 text-sm text-red-200">
          <p className="flex items-center gap-2 font-semibold">
            <AlertTriangle className="h-4 w-4" aria-hidden /> Crediting stopped: {n.halted_reason ?? 'deep reorg'}
          </p>
          <p>
            Halted {formatDateTime(n.halted_at)}. No balance was changed. Check the node, then resume: the watcher reads the node&apos;s chain again from the
            change.
          </p>
          <Button variant="danger" disabled={resuming} onClick={onResume}>
            {resuming ? 'Processing...' : 'Resume network'}
          </Button>
        </div>
      ) : null}
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
        <Figure label="Head" value={height(n.head)} />
        <Figure label="Scanned" value={height(n.scanned_to)} />
        <Figure label="Final (credited line)" value={height(n.final_height)} />
        <Figure label="Lag (blocks)" value={height(n.lag)} testId={`lag-${n.network}`} />
      </div>
      <p className="text-xs text-slate-400" data-testid={`head-age-${n.network}`}>
        Head first seen {age(n.head_age_s)}; the node last answered {n.answered_at ? formatDateTime(n.answered_at) : 'never'}.
      </p>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-5">
        <Figure label="Seen" value={String(n.deposits.seen)} />
        <Figure label="Credited" value={String(n.deposits.credited)} />
        <Figure label="Under minimum" value={String(n.deposits.below_minimum)} />
        <Figure label="Held" value={String(n.deposits.held)} />
        <Figure label="Orphaned" value={String(n.deposits.orphaned)} />
      </div>
      <div className={`rounded-xl border p-3 text-sm ${r.flagged ? 'border-amber-400/40 bg-amber-400/10' : 'border-emerald-500/30 bg-emerald-500/10'}`}>
        <p className="flex items-center gap-2 font-semibold text-white">
          {r.flagged ? <AlertTriangle className="h-4 w-4 text-amber-300" aria-hidden /> : <CheckCircle2 className="h-4 w-4 text-emerald-400" aria-hidden />}
          {r.flagged ? 'Chain and records differ' : 'Chain matches the records'}
        </p>
        <p className="mt-1 text-slate-300">
          At block {height(r.at_block)}: on our addresses {formatAmount(r.on_chain)} USDT, recorded {formatAmount(r.expected)} USDT, difference{' '}
          <span className="font-mono">{formatAmount(r.difference)}</span>; credited by the ledger {formatAmount(n.credited_total)} USDT.
        </p>
        <p className="mt-1 text-xs text-slate-400" data-testid={`balances-age-${n.network}`}>
          Balances of {counts.format(r.addresses)} addresses read {age(r.age_s)} by the balances job; {counts.format(r.holding)} hold USDT.
        </p>
        {r.error ? <p className="mt-1 text-amber-200">The last balance read failed (the figures above are the previous one): {r.error}</p> : null}
      </div>
      {n.sweep.length ? (
        <details>
          <summary className="cursor-pointer text-sm text-slate-300">
            Addresses holding USDT ({n.sweep_pagination.total}), to sweep with your own wallet
          </summary>
          <ul className="mt-2 space-y-1">
            {n.sweep.map((s) => (
              <li key={s.address} className="flex flex-wrap justify-between gap-2 text-xs">
                <span className="break-all font-mono text-slate-200">{s.address}</span>
                {/* The key's path in the operator's wallet (docs/custody.md, sweeping by hand), as the server derives it. */}
                <span className="font-mono text-slate-400">{s.path}</span>
                <span className="font-mono text-white">{formatAmount(s.balance)} USDT</span>
                <span className="text-slate-400">{age(s.age_s)}</span>
              </li>
            ))}
          </ul>
          <NumberedPagination page={n.sweep_pagination.page} perPage={n.sweep_pagination.perPage} total={n.sweep_pagination.total} onPage={onPage} />
        </details>
      ) : null}
    </section>
  );
}

/** The chain gateway for the operator (custody.md section 4): each network's watcher, its deposits, and the chain against the ledger. */
export default function AdminCustodyPage() {
  const [page, setPage] = useState(1);
  // The previous page stays on screen while the next loads (the list is paged: thousands of addresses).
  const q = useQuery({ ...custodyQuery(page), placeholderData: keepPreviousData });
  const resume = useAdminAction((network: 'bsc' | 'polygon' | 'tron') => call(admin.custodyResume, { params: { network } }));
  const credit = useAdminAction((id: string) => call(admin.custodyCredit, { params: { id } }));
  const dismiss = useAdminAction((id: string) => call(admin.custodyDismiss, { params: { id } }));
  const act = async (p: Promise<{ message?: string }>, fallback: string) => {
    try {
      toast.success((await p).message ?? 'Done');
    } catch (err) {
      toast.error(errorMessage(err, fallback));
    }
  };
  return (
    <div className="space-y-4">
      <PageHeader title="Custody" subtitle="Deposits received on our own addresses: the watchers, and the chain against the ledger" />
      {q.isPending ? (
        <Spinner label="Loading..." />
      ) : q.isError ? (
        <p role="alert" className="text-sm text-red-400">
          {errorMessage(q.error, 'Failed to load')}
        </p>
      ) : !q.data.networks.length ? (
        <p className="card text-sm text-slate-400">The chain gateway is off (PAYMENTS_GATEWAY={q.data.gateway}).</p>
      ) : (
        <>
          {q.data.networks.map((n) => (
            <NetworkCard
              key={n.network}
              n={n}
              resuming={resume.isPending}
              onPage={setPage}
              onResume={() => void act(resume.mutateAsync(n.network as 'bsc' | 'polygon' | 'tron'), 'Failed to resume')}
            />
          ))}
          <section className="card space-y-2">
            <h2 className="text-base font-semibold text-white">Not credited</h2>
            {!q.data.not_credited.length ? (
              <p className="text-sm text-slate-400">Nothing waits for an admin.</p>
            ) : (
              <ul className="space-y-2">
                {q.data.not_credited.map((o) => (
                  <li key={o.id} className="flex flex-wrap items-center justify-between gap-2 rounded-xl bg-surface-900/70 p-3 text-sm">
                    <span className="min-w-0 text-slate-200">
                      {LABEL[o.network] ?? o.network} · {o.username} · {/* the exact amount: dust and held transfers have no micro amount */}
                      <span className="font-mono">{o.token_amount}</span> USDT ·{' '}
                      {o.status === 'held' ? 'held (above the automatic credit bound)' : 'below the minimum'}
                      <span className="block break-all font-mono text-xs text-slate-400">{o.tx_hash}</span>
                      {o.note ? <span className="block text-xs text-amber-200">{o.note}</span> : null}
                    </span>
                    <span className="flex gap-2">
                      {o.actions.includes('credit') ? (
                        <Button variant="secondary" disabled={credit.isPending} onClick={() => void act(credit.mutateAsync(o.id), 'Failed to credit')}>
                          Credit
                        </Button>
                      ) : null}
                      {o.actions.includes('dismiss') ? (
                        <Button variant="ghost" disabled={dismiss.isPending} onClick={() => void act(dismiss.mutateAsync(o.id), 'Failed to dismiss')}>
                          Dismiss
                        </Button>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </section>
        </>
      )}
    </div>
  );
}
