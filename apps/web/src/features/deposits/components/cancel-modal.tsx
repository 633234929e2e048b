import { formatAmount } from '@app/core/format';
import { Button } from '../../../components/ui/button';
import { Modal } from '../../../components/ui/modal';

export function CancelPaymentModal({
  open,
  onClose,
  onConfirm,
  busy,
  paymentId,
  amount,
  network,
}: {
  open: boolean;
  onClose: () => void;
  onConfirm: () => void;
  busy: boolean;
  paymentId: string;
  amount: number;
  network: string;
}) {
  return (
    <Modal open={open} onClose={onClose} title="Cancel Payment">
      <p className="text-sm text-slate-300">Are you sure you want to cancel this payment? This action cannot be undone.</p>
      <dl className="mt-4 space-y-1.5 rounded-xl bg-surface-900 p-3 text-sm">
        <div className="flex justify-between gap-3">
          <dt className="text-slate-400">Payment ID</dt>
          <dd className="font-mono text-slate-100">{paymentId}</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-400">Amount</dt>
          <dd className="text-slate-100">{formatAmount(amount)} USDT</dd>
        </div>
        <div className="flex justify-between gap-3">
          <dt className="text-slate-400">Network</dt>
          <dd className="text-slate-100">{network}</dd>
        </div>
      </dl>
      <div className="mt-5 flex justify-end gap-2">
        <Button variant="secondary" onClick={onClose}>
          Keep Payment
        </Button>
        <Button variant="danger" disabled={busy} onClick={onConfirm}>
          {busy ? 'Cancelling...' : 'Yes, Cancel Payment'}
        </Button>
      </div>
    </Modal>
  );
}
