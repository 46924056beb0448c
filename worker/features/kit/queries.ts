/** SQL of the owner kit: one unit's next occurrences, and a business's units. All bounded, all on indexes. */
import { and, asc, desc, eq, gte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { locations, quizzes } from '../../db/schema';

/** The occurrences a kit item shows: a series' next ones from `today` (not cancelled), oldest first. */
export async function nextOccurrences(db: Db, recurrenceId: string, today: string, limit: number) {
  return db
    .select()
    .from(quizzes)
    .where(and(eq(quizzes.recurrenceId, recurrenceId), gte(quizzes.date, today), eq(quizzes.isCancelled, false)))
    .orderBy(asc(quizzes.date))
    .limit(limit);
}

/** A series' latest occurrence (its fields, when nothing is coming). */
export async function latestOccurrence(db: Db, recurrenceId: string) {
  const [row] = await db.select().from(quizzes).where(eq(quizzes.recurrenceId, recurrenceId)).orderBy(desc(quizzes.date)).limit(1);
  return row ?? null;
}

/** Units with something coming at a business: series (by next date) and single quizzes, at most `limit` rows. */
export async function upcomingUnits(db: Db, venueId: string, today: string, limit: number) {
  return db
    .select({
      recurrenceId: quizzes.recurrenceId,
      quizId: sql<string>`min(${quizzes.id})`,
      next: sql<string>`min(${quizzes.date})`,
      startTime: sql<string | null>`min(${quizzes.startTime})`,
      title: sql<string | null>`max(${quizzes.title})`,
      pattern: sql<'weekly' | 'biweekly' | null>`max(${quizzes.recurrencePattern})`,
      days: sql<string | null>`max(${quizzes.recurrenceDays})`,
      place: sql<string>`max(${locations.name})`,
    })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .where(and(eq(locations.venueId, venueId), gte(quizzes.date, today), eq(quizzes.isCancelled, false)))
    .groupBy(sql`coalesce(${quizzes.recurrenceId}, ${quizzes.id})`)
    .orderBy(sql`min(${quizzes.date})`)
    .limit(limit);
}
