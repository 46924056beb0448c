import { findWeekday } from '../../../worker/lib/swedish';

/** "Stockholm · tisdag · ”musik”" for listing filters that can be followed, or null (nothing to follow; dates are not followed). */
export function searchLabel(f: { city: string; weekday: string; search: string }, cities: Array<{ slug: string; name: string }>): string | null {
  const parts: string[] = [];
  if (f.city) parts.push(cities.find((c) => c.slug === f.city)?.name ?? f.city);
  const w = f.weekday && f.weekday !== 'all' ? findWeekday(f.weekday) : undefined;
  if (w) parts.push(w.name);
  if (f.search.trim()) parts.push(`”${f.search.trim()}”`);
  return parts.length ? parts.join(' · ') : null;
}
