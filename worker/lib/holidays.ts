/**
 * Swedish holidays for series (issue 20), from the maintained `date-holidays` library (country SE),
 * through a generated table (holidays-se.generated.ts, printed by scripts/swedish-holidays.mjs; the unit
 * test compares it with the library) so the Worker does not bundle the library. Two kinds:
 * - 'public': the public holidays ("röda dagar", the library's type 'public'), e.g. juldagen;
 * - 'eve': julafton, nyårsafton, midsommarafton (the library's type 'bank') and påskafton ('observance'),
 *   picked BY NAME: the library's other 'observance'/'optional' days (Luciadagen, valborgsmässoafton,
 *   pingstafton, …) are not days a pub quiz stops for.
 * The eves are the dates a series' "Hoppa över" is pre-selected for. Dates are Stockholm calendar dates
 * (the library's local `date` field). Pure: no clock, no db. Years outside the table have no holidays.
 */
import { HOLIDAY_TABLE_FIRST_YEAR, HOLIDAY_TABLE_LAST_YEAR, SWEDISH_HOLIDAYS } from './holidays-se.generated';

export type HolidayKind = 'public' | 'eve';

export interface SwedishHoliday {
  date: string;
  /** Swedish name as the library spells it, e.g. 'julafton', 'annandag påsk'. */
  name: string;
  kind: HolidayKind;
}

/** The four eves (library names). */
export const EVE_NAMES = ['julafton', 'nyårsafton', 'midsommarafton', 'påskafton'] as const;
export { HOLIDAY_TABLE_FIRST_YEAR, HOLIDAY_TABLE_LAST_YEAR };

const byDate = new Map<string, SwedishHoliday>(SWEDISH_HOLIDAYS.map(([date, name, kind]) => [date, { date, name, kind }]));

/** Public holidays and the four eves of one year, sorted by date; one entry per date. */
export function swedishHolidays(year: number): SwedishHoliday[] {
  const prefix = `${year}-`;
  return [...byDate.values()].filter((h) => h.date.startsWith(prefix));
}

/** The holiday on a date, or null. */
export function holidayOn(date: string): SwedishHoliday | null {
  return byDate.get(date) ?? null;
}

export interface HolidayOccurrence extends SwedishHoliday {
  /** Pre-selected "Hoppa över": true for the four eves. */
  suggestSkip: boolean;
}

/** The dates of a series (YYYY-MM-DD, any order) that fall on a holiday or eve, sorted. */
export function holidayDatesOf(dates: readonly string[]): HolidayOccurrence[] {
  const out: HolidayOccurrence[] = [];
  for (const date of [...new Set(dates)].sort()) {
    const h = holidayOn(date);
    if (h) out.push({ ...h, suggestSkip: h.kind === 'eve' });
  }
  return out;
}

/** The holidays between two dates (inclusive), for the nightly "Kör ni quiz på …?" look-ahead. */
export function holidaysBetween(from: string, to: string): SwedishHoliday[] {
  const out: SwedishHoliday[] = [];
  for (let y = Number(from.slice(0, 4)); y <= Number(to.slice(0, 4)); y++) {
    for (const h of swedishHolidays(y)) if (h.date >= from && h.date <= to) out.push(h);
  }
  return out;
}

/** "julafton" → "Julafton" for headings and subjects. */
export function holidayLabel(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}
