/**
 * The public-data version. Edge-cache keys of public pages and listing responses include it; any write
 * that changes public data adds `bumpDataVersion(db)` to its batch, so the next request misses the
 * cache. Correctness never depends on the cache: a stale key is simply never read again.
 *
 * Reading the version is one D1 round trip, which on a cached page is most of the request. So the
 * hot path (`currentDataVersion`, used by worker/middleware/edge-cache.ts) remembers it per isolate for
 * DATA_VERSION_TTL_MS; `getDataVersion` stays the authoritative, uncached read.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { publicDataVersion } from '../db/schema';
import { createKeyedMemo, createVersionMemo } from './version-memo';

/**
 * How long an isolate trusts the version it last read (ms), counted from when that read started.
 *
 * Staleness is bounded by it: the version only grows, and an isolate re-reads at most this long after
 * its previous read began, so every isolate (also one that never saw the write, in another data centre)
 * uses a committed bump within DATA_VERSION_TTL_MS plus one D1 round trip. The isolate that made the
 * write sees it at once: `bumpDataVersion` and the end of every non-GET request forget the memo
 * (worker/middleware/data-version.ts), and so does the end of the scheduled handler (worker/index.ts).
 * A stale isolate can only read or store entries under the old key, which isolates that know the new
 * version never read; a page rendered after the write and stored under the old key is newer, not wrong.
 */
export const DATA_VERSION_TTL_MS = 1_000;

/**
 * A request that finds another request's read of the version in flight shares it, but waits at most
 * this long (ms, from when that read started) before reading itself. In workerd a promise belongs to
 * the request that created it: if that request is cancelled (client gone) the read may never settle,
 * and an unbounded wait would hang every request that joined it.
 */
export const DATA_VERSION_JOIN_WAIT_MS = 250;

/** A statement to put in the same db.batch() as the write (or await on its own). */
export function bumpDataVersion(db: Db) {
  // Forget the memo now (this isolate's next request reads again); the write middleware forgets it once
  // more after the request, in case a concurrent request read the old value before the batch committed.
  invalidateDataVersion();
  return db
    .update(publicDataVersion)
    .set({ version: sql`${publicDataVersion.version} + 1`, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` })
    .where(eq(publicDataVersion.id, 1));
}

/** The authoritative read (one D1 query, never memoized). */
export async function getDataVersion(db: Db): Promise<number> {
  const [row] = await db.select({ v: publicDataVersion.version }).from(publicDataVersion).where(eq(publicDataVersion.id, 1));
  return row?.v ?? 0;
}

const memo = createVersionMemo({ ttlMs: DATA_VERSION_TTL_MS, joinWaitMs: DATA_VERSION_JOIN_WAIT_MS });

/**
 * The public-data version for cache keys: memoized in this isolate for DATA_VERSION_TTL_MS, one shared
 * read when several requests ask at once. Use `getDataVersion` where the exact current value matters.
 */
export function currentDataVersion(db: Db): Promise<number> {
  return memo.get(() => getDataVersion(db));
}

/** Forget this isolate's memoized version: the next `currentDataVersion` reads D1. */
export function invalidateDataVersion(): void {
  memo.invalidate();
}

/**
 * A per-isolate memo of something derived from public data (e.g. the city list), loaded once per data
 * version (`currentDataVersion`) instead of once per request. The value is shared by every caller in the
 * isolate: never mutate it.
 */
export function memoPerDataVersion<T>(load: (db: Db) => Promise<T>): (db: Db) => Promise<T> {
  const memo = createKeyedMemo<T>({ joinWaitMs: DATA_VERSION_JOIN_WAIT_MS });
  return async (db) => memo.get(await currentDataVersion(db), () => load(db));
}

/**
 * Like memoPerDataVersion, for a value per key (e.g. a city's name by slug): loaded once per data version
 * and key in this isolate. Values, not promises, are kept (a promise belongs to the request that made it);
 * at most `maxKeys` per version (the map starts over when full), so unknown keys cannot grow it unbounded.
 */
export function memoPerDataVersionByKey<T>(load: (db: Db, key: string) => Promise<T>, maxKeys = 2000): (db: Db, key: string) => Promise<T> {
  let version = -1;
  let entries = new Map<string, T>();
  return async (db, key) => {
    const v = await currentDataVersion(db);
    if (v !== version) {
      version = v;
      entries = new Map();
    }
    if (entries.has(key)) return entries.get(key)!;
    const value = await load(db, key);
    if (version === v) {
      if (entries.size >= maxKeys) entries.clear();
      entries.set(key, value);
    }
    return value;
  };
}
