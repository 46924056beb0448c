/**
 * The slot market of the promotion dialogs (issue 18): the next 4 weeks in the place's city, each day
 * with Rekommenderat (3 per day) and Premium Utvald (1 per day) as free / limited / sold out. Loaded
 * when opened; statuses are written out, never colour alone.
 */
import { useState } from 'react';
import { SLOT_STATUS_LABELS, type SlotCalendarResponse, type SlotDay, type SlotStatus } from '../../../worker/features/analytics/contract';
import { addDays } from '../../../worker/lib/clock';
import { analyticsApi } from './api';

const STATUS_CLASS: Record<SlotStatus, string> = {
  free: 'bg-emerald-50 text-emerald-900',
  limited: 'bg-amber-50 text-amber-900',
  soldout: 'bg-red-50 text-red-900 line-through',
};
const WEEKDAYS = ['Mån', 'Tis', 'Ons', 'Tor', 'Fre', 'Lör', 'Sön'];

/** Monday-first weeks; every cell carries its date (the empty ones before the first and after the last day too), its key. */
function weeks(days: SlotDay[]): Array<Array<{ date: string; day: SlotDay | null }>> {
  if (days.length === 0) return [];
  const first = days[0]!.date;
  const lead = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday first
  const cells: Array<{ date: string; day: SlotDay | null }> = [];
  for (let k = lead; k > 0; k--) cells.push({ date: addDays(first, -k), day: null });
  for (const day of days) cells.push({ date: day.date, day });
  while (cells.length % 7) cells.push({ date: addDays(cells[cells.length - 1]!.date, 1), day: null });
  const out = [];
  for (let i = 0; i < cells.length; i += 7) out.push(cells.slice(i, i + 7));
  return out;
}

export function SlotCalendar({ quizId, city }: { quizId: string; city: string }) {
  const [state, setState] = useState<{ status: 'idle' | 'loading' | 'error' } | { status: 'ready'; data: SlotCalendarResponse }>({ status: 'idle' });
  const load = () => {
    if (state.status !== 'idle' && state.status !== 'error') return;
    setState({ status: 'loading' });
    analyticsApi.slots(quizId).then(
      (data) => setState({ status: 'ready', data }),
      () => setState({ status: 'error' }),
    );
  };
  return (
    <details className="rounded-xl border border-slate-200 bg-white" onToggle={(e) => (e.currentTarget.open ? load() : undefined)}>
      <summary className="cursor-pointer px-4 py-3 font-semibold">Lediga dagar i {city} de kommande 4 veckorna</summary>
      <div className="px-4 pb-4">
        {state.status === 'loading' && <p className="text-sm text-slate-700">Hämtar kalendern…</p>}
        {state.status === 'error' && (
          <p role="alert" className="text-sm text-red-800">
            Kunde inte hämta kalendern.{' '}
            <button type="button" className="underline" onClick={load}>
              Försök igen
            </button>
          </p>
        )}
        {state.status === 'ready' && (
          <>
            <p className="mb-2 text-xs text-slate-700">R = Rekommenderat (3 per stad och dag), P = Premium Utvald (1 per stad och dag).</p>
            <table className="w-full table-fixed text-center text-xs">
              <caption className="sr-only">Platser per dag i {state.data.city}</caption>
              <thead>
                <tr>
                  {WEEKDAYS.map((d) => (
                    <th key={d} scope="col" className="py-1 font-semibold">
                      {d}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {weeks(state.data.days).map((week) => (
                  <tr key={week[0]!.date}>
                    {week.map(({ date, day }) =>
                      day ? (
                        <td key={day.date} className="border border-slate-100 p-0.5 align-top" data-date={day.date}>
                          <div className="font-semibold">
                            {Number(day.date.slice(8))}/{Number(day.date.slice(5, 7))}
                          </div>
                          <div
                            className={`rounded ${STATUS_CLASS[day.recommended.status]}`}
                            title={`Rekommenderat: ${day.recommended.max - day.recommended.taken} av ${day.recommended.max} kvar`}
                          >
                            R: {SLOT_STATUS_LABELS[day.recommended.status]}
                          </div>
                          <div
                            className={`mt-0.5 rounded ${STATUS_CLASS[day.premium.status]}`}
                            title={`Premium Utvald: ${day.premium.max - day.premium.taken} av ${day.premium.max} kvar`}
                          >
                            P: {SLOT_STATUS_LABELS[day.premium.status]}
                          </div>
                        </td>
                      ) : (
                        <td key={date} />
                      ),
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        )}
      </div>
    </details>
  );
}
