/**
 * Attempt counters in D1 (table rate_limits). One UPSERT both counts and reads, so concurrent attempts
 * cannot slip past. The window resets when `windowMs` has passed since the last attempt (spec 01 §5).
 */
import { sql } from 'drizzle-orm';
import { changes } from '../db/batch';
import type { Db } from '../db/client';

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** Milliseconds until a new attempt is allowed (0 when allowed). */
  retryAfterMs: number;
}

export async function hitRateLimit(
  db: Db,
  key: string,
  limit: number,
  windowMs: number,
  now: Date,
): Promise<RateLimitResult> {
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

/** Forgets a key (e.g. after a successful login). */
export async function resetRateLimit(db: Db, key: string): Promise<void> {
  await db.run(sql`DELETE FROM rate_limits WHERE key = ${key}`);
}

export async function deleteStaleRateLimits(db: Db, now: Date, olderThanMs = 24 * 3600 * 1000): Promise<number> {
  return changes(await db.run(sql`DELETE FROM rate_limits WHERE last_attempt < ${now.getTime() - olderThanMs}`));
}
