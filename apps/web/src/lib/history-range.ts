import { useCallback, useMemo, useRef } from 'react';
import { useSearchParams } from 'react-router';

/** The ranges a history offers (issue 32, item 19). */
export const RANGE_PRESETS = ['all', '7d', '30d', 'custom'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];

const DAY = 86_400_000;
const utcDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const isDay = (v: string | null): v is string => v !== null && /^\d{4}-\d{2}-\d{2}$/.test(v);

/**
 * A history's date range, page and tab, kept in the URL (`?range=7d|30d|custom&from&to&page&tab`)
 * so a reload, the back button or a shared link shows the same rows. 7 d and 30 d are the last 7
 * or 30 UTC days, today included (as the income chart counts them), computed when read, so a
 * bookmarked "7 d" stays the last week. Changing the range or the tab goes back to page 1;
 * changing the page brings the top of the page into view (the list starts there).
 */
export function useHistoryParams<Tab extends string = string>(defaultTab?: Tab) {
  const [params, setParams] = useSearchParams();
  const preset = (RANGE_PRESETS as readonly string[]).includes(params.get('range') ?? '') ? (params.get('range') as RangePreset) : 'all';
  const from = params.get('from');
  const to = params.get('to');
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const tab = (params.get('tab') ?? defaultTab ?? '') as Tab;

  const range = useMemo((): { start_date?: string; end_date?: string } => {
    const today = Date.now();
    if (preset === '7d') return { start_date: utcDay(today - 6 * DAY), end_date: utcDay(today) };
    if (preset === '30d') return { start_date: utcDay(today - 29 * DAY), end_date: utcDay(today) };
    if (preset === 'custom') return { ...(isDay(from) ? { start_date: from } : {}), ...(isDay(to) ? { end_date: to } : {}) };
    return {};
  }, [preset, from, to]);

  // Two changes in a row (From, then To, typed quickly) must both land: the router applies a
  // navigation later, so each change builds on the last one asked for until the URL shows it.
  const asked = useRef<URLSearchParams | null>(null);
  if (asked.current && asked.current.toString() === params.toString()) asked.current = null;
  const update = useCallback(
    (change: Record<string, string | null>) => {
      const next = new URLSearchParams(asked.current ?? params);
      for (const [k, v] of Object.entries(change)) {
        if (v === null || v === '') next.delete(k);
        else next.set(k, v);
      }
      asked.current = next;
      setParams(next);
    },
    [params, setParams],
  );

  return {
    preset,
    from: isDay(from) ? from : '',
    to: isDay(to) ? to : '',
    range,
    page,
    tab,
    setPreset: (p: RangePreset) => update({ range: p === 'all' ? null : p, page: null, ...(p === 'custom' ? {} : { from: null, to: null }) }),
    setCustom: (field: 'from' | 'to', value: string) => update({ range: 'custom', [field]: value || null, page: null }),
    setPage: (p: number) => {
      update({ page: p === 1 ? null : String(p) });
      window.scrollTo({ top: 0 });
    },
    setTab: (t: Tab) => update({ tab: t === defaultTab ? null : t, page: null }),
  };
}
