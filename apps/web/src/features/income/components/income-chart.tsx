import type { TIncomeChart, TIncomeDay } from '@app/core/contracts';
import { formatAmount, formatDateLong, formatDayShort } from '@app/core/format';
import { useQuery } from '@tanstack/react-query';
import clsx from 'clsx';
import { BarChart3 } from 'lucide-react';
import { useId, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api-client';
import { incomeChartQueryOptions } from '../api/income-api';

const RANGES = [7, 30, 90] as const;
type Range = (typeof RANGES)[number];

/** The three income types, stacked bottom to top; colours keep 3:1 against the card. */
const SERIES = [
  { key: 'roi', label: 'ROI', color: '#34d399' },
  { key: 'referral', label: 'Referral', color: '#38bdf8' },
  { key: 'reward', label: 'Reward', color: '#fbbf24' },
] as const;

const W = 320;
const H = 132;
const TOP = 6;
const usd = (v: number) => `$${formatAmount(v)}`;

/**
 * Daily income over the last 7, 30 or 90 days (issue 12): plain SVG stacked bars, no chart library.
 * The picture is one `img` named by the text summary beside it; the figures are also a table behind
 * 'Show as table', so nothing is only in the picture.
 */
export function IncomeChart() {
  const [days, setDays] = useState<Range>(30);
  const chart = useQuery(incomeChartQueryOptions(days));
  const summaryId = useId();
  return (
    <section className="card" aria-labelledby={`${summaryId}-title`} data-testid="income-chart">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${summaryId}-title`} className="flex items-center gap-2 text-sm font-semibold text-white">
          <BarChart3 className="h-4 w-4 text-brand-400" aria-hidden /> Income over time
        </h2>
        <div role="group" aria-label="Range" className="flex gap-1 rounded-xl bg-surface-900 p-1">
          {RANGES.map((r) => (
            <button
              key={r}
              type="button"
              aria-pressed={days === r}
              onClick={() => setDays(r)}
              className={clsx(
                'min-h-11 min-w-11 rounded-lg px-2 text-xs font-semibold transition',
                days === r ? 'bg-brand-700 text-white' : 'text-slate-300 hover:text-white',
              )}
            >
              {r} days
            </button>
          ))}
        </div>
      </div>
      <div className="mt-3 min-h-[196px]">
        {chart.isPending ? (
          <div className="flex h-[196px] items-center justify-center">
            <Spinner label="Loading chart..." />
          </div>
        ) : chart.isError ? (
          <div role="alert" className="flex h-[196px] flex-col items-center justify-center gap-2 text-center text-sm text-red-400">
            <p>{errorMessage(chart.error, 'Failed to load the income chart')}</p>
            <button
              type="button"
              onClick={() => void chart.refetch()}
              className="min-h-11 rounded-lg border border-white/15 px-3 text-xs font-semibold text-slate-100 hover:bg-white/5"
            >
              Retry
            </button>
          </div>
        ) : chart.data.totals.total === 0 ? (
          <div className="flex h-[196px] flex-col items-center justify-center gap-1 text-center" data-testid="income-chart-empty">
            <p className="text-sm font-semibold text-slate-200">No income yet</p>
            <p className="max-w-64 text-xs text-slate-400">
              Your daily ROI, referral and reward income of the last {days} days will show here once you earn it.
            </p>
          </div>
        ) : (
          <Bars chart={chart.data} summaryId={summaryId} />
        )}
      </div>
    </section>
  );
}

function Bars({ chart, summaryId }: { chart: TIncomeChart; summaryId: string }) {
  const max = Math.max(...chart.points.map((p) => p.total));
  const slot = W / chart.points.length;
  // Bars take 60% of their slot (80% over 90 days), so 7 wide bars do not read as one block.
  const gap = slot * (chart.points.length > 30 ? 0.2 : 0.4);
  const best = chart.points.reduce((a, b) => (b.total > a.total ? b : a));
  const earning = chart.points.filter((p) => p.total > 0);
  const mid = chart.points[Math.floor((chart.points.length - 1) / 2)]!;
  return (
    <div>
      <p id={summaryId} className="text-sm text-slate-300" data-testid="income-chart-summary">
        Last {chart.days} days: <span className="font-semibold text-white">{usd(chart.totals.total)}</span> (ROI {usd(chart.totals.roi)}, Referral{' '}
        {usd(chart.totals.referral)}, Reward {usd(chart.totals.reward)}). Best day {formatDateLong(best.date)}, {usd(best.total)}.
      </p>
      <div className="mt-3 flex gap-2">
        <div className="flex w-12 shrink-0 flex-col justify-between pb-5 text-right text-[11px] text-slate-400" aria-hidden>
          <span>{usd(max)}</span>
          <span>$0</span>
        </div>
        <div className="min-w-0 flex-1">
          <svg viewBox={`0 0 ${W} ${H}`} preserveAspectRatio="none" className="block h-[132px] w-full" role="img" aria-labelledby={summaryId}>
            <line x1="0" x2={W} y1={H - 0.5} y2={H - 0.5} stroke="rgba(255,255,255,0.15)" />
            <line x1="0" x2={W} y1={TOP} y2={TOP} stroke="rgba(255,255,255,0.06)" strokeDasharray="3 3" />
            {chart.points.map((p, i) => (
              <Stack key={p.date} point={p} x={i * slot + gap / 2} width={Math.max(0.5, slot - gap)} max={max} />
            ))}
          </svg>
          <div className="mt-1 flex justify-between text-[11px] text-slate-400" aria-hidden>
            <span>{formatDayShort(chart.from)}</span>
            <span>{formatDayShort(mid.date)}</span>
            <span>{formatDayShort(chart.to)}</span>
          </div>
        </div>
      </div>
      <ul className="mt-2 flex flex-wrap gap-x-4 gap-y-1 text-xs text-slate-300" aria-label="Legend">
        {SERIES.map((s) => (
          <li key={s.key} className="flex items-center gap-1.5">
            <span className="h-2.5 w-2.5 rounded-sm" style={{ background: s.color }} aria-hidden />
            {s.label}
          </li>
        ))}
      </ul>
      <details className="mt-2 text-sm">
        <summary className="inline-flex min-h-11 cursor-pointer items-center text-xs font-semibold text-brand-300">Show as table</summary>
        <table className="mt-1 w-full text-left text-xs">
          <caption className="sr-only">Income per day, last {chart.days} days (days with income)</caption>
          <thead className="text-slate-400">
            <tr>
              <th scope="col" className="py-1 font-medium">
                Date
              </th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col" className="py-1 text-right font-medium">
                  {s.label}
                </th>
              ))}
              <th scope="col" className="py-1 text-right font-medium">
                Total
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-white/5 text-slate-200">
            {earning.map((p) => (
              <tr key={p.date}>
                <th scope="row" className="py-1 font-normal">
                  {formatDateLong(p.date)}
                </th>
                {SERIES.map((s) => (
                  <td key={s.key} className="py-1 text-right tabular-nums">
                    {usd(p[s.key])}
                  </td>
                ))}
                <td className="py-1 text-right font-semibold tabular-nums">{usd(p.total)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </div>
  );
}

function Stack({ point, x, width, max }: { point: TIncomeDay; x: number; width: number; max: number }) {
  if (point.total <= 0) return null;
  const scale = (H - TOP) / max;
  let y = H;
  return (
    <g>
      <title>{`${formatDateLong(point.date)}: ${usd(point.total)}`}</title>
      {SERIES.map((s) => {
        const v = point[s.key];
        if (v <= 0) return null;
        // At least one pixel, so a small day next to a big one stays visible.
        const h = Math.max(1, v * scale);
        y -= h;
        return <rect key={s.key} x={x} y={y} width={width} height={h} fill={s.color} data-series={s.key} />;
      })}
    </g>
  );
}
