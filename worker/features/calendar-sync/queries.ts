/** SQL of calendar sync: feeds, their synced items, the quizzes they point at, and statement builders. */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunks, IN_LIST_CHUNK, rowsPerInsert } from '../../lib/chunks';
import { calendarFeeds, calendarSyncItems, locations, quizzes, type CalendarFeedRow, type CalendarSyncItemRow, type QuizRow } from '../../db/schema';

export function feedsOfLocation(db: Db, locationId: string): Promise<CalendarFeedRow[]> {
  return db.select().from(calendarFeeds).where(eq(calendarFeeds.locationId, locationId)).orderBy(asc(calendarFeeds.createdAt), asc(calendarFeeds.id));
}

export async function feedOfLocation(db: Db, locationId: string, feedId: string): Promise<CalendarFeedRow | null> {
  const [row] = await db
    .select()
    .from(calendarFeeds)
    .where(and(eq(calendarFeeds.id, feedId), eq(calendarFeeds.locationId, locationId)))
    .limit(1);
  return row ?? null;
}

/** Feeds of every place of a business (the per-business limit). */
export async function countFeedsOfVenue(db: Db, venueId: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM calendar_feeds f JOIN locations l ON l.id = f.location_id WHERE l.venue_id = ${venueId}`);
  return row?.n ?? 0;
}

/** The feeds the nightly job syncs next: least recently synced first. */
export function feedsToSync(db: Db, limit: number) {
  return db
    .select({ feed: calendarFeeds, location: locations })
    .from(calendarFeeds)
    .innerJoin(locations, eq(locations.id, calendarFeeds.locationId))
    .orderBy(sql`${calendarFeeds.lastSyncedAt} IS NOT NULL`, asc(calendarFeeds.lastSyncedAt), asc(calendarFeeds.id))
    .limit(limit);
}

export function itemsOfFeed(db: Db, feedId: string): Promise<CalendarSyncItemRow[]> {
  return db.select().from(calendarSyncItems).where(eq(calendarSyncItems.feedId, feedId));
}

/** Quizzes by id, in chunks of ≤ 90 bound parameters. */
export async function quizzesByIds(db: Db, ids: string[]): Promise<Map<string, QuizRow>> {
  const out = new Map<string, QuizRow>();
  for (const part of chunks(ids, IN_LIST_CHUNK)) {
    for (const q of await db.select().from(quizzes).where(inArray(quizzes.id, part))) out.set(q.id, q);
  }
  return out;
}

/** Of these quizzes, the ones anything was ever bought or held for (they go through the purchase guard one by one). */
export async function quizzesWithPurchases(db: Db, ids: string[]): Promise<Set<string>> {
  const out = new Set<string>();
  // Each id is bound twice (two IN lists).
  for (const chunk of chunks(ids, IN_LIST_CHUNK / 2)) {
    const list = sql.join(
      chunk.map((id) => sql`${id}`),
      sql`, `,
    );
    const rows = await db.all<{ quiz_id: string }>(sql`
      SELECT quiz_id FROM promotion_slot_claims WHERE quiz_id IN (${list})
      UNION SELECT quiz_id FROM promotions WHERE quiz_id IN (${list})`);
    for (const r of rows) out.add(r.quiz_id);
  }
  return out;
}

/** Upserts of synced items, 20 rows of 4 bound parameters (80, room left for the update clause) per statement, for one batch. */
export function upsertItemStatements(db: Db, rows: { feedId: string; key: string; quizId: string | null; syncedHash: string }[], now: string) {
  const out = [];
  for (const part of chunks(rows, rowsPerInsert(4, 20))) {
    out.push(
      db
        .insert(calendarSyncItems)
        .values(part)
        .onConflictDoUpdate({
          target: [calendarSyncItems.feedId, calendarSyncItems.key],
          set: { quizId: sql`excluded.quiz_id`, syncedHash: sql`excluded.synced_hash`, updatedAt: now },
        }),
    );
  }
  return out;
}
