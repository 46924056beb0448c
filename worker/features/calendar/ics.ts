/**
 * .ics serialisation with ical-generator (folding, escaping and CRLF are the library's, never ours).
 * Every VEVENT comes from eventText() in event.ts, so downloads and feeds carry identical events.
 * A lazy module (worker/lazy/calendar-writer.bundle.js, loaded by loadCalendarWriter in service.ts): the main
 * module imports only its types; what it needs eagerly lives in event.ts (docs/decisions/0017-lazy-module-rule.md).
 */
import ical, { ICalCalendarMethod, ICalEventStatus } from 'ical-generator';
import { eventText, type CalendarQuiz } from './event';

export interface IcsOptions {
  origin: string;
  /** X-WR-CALNAME of a feed. */
  name: string;
  /** Feed URL (URL / SOURCE), for subscriptions. */
  url?: string;
}

/** A quiz row as read for calendars: the event columns plus when the row last changed (DTSTAMP). */
export interface CalendarRow extends CalendarQuiz {
  updatedAt: string;
}

export function buildIcs(rows: CalendarRow[], opts: IcsOptions): string {
  const cal = ical({
    name: opts.name,
    prodId: { company: 'Quizkväll', product: 'quizkvall', language: 'SV' },
    method: ICalCalendarMethod.PUBLISH,
    ...(opts.url ? { url: opts.url, source: opts.url } : {}),
    // Refresh hint for subscribing clients (X-PUBLISHED-TTL / REFRESH-INTERVAL).
    ttl: 6 * 3600,
  });
  for (const row of rows) {
    const e = eventText(row, opts.origin);
    // DTSTAMP: when the row last changed — deterministic, so an unchanged feed has an unchanged body (ETag).
    const stamp = new Date(row.updatedAt);
    cal.createEvent({
      id: e.uid,
      stamp: Number.isNaN(stamp.getTime()) ? e.start : stamp,
      start: e.start,
      end: e.end,
      summary: e.summary,
      description: e.description,
      location: { title: e.locationTitle, address: e.locationAddress, ...(e.geo ? { geo: e.geo } : {}) },
      url: e.url,
      status: e.cancelled ? ICalEventStatus.CANCELLED : ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}
