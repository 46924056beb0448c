/**
 * How a follow is named and linked (issue 17): the saved search as the web names it, its listing URL, the
 * follow as "Mina bevakningar" shows it, and the neutral label of the confirmation mail (issue 26.8).
 */
import { quizFilterLabels, type QuizFilters } from '../../lib/quiz-filters';
import { SEARCH_LABEL_SEPARATOR, searchLabelParts } from '../../lib/search-label';
import { findWeekday } from '../../lib/swedish';
import { QuizFilterShape } from '../listing/contract';
import type { FollowView, SavedSearch } from './contract';
import type { FollowWithRecipient } from './queries';

/** "quiz Stockholm · tisdag · ”musik” · Gratis · På engelska": the saved search named as the web names it (worker/lib/search-label.ts). */
export function describeSearch(f: SavedSearch, cityName?: string | null): string {
  const parts = searchLabelParts({ ...f, cityName: f.city ? (cityName ?? f.city) : undefined });
  if (f.quizmaster) parts.unshift(`med quizmaster ${f.quizmaster}`);
  return `quiz ${parts.join(SEARCH_LABEL_SEPARATOR)}`;
}

/**
 * A stored search (canonicalFilters) read back; each quiz filter through the listing contract's own shape, so a
 * value it no longer knows is dropped (the rest of the search stays), never trusted.
 */
export function parseFilters(json: string | null): SavedSearch {
  const raw = JSON.parse(json ?? '{}') as Record<string, string | number | null>;
  const text = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : undefined);
  const quiz = Object.fromEntries(
    (Object.keys(QuizFilterShape) as Array<keyof typeof QuizFilterShape>).flatMap((k) => {
      const r = QuizFilterShape[k].safeParse(raw[k] ?? undefined);
      return r.success && r.data !== undefined ? [[k, r.data]] : [];
    }),
  ) as QuizFilters & { quizmaster?: string };
  return { city: text('city'), weekday: text('weekday'), search: text('search'), ...quiz };
}

export function searchUrl(f: SavedSearch): string {
  const qs = new URLSearchParams();
  if (f.weekday) qs.set('weekday', f.weekday);
  if (f.search) qs.set('search', f.search);
  if (f.price) qs.set('price', f.price);
  if (f.team !== undefined) qs.set('team', String(f.team));
  if (f.category) qs.set('category', f.category);
  if (f.time) qs.set('time', f.time);
  if (f.sprak) qs.set('sprak', f.sprak);
  // A follow of a quizmaster alone is the profile page (issue 48).
  if (f.quizmaster && !qs.toString() && !f.city) return `/quizmaster/${f.quizmaster}`;
  if (f.quizmaster) qs.set('quizmaster', f.quizmaster);
  const s = qs.toString();
  return `${f.city ? `/quiz/${f.city}` : '/'}${s ? `?${s}` : ''}`;
}

export function labelOf(f: FollowWithRecipient): string {
  if (f.kind === 'place') return f.place_name ? `${f.place_name}, ${f.city}` : 'ett ställe';
  return describeSearch(parseFilters(f.filters));
}

/**
 * What the confirmation mail says a follow is about (issue 26.8). It goes to an address that has not
 * confirmed anything, so it carries no text anyone could choose: no place or business name, no city, no
 * search words — only the kind, a known weekday and the fixed labels of quiz filters. The confirmation
 * page and "Mina bevakningar" show the full label.
 */
export function confirmLabelOf(f: FollowWithRecipient): string {
  if (f.kind === 'place') return 'ett quizställe';
  const s = parseFilters(f.filters);
  const parts = [s.quizmaster ? 'en quizmaster' : undefined, s.weekday ? findWeekday(s.weekday)?.name : undefined, ...quizFilterLabels(s)].filter(
    (p): p is string => !!p,
  );
  return `en sparad sökning bland quizkvällar${parts.length ? ` (${parts.join(' · ')})` : ''}`;
}

export function toView(f: FollowWithRecipient): FollowView {
  return {
    id: f.id,
    kind: f.kind,
    label: labelOf(f),
    url: f.kind === 'place' ? (f.city_slug && f.venue_slug ? `/quiz/${f.city_slug}/${f.venue_slug}` : null) : searchUrl(parseFilters(f.filters)),
    reminders: !!f.reminders,
    results: !!f.results,
    confirmed: !!f.confirmed_at,
    createdAt: f.created_at,
  };
}
