import type { TSecuritySession } from '@app/core/contracts/security';
import { formatDateTime } from '@app/core/format';
import { Monitor, Smartphone } from 'lucide-react';
import { toast } from 'sonner';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { EmptyState } from '../../../components/ui/states';
import { errorMessage } from '../../../lib/api-client';
import { useRevokeSession } from '../api/security-api';
import { SectionTitle } from './section-title';

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser/, 'Samsung Internet'],
  [/Firefox\/|FxiOS/, 'Firefox'],
  [/Chrome\/|CriOS|Chromium/, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPad|iPod/, 'iOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** A readable name for a session's device; only a rough guess is needed to recognise one's own. */
function describe(userAgent: string | null): { name: string; mobile: boolean } {
  if (!userAgent) return { name: 'Unknown device', mobile: false };
  const browser = BROWSERS.find(([re]) => re.test(userAgent))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(userAgent))?.[1];
  const mobile = /Mobile|Android|iPhone|iPad/.test(userAgent);
  if (browser && system) return { name: `${browser} on ${system}`, mobile };
  return { name: browser ?? system ?? userAgent.slice(0, 60), mobile };
}

/** The signed-in sessions of the user: this device first, the others with Revoke. */
export function SessionsCard({ sessions }: { sessions: TSecuritySession[] }) {
  const revoke = useRevokeSession();
  const sorted = [...sessions].sort(
    (a, b) => Number(b.current) - Number(a.current) || (b.last_used_at ?? b.created_at).localeCompare(a.last_used_at ?? a.created_at),
  );

  const onRevoke = async (id: string) => {
    try {
      const res = await revoke.mutateAsync(id);
      toast.success(res.message || 'Session revoked');
    } catch (err) {
      toast.error(errorMessage(err, 'Could not revoke the session. Please try again.'));
    }
  };

  return (
    <section aria-labelledby="sessions-title" className="card space-y-3">
      <SectionTitle id="sessions-title" icon={Monitor} title="Active sessions" subtitle="Devices signed in to your account. Revoke any you do not recognise." />
      {sorted.length === 0 ? (
        <EmptyState text="No active sessions" />
      ) : (
        <ul className="divide-y divide-white/5" aria-label="Sessions">
          {sorted.map((s) => {
            const device = describe(s.user_agent);
            const Icon = device.mobile ? Smartphone : Monitor;
            const busy = revoke.isPending && revoke.variables === s.id;
            return (
              <li key={s.id} className="flex items-center gap-3 py-3" data-testid="session-row">
                <Icon className="h-5 w-5 shrink-0 text-slate-400" aria-hidden />
                <div className="min-w-0 flex-1">
                  <p className="flex flex-wrap items-center gap-2 text-sm font-medium text-slate-100">
                    <span className="truncate">{device.name}</span>
                    {s.current ? (
                      <Badge tone="success" className="normal-case">
                        This device
                      </Badge>
                    ) : null}
                  </p>
                  <p className="mt-0.5 text-xs text-slate-400">
                    {s.ip ?? 'Unknown IP'} · Last active {formatDateTime(s.last_used_at ?? s.created_at)}
                  </p>
                  <p className="text-xs text-slate-400">Signed in {formatDateTime(s.created_at)}</p>
                </div>
                {s.current ? null : (
                  <Button
                    variant="outline"
                    className="shrink-0 px-3 py-1.5"
                    disabled={busy}
                    aria-label={`Revoke ${device.name} session signed in ${formatDateTime(s.created_at)}`}
                    onClick={() => void onRevoke(s.id)}
                  >
                    {busy ? 'Revoking...' : 'Revoke'}
                  </Button>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
