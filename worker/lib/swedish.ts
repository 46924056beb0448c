/** Swedish names used across the product (spec 01 §2–3). Pure data, safe to import from web/. */

/**
 * The one weekday vocabulary (issue 28.7): ISO order, Monday first; `name` is what recurrence_days
 * stores, `slug` the URL form, `short` the calendar header. Sunday-first numbers (JS getUTCDay, SQLite
 * strftime('%w')) go through weekdayOfSunday0.
 */
export const WEEKDAYS = [
  { iso: 1, slug: 'mandag', name: 'måndag', label: 'Måndag', short: 'mån' },
  { iso: 2, slug: 'tisdag', name: 'tisdag', label: 'Tisdag', short: 'tis' },
  { iso: 3, slug: 'onsdag', name: 'onsdag', label: 'Onsdag', short: 'ons' },
  { iso: 4, slug: 'torsdag', name: 'torsdag', label: 'Torsdag', short: 'tor' },
  { iso: 5, slug: 'fredag', name: 'fredag', label: 'Fredag', short: 'fre' },
  { iso: 6, slug: 'lordag', name: 'lördag', label: 'Lördag', short: 'lör' },
  { iso: 7, slug: 'sondag', name: 'söndag', label: 'Söndag', short: 'sön' },
] as const;
export type WeekdayName = (typeof WEEKDAYS)[number]['name'];
/** The names in ISO order (index + 1 = ISO weekday). */
export const WEEKDAY_NAMES = WEEKDAYS.map((w) => w.name) as [WeekdayName, ...WeekdayName[]];

/** The weekday of a Sunday = 0 number (JS getUTCDay, SQLite strftime('%w')). */
export function weekdayOfSunday0(n: number): (typeof WEEKDAYS)[number] {
  return WEEKDAYS[((((n % 7) + 7) % 7) + 6) % 7]!;
}

/** Finds a weekday by Swedish name or ASCII slug (`lördag` or `lordag`), case-insensitive. */
export function findWeekday(value: string) {
  const v = value.trim().toLowerCase();
  return WEEKDAYS.find((w) => w.name === v || w.slug === v);
}

/** Display name of a quiz category (spec 01 §3 "Category values seen"). */
export function categoryLabel(category: string | null | undefined, theme?: string | null): string {
  switch ((category ?? '').toLowerCase()) {
    case '':
      return 'Quiz';
    case 'allmänbildning':
    case 'allmänquiz':
    case 'general':
      return 'Allmänbildning';
    case 'tema':
    case 'theme':
      return theme ? `Tema: ${theme}` : 'Tema';
    case 'musikquiz':
    case 'musik':
      return 'Tema: Musik';
    case 'sportquiz':
    case 'sport':
      return 'Tema: Sport';
    case 'filmquiz':
    case 'film':
      return 'Tema: Film & TV';
    case 'mixed':
      return 'Blandat';
    default: {
      const c = category ?? '';
      return c.charAt(0).toUpperCase() + c.slice(1);
    }
  }
}

/** HH:MM of a stored start time; 19:00 when missing (spec 01 §3). */
export function displayTime(startTime: string | null | undefined): string {
  return startTime ? startTime.slice(0, 5) : '19:00';
}

const NUMBER_WORDS = ['noll', 'en', 'två', 'tre', 'fyra', 'fem', 'sex', 'sju', 'åtta', 'nio', 'tio', 'elva', 'tolv'];
/** A count in running text: a word up to twelve ("tre veckor"), digits above. */
export function countWord(n: number): string {
  return NUMBER_WORDS[n] ?? String(n);
}

/**
 * A count with its noun in the right number: "1 ställe", "0 ställen", "3 ställen" (Swedish uses the singular for
 * exactly one). The one plural rule of the UI and the mails (issue 44.9: "1 ställen", "1 meddelanden").
 */
export function countText(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

/** What a quiz whose price nobody gave shows (issue 44.3): unknown is not free. */
export const PRICE_UNKNOWN = 'Pris ej angivet';

/** 'Gratis' (0 kr), '50 kr', or 'Pris ej angivet' when the price is unknown (null). */
export function displayPrice(price: number | null | undefined): string {
  if (price == null) return PRICE_UNKNOWN;
  return price === 0 ? 'Gratis' : `${price} kr`;
}

/**
 * The category badge of a quiz, or null when its category is unknown (issue 44.3: a tip or a synced calendar
 * event says nothing about it): no badge then, never an invented "Quiz" or "Allmänbildning".
 */
export function categoryBadge(category: string | null | undefined, theme?: string | null): string | null {
  return (category ?? '').trim() === '' ? null : categoryLabel(category, theme);
}

/**
 * Dates in words without Intl (issue 29.13): the first Intl.DateTimeFormat of a page loads the browser's
 * locale data, ~40 ms of a phone's main thread in the public entry's first task (and the cards' dates are
 * its only use there). The words are what `Intl.DateTimeFormat('sv-SE', { weekday: 'long', day: 'numeric',
 * month: 'long', year: 'numeric', timeZone: 'UTC' })` writes, checked day by day in swedish.test.ts; the
 * same text on the server and in the browser, whatever ICU each has.
 */
const MONTH_NAMES = ['januari', 'februari', 'mars', 'april', 'maj', 'juni', 'juli', 'augusti', 'september', 'oktober', 'november', 'december'];
function words(d: Date, parts: { weekday: boolean; year: boolean }): string {
  const day = `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]}${parts.year ? ` ${d.getUTCFullYear()}` : ''}`;
  return parts.weekday ? `${weekdayOfSunday0(d.getUTCDay()).name} ${day}` : day;
}

/** "tisdag 24 november" for a YYYY-MM-DD date. */
export function displayDate(date: string): string {
  return words(new Date(`${date}T00:00:00Z`), { weekday: true, year: false });
}

/** "3 dec" for a YYYY-MM-DD date, with the year when it is not `thisYear` ("3 jan 2027"); short lists of dates (issue 44.9). */
export function shortDate(date: string, thisYear?: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date;
  const year = thisYear !== undefined && d.getUTCFullYear() !== thisYear ? ` ${d.getUTCFullYear()}` : '';
  return `${d.getUTCDate()} ${MONTH_NAMES[d.getUTCMonth()]!.slice(0, 3)}${year}`;
}

/**
 * The chosen date in words beside a native date input (issue 29.12): "torsdag 26 november", with the
 * year when it is not `thisYear` ("torsdag 27 maj 2027"). Null for anything that is not a calendar date.
 */
export function dateInWords(date: string | null | undefined, thisYear?: number): string | null {
  if (!date || !/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date) return null;
  return words(d, { weekday: true, year: thisYear !== undefined && d.getUTCFullYear() !== thisYear });
}

/** "kl 19:00" beside a native time input (which may show 7:00 PM in an English browser). */
export function timeInWords(time: string | null | undefined): string | null {
  return time && /^\d{2}:\d{2}/.test(time) ? `kl ${time.slice(0, 5)}` : null;
}

/** Freshness (issue 20): "Senast bekräftad 3 november 2026", or the house account's "Uppgifter från offentliga källor". */
export function freshnessLine(f: { confirmedOn: string | null; publicSources: boolean }): string {
  if (f.publicSources || !f.confirmedOn) return 'Uppgifter från offentliga källor';
  return `Senast bekräftad ${words(new Date(`${f.confirmedOn}T00:00:00Z`), { weekday: false, year: true })}`;
}
