import { WifiOff } from 'lucide-react';
import { useOnline } from '../../lib/use-online';

/**
 * Shown on every signed-in screen while the browser is offline (issue 32: offline there was no
 * notice, only endless 'Loading…'). Each screen shows what it last loaded on this device, with its
 * time, and no error beside it: nothing is asked while offline (query-client.ts), and every read on
 * screen runs again by itself when the network comes back (issue 47).
 */
export function OfflineBanner() {
  const online = useOnline();
  if (online) return null;
  return (
    <p role="status" className="mb-4 flex items-center gap-2 rounded-xl bg-amber-500/15 px-3 py-2 text-sm text-amber-200 ring-1 ring-amber-500/30">
      <WifiOff className="h-4 w-4 shrink-0" aria-hidden />
      You are offline. Showing what was last loaded on this device; it refreshes when you are back online.
    </p>
  );
}
