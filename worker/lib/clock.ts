/**
 * Time in Europe/Stockholm. The Worker's own clock is UTC; every "today", weekday, "upcoming" and
 * series date in Quizkväll is Swedish local time (ARCHITECTURE.md "Time"). Dates are plain
 * `YYYY-MM-DD` strings and date arithmetic is done on them in UTC, which has no DST jumps.
 */
const TIME_ZONE = 'Europe/Stockholm';

export interface Clock {
  /** The current instant. */
  now(): Date;
  /** Today's date in Stockholm, YYYY-MM-DD. */
  today(): string;
}

/**
 * A clock; `pinned` (from CLOCK_NOW or the x-clock-now header) pins it for development and tests:
 *   - `<instant>`              frozen: every call answers that instant;
 *   - `<instant>@<real instant>` running: it was `<instant>` when the wall clock read `<real instant>`,
 *     and time flows on from there (the e2e app: dates of a chosen day, yet rate-limit windows,
 *     "newest first" and throttles see seconds pass as they do in production).
 */
export function createClock(pinned?: string | null): Clock {
  if (pinned) {
    const [at, since] = parsePinned(pinned);
    if (since === null) return { now: () => new Date(at), today: () => stockholmDate(at) };
    const offset = at.getTime() - since.getTime();
    const now = () => new Date(Date.now() + offset);
    return { now, today: () => stockholmDate(now()) };
  }
  return { now: () => new Date(), today: () => stockholmDate(new Date()) };
}

function parsePinned(pinned: string): [Date, Date | null] {
  const [atText = '', sinceText, ...rest] = pinned.split('@');
  const at = new Date(atText);
  const since = sinceText === undefined ? null : new Date(sinceText);
  if (Number.isNaN(at.getTime()) || (since && Number.isNaN(since.getTime())) || rest.length > 0) {
    throw new Error(`CLOCK_NOW is not an ISO instant (or <instant>@<real instant>): ${pinned}`);
  }
  return [at, since];
}

/**
 * A clock that starts at `start` and advances in real time: a cron run's scheduled instant, so its
 * dates are the scheduled night's while its job_runs rows still get true durations.
 */
export function clockFrom(start: Date): Clock {
  const offset = start.getTime() - Date.now();
  const now = () => new Date(Date.now() + offset);
  return { now, today: () => stockholmDate(now()) };
}

/** Wall-clock formatters by IANA zone (null: a zone this runtime does not know). The one tz-parts formatter. */
const zoneFormats = new Map<string, Intl.DateTimeFormat | null>();
function zoneFormat(timeZone: string): Intl.DateTimeFormat | null {
  if (zoneFormats.has(timeZone)) return zoneFormats.get(timeZone)!;
  let f: Intl.DateTimeFormat | null;
  try {
    f = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    f = null;
  }
  zoneFormats.set(timeZone, f);
  return f;
}

/** The wall-clock fields of an instant in a zone's formatter. */
function wallParts(f: Intl.DateTimeFormat, instant: Date): Record<string, string> {
  const p: Record<string, string> = {};
  for (const part of f.formatToParts(instant)) p[part.type] = part.value;
  return p;
}

/** Stockholm wall-clock date and time of an instant. */
export function stockholmParts(instant: Date): { date: string; time: string } {
  const p = wallParts(zoneFormat(TIME_ZONE)!, instant);
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}:${p.second}` };
}

/** The UTC offset (ms) of an IANA zone at an instant (ms); null for a zone this runtime does not know. */
export function zoneOffsetMs(timeZone: string, ms: number): number | null {
  const f = zoneFormat(timeZone);
  if (!f) return null;
  const p = wallParts(f, new Date(ms));
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour) % 24, Number(p.minute), Number(p.second)) - ms;
}

/**
 * The instant (ms) of a wall-clock time in an IANA zone, the wall time given as if it were UTC (`Date.UTC(...)`):
 * two passes, so a time near a DST change takes that day's offset. Null for a zone this runtime does not know.
 */
export function zonedWallTimeToInstant(wallMs: number, timeZone: string): number | null {
  const first = zoneOffsetMs(timeZone, wallMs);
  if (first === null) return null;
  return wallMs - zoneOffsetMs(timeZone, wallMs - first)!;
}

export function stockholmDate(instant: Date): string {
  return stockholmParts(instant).date;
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Parses YYYY-MM-DD to a UTC midnight timestamp (ms); throws on a malformed or impossible date. */
function dateToUtcMs(date: string): number {
  const m = DATE_RE.exec(date);
  if (!m) throw new Error(`Not a YYYY-MM-DD date: ${date}`);
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(ms).toISOString().slice(0, 10) !== date) throw new Error(`Impossible date: ${date}`);
  return ms;
}

const DAY_MS = 86_400_000;

export function addDays(date: string, days: number): string {
  return new Date(dateToUtcMs(date) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((dateToUtcMs(to) - dateToUtcMs(from)) / DAY_MS);
}

/** ISO weekday of a date: 1 = Monday … 7 = Sunday (calendar weeks start on Monday, spec 01 §9). */
export function isoWeekday(date: string): number {
  const d = new Date(dateToUtcMs(date)).getUTCDay();
  return d === 0 ? 7 : d;
}

/** The Monday of the ISO week containing `date`. */
export function startOfIsoWeek(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

/** The first date on or after `from` that falls on ISO weekday `weekday` (1–7). */
export function nextWeekdayOnOrAfter(from: string, weekday: number): string {
  return addDays(from, (weekday - isoWeekday(from) + 7) % 7);
}

/**
 * The UTC offset of Stockholm at a local date and time, '+01:00' (CET) or '+02:00' (CEST).
 * Needed for JSON-LD startDate, which must carry the real offset of that date.
 */
export function stockholmOffset(date: string, time = '12:00:00'): '+01:00' | '+02:00' {
  const [h = 0, mi = 0] = time.split(':').map(Number);
  const asUtc = dateToUtcMs(date) + (h * 60 + mi) * 60_000;
  // If local = UTC+1 then the instant is asUtc - 1h; check whether that instant formats back to the same wall time.
  const cet = stockholmParts(new Date(asUtc - 3_600_000));
  return cet.date === date && cet.time.slice(0, 5) === `${pad(h)}:${pad(mi)}` ? '+01:00' : '+02:00';
}

/** The instant of a Stockholm local date and time. */
export function stockholmInstant(date: string, time = '00:00:00'): Date {
  const offset = stockholmOffset(date, time);
  return new Date(`${date}T${normalizeTime(time)}${offset}`);
}

/** HH:MM or HH:MM:SS → HH:MM:SS. */
export function normalizeTime(time: string): string {
  return time.length === 5 ? `${time}:00` : time;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
