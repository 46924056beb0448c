/** SQL for the owner's quiz lists, with each quiz's current promotion state, and the bulk occurrence inserts. */
import { and, asc, eq, getTableColumns, gte, isNull, sql, type SQL } from 'drizzle-orm';
import { QUIZ_ROWS_PER_INSERT } from '../../db/batch';
import type { Db } from '../../db/client';
import { chunks } from '../../lib/chunks';
import { locations, quizzes, venues, type QuizRow } from '../../db/schema';
import type { OwnerQuiz, PromotionState } from './contract';

/**
 * Promotion state of a quiz (spec 02 §4.1): an active, unexpired promotion whose period covers the
 * quiz's date; Premium beats Recommended. Columns are written qualified: drizzle renders a lone
 * table's columns unqualified, which inside this subquery would bind to promotions.
 */
export function promotionState(today: string): SQL<PromotionState> {
  return sql<PromotionState>`(
    SELECT CASE WHEN SUM(p.product_type = 'premium') > 0 THEN 'premium' WHEN COUNT(*) > 0 THEN 'recommended' END
    FROM promotions p
    WHERE p.quiz_id = "quizzes"."id" AND p.status = 'active' AND p.end_date >= ${today}
      AND "quizzes"."date" BETWEEN p.start_date AND p.end_date)`;
}

export function toOwnerQuiz(r: QuizRow & { promotion?: PromotionState }): OwnerQuiz {
  let days: string[] | null = null;
  if (r.recurrenceDays) {
    try {
      const v: unknown = JSON.parse(r.recurrenceDays);
      days = Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : null;
    } catch {
      days = null;
    }
  }
  return {
    id: r.id,
    locationId: r.locationId,
    date: r.date,
    startTime: r.startTime,
    category: r.category,
    theme: r.theme,
    description: r.description,
    quizmaster: r.quizmaster,
    teamSize: r.teamSize,
    price: r.price,
    language: r.language,
    isRecurring: !!r.isRecurring,
    recurrenceId: r.recurrenceId,
    recurrencePattern: r.recurrencePattern,
    recurrenceDays: days,
    recurrenceUntil: r.recurrenceUntil,
    isCancelled: !!r.isCancelled,
    promotion: r.promotion ?? null,
  };
}

/** Upcoming quizzes of one place (date >= today), oldest first. */
export async function upcomingAtLocation(db: Db, locationId: string, today: string) {
  return db
    .select({ ...getTableColumns(quizzes), promotion: promotionState(today) })
    .from(quizzes)
    .where(and(eq(quizzes.locationId, locationId), gte(quizzes.date, today)))
    .orderBy(asc(quizzes.date), asc(quizzes.startTime));
}

/** Occurrence counts (past included) of the given series. */
/** Dates of one series (every place, past and future). */
export async function seriesSize(db: Db, recurrenceId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(quizzes).where(eq(quizzes.recurrenceId, recurrenceId));
  return Number(row?.n ?? 0);
}

export async function seriesTotals(db: Db, locationId: string): Promise<Map<string, number>> {
  const rows = await db
    .select({ rid: quizzes.recurrenceId, n: sql<number>`count(*)` })
    .from(quizzes)
    .where(and(eq(quizzes.locationId, locationId), sql`${quizzes.recurrenceId} IS NOT NULL`))
    .groupBy(quizzes.recurrenceId);
  return new Map(rows.map((r) => [r.rid!, Number(r.n)]));
}

export async function quizWithPromotion(db: Db, id: string, today: string) {
  const [row] = await db
    .select({ ...getTableColumns(quizzes), promotion: promotionState(today) })
    .from(quizzes)
    .where(eq(quizzes.id, id))
    .limit(1);
  return row ?? null;
}

/** Places the actor may create quizzes at (all for a superadmin, capped). */
export async function placesFor(db: Db, ownerUserId: string | null) {
  return db
    .select({ id: locations.id, name: locations.name, city: locations.city, venueId: venues.id, venueName: venues.name })
    .from(locations)
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(ownerUserId ? eq(venues.userId, ownerUserId) : undefined)
    .orderBy(asc(locations.createdAt))
    .limit(500);
}

/** Upcoming single quizzes of the actor (all for a superadmin, capped). */
export async function upcomingSingles(db: Db, ownerUserId: string | null, today: string) {
  return db
    .select({ ...getTableColumns(quizzes), promotion: promotionState(today), locationName: locations.name, venueName: venues.name })
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(and(isNull(quizzes.recurrenceId), gte(quizzes.date, today), ownerUserId ? eq(venues.userId, ownerUserId) : undefined))
    .orderBy(asc(quizzes.date), asc(quizzes.startTime))
    .limit(500);
}

export type QuizInsert = typeof quizzes.$inferInsert;

/**
 * Rows go in chunks of QUIZ_ROWS_PER_INSERT (D1 allows 100 bound parameters per statement).
 * Returns statements for ONE db.batch: all-or-nothing, and ON CONFLICT DO NOTHING on the unique
 * (recurrence_id, date) index makes a repeated or overlapping insert add nothing.
 */
export function insertOccurrenceStatements(db: Db, rows: QuizInsert[]) {
  return chunks(rows, QUIZ_ROWS_PER_INSERT).map((part) => db.insert(quizzes).values(part).onConflictDoNothing().returning({ id: quizzes.id }));
}
