import type { AnalyticsDay, Metric } from '../../../worker/features/analytics/contract';

const TIER_FILL = { premium: '#fde68a', recommended: '#c7d2fe' } as const;

/**
 * One metric per day as plain SVG bars (no chart library: ~1 KB in the owner chunk). Days with paid
 * placement get a coloured band behind the bar. The table below the chart carries the same numbers for
 * screen readers; the SVG has a one-line summary.
 */
export function BarChart({ daily, metric, label }: { daily: readonly AnalyticsDay[]; metric: Metric; label: string }) {
  const values = daily.map((d) => d.counts[metric] ?? 0);
  const max = Math.max(1, ...values);
  const w = 640;
  const h = 180;
  const pad = { top: 10, bottom: 24, left: 32, right: 4 };
  const innerW = w - pad.left - pad.right;
  const innerH = h - pad.top - pad.bottom;
  const step = innerW / Math.max(1, daily.length);
  const bar = Math.max(1, step * 0.7);
  const sum = values.reduce((s, v) => s + v, 0);
  const labelEvery = daily.length <= 7 ? 1 : daily.length <= 30 ? 5 : 15;
  return (
    <svg
      viewBox={`0 0 ${w} ${h}`}
      className="h-auto w-full"
      role="img"
      aria-label={`${label}: totalt ${sum} under ${daily.length} dagar, som mest ${max === 1 && sum === 0 ? 0 : max} på en dag`}
    >
      <line x1={pad.left} x2={w - pad.right} y1={pad.top + innerH} y2={pad.top + innerH} stroke="#94a3b8" />
      <text x={pad.left - 6} y={pad.top + 8} textAnchor="end" fontSize="11" fill="#334155">
        {max}
      </text>
      <text x={pad.left - 6} y={pad.top + innerH} textAnchor="end" fontSize="11" fill="#334155">
        0
      </text>
      {daily.map((d, i) => {
        const x = pad.left + i * step;
        const v = values[i]!;
        const bh = (v / max) * innerH;
        return (
          <g key={d.date}>
            {d.promoted && <rect x={x} y={pad.top} width={step} height={innerH} fill={TIER_FILL[d.promoted]} data-promoted={d.promoted} />}
            <rect x={x + (step - bar) / 2} y={pad.top + innerH - bh} width={bar} height={bh} fill="#4338ca">
              <title>{`${d.date}: ${v}`}</title>
            </rect>
            {i % labelEvery === 0 && (
              <text x={x + step / 2} y={h - 8} textAnchor="middle" fontSize="10" fill="#334155">
                {d.date.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

export function ChartLegend() {
  return (
    <p className="flex flex-wrap gap-4 text-sm text-slate-700">
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: TIER_FILL.premium }} /> Dag med Premium Utvald
      </span>
      <span className="inline-flex items-center gap-1.5">
        <span aria-hidden="true" className="inline-block h-3 w-3 rounded-sm" style={{ background: TIER_FILL.recommended }} /> Dag med Rekommenderat
      </span>
    </p>
  );
}
