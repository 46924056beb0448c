import { googleCalendarUrl, quizIcsPath, type CalendarQuiz } from '../../../worker/features/calendar/event';
import { useOrigin } from './useOrigin';
import { trackAttrs } from '../analytics/beacon';

/**
 * "Lägg till i kalender" for one occurrence: the .ics download (same UID as the feeds, so a later
 * subscription replaces rather than duplicates it) and a Google Kalender link. A native <details>
 * menu: works without JavaScript and costs no script beyond this component. Either link counts as a
 * calendar_add of that quiz (issue 18).
 */
export function AddToCalendar({ quiz, className = '' }: { quiz: CalendarQuiz; className?: string }) {
  const origin = useOrigin();
  return (
    <details className={`group relative ${className}`}>
      <summary className="cursor-pointer list-none font-semibold text-brand-700 hover:underline [&::-webkit-details-marker]:hidden">Lägg till i kalender</summary>
      <ul className="absolute left-0 z-20 mt-1 w-56 space-y-1 rounded-xl border border-slate-200 bg-white p-2 text-sm font-semibold shadow-lg">
        <li>
          <a href={quizIcsPath(quiz.id)} download {...trackAttrs('calendar_add', { quizId: quiz.id })} className="block rounded-lg px-3 py-2 text-slate-900 hover:bg-brand-50">
            Kalenderfil (.ics)
          </a>
        </li>
        <li>
          <a href={googleCalendarUrl(quiz, origin)} target="_blank" rel="noopener noreferrer" {...trackAttrs('calendar_add', { quizId: quiz.id })} className="block rounded-lg px-3 py-2 text-slate-900 hover:bg-brand-50">
            Google Kalender
          </a>
        </li>
      </ul>
    </details>
  );
}
