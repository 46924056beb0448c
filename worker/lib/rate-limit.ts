/**
 * Attempt counters in D1 (table rate_limits). One UPSERT both counts and reads, so concurrent attempts
 * cannot slip past. The window resets when `windowMs` has passed since the last attempt (spec 01 §5).
 */
import { sql } from 'drizzle-orm';
import { changes } from '../db/batch';
import type { Db } from '../db/client';
import { rateLimited } from './errors';

/**
 * Requests that send mail or can reveal whether an address exists (register, resend, forgot, e-mail
 * change, takeover) are limited per client as well as per address (issue 13.7): this many per action
 * and client within MAIL_CLIENT_WINDOW_MS.
 */
export const MAIL_CLIENT_LIMIT = 10;
export const MAIL_CLIENT_WINDOW_MS = 60 * 60 * 1000;

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Milliseconds until a new attempt is allowed (0 when allowed). */
  retryAfterMs: number;
}

export async function hitRateLimit(db: Db, key: string, limit: number, windowMs: number, now: Date): Promise<RateLimitResult> {
  const t = now.getTime();
  const rows = await db.all<{ count: number; last_attempt: number }>(sql`
    INSERT INTO rate_limits (key, count, window_start, last_attempt) VALUES (${key}, 1, ${t}, ${t})
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN ${t} - rate_limits.last_attempt > ${windowMs} THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN ${t} - rate_limits.last_attempt > ${windowMs} THEN ${t} ELSE rate_limits.window_start END,
      last_attempt = ${t}
    RETURNING count, last_attempt`);
  const count = rows[0]?.count ?? 1;
  const allowed = count <= limit;
  return { allowed, count, retryAfterMs: allowed ? 0 : windowMs };
}

/**
 * Counts an attempt first and decides after (issue 13.3): `hitRateLimit` as a gate that throws the
 * caller's 429 when the new count is over the limit, so concurrent attempts can never all pass a check
 * made before any of them was counted.
 */
export async function takeAttempt(db: Db, key: string, limit: number, windowMs: number, now: Date, refuse: (retryAfterMs: number) => Error): Promise<number> {
  const r = await hitRateLimit(db, key, limit, windowMs, now);
  if (!r.allowed) throw refuse(r.retryAfterMs);
  return r.count;
}

/**
 * A lock whose refused attempts change nothing (issue 26.5): the first `limit` attempts within `windowMs`
 * of the previous counted one pass; a refused attempt is not counted and does not move the window, so
 * someone who keeps trying while locked is not locked for longer. One UPSERT whose DO UPDATE has a WHERE
 * (as claimSpacedAttempt): of concurrent attempts at most `limit` get a row back.
 */
export async function claimAttempt(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
  const t = now.getTime();
  const rows = await db.all<{ count: number }>(sql`
    INSERT INTO rate_limits (key, count, window_start, last_attempt) VALUES (${key}, 1, ${t}, ${t})
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN ${t} - rate_limits.last_attempt > ${windowMs} THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN ${t} - rate_limits.last_attempt > ${windowMs} THEN ${t} ELSE rate_limits.window_start END,
      last_attempt = ${t}
    WHERE ${t} - rate_limits.last_attempt > ${windowMs} OR rate_limits.count < ${limit}
    RETURNING count`);
  if (rows.length > 0) return { allowed: true };
  const [row] = await db.all<{ last_attempt: number }>(sql`SELECT last_attempt FROM rate_limits WHERE key = ${key}`);
  return { allowed: false, retryAfterMs: Math.max(1000, row ? windowMs - (t - row.last_attempt) + 1 : windowMs) };
}

/**
 * A throttle that slows rather than locks (issue 13.5): the first `free` attempts in a window pass; after
 * that an attempt passes only if at least 2^(count − free) s (at most `maxDelayMs`) have gone by since the
 * previous one that passed. One UPSERT whose DO UPDATE has a WHERE: a refused attempt changes nothing and
 * RETURNING gives no row, so of concurrent attempts exactly one can take a free slot.
 */
export async function claimSpacedAttempt(
  db: Db,
  key: string,
  opts: { free: number; windowMs: number; maxDelayMs: number; now: Date },
): Promise<{ allowed: true } | { allowed: false; retryAfterMs: number }> {
  const t = opts.now.getTime();
  const { free, windowMs, maxDelayMs } = opts;
  const delay = sql`MIN(${maxDelayMs}, 1000 * (1 << MIN(20, MAX(0, rate_limits.count - ${free}))))`;
  const rows = await db.all<{ count: number }>(sql`
    INSERT INTO rate_limits (key, count, window_start, last_attempt) VALUES (${key}, 1, ${t}, ${t})
    ON CONFLICT(key) DO UPDATE SET
      count = CASE WHEN ${t} - rate_limits.last_attempt > ${windowMs} THEN 1 ELSE rate_limits.count + 1 END,
      window_start = CASE WHEN ${t} - rate_limits.last_attempt > ${windowMs} THEN ${t} ELSE rate_limits.window_start END,
      last_attempt = ${t}
    WHERE ${t} - rate_limits.last_attempt > ${windowMs} OR rate_limits.count < ${free} OR ${t} - rate_limits.last_attempt >= ${delay}
    RETURNING count`);
  if (rows.length > 0) return { allowed: true };
  const [row] = await db.all<{ count: number; last_attempt: number }>(sql`SELECT count, last_attempt FROM rate_limits WHERE key = ${key}`);
  const wait = row ? Math.min(maxDelayMs, 1000 * 2 ** Math.min(20, Math.max(0, row.count - free))) - (t - row.last_attempt) : 1000;
  return { allowed: false, retryAfterMs: Math.max(1000, wait) };
}

/** Takes one counted attempt back (a successful one should not count against the key). */
export async function forgiveAttempt(db: Db, key: string): Promise<void> {
  await db.run(sql`UPDATE rate_limits SET count = MAX(0, count - 1) WHERE key = ${key}`);
}

/** Forgets a key (e.g. after a successful login). */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.run(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}

export async function deleteStaleRateLimits(db: Db, now: Date, olderThanMs = 24 * 3600 * 1000): Promise<number> {
  return changes(await db.run(sql`DELETE FROM rate_limits WHERE last_attempt < ${now.getTime() - olderThanMs}`));
}

/** The client a request comes from (`cf-connecting-ip`; requests without it share 'local'). */
export function clientKeyOf(req: { header(name: string): string | undefined }): string {
  return req.header('cf-connecting-ip') ?? 'local';
}

/** Counts a mail-sending request of `what` for the client first; 429 past MAIL_CLIENT_LIMIT. */
export async function takeMailAttempt(db: Db, what: string, clientKey: string, now: Date): Promise<void> {
  await takeAttempt(db, `mail-client:${what}:${clientKey}`, MAIL_CLIENT_LIMIT, MAIL_CLIENT_WINDOW_MS, now, (ms) =>
    rateLimited(`För många försök från din anslutning. Vänta ${Math.max(1, Math.ceil(ms / 60000))} minuter innan du försöker igen.`, Math.ceil(ms / 1000)),
  );
}
