/**
 * /admin/analytics (issue 18): the business's numbers for 7 / 30 / 90 days — a bar chart per metric with
 * promoted days marked, the plain comparison line, tables per place and per quiz, CSV download.
 */
import { useState } from 'react';
import {
  METRIC_LABELS,
  METRICS,
  PERIODS,
  type AnalyticsResponse,
  type AnalyticsRow,
  type Metric,
  type Period,
} from '../../../worker/features/analytics/contract';
import { Button, buttonClass } from '../ui/Button';
import { Spinner } from '../ui/Spinner';
import { analyticsApi, useAnalytics } from './api';
import { BarChart, ChartLegend } from './BarChart';

export function AnalyticsView({ venueId }: { venueId?: string | undefined }) {
  const [days, setDays] = useState<Period>(30);
  const query = useAnalytics(venueId, days);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <fieldset className="flex flex-wrap gap-1 rounded-xl bg-slate-100 p-1">
          <legend className="sr-only">Period</legend>
          {PERIODS.map((p) => (
            <label
              key={p}
              className={`cursor-pointer rounded-lg px-3 py-2 text-sm font-semibold ${days === p ? 'bg-white text-slate-900 shadow' : 'text-slate-700'}`}
            >
              <input type="radio" name="period" value={p} checked={days === p} onChange={() => setDays(p)} className="sr-only" />
              Senaste {p} dagarna
            </label>
          ))}
        </fieldset>
        {query.data && (
          <a href={analyticsApi.csvUrl(venueId, days)} download className={buttonClass('secondary')}>
            Ladda ner tabellen (CSV)
          </a>
        )}
      </div>
      {query.isPending && <Spinner label="Hämtar statistik…" />}
      {query.isError && (
        <div role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
          <p className="font-semibold">{query.error.message}</p>
          <Button variant="secondary" className="mt-3" onClick={() => void query.refetch()}>
            Försök igen
          </Button>
        </div>
      )}
      {query.data && <Numbers key={`${query.data.venue.id}-${query.data.days}`} data={query.data} />}
    </div>
  );
}

function Numbers({ data }: { data: AnalyticsResponse }) {
  const shown = METRICS.filter((m) => (data.totals[m] ?? 0) > 0);
  const [metric, setMetric] = useState<Metric>(shown.includes('detail_open') ? 'detail_open' : (shown[0] ?? 'impression'));
  if (shown.length === 0) {
    return (
      <section className="rounded-2xl border border-dashed border-slate-300 bg-white p-6">
        <h2 className="text-xl font-bold">Ingen statistik än för {data.venue.name}</h2>
        <p className="mt-2 text-slate-700">
          Här ser du dag för dag hur många som har sett dina quiz i listan, öppnat detaljerna, besökt din sida och klickat på webbplats eller telefon – per
          plats och per quiz. Siffrorna dyker upp när besökare har hittat dina quiz. Dina egna besök räknas inte.
        </p>
        <p className="mt-2 text-sm text-slate-700">Vi räknar bara antal per dag: inga cookies, inga IP-adresser och inga uppgifter om besökarna.</p>
      </section>
    );
  }
  return (
    <>
      <section aria-labelledby="totals" className="space-y-3">
        <h2 id="totals" className="text-xl font-bold">
          {data.venue.name}: {data.from} – {data.to}
        </h2>
        <ul className="grid gap-3 sm:grid-cols-3">
          {shown.map((m) => (
            <li key={m} className="rounded-xl border border-slate-200 bg-white p-4">
              <p className="text-sm text-slate-700">{METRIC_LABELS[m]}</p>
              <p className="text-2xl font-extrabold">{(data.totals[m] ?? 0).toLocaleString('sv-SE')}</p>
            </li>
          ))}
        </ul>
        {data.comparisons.map((c) => (
          <p key={c.tier} className="rounded-xl bg-amber-50 px-4 py-3 font-semibold text-amber-900">
            {c.text}.
          </p>
        ))}
      </section>
      <section aria-labelledby="chart" className="space-y-3 rounded-2xl border border-slate-200 bg-white p-4">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <h2 id="chart" className="text-lg font-bold">
            {METRIC_LABELS[metric]} per dag
          </h2>
          <label className="text-sm font-semibold">
            Visa{' '}
            <select value={metric} onChange={(e) => setMetric(e.target.value as Metric)} className="ml-1 rounded-lg border border-slate-300 px-2 py-1">
              {shown.map((m) => (
                <option key={m} value={m}>
                  {METRIC_LABELS[m]}
                </option>
              ))}
            </select>
          </label>
        </div>
        <BarChart daily={data.daily} metric={metric} label={METRIC_LABELS[metric]} />
        <ChartLegend />
      </section>
      <RowsTable title="Per plats" rows={data.places} metrics={shown} />
      <RowsTable title="Per quiz och serie" rows={data.quizzes} metrics={shown} showPlace />
    </>
  );
}

function RowsTable({ title, rows, metrics, showPlace = false }: { title: string; rows: AnalyticsRow[]; metrics: Metric[]; showPlace?: boolean }) {
  if (rows.length === 0) return null;
  return (
    <section className="overflow-x-auto rounded-2xl border border-slate-200 bg-white">
      <table className="w-full text-left text-sm">
        <caption className="px-4 pt-4 text-left text-lg font-bold">{title}</caption>
        <thead>
          <tr className="border-b border-slate-200">
            <th scope="col" className="px-4 py-2">
              Namn
            </th>
            {showPlace && (
              <th scope="col" className="px-4 py-2">
                Plats
              </th>
            )}
            {metrics.map((m) => (
              <th key={m} scope="col" className="px-4 py-2 text-right">
                {METRIC_LABELS[m]}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={`${r.kind}-${r.key}`} className="border-b border-slate-100 last:border-0">
              <th scope="row" className="px-4 py-2 font-semibold">
                {r.name}
                {r.kind === 'series' && <span className="ml-1 font-normal text-slate-700">(återkommande)</span>}
                {r.kind === 'venue' && <span className="ml-1 font-normal text-slate-700">(verksamhetssidan)</span>}
              </th>
              {showPlace && <td className="px-4 py-2">{r.place}</td>}
              {metrics.map((m) => (
                <td key={m} className="px-4 py-2 text-right tabular-nums">
                  {(r.counts[m] ?? 0).toLocaleString('sv-SE')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
