/**
 * Privacy-first counting (issue 18). A batch of browser events becomes ONE upsert statement
 * (`count = count + excluded.count`), never one write per event: the events are summed per
 * (metric, quiz) and (metric, business) here, sent as one JSON parameter and resolved to places in SQL,
 * so unknown ids simply match nothing. Views by the business's own owner are not counted.
 */
import { sql } from 'drizzle-orm';
import type { Deps } from '../../ports/deps';
import type { AnalyticsEvent } from './contract';

/** Sums the batch: how many of each (metric, quiz) and (metric, business). */
export function tallyEvents(events: readonly AnalyticsEvent[]) {
  const quiz = new Map<string, { m: string; id: string; n: number }>();
  const venue = new Map<string, { m: string; id: string; n: number }>();
  for (const e of events) {
    const [map, id] = e.q ? [quiz, e.q] : [venue, e.v!];
    const key = `${e.t}|${id}`;
    const row = map.get(key) ?? { m: e.t, id, n: 0 };
    row.n++;
    map.set(key, row);
  }
  return { quiz: [...quiz.values()], venue: [...venue.values()] };
}

/**
 * Adds the events to the day's counters in ONE statement (an INSERT … SELECT upsert over both parts of
 * the tally, so no db.batch is needed). `viewerId`: the signed-in user, whose own businesses are not
 * counted. Unknown ids match no row and are ignored by design.
 */
export async function recordEvents(deps: Pick<Deps, 'db' | 'clock'>, input: { events: readonly AnalyticsEvent[]; viewerId: string | null }): Promise<void> {
  const { db } = deps;
  const { events, viewerId } = input;
  const day = deps.clock.today();
  const { quiz, venue } = tallyEvents(events);
  if (quiz.length === 0 && venue.length === 0) return;
  const viewer = viewerId ?? '';
  await db.run(sql`
    INSERT INTO analytics_daily (day, venue_id, location_id, quiz_id, metric, count)
    SELECT ${day}, venue_id, location_id, quiz_id, metric, n FROM (
      SELECT l.venue_id AS venue_id, q.location_id AS location_id, q.id AS quiz_id,
             json_extract(j.value, '$.m') AS metric, json_extract(j.value, '$.n') AS n
      FROM json_each(${JSON.stringify(quiz)}) AS j
      JOIN quizzes q ON q.id = json_extract(j.value, '$.id')
      JOIN locations l ON l.id = q.location_id
      JOIN venues v ON v.id = l.venue_id
      WHERE v.user_id <> ${viewer}
      UNION ALL
      SELECT v.id, '', '', json_extract(j.value, '$.m'), json_extract(j.value, '$.n')
      FROM json_each(${JSON.stringify(venue)}) AS j
      JOIN venues v ON v.id = json_extract(j.value, '$.id')
      WHERE v.user_id <> ${viewer}
    ) WHERE true
    ON CONFLICT (venue_id, day, metric, location_id, quiz_id) DO UPDATE SET count = count + excluded.count`);
}

/** User agents of crawlers, link previews and audits: their requests are answered but not counted. */
const BOT_UA = /bot|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|lighthouse|pingdom|monitor|curl|wget|python-requests|httpclient|go-http|java\//i;
export function isBot(userAgent: string | undefined): boolean {
  return !userAgent || BOT_UA.test(userAgent);
}

/**
 * Per-client request limit, kept only in this isolate's memory (fixed one-minute windows): the client
 * address is never written anywhere. Best effort by design — counts are not security-critical, and a
 * D1 write per beacon to rate-limit would double the cost of counting.
 */
export const EVENTS_RATE_LIMIT = { max: 60, windowMs: 60_000 } as const;
const windows = new Map<string, { start: number; count: number }>();
export function takeEventsSlot(client: string, now: number): boolean {
  const w = windows.get(client);
  if (!w || now - w.start >= EVENTS_RATE_LIMIT.windowMs) {
    if (windows.size >= 10_000) {
      for (const [k, v] of windows) if (now - v.start >= EVENTS_RATE_LIMIT.windowMs) windows.delete(k);
      if (windows.size >= 10_000) windows.clear();
    }
    windows.set(client, { start: now, count: 1 });
    return true;
  }
  w.count++;
  return w.count <= EVENTS_RATE_LIMIT.max;
}
