import { Badge, type BadgeTone } from '../../../components/ui/badge';

/** Demo payment badge colours (spec section 4): waiting purple; paid green; expired/failed red; others blue. */
export function paymentTone(status: string): BadgeTone {
  if (status === 'waiting') return 'purple';
  if (['partially_paid', 'confirmed', 'finished'].includes(status)) return 'success';
  if (['expired', 'failed'].includes(status)) return 'danger';
  return 'info';
}

export function PaymentStatusBadge({ status }: { status: string }) {
  return <Badge tone={paymentTone(status)}>{status.replace(/_/g, ' ')}</Badge>;
}
