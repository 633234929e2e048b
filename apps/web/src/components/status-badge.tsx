import { presentStatus, type StatusKind, type StatusOf } from '../lib/status-presentation';
import { Badge } from './ui/badge';

/**
 * A record's status, as the one table says (lib/status-presentation.ts): every status badge of the
 * app is this one, so a status has the same words and colour on every screen. `status` is the
 * record's own (a deposit's is paymentStatusKey(status, extra), which knows `cancelled`); one the
 * table does not know shows its own words in grey (a deposit's in blue).
 */
export function StatusBadge<K extends StatusKind>({ kind, status, className }: { kind: K; status: StatusOf[K] | (string & {}); className?: string }) {
  const p = presentStatus(kind, status);
  return (
    <Badge tone={p.tone} className={p.dot ? `gap-1.5 ${className ?? ''}`.trim() : className} data-kind={kind} data-status={status.toLowerCase()}>
      {p.dot ? <span className="h-1.5 w-1.5 rounded-full bg-current" aria-hidden /> : null}
      {p.label}
    </Badge>
  );
}
