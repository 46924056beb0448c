import { and, count, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailTokens, locations, profiles, quizzes, userRoles, users, venues } from '../../db/schema';

/** Id of the house account (owner of unclaimed businesses), or null when it does not exist. */
export async function findHouseUserId(db: Db, houseEmail: string): Promise<string | null> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.email, houseEmail.toLowerCase())).limit(1);
  return row?.id ?? null;
}

export async function findVenue(db: Db, venueId: string) {
  const [row] = await db
    .select({ id: venues.id, name: venues.name, userId: venues.userId, isPublic: venues.isPublic })
    .from(venues)
    .where(eq(venues.id, venueId))
    .limit(1);
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

/** A condition for a statement in the same batch: the business belongs to `userId` (checked there, after the move). */
export function venueOwnedBy(venueId: string, userId: string): SQL {
  return sql`EXISTS (SELECT 1 FROM ${venues} WHERE ${venues.id} = ${venueId} AND ${venues.userId} = ${userId})`;
}

export async function findUser(db: Db, by: { id?: string; email?: string }) {
  const cond = by.id ? eq(users.id, by.id) : eq(users.email, (by.email ?? '').toLowerCase());
  const [row] = await db.select().from(users).where(cond).limit(1);
  return row ?? null;
}

export async function rolesOf(db: Db, userId: string) {
  return (await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId))).map((r) => r.role);
}

export async function hasProfile(db: Db, userId: string): Promise<boolean> {
  const [profile] = await db.select({ userId: profiles.userId }).from(profiles).where(eq(profiles.userId, userId)).limit(1);
  return !!profile;
}

/** Payloads of the user's newest verification tokens that name a business to take over. */
export function takeoverPayloadsOf(db: Db, userId: string, limit: number) {
  return db
    .select({ payload: emailTokens.payload })
    .from(emailTokens)
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, 'verify_email'), sql`${emailTokens.payload} LIKE '%takeoverVenue%'`))
    .orderBy(sql`${emailTokens.createdAt} DESC`)
    .limit(limit);
}

export interface TakeoverIssueRow {
  user_id: string;
  email: string;
  venue_id: string;
  venue_name: string | null;
  owner: string | null;
  has_role: number;
  has_profile: number;
}

/**
 * Verified users whose used verification carried a takeoverVenue while that business is still on the house
 * account (or gone), or who lack the owner role or a profile; newest first.
 */
export function takeoverIssueRows(db: Db, houseId: string, limit: number) {
  return db.all<TakeoverIssueRow>(sql`
    SELECT u.id AS user_id, u.email AS email, json_extract(t.payload, '$.takeoverVenue') AS venue_id,
           v.name AS venue_name, v.user_id AS owner,
           EXISTS (SELECT 1 FROM user_roles r WHERE r.user_id = u.id AND r.role = 'admin') AS has_role,
           EXISTS (SELECT 1 FROM profiles p WHERE p.user_id = u.id) AS has_profile
    FROM email_tokens t
    JOIN users u ON u.id = t.user_id
    LEFT JOIN venues v ON v.id = json_extract(t.payload, '$.takeoverVenue')
    WHERE t.purpose = 'verify_email' AND t.used_at IS NOT NULL AND u.email_verified_at IS NOT NULL
      AND json_valid(t.payload) AND json_extract(t.payload, '$.takeoverVenue') IS NOT NULL
      AND (v.id IS NULL OR v.user_id = ${houseId} OR NOT has_role OR NOT has_profile)
    ORDER BY t.created_at DESC
    LIMIT ${limit}`);
}
