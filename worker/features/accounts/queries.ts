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
