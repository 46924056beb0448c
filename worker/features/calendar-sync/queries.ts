/** SQL of calendar sync: feeds, their synced items, the quizzes they point at, and statement builders. */
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
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

/** Feeds of every business of an account (the per-account limit). */
export async function countFeedsOfAccount(db: Db, userId: string): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`
    SELECT COUNT(*) AS n FROM calendar_feeds f JOIN locations l ON l.id = f.location_id JOIN venues v ON v.id = l.venue_id
    WHERE v.user_id = ${userId}`);
  return row?.n ?? 0;
}

/**
 * Stores a feed only while its business and the business's account are under their limits: one guarded
 * statement, so two concurrent adds cannot both pass a count. False when a limit refused it.
 */
export async function insertFeedWithinLimits(
  db: Db,
  feed: { id: string; locationId: string; url: string },
  owner: { venueId: string; userId: string },
  limits: { perBusiness: number; perAccount: number },
): Promise<boolean> {
  const rows = await db.all<{ id: string }>(sql`
    INSERT INTO calendar_feeds (id, location_id, url)
    SELECT ${feed.id}, ${feed.locationId}, ${feed.url}
    WHERE (SELECT COUNT(*) FROM calendar_feeds f JOIN locations l ON l.id = f.location_id WHERE l.venue_id = ${owner.venueId}) < ${limits.perBusiness}
      AND (SELECT COUNT(*) FROM calendar_feeds f JOIN locations l ON l.id = f.location_id JOIN venues v ON v.id = l.venue_id
           WHERE v.user_id = ${owner.userId}) < ${limits.perAccount}
    RETURNING id`);
  return rows.length === 1;
}

/** The ids of the feeds the nightly job syncs next: least recently attempted first (never attempted first of all). */
export async function feedIdsToSync(db: Db, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: calendarFeeds.id })
    .from(calendarFeeds)
    .orderBy(sql`${calendarFeeds.attemptedAt} IS NOT NULL`, asc(calendarFeeds.attemptedAt), asc(calendarFeeds.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Marks a feed attempted at `now` before its fetch, unless it was attempted at or after `since` (the night's
 * start: this night already tried it, perhaps in a run the runtime killed). Compare-and-set on the value
 * read, so of two deliveries of the same message only one proceeds. The feed, its place and the attempt
 * before this one; null when the feed is gone or already attempted.
 */
export async function claimFeedAttempt(db: Db, feedId: string, now: string, since: string) {
  const [row] = await db
    .select({ feed: calendarFeeds, location: locations })
    .from(calendarFeeds)
    .innerJoin(locations, eq(locations.id, calendarFeeds.locationId))
    .where(eq(calendarFeeds.id, feedId))
    .limit(1);
  if (!row) return null;
  const previous = row.feed.attemptedAt;
  if (previous !== null && previous >= since) return null;
  const [claimed] = await db
    .update(calendarFeeds)
    .set({ attemptedAt: now })
    .where(and(eq(calendarFeeds.id, feedId), previous === null ? isNull(calendarFeeds.attemptedAt) : eq(calendarFeeds.attemptedAt, previous)))
    .returning({ id: calendarFeeds.id });
  if (!claimed) return null;
  return { feed: { ...row.feed, attemptedAt: now }, location: row.location, previous };
}

export async function feedExists(db: Db, feedId: string): Promise<boolean> {
  const [row] = await db.select({ id: calendarFeeds.id }).from(calendarFeeds).where(eq(calendarFeeds.id, feedId)).limit(1);
  return !!row;
}

/** Gives an attempt back (a sync that failed on our side, to be retried by the queue): `attempted_at` as it was. */
export async function releaseFeedAttempt(db: Db, feedId: string, claimedAt: string, previous: string | null): Promise<void> {
  await db
    .update(calendarFeeds)
    .set({ attemptedAt: previous })
    .where(and(eq(calendarFeeds.id, feedId), eq(calendarFeeds.attemptedAt, claimedAt)));
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
