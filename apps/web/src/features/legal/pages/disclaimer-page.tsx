import { AlertTriangle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';

/** /disclaimer, inside the signed-in layout. The spec shows the 'ok' button with no behaviour. */
export default function DisclaimerPage() {
  return (
    <div>
      <PageHeader title="Disclaimer" subtitle="Please read before you stake" />
      <section className="overflow-hidden rounded-2xl border border-white/5 bg-surface-800/80 shadow-lg shadow-black/20">
        <div className="flex flex-col items-center gap-3 bg-gradient-to-b from-amber-500/15 to-transparent px-6 pb-2 pt-8 text-center">
          <span className="flex h-16 w-16 items-center justify-center rounded-full bg-amber-500/15 text-amber-300 ring-8 ring-amber-500/5">
            <AlertTriangle className="h-8 w-8" aria-hidden />
          </span>
          <h2 className="text-lg font-semibold text-white">Use at your own risk</h2>
        </div>
        <div className="space-y-3 px-6 pb-6 pt-2 text-sm leading-relaxed text-slate-300">
          <p>You use this platform at your own risk. Crypto assets are volatile, and staking may lose value, including the amount you stake.</p>
          <p>
            The platform is provided as it is, with no guarantee that it will be error-free or uninterrupted, and no promise of future returns. Only stake what
            you can afford to lose.
          </p>
          <div className="flex justify-center pt-3">
            <Button className="min-w-28">ok</Button>
          </div>
        </div>
      </section>
    </div>
  );
}
