import { auth } from '@app/core/contracts/auth';
import { contractPath } from '@app/core/contracts/define';

/** How often the maintenance page asks whether the API is back (issue 47). */
export const MAINTENANCE_POLL_MS = 20_000;

/**
 * The question asked: `GET /api/auth/providers`. Public (no token, so a refusal can never end the
 * session), cheap (no database), without a rate limit, and closed while maintenance is on like
 * every user route (`/api/health` stays open then, so it cannot tell). Asked with fetch, not the
 * API client: its 503 handling would toast 'Server is under maintenance' at every poll.
 */
export const MAINTENANCE_PROBE = contractPath(auth.providers);

/**
 * Whether the API answers again: any successful answer. A 503 (maintenance, or a server that is
 * not up yet), another failure or no network at all: still waiting.
 */
export async function apiIsBack(fetchFn: typeof fetch = fetch): Promise<boolean> {
  try {
    const res = await fetchFn(MAINTENANCE_PROBE, { headers: { accept: 'application/json' }, cache: 'no-store' });
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Asks `probe` every `everyMs` (and at once when asked through the returned `now`) until it says
 * the API is back, then calls `onBack` once. One question at a time; `stop` ends it.
 */
export function watchMaintenance({ probe, onBack, everyMs = MAINTENANCE_POLL_MS }: { probe: () => Promise<boolean>; onBack: () => void; everyMs?: number }): {
  now: () => void;
  stop: () => void;
} {
  let stopped = false;
  let asking = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = stopped ? undefined : setTimeout(ask, everyMs);
  };
  function ask() {
    timer = undefined;
    if (stopped || asking) return;
    asking = true;
    void probe()
      .catch(() => false)
      .then((back) => {
        asking = false;
        if (stopped) return;
        if (back) {
          stopped = true;
          onBack();
        } else schedule();
      });
  }
  schedule();
  return {
    now: () => {
      if (timer !== undefined) clearTimeout(timer);
      ask();
    },
    stop: () => {
      stopped = true;
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
