/**
 * SQL of freshness (issue 28.6): the confirmation's reads, the nightly job's page of due businesses, and the
 * statement builders its service composes into one batch (confirm, claim a step).
 */
import { and, eq, gt, isNotNull, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locations, quizzes, users, venues } from '../../db/schema';

/** The instant freshness counts from. */
const confirmedSql = sql`coalesce(${venues.confirmedAt}, ${venues.createdAt})`;

/**
 * The statements that confirm a business: for the same db.batch as an owner's edit. The second makes a
 * business hidden by the freshness job public again (an owner's own 'not public' stays as it is); it is
 * separate so that an ordinary confirmation does not touch is_public (which fires the listing trigger).
 */
export function confirmVenueStatements(db: Db, venueId: string, now: Date) {
  return [
    db.update(venues).set({ confirmedAt: now.toISOString(), freshnessStage: 0 }).where(eq(venues.id, venueId)),
    db
      .update(venues)
      .set({ isPublic: true, staleHiddenAt: null })
      .where(and(eq(venues.id, venueId), isNotNull(venues.staleHiddenAt))),
  ] as const;
}

/** Is this user the house account (unclaimed businesses: "Uppgifter från offentliga källor")? */
export async function isHouseAccount(db: Db, userId: string, houseEmail: string): Promise<boolean> {
  const [u] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return u?.email === houseEmail.toLowerCase();
}

/** A business's id and name (the link page thanks by name). */
export async function businessName(db: Db, venueId: string) {
  const [venue] = await db.select({ id: venues.id, name: venues.name }).from(venues).where(eq(venues.id, venueId)).limit(1);
  return venue;
}

/** A business's confirmation and its owner's e-mail (the public "Senast bekräftad" line). */
export async function confirmationOf(db: Db, venueId: string) {
  const [v] = await db
    .select({ confirmedAt: venues.confirmedAt, createdAt: venues.createdAt, email: users.email })
    .from(venues)
    .innerJoin(users, eq(users.id, venues.userId))
    .where(eq(venues.id, venueId))
    .limit(1);
  return v;
}

export interface DueBusiness {
  id: string;
  name: string;
  confirmedAt: string | null;
  createdAt: string;
  stage: number;
  email: string;
}

/**
 * One page (by id, after `cursor`) of businesses not the house account's whose next step is due: the
 * `stepDays` step reached is above the one acted on (UTC dates here, Stockholm dates in the service; a
 * business it then skips is passed by the id cursor, so no run starves on it).
 */
export function dueBusinesses(
  db: Db,
  o: { cursor: string; houseEmail: string; today: string; cutoff: string; stepDays: number; maxStage: number; limit: number },
): Promise<DueBusiness[]> {
  const dueSql = sql`CAST((julianday(${o.today}) - julianday(substr(${confirmedSql}, 1, 10))) / ${o.stepDays} AS INTEGER) > ${venues.freshnessStage}`;
  return db
    .select({
      id: venues.id,
      name: venues.name,
      confirmedAt: venues.confirmedAt,
      createdAt: venues.createdAt,
      stage: venues.freshnessStage,
      email: users.email,
    })
    .from(venues)
    .innerJoin(users, eq(users.id, venues.userId))
    .where(
      and(gt(venues.id, o.cursor), ne(users.email, o.houseEmail.toLowerCase()), lt(venues.freshnessStage, o.maxStage), lte(confirmedSql, o.cutoff), dueSql),
    )
    .orderBy(venues.id)
    .limit(o.limit);
}

/** Same confirmation as read: a confirmation in between wins. */
const sameConfirmation = (v: Pick<DueBusiness, 'confirmedAt'>) => (v.confirmedAt === null ? isNull(venues.confirmedAt) : eq(venues.confirmedAt, v.confirmedAt));

/**
 * Claims step `stage` of a business for the confirmation read (`UPDATE … WHERE freshness_stage < stage
 * RETURNING`, so overlapping runs act once); with `hide`, the same statement hides it.
 */
export function claimStageStatement(db: Db, v: Pick<DueBusiness, 'id' | 'confirmedAt'>, stage: number, hide: boolean, now: Date) {
  return db
    .update(venues)
    .set({
      freshnessStage: stage,
      ...(hide
        ? {
            // Only a public business becomes "hidden by freshness"; an owner's own 'not public' stays theirs.
            staleHiddenAt: sql`CASE WHEN ${venues.isPublic} = 1 OR ${venues.staleHiddenAt} IS NOT NULL THEN coalesce(${venues.staleHiddenAt}, ${now.toISOString()}) ELSE NULL END`,
            isPublic: false,
          }
        : {}),
    })
    .where(and(eq(venues.id, v.id), lt(venues.freshnessStage, stage), sameConfirmation(v)))
    .returning({ id: venues.id });
}

/** True (in SQL) where step `stage` now holds for the confirmation read: the step's mail is written only then. */
export function stageHeldSql(v: Pick<DueBusiness, 'id' | 'confirmedAt'>, stage: number) {
  return sql`EXISTS (SELECT 1 FROM venues WHERE ${and(eq(venues.id, v.id), eq(venues.freshnessStage, stage), sameConfirmation(v))})`;
}

/** The business of a public quiz (null when missing or not public). */
export async function publicQuizBusiness(db: Db, quizId: string): Promise<string | null> {
  const [row] = await db
    .select({ venueId: venues.id })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(and(eq(quizzes.id, quizId), eq(venues.isPublic, true)))
    .limit(1);
  return row?.venueId ?? null;
}
