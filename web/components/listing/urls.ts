import { addDays, isoWeekday } from '../../../worker/lib/clock';
import { quizFiltersFromUrl } from '../../../worker/lib/quiz-filters';
import { searchLabelParts } from '../../../worker/lib/search-label';
import { displayDate, findWeekday } from '../../../worker/lib/swedish';
import { QUIZ_FILTER_KEYS, type ListingFilters } from '../../pages/types';

/** Adds the quiz filters (issue 20) that are set to a query. */
function setQuizFilters(p: URLSearchParams, filters: ListingFilters) {
  for (const k of QUIZ_FILTER_KEYS) {
    const v = filters[k];
    if (v) p.set(k, v);
  }
}

/** Query string of GET /api/listing for a filter state and page. */
export function listingApiUrl(filters: ListingFilters, page: number): string {
  const p = new URLSearchParams();
  if (filters.city) p.set('city', filters.city);
  if (filters.weekday) p.set('weekday', filters.weekday);
  if (filters.date) p.set('date', filters.date);
  if (filters.search.trim()) p.set('search', filters.search.trim());
  if (filters.near) p.set('near', filters.near);
  if (filters.near && filters.radius) p.set('radius', filters.radius);
  setQuizFilters(p, filters);
  p.set('page', String(page));
  return `/api/listing?${p.toString()}`;
}

/**
 * The page URL query for a filter state: only what differs from the page's defaults, so every view can
 * be shared and reloaded (spec 01 §4). `locked` filters live in the path and are left out.
 */
export function pageQuery(filters: ListingFilters, defaults: ListingFilters, locked: { city?: boolean; weekday?: boolean }): string {
  const p = new URLSearchParams();
  if (!locked.city && filters.city && filters.city !== defaults.city) p.set('city', filters.city);
  const sameDay = filters.weekday === defaults.weekday && filters.date === defaults.date;
  if (!locked.weekday && !sameDay) {
    if (filters.weekday) p.set('weekday', filters.weekday);
    if (filters.date) p.set('date', filters.date);
  } else if (locked.weekday && filters.date && filters.date !== defaults.date) {
    p.set('date', filters.date);
  }
  if (filters.search.trim()) p.set('search', filters.search.trim());
  if (filters.near) p.set('near', filters.near);
  if (filters.near && filters.radius) p.set('radius', filters.radius);
  setQuizFilters(p, filters);
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function venueHref(citySlug: string, venueSlug: string): string {
  return `/quiz/${citySlug}/${venueSlug}`;
}

export function weekdayName(slug: string): string {
  return findWeekday(slug)?.name ?? slug;
}

/**
 * Whether the day differs from the page's default. The weekday and the date move together (choosing a
 * weekday sets its next date; a date sets its weekday): one choice. Near mode's own "every day" is no choice.
 */
function dayChosen(filters: ListingFilters, defaults: ListingFilters, locked: { weekday?: boolean | undefined }): boolean {
  if (locked.weekday) return !!filters.date && filters.date !== defaults.date;
  if (filters.near && filters.weekday === 'all' && !filters.date) return false;
  return filters.weekday !== defaults.weekday || (filters.date || '') !== (defaults.date || '');
}

/**
 * How many filters of the panel the visitor chose (the "Filter (n)" button; issue 29.7): city, day, text and
 * each quiz filter. Near mode is a chip of its own with its own line, not a filter of the panel.
 */
export function activeFilterCount(
  filters: ListingFilters,
  defaults: ListingFilters,
  locked: { city?: boolean | undefined; weekday?: boolean | undefined },
): number {
  let n = 0;
  if (!locked.city && filters.city && filters.city !== defaults.city && !filters.near) n++;
  if (dayChosen(filters, defaults, locked)) n++;
  if (filters.search.trim()) n++;
  for (const k of QUIZ_FILTER_KEYS) if (filters[k]) n++;
  return n;
}

/** The chosen filters by name ("tisdag", "”öl”", "Gratis"…) for the empty state (issue 29.6); the same set activeFilterCount counts. */
export function activeFilterLabels(
  filters: ListingFilters,
  defaults: ListingFilters,
  locked: { city?: boolean | undefined; weekday?: boolean | undefined },
  cities: Array<{ slug: string; name: string }>,
): string[] {
  const out: string[] = [];
  if (!locked.city && filters.city && filters.city !== defaults.city && !filters.near)
    out.push(cities.find((c) => c.slug === filters.city)?.name ?? filters.city);
  if (dayChosen(filters, defaults, locked))
    out.push(filters.date ? displayDate(filters.date) : filters.weekday === 'all' ? 'alla dagar' : weekdayName(filters.weekday));
  out.push(...searchLabelParts({ search: filters.search, ...quizFiltersFromUrl(filters) }));
  return out;
}

/** The quick chips' dates (spec 01 §4 date rule): tonight, tomorrow, and the weekend's Saturday (today on a Sunday). */
export function chipDates(today: string) {
  const wd = isoWeekday(today);
  return { tonight: today, tomorrow: addDays(today, 1), weekend: wd === 7 ? today : addDays(today, 6 - wd) };
}

/**
 * The URL of a quick chip: the same page with that date (city, near and the quiz filters kept, search
 * dropped: a search would override the date). A page locked to a weekday links to its city page or the start page.
 */
export function chipHref(date: string, filters: ListingFilters, ctx: { path: string; lockCity?: boolean; lockWeekday?: boolean }): string {
  const p = new URLSearchParams();
  let path = ctx.path;
  if (ctx.lockWeekday) path = ctx.lockCity && filters.city ? `/quiz/${filters.city}` : '/';
  else if (!ctx.lockCity && filters.city && !filters.near) p.set('city', filters.city);
  p.set('date', date);
  if (filters.near && !ctx.lockCity && !ctx.lockWeekday) {
    p.set('near', filters.near);
    if (filters.radius) p.set('radius', filters.radius);
  }
  setQuizFilters(p, filters);
  return `${path}?${p.toString()}`;
}

/** The listing feed (GET /api/calendar/listing.ics) query of a page with quiz filters; null without any. */
export function filteredFeedQuery(filters: ListingFilters, opts: { city?: boolean; weekday?: boolean }): string | null {
  if (!QUIZ_FILTER_KEYS.some((k) => filters[k])) return null;
  const p = new URLSearchParams();
  if (opts.city && filters.city) p.set('city', filters.city);
  if (opts.weekday && filters.weekday && filters.weekday !== 'all') p.set('weekday', filters.weekday);
  setQuizFilters(p, filters);
  return p.toString();
}
