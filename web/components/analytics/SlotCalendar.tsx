/**
 * The slot market of the promotion dialogs (issue 18): the next 4 weeks in the place's city, each day
 * with Rekommenderat (3 per day) and Premium Utvald (1 per day) as free / limited / sold out. Loaded
 * when opened; statuses are written out, never colour alone.
 *
 * A list by week (issue 44.1): one small table per ISO week, a row per day and a column per tier, so every
 * word fits a 390 px phone whole (seven day columns broke "Ledigt" mid-word); two weeks side by side from `sm`.
 */
import { useState } from 'react';
import { SLOT_STATUS_LABELS, type SlotCalendarResponse, type SlotDay, type SlotStatus } from '../../../worker/features/analytics/contract';
import { isoWeekKey } from '../../../worker/features/promotion/contract';
import { slotCapText, TIER_LABELS } from '../../../worker/features/promotion/tiers';
import { weekLabel } from '../../../worker/lib/admin-labels';
import { isoWeekday } from '../../../worker/lib/clock';
import { shortDate, WEEKDAYS } from '../../../worker/lib/swedish';
import { analyticsApi } from './api';

const STATUS_CLASS: Record<SlotStatus, string> = {
  free: 'bg-emerald-50 text-emerald-900',
  limited: 'bg-amber-50 text-amber-900',
  soldout: 'bg-red-50 text-red-900',
};

/** The days grouped by ISO week, in order. */
function byWeek(days: SlotDay[]): Array<{ week: string; days: SlotDay[] }> {
  const out: Array<{ week: string; days: SlotDay[] }> = [];
  for (const day of days) {
    const week = isoWeekKey(day.date);
    if (out.at(-1)?.week === week) out.at(-1)!.days.push(day);
    else out.push({ week, days: [day] });
  }
  return out;
}

/** "tis 1 dec". */
const dayLabel = (date: string) => `${WEEKDAYS[isoWeekday(date) - 1]!.short} ${shortDate(date)}`;

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
            <p className="mb-3 text-xs text-slate-700">
              {TIER_LABELS.recommended}: {slotCapText('recommended')} {TIER_LABELS.premium}: {slotCapText('premium')}
            </p>
            <div className="grid gap-4 sm:grid-cols-2">
              {byWeek(state.data.days).map(({ week, days }) => (
                <table key={week} className="w-full text-left text-xs">
                  <caption className="pb-1 text-left font-semibold">
                    {capitalized(weekLabel(week, Number(week.slice(0, 4))))}
                    <span className="sr-only"> i {state.data.city}</span>
                  </caption>
                  <thead>
                    <tr className="text-slate-700">
                      <th scope="col" className="py-1 pr-2 font-semibold">
                        Dag
                      </th>
                      <th scope="col" className="py-1 pr-2 font-semibold">
                        {TIER_LABELS.recommended}
                      </th>
                      <th scope="col" className="py-1 font-semibold">
                        {TIER_LABELS.premium}
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {days.map((day) => (
                      <tr key={day.date} data-date={day.date} className="border-t border-slate-100">
                        <th scope="row" className="whitespace-nowrap py-1 pr-2 font-semibold">
                          {dayLabel(day.date)}
                        </th>
                        <td className="py-1 pr-2">
                          <span
                            className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 ${STATUS_CLASS[day.recommended.status]}`}
                            title={`${TIER_LABELS.recommended}: ${day.recommended.max - day.recommended.taken} av ${day.recommended.max} kvar`}
                          >
                            {SLOT_STATUS_LABELS[day.recommended.status]}
                          </span>
                        </td>
                        <td className="py-1">
                          <span
                            className={`inline-block whitespace-nowrap rounded px-1.5 py-0.5 ${STATUS_CLASS[day.premium.status]}`}
                            title={`${TIER_LABELS.premium}: ${day.premium.max - day.premium.taken} av ${day.premium.max} kvar`}
                          >
                            {SLOT_STATUS_LABELS[day.premium.status]}
                          </span>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              ))}
            </div>
          </>
        )}
      </div>
    </details>
  );
}

const capitalized = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
