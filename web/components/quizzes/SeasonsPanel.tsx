import { SEASON_PRESET_LABELS } from '../../../worker/lib/season-presets';
import { displayDate } from '../../../worker/lib/swedish';
import { useCreateSeason, useSeasons } from '../../api/results';
import { SeasonForm } from './SeasonForm';

/** A series' seasons (issue 46): the list and a form for a new one (name, date range, scoring preset). */
export function SeasonsPanel({ seriesId }: { seriesId: string }) {
  const seasons = useSeasons(seriesId);
  const create = useCreateSeason();
  return (
    <section aria-labelledby="seasons-heading" className="mt-8 space-y-4 rounded-2xl border border-slate-200 bg-white p-5">
      <h2 id="seasons-heading" className="text-xl font-bold">
        Säsonger och tabeller
      </h2>
      {seasons.data && seasons.data.seasons.length > 0 && (
        <ul className="space-y-1">
          {seasons.data.seasons.map((s) => (
            <li key={s.id}>
              <span className="font-semibold">{s.name}</span> · {displayDate(s.startDate)} – {displayDate(s.endDate)} · {SEASON_PRESET_LABELS[s.preset]}
              {s.bestN ? ` (${s.bestN})` : ''}
              {s.minAttendancePct ? ` (${s.minAttendancePct} %)` : ''}
            </li>
          ))}
        </ul>
      )}
      <SeasonForm create={(body) => create.mutateAsync({ seriesId, body })} pending={create.isPending} label="Ny säsong" />
    </section>
  );
}
