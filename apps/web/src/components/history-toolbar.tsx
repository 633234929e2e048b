import clsx from 'clsx';
import { Download } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { errorMessage } from '../lib/api-client';
import { RANGE_PRESETS, type RangePreset, type useHistoryParams } from '../lib/history-range';

const LABELS: Record<RangePreset, string> = { all: 'All', '7d': '7 d', '30d': '30 d', custom: 'Custom' };

/**
 * Above a history: its date range (All, last 7 days, last 30 days, or From–To) and "Download CSV",
 * which asks the server for the whole filtered history, not the page on screen (issue 32, items
 * 18 and 19). `range` is omitted for a list that has no dates to filter (the team).
 */
export function HistoryToolbar({
  range,
  onDownload,
}: {
  range?: Pick<ReturnType<typeof useHistoryParams>, 'preset' | 'from' | 'to' | 'setPreset' | 'setCustom'>;
  onDownload: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      await onDownload();
    } catch (err) {
      toast.error(errorMessage(err, 'Failed to download the CSV file'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2 px-3 pt-3 sm:flex-row sm:flex-wrap sm:items-end sm:justify-between">
      {range ? (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div role="group" aria-label="Date range" className="grid grid-cols-4 gap-1 rounded-xl bg-surface-900 p-1">
            {RANGE_PRESETS.map((p) => (
              <button
                key={p}
                type="button"
                aria-pressed={range.preset === p}
                onClick={() => range.setPreset(p)}
                className={clsx(
                  'min-h-11 whitespace-nowrap rounded-lg px-3 text-xs font-semibold',
                  range.preset === p ? 'bg-brand-700 text-white' : 'text-slate-300 hover:text-white',
                )}
              >
                {LABELS[p]}
              </button>
            ))}
          </div>
          {range.preset === 'custom' ? (
            <div className="grid grid-cols-2 gap-2">
              <DateInput label="From" value={range.from} max={range.to} onChange={(v) => range.setCustom('from', v)} />
              <DateInput label="To" value={range.to} min={range.from} onChange={(v) => range.setCustom('to', v)} />
            </div>
          ) : null}
        </div>
      ) : (
        <span />
      )}
      <button
        type="button"
        onClick={() => void download()}
        disabled={busy}
        className="inline-flex min-h-11 items-center justify-center gap-1.5 self-end rounded-lg border border-white/15 px-3 text-xs font-semibold text-slate-100 hover:bg-white/5 disabled:opacity-50 sm:mb-1"
      >
        <Download className="h-3.5 w-3.5" aria-hidden /> {busy ? 'Preparing...' : 'Download CSV'}
      </button>
    </div>
  );
}

/** One end of a custom range: a labelled date input bounded by the other end, when it is set. */
function DateInput({ label, value, min, max, onChange }: { label: string; value: string; min?: string; max?: string; onChange: (value: string) => void }) {
  return (
    <label className="text-xs text-slate-400">
      {label}
      <input
        type="date"
        className="input mt-1 min-h-11 py-2"
        value={value}
        min={min || undefined}
        max={max || undefined}
        onChange={(e) => onChange(e.target.value)}
      />
    </label>
  );
}
