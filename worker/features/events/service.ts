/**
 * Privacy-first counting (issue 18, 26.6). A batch of browser events becomes one claim of the day's
 * seen-hashes and ONE upsert statement, never one write per event: the events are summed per
 * (metric, quiz) and (metric, business) here, sent as one JSON parameter and resolved to places in SQL,
 * so unknown ids simply match nothing. Each (metric, target) counts at most once per client and day;
 * views by the business's own owner and of hidden businesses are not counted.
 */
import { encodeHexLowerCase } from '@oslojs/encoding';
import { changes } from '../../db/batch';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import type { AnalyticsEvent } from './contract';
import { addToDailyCounters, claimDaySalt, claimSeenHashes, deleteSaltsBefore, deleteSeenBefore } from './queries';

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
 * The client as counting knows it (issue 26.6): its IPv4 address, or the /64 prefix of its IPv6 address
 * (one subscriber line holds a whole /64, so rotating within it is still one client). Never stored: it
 * only goes into the day's salted hash.
 */
export function countingClient(ip: string): string {
  if (!ip.includes(':')) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::') ? [...left, ...Array(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/**
 * The salt of `day`, made on the first event of the day (one statement: a concurrent first event gets the
 * same salt back). The request that made it deletes earlier days' salts and hashes, so a hash can only
 * be tied to a client while its day lasts.
 */
async function daySalt(db: Deps['db'], day: string): Promise<string> {
  const mine = encodeHexLowerCase(crypto.getRandomValues(new Uint8Array(16)));
  const salt = (await claimDaySalt(db, day, mine)) ?? mine;
  if (salt === mine) await deleteEarlierSeen(db, day);
  return salt;
}

/** Deletes salts and seen-hashes of days before `today` (also the nightly job); returns hashes deleted. */
export async function deleteEarlierSeen(db: Deps['db'], today: string): Promise<number> {
  // Salts first: without its salt a leftover hash can no longer be tied to anyone.
  await deleteSaltsBefore(db, today);
  return changes(await deleteSeenBefore(db, today));
}

/**
 * Adds the events to the day's counters, at most one per (metric, quiz or business) per client and day
 * (issue 26.6, docs/features/analytics-counting.md). The batch is summed, each distinct (metric, target) hashed with
 * the day's salt and the client, and ONE statement claims the hashes not yet seen today (INSERT … ON
 * CONFLICT DO NOTHING RETURNING: of concurrent requests exactly one gets a hash back); ONE upsert then
 * counts those. `viewerId`: the signed-in user, whose own businesses are not counted; hidden businesses
 * (is_public = 0) and unknown ids match no row and are not counted.
 */
export async function recordEvents(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { events: readonly AnalyticsEvent[]; viewerId: string | null; client: string },
): Promise<void> {
  const { db } = deps;
  const { events, viewerId } = input;
  const day = deps.clock.today();
  const { quiz, venue } = tallyEvents(events);
  if (quiz.length === 0 && venue.length === 0) return;
  const salt = await daySalt(db, day);
  const client = countingClient(input.client);
  const keyed = [...quiz.map((r) => ({ ...r, k: 'q' as const })), ...venue.map((r) => ({ ...r, k: 'v' as const }))].map((r) => ({
    ...r,
    h: hashToken(`${salt}|${client}|${r.m}|${r.k}|${r.id}`).slice(0, 32),
  }));
  const fresh = await claimSeenHashes(
    db,
    day,
    keyed.map((r) => r.h),
  );
  const firstToday = new Set(fresh.map((r) => r.hash));
  const once = (k: 'q' | 'v') => JSON.stringify(keyed.filter((r) => r.k === k && firstToday.has(r.h)).map((r) => ({ m: r.m, id: r.id })));
  if (firstToday.size === 0) return;
  await addToDailyCounters(db, { day, quizzes: once('q'), venues: once('v'), viewer: viewerId ?? '' });
}

/** User agents of crawlers, link previews and audits: their requests are answered but not counted. */
const BOT_UA =
  /bot|crawl|spider|slurp|archiver|facebookexternalhit|embedly|preview|lighthouse|pingdom|monitor|curl|wget|python-requests|httpclient|go-http|java\//i;
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
