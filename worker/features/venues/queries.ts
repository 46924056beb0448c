import { and, asc, count, eq, gte, lt, or, sql } from 'drizzle-orm';
import { insertWhere } from '../../db/batch';
import type { Db } from '../../db/client';
import { locations, profiles, quizzes, venues } from '../../db/schema';
import type { OwnerPlace } from './contract';

/**
 * Inserts a place only while its business has fewer than `max` places, decided inside the one statement
 * (issue 43.1: parallel creates cannot pass a count read first). Returns the row, or none when full.
 */
export function insertPlaceWithRoom(db: Db, values: typeof locations.$inferInsert & { venueId: string }, max: number) {
  return insertWhere(db, locations, values, sql`(SELECT COUNT(*) FROM locations WHERE venue_id = ${values.venueId}) < ${max}`).returning();
}

/** Businesses a user owns, oldest first (the first is the dashboard's default). */
export function venuesOfUser(db: Db, userId: string) {
  return db.select().from(venues).where(eq(venues.userId, userId)).orderBy(asc(venues.createdAt), asc(venues.id));
}

/**
 * A business's places with their total and upcoming quiz counts (upcoming = date ≥ today in
 * Stockholm), in creation order. One grouped query over the (location_id, date) index.
 */
export async function placesWithCounts(db: Db, venueId: string, today: string): Promise<OwnerPlace[]> {
  const rows = await db
    .select({
      id: locations.id,
      venueId: locations.venueId,
      name: locations.name,
      address: locations.address,
      city: locations.city,
      citySlug: locations.citySlug,
      phone: locations.phone,
      website: locations.website,
      latitude: locations.latitude,
      longitude: locations.longitude,
      createdAt: locations.createdAt,
      totalQuizzes: sql<number>`COUNT(${quizzes.id})`,
      upcomingQuizzes: sql<number>`COALESCE(SUM(CASE WHEN ${quizzes.date} >= ${today} THEN 1 ELSE 0 END), 0)`,
    })
    .from(locations)
    .leftJoin(quizzes, eq(quizzes.locationId, locations.id))
    .where(eq(locations.venueId, venueId))
    .groupBy(locations.id)
    .orderBy(asc(locations.createdAt), asc(locations.id));
  return rows.map((r) => ({ ...r, totalQuizzes: Number(r.totalQuizzes), upcomingQuizzes: Number(r.upcomingQuizzes) }));
}

/**
 * Slugs already taken by `base` or `base-N`. A range on the unique slug index, not LIKE: D1 refuses LIKE
 * patterns over 50 bytes, and names (120 characters) give longer slugs. Slugs are [a-z0-9-], so every
 * `base-…` sorts in [`base-`, `base.`) ('.' follows '-' in ASCII).
 */
export async function slugsLike(db: Db, base: string): Promise<string[]> {
  const rows = await db
    .select({ slug: venues.slug })
    .from(venues)
    .where(or(eq(venues.slug, base), and(gte(venues.slug, `${base}-`), lt(venues.slug, `${base}.`))));
  return rows.map((r) => r.slug);
}

/** Quizzes at a place (what deleting it removes). */
export async function countQuizzesAt(db: Db, locationId: string): Promise<number> {
  const [c] = await db.select({ n: count() }).from(quizzes).where(eq(quizzes.locationId, locationId));
  return c?.n ?? 0;
}

/** The user's contact profile row, or undefined. */
export async function profileOf(db: Db, userId: string) {
  const [row] = await db.select().from(profiles).where(eq(profiles.userId, userId));
  return row;
}
