/**
 * SQL of the holidays feature (issue 28.6): a series' upcoming occurrences and decisions, the nightly
 * question's candidates, and the statement builders its service composes into one batch.
 */
import { and, eq, gte, inArray, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { holidayDecisions, locations, quizzes, users, venues } from '../../db/schema';

/** A series' occurrences from `today` on (date, id, cancelled). */
export function upcomingOccurrences(db: Db, recurrenceId: string, today: string) {
  return db
    .select({ id: quizzes.id, date: quizzes.date, isCancelled: quizzes.isCancelled })
    .from(quizzes)
    .where(and(eq(quizzes.recurrenceId, recurrenceId), gte(quizzes.date, today)));
}

/** The owner's decisions of a series on these dates (none asked: no read). */
export async function decisionsOn(db: Db, recurrenceId: string, dates: string[]) {
  if (!dates.length) return [];
  return db
    .select({ date: holidayDecisions.date, decision: holidayDecisions.decision })
    .from(holidayDecisions)
    .where(and(eq(holidayDecisions.recurrenceId, recurrenceId), inArray(holidayDecisions.date, dates)));
}

/** Which of these dates the series has an occurrence on. */
export async function occurrenceDates(db: Db, recurrenceId: string, dates: string[]): Promise<Set<string>> {
  const rows = await db
    .select({ date: quizzes.date })
    .from(quizzes)
    .where(and(eq(quizzes.recurrenceId, recurrenceId), inArray(quizzes.date, dates)));
  return new Set(rows.map((r) => r.date));
}

/** The business of a series' occurrence on a date (the link page names it). */
export async function occurrenceBusiness(db: Db, recurrenceId: string, date: string) {
  const [row] = await db
    .select({ venueId: venues.id, venueName: venues.name })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(and(eq(quizzes.recurrenceId, recurrenceId), eq(quizzes.date, date)))
    .limit(1);
  return row;
}

/** The statements that record one decision: the decision row and the occurrence's cancelled flag. */
export function decisionStatements(db: Db, recurrenceId: string, date: string, holiday: string, skip: boolean, nowIso: string) {
  return [
    db
      .insert(holidayDecisions)
      .values({ recurrenceId, date, holiday, decision: skip ? 'skip' : 'run' })
      .onConflictDoUpdate({ target: [holidayDecisions.recurrenceId, holidayDecisions.date], set: { decision: skip ? 'skip' : 'run', updatedAt: nowIso } }),
    db
      .update(quizzes)
      .set({ isCancelled: skip, updatedAt: nowIso })
      .where(and(eq(quizzes.recurrenceId, recurrenceId), eq(quizzes.date, date)))
      .returning({ id: quizzes.id }),
  ] as const;
}

/**
 * Series occurrences on these holiday dates, not cancelled, not asked nor decided, of businesses other
 * than the house account's (at most 500 a night; the rest the next night).
 */
export function undecidedHolidayOccurrences(db: Db, dates: string[], houseEmail: string) {
  return db
    .select({
      recurrenceId: quizzes.recurrenceId,
      date: quizzes.date,
      startTime: quizzes.startTime,
      locationName: locations.name,
      venueName: venues.name,
      email: users.email,
    })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .innerJoin(users, eq(users.id, venues.userId))
    .leftJoin(holidayDecisions, and(eq(holidayDecisions.recurrenceId, quizzes.recurrenceId), eq(holidayDecisions.date, quizzes.date)))
    .where(
      and(
        inArray(quizzes.date, dates),
        isNotNull(quizzes.recurrenceId),
        eq(quizzes.isCancelled, false),
        sql`(${holidayDecisions.recurrenceId} IS NULL OR (${holidayDecisions.decision} IS NULL AND ${holidayDecisions.askedAt} IS NULL))`,
        sql`${users.email} <> ${houseEmail.toLowerCase()}`,
      ),
    )
    .limit(500);
}

/** Claims the question of one occurrence: sets `asked_at` only where no one asked or decided yet (RETURNING says whether this run won). */
export function claimAskStatement(db: Db, recurrenceId: string, date: string, holiday: string, nowIso: string) {
  return db
    .insert(holidayDecisions)
    .values({ recurrenceId, date, holiday, askedAt: nowIso })
    .onConflictDoUpdate({
      target: [holidayDecisions.recurrenceId, holidayDecisions.date],
      set: { askedAt: nowIso, updatedAt: nowIso },
      setWhere: sql`${holidayDecisions.askedAt} IS NULL AND ${holidayDecisions.decision} IS NULL`,
    })
    .returning({ rid: holidayDecisions.recurrenceId });
}

/** True (in SQL) where this run's claim holds: the question's mail is written only then. */
export function askHeldSql(recurrenceId: string, date: string, nowIso: string) {
  return sql`EXISTS (SELECT 1 FROM holiday_decisions WHERE recurrence_id = ${recurrenceId} AND date = ${date} AND asked_at = ${nowIso} AND decision IS NULL)`;
}
