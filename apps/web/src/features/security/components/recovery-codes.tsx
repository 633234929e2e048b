import { AlertTriangle, Copy, Download } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';

const FILE_NAME = 'usdt-stake-recovery-codes.txt';

/** The recovery codes, shown once right after 2FA is turned on: the user must keep them now. */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const text = `USDT Stake recovery codes\nEach code signs you in once if you lose your authenticator.\n\n${codes.join('\n')}\n`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'));
      toast.success('Recovery codes copied');
    } catch {
      toast.error('Could not copy. Please download them instead.');
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = FILE_NAME;
    a.click();
    URL.revokeObjectURL(url);
  };

  return (
    <div className="space-y-4">
      <div role="alert" className="flex gap-3 rounded-xl border border-amber-500/40 bg-amber-500/10 p-3 text-sm text-amber-200">
        <AlertTriangle className="mt-0.5 h-5 w-5 shrink-0 text-amber-400" aria-hidden />
        <div>
          <p className="font-semibold text-amber-100">Save these recovery codes now</p>
          <p className="mt-1">They will not be shown again. Each code works once and lets you sign in if you lose your authenticator app.</p>
        </div>
      </div>
      <ol
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-2 rounded-xl bg-surface-900/70 p-3 font-mono text-sm text-slate-100"
      >
        {codes.map((c) => (
          <li key={c} className="rounded-lg bg-surface-800 px-2 py-1.5 text-center tracking-wider">
            {c}
          </li>
        ))}
      </ol>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button variant="secondary" onClick={() => void copy()}>
          <Copy className="h-4 w-4" aria-hidden />
          Copy codes
        </Button>
        <Button variant="secondary" onClick={download}>
          <Download className="h-4 w-4" aria-hidden />
          Download .txt
        </Button>
        <Button className="sm:ml-auto" onClick={onDone}>
          I have saved my codes
        </Button>
      </div>
    </div>
  );
}
