import { CHAINS, QR_SIZE, type TPayCurrency } from '@app/core/constants';
import { useQuery } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { QRCodeSVG } from 'qrcode.react';
import { toast } from 'sonner';
import { Spinner } from '../../../components/ui/spinner';
import { addressesQueryOptions } from '../api/addresses-api';

/**
 * The chain gateway's permanent address for the chosen network (custody.md section 2): in full,
 * with its QR code, copyable, and the warning that only USDT on that network arrives.
 */
export function PermanentAddress({ currency }: { currency: TPayCurrency }) {
  const q = useQuery(addressesQueryOptions());
  const chain = CHAINS.find((c) => c.code === currency) ?? CHAINS[0];
  const address = q.data?.[currency];
  return (
    <section className="card space-y-3 text-center" aria-label="Your deposit address" data-testid="permanent-address">
      <h2 className="text-base font-semibold text-white">Your {chain.name} deposit address</h2>
      {q.isPending ? (
        <Spinner label="Loading..." />
      ) : !address ? (
        <p className="text-sm text-slate-400">This network is not available for deposits</p>
      ) : (
        <>
          <div className="mx-auto w-fit rounded-2xl bg-white p-3">
            <QRCodeSVG value={address} size={QR_SIZE} level="H" />
          </div>
          <p className="break-all font-mono text-sm text-slate-100" data-testid="full-address">
            {address}
          </p>
          <button
            type="button"
            className="mx-auto inline-flex min-h-11 items-center gap-2 rounded-xl border border-white/10 bg-surface-900 px-3 py-2 text-sm text-slate-100"
            onClick={() =>
              navigator.clipboard.writeText(address).then(
                () => toast.success('Address copied!'),
                () => toast.error('Failed to copy'),
              )
            }
          >
            Copy address <Copy className="h-3.5 w-3.5" aria-hidden />
          </button>
          <p role="note" className="rounded-xl border border-amber-400/30 bg-amber-400/10 p-3 text-left text-sm text-amber-200">
            Send only USDT on {chain.network} to this address. Other tokens, or USDT sent on another network, will not arrive. The address is yours permanently:
            every transfer of at least 1 USDT to it is credited once it has its confirmations.
          </p>
        </>
      )}
    </section>
  );
}

/** The live count of a chain payment: confirmations so far against those it needs, then credited. */
export function Confirmations({
  status,
  confirmations,
  required,
  testId = 'confirmations',
}: {
  status: string;
  confirmations: number;
  required: number | null;
  /** the pending list's copy has its own, so that the panel's stays the one `confirmations` */
  testId?: string;
}) {
  if (status === 'finished' || status === 'partially_paid')
    return (
      <p className="text-sm font-semibold text-emerald-300" data-testid={testId}>
        Credited
      </p>
    );
  if (status !== 'confirming') return null;
  return (
    <p className="text-sm text-slate-300" data-testid={testId}>
      Confirmations: <span className="font-mono font-semibold text-white">{confirmations}</span>
      {required ? <span className="font-mono text-white"> / {required}</span> : null}
    </p>
  );
}
