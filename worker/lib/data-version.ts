/**
 * The public-data version. Edge-cache keys of public pages and listing responses include it; any write
 * that changes public data adds `bumpDataVersion(db)` to its batch, so the next request misses the
 * cache. Correctness never depends on the cache: a stale key is simply never read again.
 */
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { publicDataVersion } from '../db/schema';

/** A statement to put in the same db.batch() as the write (or await on its own). */
export function bumpDataVersion(db: Db) {
  return db
    .update(publicDataVersion)
    .set({ version: sql`${publicDataVersion.version} + 1`, updatedAt: sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))` })
    .where(eq(publicDataVersion.id, 1));
}

export async function getDataVersion(db: Db): Promise<number> {
  const [row] = await db.select({ v: publicDataVersion.version }).from(publicDataVersion).where(eq(publicDataVersion.id, 1));
  return row?.v ?? 0;
}
