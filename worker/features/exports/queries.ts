/** SQL of the exports (issue 28.6: reads live here; the service only shapes the files). */
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutOrders, locations, profiles, promotions, quizzes, userRoles, users, venues } from '../../db/schema';
import { readInChunks } from '../../lib/chunks';

export const userById = async (db: Db, userId: string) => (await db.select().from(users).where(eq(users.id, userId)))[0];

export const rolesOf = async (db: Db, userId: string) =>
  (await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role);

export const profileOf = async (db: Db, userId: string) => (await db.select().from(profiles).where(eq(profiles.userId, userId)))[0];

export const businessesOf = (db: Db, userId: string) =>
  db.select().from(venues).where(eq(venues.userId, userId)).orderBy(asc(venues.createdAt), asc(venues.id));

export const businessIdsOf = async (db: Db, userId: string) =>
  (await db.select({ id: venues.id }).from(venues).where(eq(venues.userId, userId))).map((v) => v.id);

export const placesOf = (db: Db, venueIds: string[]) =>
  readInChunks(venueIds, (ids) => db.select().from(locations).where(inArray(locations.venueId, ids)).orderBy(asc(locations.createdAt), asc(locations.id)));

export const quizzesOfPlaces = (db: Db, locationIds: string[]) =>
  readInChunks(locationIds, (ids) => db.select().from(quizzes).where(inArray(quizzes.locationId, ids)).orderBy(asc(quizzes.date), asc(quizzes.id)));

export const promotionsOfQuizzes = (db: Db, quizIds: string[]) =>
  readInChunks(quizIds, (ids) => db.select().from(promotions).where(inArray(promotions.quizId, ids)));

export const ordersOf = (db: Db, userId: string) =>
  db.select().from(checkoutOrders).where(eq(checkoutOrders.userId, userId)).orderBy(asc(checkoutOrders.createdAt));

/** Does this optional table exist (e.g. follows, added by another feature)? */
async function hasTable(db: Db, name: string): Promise<boolean> {
  const rows = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM sqlite_master WHERE type = 'table' AND name = ${name}`);
  return (rows[0]?.n ?? 0) > 0;
}

/** The user's own follows, or null when the follows table (another feature's) is absent or keyed otherwise. */
export async function followsOfUser(db: Db, userId: string): Promise<Array<Record<string, unknown>> | null> {
  if (!(await hasTable(db, 'follows'))) return null;
  const cols = await db.all<{ name: string }>(sql`SELECT name FROM pragma_table_info('follows')`);
  if (!cols.some((c) => c.name === 'user_id')) return null;
  return db.all<Record<string, unknown>>(sql`SELECT * FROM follows WHERE user_id = ${userId}`);
}

/** Every quiz of these businesses with its business and place, for the owner's CSV (unsorted). */
export const quizCsvRows = (db: Db, venueIds: string[]) =>
  readInChunks(venueIds, (ids) =>
    db
      .select({
        date: quizzes.date,
        weekday: quizzes.weekday,
        startTime: quizzes.startTime,
        business: venues.name,
        place: locations.name,
        address: locations.address,
        city: locations.city,
        category: quizzes.category,
        theme: quizzes.theme,
        quizmaster: quizzes.quizmaster,
        price: quizzes.price,
        title: quizzes.title,
        recurrenceId: quizzes.recurrenceId,
        pattern: quizzes.recurrencePattern,
        cancelled: quizzes.isCancelled,
      })
      .from(quizzes)
      .innerJoin(locations, eq(locations.id, quizzes.locationId))
      .innerJoin(venues, eq(venues.id, locations.venueId))
      .where(inArray(venues.id, ids)),
  );

export interface CatalogueUnit {
  name: string;
  address: string;
  city: string;
  phone: string | null;
  website: string | null;
  lat: number | null;
  lng: number | null;
  pattern: string | null;
  days: string | null;
  weekday: number;
  start_time: string | null;
  category: string | null;
  theme: string | null;
  quizmaster: string | null;
  price: number | null;
  name_sort: string;
}

/** One row per series at a place: its latest occurrence's fields (the template of the series). */
export const catalogueUnits = (db: Db) =>
  db.all<CatalogueUnit>(sql`
    SELECT v.name, l.address, l.city, coalesce(l.phone, v.phone) AS phone, coalesce(l.website, v.website) AS website, l.latitude AS lat, l.longitude AS lng,
           q.recurrence_pattern AS pattern, q.recurrence_days AS days, q.weekday, q.start_time, q.category, q.theme, q.quizmaster, q.price, v.name_sort,
           MAX(q.date) AS last_date
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id IS NOT NULL
    GROUP BY q.recurrence_id, q.location_id`);
