import { useQuery } from '@tanstack/react-query';
import { Copy } from 'lucide-react';
import { toast } from '../../../lib/toast';
import { settingsQueryOptions } from '../../../lib/shared-queries';

/** The user's referral link (/signup?ref=USERNAME) with a copy button. */
export function ReferralLink({ username }: { username: string }) {
  const link = `${window.location.origin}/signup?ref=${username}`;
  // The percentage is the admin's setting, not a constant.
  const pct = useQuery(settingsQueryOptions()).data?.direct_referral_percentage;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(link);
      toast.success('Referral link copied!');
    } catch {
      toast.error('Failed to copy');
    }
  };
  return (
    <section className="card">
      <p className="text-sm font-semibold text-white">Your referral link</p>
      <p className="mt-0.5 text-xs text-slate-400">
        {pct !== undefined ? `Earn ${pct}% of every stake your direct referrals make.` : 'Invite friends and earn on every stake they make.'}
      </p>
      <div className="mt-3 flex items-center gap-2 rounded-xl border border-white/10 bg-surface-900 p-1.5 pl-3">
        <span data-testid="referral-link" className="min-w-0 flex-1 truncate font-mono text-xs text-slate-300">
          {link}
        </span>
        <button
          type="button"
          onClick={() => void copy()}
          className="inline-flex min-h-11 items-center gap-1 rounded-lg bg-brand-700 px-3 text-xs font-semibold text-white hover:bg-brand-800"
          aria-label="Copy referral link"
        >
          <Copy className="h-3.5 w-3.5" aria-hidden /> Copy
        </button>
      </div>
    </section>
  );
}
