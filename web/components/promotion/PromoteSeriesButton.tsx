/**
 * The 'Marknadsför' action at the head of a series (issue 44.1): one tap opens the series' purchase panel in a
 * dialog, inside the first screen height on a phone, wherever the series is listed (the dashboard's place cards,
 * quiz management, the series' edit page). The occurrences come from the caller, or — where only a series summary
 * is at hand — from the place's quiz list, loaded when the dialog opens.
 */
import { useState } from 'react';
import type { OwnerQuiz } from '../../../worker/features/quizzes/contract';
import { usePlaceQuizzes } from '../../api/quizzes';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import PromoteSeriesPanel from './PromoteSeriesPanel';

interface SeriesRef {
  /** Says which series in the dialog's title and the button's accessible name, e.g. "Allmänbildning · Varje vecka · tisdag". */
  label: string;
  city: string;
  venueId: string;
}

const panelOccurrences = (qs: OwnerQuiz[]) => qs.map((q) => ({ id: q.id, date: q.date, startTime: q.startTime, promotion: q.promotion }));

function MarknadsforButton({ label, onOpen }: { label: string; onOpen: () => void }) {
  return (
    <Button variant="secondary" className="px-3 py-1.5 text-sm" onClick={onOpen}>
      Marknadsför<span className="sr-only"> serien {label}</span>
    </Button>
  );
}

function SeriesDialog({ series, onClose, children }: { series: SeriesRef; onClose: () => void; children: React.ReactNode }) {
  return (
    <Dialog open onClose={onClose} size="lg" title="Marknadsför serien" description={`${series.label} i ${series.city}`}>
      {children}
    </Dialog>
  );
}

/** A series whose upcoming occurrences the caller has (the dashboard's place card). */
export function PromoteSeriesButton({ occurrences, ...series }: SeriesRef & { occurrences: OwnerQuiz[] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <MarknadsforButton label={series.label} onOpen={() => setOpen(true)} />
      {open && (
        <SeriesDialog series={series} onClose={() => setOpen(false)}>
          <PromoteSeriesPanel occurrences={panelOccurrences(occurrences)} city={series.city} venueId={series.venueId} />
        </SeriesDialog>
      )}
    </>
  );
}

/** A series known by its summary (quiz management, the edit page): its occurrences are loaded on open. */
export function PromoteSeriesByIdButton({ recurrenceId, locationId, ...series }: SeriesRef & { recurrenceId: string; locationId: string }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <MarknadsforButton label={series.label} onOpen={() => setOpen(true)} />
      {open && (
        <SeriesDialog series={series} onClose={() => setOpen(false)}>
          <LoadedPanel recurrenceId={recurrenceId} locationId={locationId} city={series.city} venueId={series.venueId} />
        </SeriesDialog>
      )}
    </>
  );
}

function LoadedPanel({ recurrenceId, locationId, city, venueId }: { recurrenceId: string; locationId: string; city: string; venueId: string }) {
  const query = usePlaceQuizzes(locationId);
  if (query.isPending)
    return (
      <p role="status" className="text-sm text-slate-700">
        Laddar tillfällen...
      </p>
    );
  if (query.isError)
    return (
      <p role="alert" className="text-sm text-red-800">
        Kunde inte hämta seriens tillfällen.{' '}
        <button type="button" className="underline" onClick={() => void query.refetch()}>
          Försök igen
        </button>
      </p>
    );
  const group = query.data.series.find((s) => s.recurrenceId === recurrenceId);
  if (!group || group.occurrences.length === 0) return <p className="text-sm text-slate-700">Serien har inga kommande tillfällen att marknadsföra.</p>;
  return <PromoteSeriesPanel occurrences={panelOccurrences(group.occurrences)} city={city} venueId={venueId} />;
}
