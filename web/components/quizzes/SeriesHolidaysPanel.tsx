/**
 * The edit-series screen's holiday section (issue 20): the series' upcoming dates on Swedish holidays
 * with their "Hoppa över" state (stored: cancelled or not), saved in one request, and the business's
 * "Senast bekräftad" date.
 */
import { useState } from 'react';
import { freshnessLine } from '../../../worker/features/freshness/contract';
import { useDecideHolidays, useSeriesHolidays } from '../../api/quizzes';
import { Button } from '../ui/Button';
import { toast } from '../ui/Toast';
import { HolidaySkips, initialSkips } from './HolidaySkips';

export function SeriesHolidaysPanel({ recurrenceId }: { recurrenceId: string }) {
  const query = useSeriesHolidays(recurrenceId);
  const decide = useDecideHolidays();
  const [edits, setEdits] = useState<Record<string, boolean>>({});
  if (query.isPending) return <p className="mt-6 text-sm text-slate-600">Letar efter helgdagar…</p>;
  if (query.isError) return null;
  const { holidays, confirmedOn } = query.data;
  const skips = { ...initialSkips(holidays), ...edits };

  async function save() {
    try {
      const r = await decide.mutateAsync({ id: recurrenceId, body: { decisions: holidays.map((h) => ({ date: h.date, skip: !!skips[h.date] })) } });
      setEdits({});
      toast({ title: 'Helgdagarna är sparade', description: `${r.skipped} hoppas över, ${r.kept} körs.`, variant: 'success' });
    } catch (err) {
      toast({ title: 'Kunde inte spara helgdagarna', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    }
  }

  return (
    <section className="mt-6 space-y-3" aria-label="Helgdagar">
      {confirmedOn && <p className="text-sm text-slate-600">{freshnessLine({ confirmedOn, publicSources: false })}</p>}
      <HolidaySkips holidays={holidays} skips={skips} onChange={setEdits} />
      {holidays.length > 0 && (
        <div className="flex justify-end">
          <Button variant="secondary" disabled={decide.isPending} onClick={() => void save()}>
            {decide.isPending ? 'Sparar...' : 'Spara helgdagar'}
          </Button>
        </div>
      )}
    </section>
  );
}
