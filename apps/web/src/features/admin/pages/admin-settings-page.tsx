import { useQuery } from '@tanstack/react-query';
import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/page-header';
import { ErrorState, LoadingState } from '../../../components/ui/states';
import { admin, type TAdminSettingsRequest } from '@app/core/contracts/admin';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { call } from '../../../lib/call';
import { rewardLevelsQuery, settingsQuery, useAdminAction, type AdminRewardLevel, type AdminSettings } from '../api/admin-api';
import { ScrollX } from '../../../components/ui/scroll-x';
import { settingsSavedToast } from '../maintenance-toast';

const FIELDS: { key: keyof Omit<AdminSettings, 'maintenance_mode'>; label: string; hint: string }[] = [
  { key: 'roi_income_percentage', label: 'Daily ROI (%)', hint: 'applies to stakes created from now on' },
  { key: 'stake_cap_percentage', label: 'Stake cap (%)', hint: 'total ROI a new stake can earn' },
  { key: 'direct_referral_percentage', label: 'Direct referral (%)', hint: 'paid to the sponsor on each stake' },
  { key: 'withdrawal_fee_percentage', label: 'Withdrawal fee (%)', hint: 'kept from each new withdrawal' },
];

/** A card of settings saved together by the button at its foot. */
function SettingsSection({
  title,
  saveLabel,
  saving,
  onSave,
  children,
}: {
  title: string;
  saveLabel: string;
  saving: boolean;
  onSave: () => void;
  children: ReactNode;
}) {
  return (
    <section className="card space-y-4">
      <h2 className="text-base font-semibold text-white">{title}</h2>
      {children}
      <Button disabled={saving} onClick={onSave}>
        {saving ? 'Processing...' : saveLabel}
      </Button>
    </section>
  );
}

function SettingsForm({ initial }: { initial: AdminSettings }) {
  const [values, setValues] = useState<Record<string, string>>({});
  const [maintenance, setMaintenance] = useState(initial.maintenance_mode);
  const [errors, setErrors] = useState<Record<string, string>>({});
  useEffect(() => {
    setValues(Object.fromEntries(FIELDS.map((f) => [f.key, String(initial[f.key])])));
    setMaintenance(initial.maintenance_mode);
  }, [initial]);
  const save = useAdminAction((body: TAdminSettingsRequest) => call(admin.saveSettings, { body }));
  const submit = async () => {
    setErrors({});
    try {
      const body = { ...Object.fromEntries(FIELDS.map((f) => [f.key, Number(values[f.key])])), maintenance_mode: maintenance };
      const res = await save.mutateAsync(body);
      // The state the server saved, not the box's: the toast says which way maintenance went.
      const t = settingsSavedToast(initial.maintenance_mode, res.data.maintenance_mode, res.message);
      toast.success(t.title, t.description ? { description: t.description } : undefined);
    } catch (err) {
      if (err instanceof ApiError) setErrors(err.errors);
      toast.error(errorMessage(err, 'Failed to save settings'));
    }
  };
  return (
    <SettingsSection title="Rates" saveLabel="Save settings" saving={save.isPending} onSave={() => void submit()}>
      <div className="grid gap-4 sm:grid-cols-2">
        {FIELDS.map((f) => (
          <div key={f.key}>
            <label htmlFor={`s-${f.key}`} className="label">
              {f.label}
            </label>
            <input
              id={`s-${f.key}`}
              inputMode="decimal"
              className="input"
              value={values[f.key] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [f.key]: e.target.value }))}
            />
            {errors[f.key] ? <p className="field-error">{errors[f.key]}</p> : <p className="mt-1 text-xs text-slate-400">{f.hint}</p>}
          </div>
        ))}
      </div>
      <label className="flex items-center gap-3 rounded-xl border border-white/10 bg-surface-900 p-3 text-sm">
        <input type="checkbox" className="h-4 w-4 accent-red-500" checked={maintenance} onChange={(e) => setMaintenance(e.target.checked)} />
        <span>
          <span className="font-semibold text-white">Maintenance mode</span>
          <span className="block text-xs text-slate-400">The user API answers 503 and users see the maintenance page; the admin console keeps working.</span>
        </span>
      </label>
    </SettingsSection>
  );
}

function RewardLevelsForm({ initial }: { initial: AdminRewardLevel[] }) {
  const [rows, setRows] = useState<Record<string, string>[]>([]);
  useEffect(
    () =>
      setRows(
        initial.map((l) => ({
          level: String(l.level),
          self_investment: String(l.self_investment),
          direct_investment: String(l.direct_investment),
          reward: String(l.reward),
        })),
      ),
    [initial],
  );
  const save = useAdminAction((body: { levels: AdminRewardLevel[] }) => call(admin.saveRewardLevels, { body }));
  const submit = async () => {
    try {
      const levels = rows.map((r) => ({
        level: Number(r.level),
        self_investment: Number(r.self_investment),
        direct_investment: Number(r.direct_investment),
        reward: Number(r.reward),
      }));
      const res = await save.mutateAsync({ levels });
      toast.success(res.message ?? 'Reward levels saved');
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to save reward levels'));
    }
  };
  const set = (i: number, key: string, value: string) => setRows((rs) => rs.map((r, j) => (j === i ? { ...r, [key]: value } : r)));
  return (
    <SettingsSection title="Reward levels" saveLabel="Save reward levels" saving={save.isPending} onSave={() => void submit()}>
      <ScrollX label="Reward levels">
        <table className="w-full min-w-[520px] text-left text-sm">
          <thead className="text-xs uppercase tracking-wide text-slate-400">
            <tr>
              <th className="py-2 pr-2">Level</th>
              <th className="py-2 pr-2">Self investment ($)</th>
              <th className="py-2 pr-2">Direct investment ($)</th>
              <th className="py-2 pr-2">Reward ($)</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => (
              <tr key={r.level}>
                <td className="py-1.5 pr-2 font-semibold text-white">L{r.level}</td>
                {(['self_investment', 'direct_investment', 'reward'] as const).map((k) => (
                  <td key={k} className="py-1.5 pr-2">
                    <input
                      aria-label={`L${r.level} ${k}`}
                      inputMode="decimal"
                      className="input py-1.5"
                      value={r[k] ?? ''}
                      onChange={(e) => set(i, k, e.target.value)}
                    />
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollX>
    </SettingsSection>
  );
}

export default function AdminSettingsPage() {
  const settings = useQuery(settingsQuery());
  const levels = useQuery(rewardLevelsQuery());
  return (
    <div className="space-y-4">
      <PageHeader title="Settings" subtitle="Changes apply to future accruals only: existing stakes keep their terms" />
      {settings.isPending ? (
        <LoadingState />
      ) : settings.isError ? (
        <ErrorState text={errorMessage(settings.error, 'Failed to load settings')} />
      ) : (
        <SettingsForm initial={settings.data} />
      )}
      {levels.isPending ? (
        <LoadingState />
      ) : levels.isError ? (
        <ErrorState text={errorMessage(levels.error, 'Failed to load reward levels')} />
      ) : (
        <RewardLevelsForm initial={levels.data} />
      )}
    </div>
  );
}
