import { useState } from 'react';
import { googleCalendarUrl, quizIcsPath, type CalendarQuiz } from '../../../worker/features/calendar/event';
import { CalendarPlus } from '../ui/icons';
import { trackAttrs } from '../analytics/beacon';
import { savedQuizOf } from '../../pwa/saved-quiz';

/**
 * "Lägg till i kalender" for one occurrence: the .ics download (same UID as the feeds, so a later
 * subscription replaces rather than duplicates it) and a Google Kalender link. A native <details>
 * menu: works without JavaScript and costs no script beyond this component. Either link counts as a
 * calendar_add of that quiz (issue 18). The menu opens in the flow below the button (the open <details>
 * takes a whole row), not floating: it can never be cut off by a dialog's or the viewport's edge, nor
 * cover the links beside it (issue 29.5).
 *
 * The Google link carries the quiz's times in UTC, and the first Stockholm-to-UTC conversion of a page loads the
 * browser's time-zone data (Intl): ~100 ms of a phone's main thread, once per card list, in the middle of
 * hydration (issue 29.13). So the server writes the link (the menu works without JavaScript) and the browser
 * computes it only when the menu opens — its links are hidden until then —, with the page's absolute origin.
 * Hydration keeps the server's href (suppressHydrationWarning: the browser's first render has none on purpose).
 */
export function AddToCalendar({ quiz, className = '' }: { quiz: CalendarQuiz; className?: string }) {
  const [google, setGoogle] = useState(() => (typeof window === 'undefined' ? googleCalendarUrl(quiz, '') : undefined));
  return (
    // data-saved-quiz: a click on either link keeps the quiz for offline use (issue 32, web/pwa/saved.ts).
    <details
      className={`group open:basis-full ${className}`}
      data-saved-quiz={JSON.stringify(savedQuizOf(quiz))}
      onToggle={(e) => {
        if (e.currentTarget.open) setGoogle(googleCalendarUrl(quiz, window.location.origin));
      }}
    >
      <summary className="inline-flex cursor-pointer list-none items-center gap-1 font-semibold text-brand-700 hover:underline [&::-webkit-details-marker]:hidden">
        <CalendarPlus aria-hidden="true" className="size-4 shrink-0" />
        Lägg till i kalender
      </summary>
      <ul className="mt-1 flex max-w-full list-none flex-wrap gap-1 rounded-xl border border-slate-200 bg-white p-1 text-sm font-semibold">
        <li>
          <a
            href={quizIcsPath(quiz.id)}
            download
            {...trackAttrs('calendar_add', { quizId: quiz.id })}
            className="block rounded-lg px-3 py-2 text-slate-900 hover:bg-brand-50"
          >
            Kalenderfil (.ics)
          </a>
        </li>
        <li>
          <a
            href={google}
            suppressHydrationWarning
            target="_blank"
            rel="noopener noreferrer"
            {...trackAttrs('calendar_add', { quizId: quiz.id })}
            className="block rounded-lg px-3 py-2 text-slate-900 hover:bg-brand-50"
          >
            Google Kalender
          </a>
        </li>
      </ul>
    </details>
  );
}
