import { AlertTriangle } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';

export default function DisclaimerPage() {
  return (
    <div>
      <PageHeader title="Disclaimer" />
      <div className="card flex flex-col items-center gap-4 p-6 text-center">
        <span className="flex h-16 w-16 items-center justify-center rounded-full bg-amber-500/15 text-amber-300">
          <AlertTriangle className="h-8 w-8" aria-hidden />
        </span>
        <p className="text-sm leading-relaxed text-slate-300">
          You use this platform at your own risk. Crypto assets are volatile and staking may lose value. The service is provided as it is, with no guarantee that it will be error-free or uninterrupted, and no promise of future returns.
        </p>
        <Button className="min-w-24">ok</Button>
      </div>
    </div>
  );
}
