import { quizFilterLabels, quizFiltersFromUrl } from '../../../worker/lib/quiz-filters';
import { findWeekday } from '../../../worker/lib/swedish';

/**
 * "Stockholm · tisdag · ”musik” · Gratis" for listing filters that can be followed, or null (nothing to follow;
 * dates are not followed). Quiz filters of an unknown value are left out (the server refuses them).
 */
export function searchLabel(
  f: { city: string; weekday: string; search: string; price?: string | undefined; team?: string | undefined; category?: string | undefined; time?: string | undefined; sprak?: string | undefined },
  cities: Array<{ slug: string; name: string }>,
): string | null {
  const parts: string[] = [];
  if (f.city) parts.push(cities.find((c) => c.slug === f.city)?.name ?? f.city);
  const w = f.weekday && f.weekday !== 'all' ? findWeekday(f.weekday) : undefined;
  if (w) parts.push(w.name);
  if (f.search.trim()) parts.push(`”${f.search.trim()}”`);
  parts.push(...quizFilterLabels(quizFiltersFromUrl(f)));
  return parts.length ? parts.join(' · ') : null;
}
