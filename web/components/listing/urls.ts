import { findWeekday } from '../../../worker/lib/swedish';
import type { ListingFilters } from '../../pages/types';

/** Query string of GET /api/listing for a filter state and page. */
export function listingApiUrl(filters: ListingFilters, page: number): string {
  const p = new URLSearchParams();
  if (filters.city) p.set('city', filters.city);
  if (filters.weekday) p.set('weekday', filters.weekday);
  if (filters.date) p.set('date', filters.date);
  if (filters.search.trim()) p.set('search', filters.search.trim());
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
  const s = p.toString();
  return s ? `?${s}` : '';
}

export function venueHref(citySlug: string, venueSlug: string): string {
  return `/quiz/${citySlug}/${venueSlug}`;
}

export function weekdayName(slug: string): string {
  return findWeekday(slug)?.name ?? slug;
}
