import { and, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locations, passwordCredentials, quizzes, totpFactors, users, venues } from '../../db/schema';

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Whether an account already has this e-mail address. */
export async function emailInUse(db: Db, email: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, email)).limit(1);
  return !!row;
}

/** Counts shown in the delete-account warning: businesses, places, upcoming quizzes (from `today`). */
export async function ownedCounts(db: Db, userId: string, today: string) {
  const [v] = await db.select({ n: sql<number>`count(*)` }).from(venues).where(eq(venues.userId, userId));
  const [l] = await db
    .select({ n: sql<number>`count(*)` })
    .from(locations)
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(eq(venues.userId, userId));
  const [q] = await db
    .select({ n: sql<number>`count(*)` })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(and(eq(venues.userId, userId), gte(quizzes.date, today)));
  return { venues: Number(v?.n ?? 0), places: Number(l?.n ?? 0), upcomingQuizzes: Number(q?.n ?? 0) };
}

export async function passwordHashOf(db: Db, userId: string): Promise<string | null> {
  const [row] = await db.select({ hash: passwordCredentials.hash }).from(passwordCredentials).where(eq(passwordCredentials.userId, userId)).limit(1);
  return row?.hash ?? null;
}

export async function totpFactorOf(db: Db, userId: string) {
  const [row] = await db.select().from(totpFactors).where(eq(totpFactors.userId, userId)).limit(1);
  return row ?? null;
}

const ownedLocationIds = (userId: string) => sql`SELECT l.id FROM locations l JOIN venues v ON v.id = l.venue_id WHERE v.user_id = ${userId}`;

/** Deletes up to `limit` quizzes at the user's places; the ids deleted (RETURNING, not meta.changes: triggers add rows there). */
export function deleteOwnedQuizzesChunk(db: Db, userId: string, limit: number) {
  return db.all<{ id: string }>(
    sql`DELETE FROM quizzes WHERE id IN (SELECT id FROM quizzes WHERE location_id IN (${ownedLocationIds(userId)}) LIMIT ${limit}) RETURNING id`,
  );
}

/** Deletes up to `limit` of the user's places; the ids deleted. */
export function deleteOwnedLocationsChunk(db: Db, userId: string, limit: number) {
  return db.all<{ id: string }>(sql`DELETE FROM locations WHERE id IN (${ownedLocationIds(userId)} LIMIT ${limit}) RETURNING id`);
}
