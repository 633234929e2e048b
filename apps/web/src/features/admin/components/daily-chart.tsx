import { formatAmount } from '@app/core/format';

/** Daily deposits and withdrawals as paired bars (plain SVG: no chart library in the bundle). */
export function DailyChart({ data }: { data: { date: string; deposits: number; withdrawals: number }[] }) {
  const max = Math.max(1, ...data.flatMap((d) => [d.deposits, d.withdrawals]));
  const w = 640;
  const h = 200;
  const slot = w / Math.max(1, data.length);
  const bar = Math.max(2, slot / 2 - 4);
  return (
    <figure className="card">
      <figcaption className="mb-3 flex items-center justify-between text-sm">
        <span className="font-semibold text-white">Daily deposits and withdrawals</span>
        <span className="flex gap-3 text-xs text-slate-400">
          <span className="inline-flex items-center gap-1">
            <span className="h-2 w-2 rounded-sm bg-brand-400" /> Deposits
          </span>
          <span className="inline-flex items-center gap-1">
            <span className="h-2 w-2 rounded-sm bg-gold-400" /> Withdrawals
          </span>
        </span>
      </figcaption>
      {data.every((d) => d.deposits === 0 && d.withdrawals === 0) ? (
        <p className="py-10 text-center text-sm text-slate-400">No activity yet</p>
      ) : (
        <>
          <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" className="h-48 w-full" role="img" aria-label="Daily deposits and withdrawals">
            {data.map((d, i) => {
              const x = i * slot + 2;
              const dh = (d.deposits / max) * h;
              const wh = (d.withdrawals / max) * h;
              return (
                <g key={d.date}>
                  <rect x={x} y={h - dh} width={bar} height={dh} rx={2} className="fill-brand-400">
                    <title>{`${d.date} deposits ${formatAmount(d.deposits)}`}</title>
                  </rect>
                  <rect x={x + bar + 2} y={h - wh} width={bar} height={wh} rx={2} className="fill-gold-400">
                    <title>{`${d.date} withdrawals ${formatAmount(d.withdrawals)}`}</title>
                  </rect>
                </g>
              );
            })}
          </svg>
          {/* The day labels are HTML, not SVG text: scaled with the chart they read at 5 px on a phone. */}
          <div aria-hidden className="relative mt-1 h-4 text-[11px] text-slate-400">
            {data.map((d, i) =>
              i % Math.ceil(data.length / 7) === 0 ? (
                <span key={d.date} className="absolute top-0" style={{ left: `${((i * slot + 2) / w) * 100}%` }}>
                  {d.date.slice(5)}
                </span>
              ) : null,
            )}
          </div>
        </>
      )}
    </figure>
  );
}
