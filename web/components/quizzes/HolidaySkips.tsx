/**
 * Swedish holidays in a series (issue 20): the dates that fall on a public holiday or on julafton,
 * nyårsafton, midsommarafton or påskafton, each with a "Hoppa över" checkbox (skip = that date is
 * cancelled, the series goes on). The create form pre-selects the four eves; the edit screen shows the
 * stored state. Controlled: `skips` maps date → ticked.
 */
import type { HolidayOccurrence } from '../../../worker/features/holidays/contract';

const dayFormat = new Intl.DateTimeFormat('sv-SE', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' });
export const holidayDateLabel = (date: string) => dayFormat.format(new Date(`${date}T00:00:00Z`));
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The initial ticks: the eves (or, on a stored series, the dates that are cancelled). */
export function initialSkips(holidays: Array<HolidayOccurrence & { isCancelled?: boolean; decision?: 'run' | 'skip' | null }>): Record<string, boolean> {
  return Object.fromEntries(holidays.map((h) => [h.date, h.isCancelled ?? (h.decision ? h.decision === 'skip' : h.suggestSkip)]));
}

export function HolidaySkips({
  holidays,
  skips,
  onChange,
  loading,
}: {
  holidays: HolidayOccurrence[];
  skips: Record<string, boolean>;
  onChange: (next: Record<string, boolean>) => void;
  loading?: boolean;
}) {
  return (
    <fieldset className="rounded-xl border border-amber-200 bg-amber-50 p-4" aria-busy={loading || undefined}>
      <legend className="px-1 text-sm font-semibold text-slate-800">Helgdagar i serien</legend>
      {holidays.length === 0 ? (
        <p className="text-sm text-slate-700">{loading ? 'Letar efter helgdagar…' : 'Inga quiz i serien infaller på en helgdag.'}</p>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            Dessa datum är helgdagar. Bocka i "Hoppa över" för de kvällar ni inte kör — de visas som inställda, serien fortsätter.
          </p>
          <ul className="mt-2 space-y-1.5">
            {holidays.map((h) => (
              <li key={h.date}>
                <label className="flex items-center gap-2">
                  <input type="checkbox" checked={!!skips[h.date]} onChange={(e) => onChange({ ...skips, [h.date]: e.target.checked })} />
                  <span>
                    Hoppa över <strong>{capital(h.name)}</strong> ({holidayDateLabel(h.date)})
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </>
      )}
    </fieldset>
  );
}
