/**
 * THE one description of a quiz occurrence as a calendar event, used by the .ics downloads, the feeds
 * and the "Google Kalender" link alike (so a subscribed feed replaces a downloaded event rather than
 * duplicating it: same UID, same text). Pure: no Hono, no D1, safe to import from web/ (small).
 *
 * Times are written in UTC (RFC 5545 §3.3.5 form 2): the Stockholm wall time of the stored date and
 * start time is converted with its real offset (+01:00 / +02:00), so no VTIMEZONE is needed and a quiz
 * at 19:00 is at 19:00 on both sides of a DST change.
 */
import { addDays, stockholmInstant } from '../../lib/clock';
import { QUIZ_LANGUAGE_BADGES, type QuizLanguage } from '../../lib/quiz-filters';
import { categoryBadge, displayPrice } from '../../lib/swedish';

/** Default length of a quiz night (spec: 2 h 30 min). */
export const EVENT_DURATION_MIN = 150;
/** Stored start time missing → 19:00 (spec 01 §3). */
export const DEFAULT_START = '19:00:00';
/** Domain of the per-occurrence UIDs: `{quizId}@quizkvall.se`, the same in downloads and feeds. */
export const UID_DOMAIN = 'quizkvall.se';
/** How far a feed looks ahead. */
export const FEED_DAYS = 56;
/** The content type of every .ics answer (the writer itself, ics.ts, is a lazy module). */
export const ICS_CONTENT_TYPE = 'text/calendar; charset=utf-8';

/** The columns an event needs: a subset of the listing's ListingQuiz, so cards can build links too. */
export interface CalendarQuiz {
  id: string;
  date: string;
  startTime: string | null;
  title?: string | null;
  description?: string | null;
  category: string | null;
  theme: string | null;
  quizmaster: string | null;
  teamSize: number | null;
  price: number | null;
  isCancelled: boolean;
  /** Issue 31.3: an English or bilingual quiz says so in the event's text (a Swedish one, the default, says nothing). */
  language?: string | null;
  location: { name: string; address: string; city: string; citySlug: string; latitude: number | null; longitude: number | null };
  venue: { name: string; slug: string };
}

export interface EventText {
  uid: string;
  start: Date;
  end: Date;
  summary: string;
  /** Place name (venue name when they differ) — LOCATION's first line. */
  locationTitle: string;
  /** Address, city. */
  locationAddress: string;
  description: string;
  url: string;
  geo: { lat: number; lon: number } | null;
  cancelled: boolean;
}

export function eventUid(quizId: string): string {
  return `${quizId}@${UID_DOMAIN}`;
}

export function venuePath(q: Pick<CalendarQuiz, 'location' | 'venue'>): string {
  return `/quiz/${q.location.citySlug}/${q.venue.slug}`;
}

export function eventText(q: CalendarQuiz, origin: string): EventText {
  const start = stockholmInstant(q.date, q.startTime ?? DEFAULT_START);
  const end = new Date(start.getTime() + EVENT_DURATION_MIN * 60_000);
  const url = `${origin}${venuePath(q)}`;
  const lines: string[] = [];
  if (q.isCancelled) lines.push('INSTÄLLT');
  if (q.title) lines.push(q.title);
  // An unknown category has no line; an unknown price says so ('Pris ej angivet'), never 'Gratis'.
  const category = categoryBadge(q.category, q.theme);
  if (category) lines.push(`Kategori: ${category}`);
  lines.push(`Pris: ${displayPrice(q.price)}`);
  if (q.quizmaster) lines.push(`Quizmaster: ${q.quizmaster}`);
  if (q.teamSize) lines.push(`Max lagstorlek: ${q.teamSize} personer`);
  const language = QUIZ_LANGUAGE_BADGES[q.language as QuizLanguage] ?? null;
  if (language) lines.push(`Språk: ${language}`);
  if (q.description) lines.push('', q.description);
  lines.push('', url);
  const place = q.location.name === q.venue.name ? q.venue.name : `${q.venue.name}, ${q.location.name}`;
  const geo = q.location.latitude != null && q.location.longitude != null ? { lat: q.location.latitude, lon: q.location.longitude } : null;
  return {
    uid: eventUid(q.id),
    start,
    end,
    summary: `Pubquiz på ${q.venue.name}`,
    locationTitle: place,
    locationAddress: `${q.location.address}, ${q.location.city}`,
    description: lines.join('\n'),
    url,
    geo,
    cancelled: q.isCancelled,
  };
}

/** 20261020T170000Z */
function utcStamp(d: Date): string {
  return d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

/**
 * "Lägg till i Google Kalender" (the render?action=TEMPLATE link Google documents for event buttons;
 * times in UTC, so the visitor's own zone shows the right local time).
 */
export function googleCalendarUrl(q: CalendarQuiz, origin: string): string {
  const e = eventText(q, origin);
  const p = new URLSearchParams({
    action: 'TEMPLATE',
    text: e.summary,
    dates: `${utcStamp(e.start)}/${utcStamp(e.end)}`,
    details: e.description,
    location: `${e.locationTitle}, ${e.locationAddress}`,
    ctz: 'Europe/Stockholm',
  });
  return `https://calendar.google.com/calendar/render?${p.toString()}`;
}

/** Path of the single .ics download of one occurrence. */
export function quizIcsPath(quizId: string): string {
  return `/api/calendar/quiz/${encodeURIComponent(quizId)}.ics`;
}

/** Feed paths (webcal-ready: the same path under webcal://). */
export const feedPaths = {
  city: (city: string) => `/api/calendar/city/${encodeURIComponent(city)}.ics`,
  cityWeekday: (city: string, weekday: string) => `/api/calendar/city/${encodeURIComponent(city)}/${encodeURIComponent(weekday)}.ics`,
  venue: (city: string, venue: string) => `/api/calendar/venue/${encodeURIComponent(city)}/${encodeURIComponent(venue)}.ics`,
  listing: (query: string) => `/api/calendar/listing.ics${query ? `?${query.replace(/^\?/, '')}` : ''}`,
  /** Issue 48: a quizmaster's quizzes at every venue. */
  quizmaster: (slug: string) => `/quizmaster/${encodeURIComponent(slug)}.ics`,
};

/** https://… → webcal://… (calendar apps open a subscription for it). */
export function webcalUrl(httpsUrl: string): string {
  return httpsUrl.replace(/^https?:\/\//, 'webcal://');
}

/** Last date a feed holds, counted from today (inclusive window today … today + FEED_DAYS − 1). */
export function feedEnd(today: string): string {
  return addDays(today, FEED_DAYS - 1);
}
