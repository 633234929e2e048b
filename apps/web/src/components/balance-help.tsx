import { Info } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { Button } from './ui/button';

// The dialog library loads on the first tap: the dashboard and the wallet show this button before
// their balance, and the signed-in JavaScript before the balance has a budget (e2e/bundle-size).
const Modal = lazy(async () => ({ default: (await import('./ui/modal')).Modal }));

/** One line under a balance card: what this money is for (the spec's labels stay as they are). */
export const BALANCE_LINES = {
  deposit: 'What you deposited: for staking and transfers. It cannot be withdrawn.',
  income: 'Your income (ROI, referral, rewards): the only balance you can withdraw.',
  staked: 'Locked in your stakes; it earns daily ROI and is not returned separately.',
} as const;

export function BalanceLine({ kind }: { kind: keyof typeof BALANCE_LINES }) {
  return <p className="mt-1 text-xs text-slate-300">{BALANCE_LINES[kind]}</p>;
}

/** 'How balances work': the one place that says which name means which money and what each can do. */
export function BalanceHelp({ className }: { className?: string }) {
  const [open, setOpen] = useState(false);
  // Mounted from the first open on, so later closes keep the dialog's own exit transition.
  const [used, setUsed] = useState(false);
  return (
    <>
      {/* The wrapper keeps the caller's spacing; the button's 44 px tap height overlaps it (negative margins), so the layout does not move. */}
      <div className={className}>
        <button
          type="button"
          onClick={() => {
            setUsed(true);
            setOpen(true);
          }}
          className="-my-2.5 inline-flex min-h-11 items-center gap-1 text-xs font-semibold text-brand-300 hover:underline"
        >
          <Info className="h-3.5 w-3.5" aria-hidden /> How balances work
        </button>
      </div>
      {used ? (
        <Suspense fallback={null}>
          <Modal open={open} onClose={() => setOpen(false)} title="How balances work">
            <dl className="space-y-3 text-sm">
              <div>
                <dt className="font-semibold text-white">Deposit Balance</dt>
                <dd className="text-slate-300">
                  Also shown as USDT Balance on Staking and Deposit Wallet on Transfer. Every deposit lands here. Use it to stake or to send to another user. It
                  cannot be withdrawn.
                </dd>
              </div>
              <div>
                <dt className="font-semibold text-white">Available Balance</dt>
                <dd className="text-slate-300">
                  Also shown as Withdraw Wallet on Transfer. Your ROI, referral and reward income land here. This is the only balance you can withdraw: the
                  withdrawal page opens from $50, each withdrawal is at least $10 in steps of $10, and a fee is kept from it (shown before you confirm).
                </dd>
              </div>
              <div>
                <dt className="font-semibold text-white">Staked</dt>
                <dd className="text-slate-300">
                  Money you staked leaves the Deposit Balance for good: it earns daily ROI into your Available Balance until the stake reaches its cap, and the
                  cap includes your principal.
                </dd>
              </div>
              <div>
                <dt className="font-semibold text-white">Pending withdrawals</dt>
                <dd className="text-slate-300">The full amount leaves the Available Balance when you ask; a rejected withdrawal returns it in full.</dd>
              </div>
            </dl>
            <Button variant="secondary" className="mt-4 w-full" onClick={() => setOpen(false)}>
              Close
            </Button>
          </Modal>
        </Suspense>
      ) : null}
    </>
  );
}
