import { and, count, eq, gte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locations, quizzes, userRoles, users, venues } from '../../db/schema';

/** Id of the house account (owner of unclaimed businesses), or null when it does not exist. */
export async function findHouseUserId(db: Db, houseEmail: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, houseEmail.toLowerCase())).limit(1);
  return row?.id ?? null;
}

export async function findVenue(db: Db, venueId: string) {
  const [row] = await db.select({ id: venues.id, name: venues.name, userId: venues.userId, isPublic: venues.isPublic }).from(venues).where(eq(venues.id, venueId)).limit(1);
  return row ?? null;
}

/** Number of places and of upcoming quizzes (date >= today) of one business. */
export async function venueCounts(db: Db, venueId: string, today: string): Promise<{ placesCount: number; quizzesCount: number }> {
  const [places] = await db.select({ n: count() }).from(locations).where(eq(locations.venueId, venueId));
  const [qs] = await db
    .select({ n: count() })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .where(and(eq(locations.venueId, venueId), gte(quizzes.date, today)));
  return { placesCount: places?.n ?? 0, quizzesCount: qs?.n ?? 0 };
}

/** E-mails of every superadmin (moved to worker/lib: operations alerts use it too). */
export { superadminEmails } from '../../lib/superadmins';

export async function findUser(db: Db, by: { id?: string; email?: string }) {
  const cond = by.id ? eq(users.id, by.id) : eq(users.email, (by.email ?? '').toLowerCase());
  const [row] = await db.select().from(users).where(cond).limit(1);
  return row ?? null;
}

export async function rolesOf(db: Db, userId: string) {
  return (await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role);
}

