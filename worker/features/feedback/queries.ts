/** SQL of the feedback feature (issue 28.6): the quiz a visitor reports, and the 30-day count of a unit's reports. */
import { and, count, eq, gte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { feedback, locations, quizzes, users, venues } from '../../db/schema';

/** A quiz of a public business with what a report names (business, place, date) and its owner's e-mail, or undefined. */
export async function reportedQuiz(db: Db, quizId: string) {
  const [q] = await db
    .select({
      id: quizzes.id,
      date: quizzes.date,
      recurrenceId: quizzes.recurrenceId,
      venueName: venues.name,
      venueSlug: venues.slug,
      citySlug: locations.citySlug,
      locationName: locations.name,
      ownerEmail: users.email,
    })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .innerJoin(users, eq(users.id, venues.userId))
    .where(and(eq(quizzes.id, quizId), eq(venues.isPublic, true)))
    .limit(1);
  return q;
}

const unitInWindow = (unit: string, since: string) => and(eq(feedback.reportUnit, unit), gte(feedback.createdAt, since));

/** Reports about a listing unit (series or single quiz) since `since`. */
export async function countUnitReports(db: Db, unit: string, since: string): Promise<number> {
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(feedback).where(unitInWindow(unit, since));
  return n;
}

/** A condition for a statement in the same batch: the unit has at least `n` reports since `since` (counted there). */
export function unitReportsReach(unit: string, since: string, n: number): SQL {
  return sql`(SELECT count(*) FROM ${feedback} WHERE ${unitInWindow(unit, since)}) >= ${n}`;
}
