/**
 * Recurrence generation (spec 02 §5): pure functions on Stockholm calendar dates (YYYY-MM-DD). Dates
 * are calendar days, not instants, so daylight-saving switches cannot shift them (worker/lib/clock.ts).
 */
import { addDays, isoWeekday, nextWeekdayOnOrAfter } from './clock';
import { WEEKDAY_NAMES, type WeekdayName } from './swedish';

/** "Forever" = 6 × 30 days ahead; the nightly cron keeps open-ended series this far ahead (quizzes/contract.ts re-exports it). */
/** How far ahead a series without an end reaches, in months (the owner's texts say it so). */
export const SERIES_HORIZON_MONTHS = 6;
export const SERIES_HORIZON_DAYS = SERIES_HORIZON_MONTHS * 30;

export type Pattern = 'weekly' | 'biweekly';

const stepDays = (pattern: Pattern): number => (pattern === 'biweekly' ? 14 : 7);

/** Swedish weekday names → sorted unique ISO weekdays (1 = måndag). Unknown names are dropped. */
export function isoDaysOf(names: readonly string[]): number[] {
  const out = new Set<number>();
  for (const n of names) {
    const i = WEEKDAY_NAMES.indexOf(n.trim().toLowerCase() as WeekdayName);
    if (i >= 0) out.add(i + 1);
  }
  return [...out].sort((a, b) => a - b);
}

export function namesOf(isoDays: readonly number[]): WeekdayName[] {
  return [...new Set(isoDays)].sort((a, b) => a - b).map((d) => WEEKDAY_NAMES[d - 1]!);
}

/** Parses the stored recurrence_days JSON; null when missing or unreadable. */
export function parseRecurrenceDays(json: string | null | undefined): number[] | null {
  if (!json) return null;
  try {
    const v: unknown = JSON.parse(json);
    if (!Array.isArray(v)) return null;
    const days = isoDaysOf(v.filter((x): x is string => typeof x === 'string'));
    return days.length ? days : null;
  } catch {
    return null;
  }
}

/** The last date a new series reaches: its until-date, or "forever" = start + SERIES_HORIZON_DAYS (capped by until). */
export function seriesEnd(start: string, until: string | null): string {
  const horizon = addDays(start, SERIES_HORIZON_DAYS);
  return until && until < horizon ? until : horizon;
}

/**
 * Every occurrence of a new series: for each chosen weekday, its first date on or after `start`, then
 * every 7 (weekly) or 14 (biweekly) days up to and including `end`. Sorted, no duplicates.
 */
export function generateOccurrences(opts: { start: string; pattern: Pattern; weekdays: readonly number[]; end: string }): string[] {
  const { start, pattern, end } = opts;
  const step = stepDays(pattern);
  const weekdays = opts.weekdays.length ? [...new Set(opts.weekdays)] : [isoWeekday(start)];
  const out: string[] = [];
  for (const wd of weekdays) {
    for (let d = nextWeekdayOnOrAfter(start, wd); d <= end; d = addDays(d, step)) out.push(d);
  }
  return [...new Set(out)].sort();
}

/**
 * The dates to add to an existing series so that it reaches `end`. Each weekday continues its own
 * rhythm from its latest existing occurrence (so a biweekly series keeps its phase); a weekday with no
 * occurrence yet starts on the first such day after the series' latest date. Only dates after the
 * latest existing occurrence and on or after `notBefore` (today) are returned, so an interrupted or
 * repeated extension never fills gaps the owner made (deleted dates stay deleted).
 */
export function extensionDates(opts: { pattern: Pattern; weekdays: readonly number[]; existing: readonly string[]; end: string; notBefore: string }): string[] {
  if (!opts.existing.length) return [];
  const step = stepDays(opts.pattern);
  const latest = opts.existing.reduce((a, b) => (a > b ? a : b));
  const latestByWeekday = new Map<number, string>();
  for (const d of opts.existing) {
    const wd = isoWeekday(d);
    const prev = latestByWeekday.get(wd);
    if (!prev || d > prev) latestByWeekday.set(wd, d);
  }
  const weekdays = opts.weekdays.length ? opts.weekdays : [...latestByWeekday.keys()];
  const out: string[] = [];
  for (const wd of new Set(weekdays)) {
    const last = latestByWeekday.get(wd);
    let d = last ? addDays(last, step) : nextWeekdayOnOrAfter(addDays(latest, 1), wd);
    // Catch up to today without creating past dates (keeps the biweekly phase).
    while (d < opts.notBefore) d = addDays(d, step);
    for (; d <= opts.end; d = addDays(d, step)) if (d > latest) out.push(d);
  }
  return [...new Set(out)].sort();
}
