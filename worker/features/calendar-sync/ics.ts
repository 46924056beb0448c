/**
 * ICS → quizzes (issue 31.2): reads a calendar with ical.js and maps its events to Stockholm-local quiz
 * occurrences within the sync horizon. Understood: single timed events, RRULE FREQ=WEEKLY with INTERVAL 1
 * (varje vecka) or 2 (varannan vecka), optional BYDAY/UNTIL/COUNT, EXDATE, and moved or cancelled single
 * occurrences (RECURRENCE-ID). Everything else is listed as not understood, with the reason in Swedish; so is an
 * event with a date or time that does not exist (month 13, hour 25), which ical.js would roll over.
 * Bounded (issue 42.2): an open-ended rule is expanded from near today, not from its first date, and the
 * whole calendar may take at most MAX_RECURRENCE_STEPS_PER_FEED steps (else FeedTooComplexError).
 * Pure: no database, no clock (today comes in), so it is unit-tested in Node.
 *
 * A lazy module (worker/lazy/calendar-parser.bundle.js, loaded by loadCalendarParser): the main module imports
 * only its types, and reads FeedParseError / FeedTooComplexError from the loaded module (the bundle has its own
 * classes; docs/decisions/0017-lazy-module-rule.md). Keep what the main module needs eagerly out of this file.
 */
import ICAL from 'ical.js';
import { addDays, isoWeekday, zoneOffsetMs } from '../../lib/clock';
import { DEFAULT_QUIZ_LANGUAGE, parseQuizLanguage, type QuizLanguage } from '../../lib/quiz-filters';
import type { NotUnderstood, PreviewEvent } from './contract';
import { MAX_EVENTS_PER_FEED, MAX_OCCURRENCES_PER_FEED, MAX_RECURRENCE_STEPS_PER_FEED, SYNC_HORIZON_DAYS, TEXT_MAX, TITLE_MAX } from './limits';

export type Pattern = 'weekly' | 'biweekly';

/** One quiz the calendar asks for. `key` is stable per event and original date (UID + RECURRENCE-ID). */
export interface Occurrence {
  key: string;
  uid: string;
  date: string;
  startTime: string;
  title: string | null;
  description: string | null;
  /** Issue 31.3: the `LANGUAGE` parameter of its SUMMARY (else DESCRIPTION, else the calendar's name); svenska when none. */
  language: QuizLanguage;
  /** The rule the occurrence belongs to (null for a single event). */
  series: { pattern: Pattern; days: number[]; until: string | null } | null;
}

export interface MappedFeed {
  occurrences: Occurrence[];
  events: PreviewEvent[];
  notUnderstood: NotUnderstood[];
  /** More events or occurrences than the limits: the rest were left out. */
  truncated: boolean;
  /** Recurrence steps the expansion took (at most MAX_RECURRENCE_STEPS_PER_FEED). */
  steps: number;
}

export class FeedParseError extends Error {}

/** The calendar's rules need more than MAX_RECURRENCE_STEPS_PER_FEED steps to expand: refused as a whole. */
export class FeedTooComplexError extends Error {
  constructor(readonly steps: number) {
    super(`more than ${steps} recurrence steps`);
    this.name = 'FeedTooComplexError';
  }
}

export const REASONS = {
  noUid: 'Händelsen saknar UID',
  noStart: 'Händelsen saknar starttid',
  allDay: 'Heldagshändelse utan klockslag',
  rule: 'Upprepningen stöds inte (bara varje vecka eller varannan vecka)',
  rdate: 'Extra datum (RDATE) stöds inte',
  timezone: 'Okänd tidszon',
  /** Followed by the property, "(DTSTART)": a month 13, day 99, hour 25 or minute 61 is refused, not rolled over. */
  invalidDate: 'Händelsen har ett ogiltigt datum eller klockslag',
} as const;

const UNDERSTOOD_PARTS = new Set(['BYDAY', 'WKST']);
const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
/** Safety bound on recurrence steps per event (a COUNT rule is expanded from its first date). */
const MAX_STEPS_PER_EVENT = 5_000;
/**
 * An open-ended rule (no COUNT) is expanded from a copy of its start moved forward by whole periods to at
 * most this many days before today (and before the first original date of a moved occurrence that lands
 * in the window), so a rule from 1990 takes a few dozen steps, not 2 000. Whole periods keep the weekday,
 * the wall time and the every-other-week parity; the copy itself (possibly no occurrence) lies in the past.
 */
export const JUMP_MARGIN_DAYS = 14;

/** The properties of an event whose dates the mapping reads (RRULE's UNTIL too, below). */
const DATED_PROPERTIES = new Set(['dtstart', 'dtend', 'recurrence-id', 'exdate']);
/** A DATE or DATE-TIME value as ical.js's parser writes it into jCal, before it builds (and rolls over) a Time. */
const JCAL_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})Z?)?$/;

/**
 * True when a jCal date or date-time is a real one: month 1–12, a day the month has, hour 0–23, minute 0–59,
 * second 0–60. ical.js rolls an impossible value over (20261399T256199 became 2027-04-10 02:02), so the
 * values are checked as written (issue 43.5).
 */
export function isRealDateValue(value: unknown): boolean {
  const m = typeof value === 'string' ? JCAL_DATE.exec(value) : null;
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (y < 1000 || mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return false;
  return m[4] === undefined || (Number(m[4]) <= 23 && Number(m[5]) <= 59 && Number(m[6]) <= 60);
}

/** The name (DTSTART, EXDATE, UNTIL …) of the first date an event holds that is not a real date or time; null when none. */
function invalidDateProperty(comp: ICAL.Component): string | null {
  for (const prop of comp.jCal[1] as unknown[][]) {
    const name = String(prop[0]);
    const values = prop.slice(3);
    if (name === 'rrule') {
      for (const v of values) {
        const until = (v as { until?: unknown } | null)?.until;
        if (until !== undefined && !isRealDateValue(until)) return 'UNTIL';
      }
    } else if (DATED_PROPERTIES.has(name) && !values.every(isRealDateValue)) return name.toUpperCase();
  }
  return null;
}

const clip = (s: unknown, max: number): string | null => {
  if (typeof s !== 'string') return null;
  const t = s.replace(/\s+/g, ' ').trim();
  return t ? t.slice(0, max) : null;
};

/**
 * The language of an event's text (RFC 5545 §3.2.10 `LANGUAGE=en-GB` on SUMMARY or DESCRIPTION), or null when
 * neither says one we know (sv/en and their regions, worker/lib/quiz-filters.ts parseQuizLanguage).
 */
export function languageParam(comp: ICAL.Component): QuizLanguage | null {
  for (const name of ['summary', 'description']) {
    const v = comp.getFirstProperty(name)?.getParameter('language');
    const lang = typeof v === 'string' ? parseQuizLanguage(v) : null;
    if (lang) return lang;
  }
  return null;
}

const STOCKHOLM_ZONE = 'Europe/Stockholm';
const STOCKHOLM = new Set(['Europe/Stockholm', 'W. Europe Standard Time', 'Central Europe Standard Time', 'Romance Standard Time']);

/** One calendar's zones: its own VTIMEZONEs, and the UTC offsets looked up so far (per zone and UTC hour). */
interface Zones {
  vtimezones: Map<string, ICAL.Timezone>;
  offsets: Map<string, number | null>;
}

const HOUR_MS = 3_600_000;

/**
 * A zone's UTC offset at an instant, remembered per UTC hour (zones change offset on whole UTC hours): a rule
 * yields its dates at one time of day, so a feed's thousands of steps need a few hundred Intl look-ups, not one
 * per step (those were most of a large feed's CPU).
 */
function offsetAt(zones: Zones, zone: string, ms: number): number | null {
  const hour = Math.floor(ms / HOUR_MS);
  const key = `${zone}|${hour}`;
  let offset = zones.offsets.get(key);
  if (offset === undefined) {
    offset = zoneOffsetMs(zone, hour * HOUR_MS);
    zones.offsets.set(key, offset);
  }
  return offset;
}

/**
 * Stockholm local date and time of an event start: UTC (…Z) and TZID starts are converted through the
 * instant; a floating time (no zone) or a Stockholm/CET zone is taken as Stockholm wall time.
 */
function toStockholm(t: ICAL.Time, tzid: string | null, zones: Zones): { date: string; time: string } | null {
  const pad = (n: number) => String(n).padStart(2, '0');
  const wall = { date: `${t.year}-${pad(t.month)}-${pad(t.day)}`, time: `${pad(t.hour)}:${pad(t.minute)}:00` };
  const wallMs = Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, 0);
  let instant: number;
  if (t.zone?.tzid === 'UTC') instant = wallMs;
  else if (!tzid || STOCKHOLM.has(tzid)) return wall;
  else {
    // Two passes (as lib/clock.ts zonedWallTimeToInstant), so a time near a DST change takes that day's offset.
    const first = offsetAt(zones, tzid, wallMs);
    if (first !== null) instant = wallMs - offsetAt(zones, tzid, wallMs - first)!;
    else {
      const zone = zones.vtimezones.get(tzid);
      if (!zone) return null;
      instant = wallMs - zone.utcOffset(t) * 1000;
    }
  }
  const local = new Date(instant + offsetAt(zones, STOCKHOLM_ZONE, instant)!).toISOString();
  return { date: local.slice(0, 10), time: `${local.slice(11, 16)}:00` };
}

/** The start's TZID parameter, if any. */
function tzidOf(event: ICAL.Event): string | null {
  const v = event.component.getFirstProperty('dtstart')?.getParameter('tzid');
  return typeof v === 'string' ? v : null;
}

function isCancelled(event: ICAL.Event): boolean {
  return String(event.component.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED';
}

/** A weekly or every-other-week rule without other parts; null when not understood. */
function understoodRule(event: ICAL.Event): { pattern: Pattern; intervalWeeks: 1 | 2; byday: string[]; until: ICAL.Time | null; count: number | null } | null {
  const rules = event.component.getAllProperties('rrule');
  if (rules.length !== 1) return null;
  const r = rules[0]!.getFirstValue() as ICAL.Recur;
  if (r.freq !== 'WEEKLY') return null;
  const interval = r.interval || 1;
  if (interval !== 1 && interval !== 2) return null;
  for (const part of Object.keys(r.parts ?? {})) if (!UNDERSTOOD_PARTS.has(part)) return null;
  const byday = (r.parts?.BYDAY as string[] | undefined) ?? [];
  if (byday.some((d) => !BYDAY.includes(String(d)))) return null;
  return { pattern: interval === 2 ? 'biweekly' : 'weekly', intervalWeeks: interval, byday, until: r.until ?? null, count: r.count ?? null };
}

const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / 86_400_000;

/**
 * The start to expand an open-ended rule from: `start` moved forward by whole periods of `periodDays` to at
 * least two days before `floor` (a zone's date and Stockholm's differ by at most one), or `start` itself
 * when it is not that old.
 */
export function jumpedStart(start: ICAL.Time, periodDays: number, floor: string): ICAL.Time {
  const pad = (n: number) => String(n).padStart(2, '0');
  const diff = dayNumber(floor) - dayNumber(`${start.year}-${pad(start.month)}-${pad(start.day)}`) - 2;
  const periods = Math.floor(diff / periodDays);
  if (!(periods > 0)) return start;
  const moved = start.clone();
  moved.adjust(periods * periodDays, 0, 0, 0);
  return moved;
}

/**
 * Parses and maps a calendar. `today` is Stockholm's date; occurrences from today through
 * today + SYNC_HORIZON_DAYS are returned, at most MAX_OCCURRENCES_PER_FEED (earliest first).
 * Throws FeedParseError when the text is not a calendar.
 */
export function mapCalendar(text: string, today: string): MappedFeed {
  let root: ICAL.Component;
  try {
    const jcal = ICAL.parse(text);
    root = new ICAL.Component(jcal as unknown[]);
  } catch {
    throw new FeedParseError('not ics');
  }
  if (root.name !== 'vcalendar') throw new FeedParseError('not a calendar');
  const zones: Zones = { vtimezones: new Map(), offsets: new Map() };
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const id = vtz.getFirstPropertyValue('tzid');
    if (typeof id === 'string') zones.vtimezones.set(id, new ICAL.Timezone(vtz));
  }
  const end = addDays(today, SYNC_HORIZON_DAYS);
  // The calendar's own language (X-WR-CALNAME;LANGUAGE=en, as some publishers write it): the events' default.
  const calendarLanguage = (() => {
    const v = root.getFirstProperty('x-wr-calname')?.getParameter('language');
    return (typeof v === 'string' ? parseQuizLanguage(v) : null) ?? DEFAULT_QUIZ_LANGUAGE;
  })();
  const notUnderstood: NotUnderstood[] = [];
  let truncated = false;

  // Group by UID: the master (no RECURRENCE-ID) and its moved/cancelled occurrences.
  const vevents = root.getAllSubcomponents('vevent');
  if (vevents.length > MAX_EVENTS_PER_FEED) truncated = true;
  const masters = new Map<string, ICAL.Event>();
  const exceptions: ICAL.Event[] = [];
  for (const comp of vevents.slice(0, MAX_EVENTS_PER_FEED)) {
    let event: ICAL.Event;
    try {
      // `exceptions: []`: without it each Event scans every sibling VEVENT (quadratic on a large feed);
      // moved occurrences are related below, by UID.
      event = new ICAL.Event(comp, { exceptions: [] });
    } catch {
      notUnderstood.push({ uid: null, title: null, reason: REASONS.noStart });
      continue;
    }
    const title = clip(event.summary, TITLE_MAX);
    const uid = clip(event.uid, 300);
    if (!uid) {
      notUnderstood.push({ uid: null, title, reason: REASONS.noUid });
      continue;
    }
    if (!comp.getFirstProperty('dtstart')) {
      notUnderstood.push({ uid, title, reason: REASONS.noStart });
      continue;
    }
    const badDate = invalidDateProperty(comp);
    if (badDate) {
      notUnderstood.push({ uid, title, reason: `${REASONS.invalidDate} (${badDate})` });
      continue;
    }
    if (comp.getFirstProperty('recurrence-id')) exceptions.push(event);
    else if (!masters.has(uid)) masters.set(uid, event);
  }
  for (const ex of exceptions) masters.get(ex.uid)?.relateException(ex);
  const exceptionUids = new Set(exceptions.flatMap((ex) => (masters.has(ex.uid) ? [ex.uid] : [])));
  // Per UID, the earliest original date of an occurrence moved to today or later (the jump must not pass it).
  const movedFrom = new Map<string, string>();
  for (const ex of exceptions) {
    const master = masters.get(ex.uid);
    if (!master) continue;
    const orig = toStockholm(ex.recurrenceId, tzidOf(master), zones)?.date;
    const moved = toStockholm(ex.startDate, tzidOf(ex), zones)?.date;
    if (orig && moved && moved >= today && orig < (movedFrom.get(ex.uid) ?? '9')) movedFrom.set(ex.uid, orig);
  }
  // Recurrence steps of the whole feed (MAX_RECURRENCE_STEPS_PER_FEED): a feed of many rules is refused.
  let steps = 0;

  const occurrences: Occurrence[] = [];
  const events: PreviewEvent[] = [];
  for (const [uid, event] of masters) {
    const title = clip(event.summary, TITLE_MAX);
    const description = clip(event.description, TEXT_MAX);
    const language = languageParam(event.component) ?? calendarLanguage;
    if (isCancelled(event)) continue;
    if (event.startDate.isDate) {
      notUnderstood.push({ uid, title, reason: REASONS.allDay });
      continue;
    }
    if (event.component.getFirstProperty('rdate')) {
      notUnderstood.push({ uid, title, reason: REASONS.rdate });
      continue;
    }
    const rule = event.isRecurring() ? understoodRule(event) : null;
    if (event.isRecurring() && !rule) {
      notUnderstood.push({ uid, title, reason: REASONS.rule });
      continue;
    }
    const masterStart = toStockholm(event.startDate, tzidOf(event), zones);
    if (!masterStart) {
      notUnderstood.push({ uid, title, reason: REASONS.timezone });
      continue;
    }
    const series = rule
      ? {
          pattern: rule.pattern,
          days: rule.byday.length ? [...new Set(rule.byday.map((d) => ((BYDAY.indexOf(d) + 6) % 7) + 1))].sort() : [isoWeekday(masterStart.date)],
          until: rule.until ? (toStockholm(rule.until, rule.until.isDate ? null : tzidOf(event), zones)?.date ?? null) : null,
        }
      : null;
    const mine: Occurrence[] = [];
    const excluded: string[] = [];
    const push = (original: ICAL.Time, start: ICAL.Time, item: ICAL.Event) => {
      const orig = toStockholm(original, tzidOf(event), zones);
      const local = toStockholm(start, tzidOf(item), zones);
      if (!orig || !local) return;
      if (item !== event && isCancelled(item)) {
        if (orig.date >= today && orig.date <= end) excluded.push(orig.date);
        return;
      }
      if (local.date < today || local.date > end) return;
      mine.push({
        // A single event is its UID (moving it moves its quiz); an occurrence of a rule is UID + original date.
        key: rule ? `${uid}|${orig.date}` : uid,
        uid,
        date: local.date,
        startTime: local.time,
        title: clip(item.summary, TITLE_MAX) ?? title,
        description: clip(item.description, TEXT_MAX) ?? description,
        language: (item !== event ? languageParam(item.component) : null) ?? language,
        series,
      });
    };
    if (!rule) {
      push(event.startDate, event.startDate, event);
    } else {
      const floor = addDays(today, -JUMP_MARGIN_DAYS);
      const from = rule.count === null ? jumpedStart(event.startDate, 7 * rule.intervalWeeks, [floor, movedFrom.get(uid) ?? floor].sort()[0]!) : undefined;
      const it = event.iterator(from);
      // The rule's last original date, once the iterator has run out (an UNTIL or COUNT rule): the series' real end.
      let lastDate: string | null = null;
      let ended = false;
      let step = 0;
      for (; step < MAX_STEPS_PER_EVENT; step++) {
        if (++steps > MAX_RECURRENCE_STEPS_PER_FEED) throw new FeedTooComplexError(MAX_RECURRENCE_STEPS_PER_FEED);
        const next = it.next();
        if (!next) {
          ended = true;
          break;
        }
        // Without moved occurrences a date is its own start (getOccurrenceDetails also builds an end: most of a step).
        const d = exceptionUids.has(uid) ? event.getOccurrenceDetails(next) : { recurrenceId: next, startDate: next, item: event };
        const orig = toStockholm(d.recurrenceId, tzidOf(event), zones);
        if (orig) lastDate = orig.date;
        if (orig && orig.date > end && d.startDate.compare(d.recurrenceId) >= 0) break;
        push(d.recurrenceId, d.startDate, d.item);
      }
      // A COUNT or UNTIL rule that goes on past the horizon: its last date, read on while the feed's step budget
      // lasts (issue 44.3: the series shows its real end, not the horizon). Out of budget, the end stays the rule's
      // UNTIL (or unknown for COUNT).
      while (!ended && (rule.count !== null || rule.until !== null) && ++step < MAX_STEPS_PER_EVENT && steps < MAX_RECURRENCE_STEPS_PER_FEED) {
        steps++;
        const next = it.next();
        if (!next) ended = true;
        else lastDate = toStockholm(next, tzidOf(event), zones)?.date ?? lastDate;
      }
      if (series && ended && lastDate && (series.until === null || lastDate < series.until)) series.until = lastDate;
      for (const ex of event.component.getAllProperties('exdate')) {
        for (const v of ex.getValues() as ICAL.Time[]) {
          const local = toStockholm(v, v.isDate ? null : ((ex.getParameter('tzid') as string | undefined) ?? tzidOf(event)), zones);
          if (local && local.date >= today && local.date <= end) excluded.push(local.date);
        }
      }
    }
    occurrences.push(...mine);
    if (mine.length || excluded.length)
      events.push({
        uid,
        title,
        kind: rule ? rule.pattern : 'single',
        firstDate: mine[0]?.date ?? null,
        startTime: (mine[0]?.startTime ?? masterStart.time).slice(0, 5),
        weekdays: series?.days ?? (mine[0] ? [isoWeekday(mine[0].date)] : []),
        occurrences: mine.length,
        excludedDates: [...new Set(excluded)].sort(),
      });
  }
  occurrences.sort((a, b) => (a.date === b.date ? a.startTime.localeCompare(b.startTime) : a.date.localeCompare(b.date)));
  if (occurrences.length > MAX_OCCURRENCES_PER_FEED) {
    truncated = true;
    occurrences.length = MAX_OCCURRENCES_PER_FEED;
  }
  events.sort((a, b) => (a.firstDate ?? '9').localeCompare(b.firstDate ?? '9'));
  return { occurrences, events, notUnderstood, truncated, steps };
}
