/**
 * What "Lägg till i kalender" remembers of a quiz for offline use (issue 32; web/pwa/saved.ts keeps it). Its own
 * tiny module: the public first load (web/components/calendar/AddToCalendar.tsx) needs only this, and the rest
 * of saved.ts stays in the lazy service worker chunk.
 */
import type { CalendarQuiz } from '../../worker/features/calendar/event';

export interface SavedQuiz {
  id: string;
  /** YYYY-MM-DD, Stockholm. */
  date: string;
  /** HH:MM. */
  time: string;
  /** "{ställe}, {stad} – {titel}" */
  label: string;
  /** The venue page at that quiz. */
  url: string;
  savedAt?: string;
}
/** What "Lägg till i kalender" remembers of a quiz (the data-saved-quiz attribute; no personal data). */
export function savedQuizOf(quiz: CalendarQuiz): SavedQuiz {
  return {
    id: quiz.id,
    date: quiz.date,
    time: quiz.startTime ? quiz.startTime.slice(0, 5) : '19:00',
    label: `${quiz.location.name}, ${quiz.location.city}${quiz.title ? ` – ${quiz.title}` : ''}`,
    url: `/quiz/${encodeURIComponent(quiz.location.citySlug)}/${encodeURIComponent(quiz.venue.slug)}#quiz-${quiz.id}`,
  };
}
