/**
 * /admin/quizzes — quiz management (spec 02 §2.6, §4.4): tabs 'Återkommande serier' and 'Enskilda
 * quiz'; series cards with pattern, start time, category, count, latest date and days left; extend
 * one series, or auto-extend every series that needs it (the same service as the nightly cron). Every series and
 * quiz has 'Marknadsför' at its head (issue 44.1).
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { PATTERN_LABELS, type SeriesSummary } from '../../../worker/features/quizzes/contract';
import { SERIES_HORIZON_MONTHS } from '../../../worker/lib/recurrence';
import { categoryLabel, countText, displayDate, displayTime } from '../../../worker/lib/swedish';
import { useAutoExtend, useExtendSeries, useQuizPlaces, useSeriesList, useSingleQuizzes } from '../../api/quizzes';
import PromoteQuizButton from '../../components/promotion/PromoteQuizButton';
import { PromoteSeriesByIdButton } from '../../components/promotion/PromoteSeriesButton';
import { RequireAuth } from '../../components/auth/RequireAuth';
import { ExportQuizzesLink } from '../../components/exports/ExportQuizzesLink';
import { Button, buttonClass } from '../../components/ui/Button';
import { MissingFacts } from '../../components/quizzes/MissingFacts';
import { Spinner } from '../../components/ui/Spinner';
import { toast } from '../../components/ui/Toast';

export default function QuizzesPage() {
  return <RequireAuth require="admin">{() => <QuizManagement />}</RequireAuth>;
}

type Tab = 'series' | 'singles';

function QuizManagement() {
  const [tab, setTab] = useState<Tab>('series');
  const tabs: Array<[Tab, string]> = [
    ['series', 'Återkommande serier'],
    ['singles', 'Enskilda quiz'],
  ];
  return (
    <div className="mx-auto max-w-4xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold">Hantera quiz</h1>
        <div className="flex flex-wrap gap-2">
          <ExportQuizzesLink />
          <Link to="/admin" className={buttonClass('secondary')}>
            Tillbaka till översikten
          </Link>
        </div>
      </div>
      <div role="tablist" aria-label="Quiztyper" className="mt-6 flex gap-2 border-b border-slate-200">
        {tabs.map(([key, label]) => (
          <button
            key={key}
            role="tab"
            id={`tab-${key}`}
            aria-selected={tab === key}
            aria-controls={`panel-${key}`}
            type="button"
            onClick={() => setTab(key)}
            className={`-mb-px border-b-2 px-4 py-2 font-semibold ${tab === key ? 'border-brand-600 text-brand-700' : 'border-transparent text-slate-600'}`}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="mt-6">
        {tab === 'series' ? <SeriesTab /> : <SinglesTab />}
      </div>
    </div>
  );
}

function SeriesTab() {
  const query = useSeriesList();
  const extendAll = useAutoExtend();
  if (query.isPending) return <Spinner label="Laddar serier..." />;
  if (query.isError) return <p role="alert">Kunde inte hämta serier: {query.error.message}</p>;
  const { series } = query.data;
  const needing = series.filter((s) => s.needsExtension).length;

  async function autoExtend() {
    try {
      const r = await extendAll.mutateAsync();
      toast({ title: `Auto-förlängning slutförd: ${r.extendedCount} quiz-serier förlängdes automatiskt`, variant: 'success' });
    } catch (err) {
      toast({ title: `Fel vid auto-förlängning: ${(err as Error).message}`, description: 'Kunde inte förlänga quiz automatiskt', variant: 'destructive' });
    }
  }

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3 rounded-2xl border border-slate-200 bg-white p-4">
        <p>{needing > 0 ? `${countText(needing, 'serie', 'serier')} behöver förlängas.` : 'Alla serier är aktiva.'}</p>
        <Button onClick={autoExtend} disabled={extendAll.isPending || needing === 0}>
          Förläng automatiskt ({needing})
        </Button>
      </div>
      {series.length === 0 && <p className="text-slate-600">Du har inga återkommande serier ännu.</p>}
      {series.map((s) => (
        <SeriesCard key={s.recurrenceId} s={s} />
      ))}
    </div>
  );
}

function SeriesCard({ s }: { s: SeriesSummary }) {
  const extension = useExtendSeries();
  async function extend() {
    try {
      const r = await extension.mutateAsync(s.recurrenceId);
      toast({
        title: r.added ? `Serien förlängdes med ${r.added} quiz` : `Serien sträcker sig redan ${countText(SERIES_HORIZON_MONTHS, 'månad', 'månader')} framåt`,
        variant: 'success',
      });
    } catch (err) {
      toast({ title: 'Kunde inte förlänga serien', description: (err as Error).message, variant: 'destructive' });
    }
  }
  const title = `${s.venueName} – ${s.locationName}`;
  return (
    <article aria-label={`Serie ${title}`} className="rounded-2xl border border-slate-200 bg-white p-5 shadow-sm">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="text-lg font-bold">{title}</h2>
          <p className="text-slate-700">
            {s.pattern ? PATTERN_LABELS[s.pattern] : 'Återkommande'} · {s.days.join(', ')} · kl. {displayTime(s.startTime)} ·{' '}
            {categoryLabel(s.category, s.theme)}
          </p>
          <MissingFacts price={s.price} category={s.category} className="mt-1" />
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <span className={`rounded-full px-3 py-1 text-sm font-bold ${s.needsExtension ? 'bg-amber-100 text-amber-900' : 'bg-emerald-100 text-emerald-900'}`}>
            {s.needsExtension ? 'Behöver förlängas' : 'Aktiv'}
          </span>
          {s.upcoming > 0 && (
            <PromoteSeriesByIdButton recurrenceId={s.recurrenceId} locationId={s.locationId} label={title} city={s.city} venueId={s.venueId} />
          )}
        </div>
      </div>
      <dl className="mt-3 grid grid-cols-3 gap-2 text-sm">
        <div>
          <dt className="text-slate-600">Antal quiz</dt>
          <dd className="font-semibold">{s.count}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Sista datum</dt>
          <dd className="font-semibold">{displayDate(s.latest)}</dd>
        </div>
        <div>
          <dt className="text-slate-600">Dagar kvar</dt>
          <dd className="font-semibold">{s.daysLeft}</dd>
        </div>
      </dl>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button variant="secondary" disabled={extension.isPending} onClick={extend}>
          Förläng serien<span className="sr-only"> {title}</span>
        </Button>
        <Link to={`/edit-series/${s.recurrenceId}`} className={buttonClass('secondary')}>
          Redigera<span className="sr-only"> serien {title}</span>
        </Link>
      </div>
    </article>
  );
}

function SinglesTab() {
  const query = useSingleQuizzes();
  // The places say each quiz's city and business (the purchase dialog's slot calendar is the city's).
  const places = useQuizPlaces();
  if (query.isPending || places.isPending) return <Spinner label="Laddar quiz..." />;
  if (query.isError) return <p role="alert">Kunde inte hämta quiz: {query.error.message}</p>;
  const { quizzes } = query.data;
  const placeOf = new Map((places.data?.places ?? []).map((p) => [p.id, p]));
  if (!quizzes.length) return <p className="text-slate-600">Du har inga kommande enskilda quiz.</p>;
  return (
    <ul className="space-y-3">
      {quizzes.map((q) => (
        <li key={q.id} className="flex flex-wrap items-center justify-between gap-2 rounded-2xl border border-slate-200 bg-white p-4">
          <div>
            <p className="font-semibold">
              {displayDate(q.date)} kl. {displayTime(q.startTime)} · {categoryLabel(q.category, q.theme)}
              {q.isCancelled && <span className="ml-2 rounded-full bg-red-100 px-2 py-0.5 text-xs font-bold text-red-800">Inställt</span>}
            </p>
            <p className="text-sm text-slate-700">
              {q.venueName} – {q.locationName}
            </p>
            <MissingFacts price={q.price} category={q.category} className="mt-1" />
          </div>
          <div className="flex flex-wrap gap-2">
            {placeOf.has(q.locationId) && (
              <PromoteQuizButton
                quiz={{ id: q.id, date: q.date, startTime: q.startTime, category: q.category, theme: q.theme }}
                city={placeOf.get(q.locationId)!.city}
                venueId={placeOf.get(q.locationId)!.venueId}
                promotion={q.promotion}
              />
            )}
            <Link to={`/edit-quiz/${q.id}`} className={buttonClass('secondary')}>
              Redigera<span className="sr-only"> quiz {displayDate(q.date)}</span>
            </Link>
          </div>
        </li>
      ))}
    </ul>
  );
}
