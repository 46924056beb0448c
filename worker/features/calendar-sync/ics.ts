/**
 * ICS → quizzes (issue 31.2): reads a calendar with ical.js and maps its events to Stockholm-local quiz
 * occurrences within the sync horizon. Understood: single timed events, RRULE FREQ=WEEKLY with INTERVAL 1
 * (varje vecka) or 2 (varannan vecka), optional BYDAY/UNTIL/COUNT, EXDATE, and moved or cancelled single
 * occurrences (RECURRENCE-ID). Everything else is listed as not understood, with the reason in Swedish.
 * Pure: no database, no clock (today comes in), so it is unit-tested in Node.
 */
import ICAL from 'ical.js';
import { addDays, isoWeekday, stockholmParts, zonedWallTimeToInstant } from '../../lib/clock';
import { DEFAULT_QUIZ_LANGUAGE, parseQuizLanguage, type QuizLanguage } from '../../lib/quiz-filters';
import { MAX_EVENTS_PER_FEED, MAX_OCCURRENCES_PER_FEED, SYNC_HORIZON_DAYS, TEXT_MAX, TITLE_MAX, type PreviewEvent, type NotUnderstood } from './contract';

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
}

export class FeedParseError extends Error {}

export const REASONS = {
  noUid: 'Händelsen saknar UID',
  noStart: 'Händelsen saknar starttid',
  allDay: 'Heldagshändelse utan klockslag',
  rule: 'Upprepningen stöds inte (bara varje vecka eller varannan vecka)',
  rdate: 'Extra datum (RDATE) stöds inte',
  timezone: 'Okänd tidszon',
} as const;

const UNDERSTOOD_PARTS = new Set(['BYDAY', 'WKST']);
const BYDAY = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];
/** Safety bound on recurrence steps per event (an old weekly rule from 1990 takes ~1 900 to reach today). */
const MAX_STEPS_PER_EVENT = 5_000;

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

const STOCKHOLM = new Set(['Europe/Stockholm', 'W. Europe Standard Time', 'Central Europe Standard Time', 'Romance Standard Time']);

type Zones = Map<string, ICAL.Timezone>;

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
    const known = zonedWallTimeToInstant(wallMs, tzid);
    if (known !== null) instant = known;
    else {
      const zone = zones.get(tzid);
      if (!zone) return null;
      instant = wallMs - zone.utcOffset(t) * 1000;
    }
  }
  const p = stockholmParts(new Date(instant));
  return { date: p.date, time: `${p.time.slice(0, 5)}:00` };
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
function understoodRule(event: ICAL.Event): { pattern: Pattern; byday: string[]; until: ICAL.Time | null } | null {
  const rules = event.component.getAllProperties('rrule');
  if (rules.length !== 1) return null;
  const r = rules[0]!.getFirstValue() as ICAL.Recur;
  if (r.freq !== 'WEEKLY') return null;
  const interval = r.interval || 1;
  if (interval !== 1 && interval !== 2) return null;
  for (const part of Object.keys(r.parts ?? {})) if (!UNDERSTOOD_PARTS.has(part)) return null;
  const byday = (r.parts?.BYDAY as string[] | undefined) ?? [];
  if (byday.some((d) => !BYDAY.includes(String(d)))) return null;
  return { pattern: interval === 2 ? 'biweekly' : 'weekly', byday, until: r.until ?? null };
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
  const zones: Zones = new Map();
  for (const vtz of root.getAllSubcomponents('vtimezone')) {
    const id = vtz.getFirstPropertyValue('tzid');
    if (typeof id === 'string') zones.set(id, new ICAL.Timezone(vtz));
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
    if (comp.getFirstProperty('recurrence-id')) exceptions.push(event);
    else if (!masters.has(uid)) masters.set(uid, event);
  }
  for (const ex of exceptions) masters.get(ex.uid)?.relateException(ex);

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
      const it = event.iterator();
      for (let step = 0; step < MAX_STEPS_PER_EVENT; step++) {
        const next = it.next();
        if (!next) break;
        const d = event.getOccurrenceDetails(next);
        const orig = toStockholm(d.recurrenceId, tzidOf(event), zones);
        if (orig && orig.date > end && d.startDate.compare(d.recurrenceId) >= 0) break;
        push(d.recurrenceId, d.startDate, d.item);
      }
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
  return { occurrences, events, notUnderstood, truncated };
}

/**
 * A short stable fingerprint (FNV-1a, 32 bit) of what a sync wrote to a quiz. The language counts only when it
 * is not svenska, so the fingerprints stored before the quiz had a language (issue 31.3) still match.
 */
export function fingerprint(q: {
  date: string;
  startTime: string | null;
  title: string | null;
  description: string | null;
  isCancelled: boolean;
  language?: string | undefined;
}): string {
  const fields: unknown[] = [q.date, q.startTime, q.title, q.description, q.isCancelled];
  if (q.language && q.language !== DEFAULT_QUIZ_LANGUAGE) fields.push(q.language);
  const s = JSON.stringify(fields);
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
