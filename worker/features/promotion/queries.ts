/**
 * SQL of paid promotion. The slot claim is one INSERT … SELECT that picks the smallest free slot_no;
 * when the day is full (or the quiz already holds a claim) it yields an out-of-range number or NULL, so
 * the schema's CHECK / NOT NULL / UNIQUE make the statement — and the whole batch it is in — fail.
 */
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { batchableRun } from '../../db/batch';
import type { Db } from '../../db/client';
import { checkoutOrders, locations, promotionSlotClaims, quizzes, venues, type PromotionTier } from '../../db/schema';

export interface PromotableQuiz {
  id: string;
  date: string;
  startTime: string | null;
  recurrenceId: string | null;
  isCancelled: boolean;
  locationName: string;
  city: string;
  citySlug: string;
  venueId: string;
  venueUserId: string;
}

const promotableColumns = {
  id: quizzes.id,
  date: quizzes.date,
  startTime: quizzes.startTime,
  recurrenceId: quizzes.recurrenceId,
  isCancelled: quizzes.isCancelled,
  locationName: locations.name,
  city: locations.city,
  citySlug: locations.citySlug,
  venueId: venues.id,
  venueUserId: venues.userId,
};

/** Quizzes with their place and business, for ≤ MAX_ITEMS_PER_ORDER ids (one statement). */
export async function loadPromotableQuizzes(db: Db, quizIds: string[]): Promise<PromotableQuiz[]> {
  if (quizIds.length === 0) return [];
  return db
    .select(promotableColumns)
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(inArray(quizzes.id, quizIds));
}

/** Occurrences of a series between two dates (inclusive), for the 1/2/4-week purchase. */
export async function loadSeriesWindow(db: Db, recurrenceId: string, from: string, to: string): Promise<PromotableQuiz[]> {
  return db
    .select(promotableColumns)
    .from(quizzes)
    .innerJoin(locations, eq(locations.id, quizzes.locationId))
    .innerJoin(venues, eq(venues.id, locations.venueId))
    .where(and(eq(quizzes.recurrenceId, recurrenceId), sql`${quizzes.date} BETWEEN ${from} AND ${to}`))
    .orderBy(quizzes.date);
}

/** Existing claims (held or sold) of one city on some dates. ≤ 61 bound parameters. */
export async function claimsForCityDates(db: Db, citySlug: string, dates: string[]) {
  if (dates.length === 0) return [];
  return db
    .select({ quizId: promotionSlotClaims.quizId, date: promotionSlotClaims.date, tier: promotionSlotClaims.tier, userId: checkoutOrders.userId })
    .from(promotionSlotClaims)
    .innerJoin(checkoutOrders, eq(checkoutOrders.id, promotionSlotClaims.orderId))
    .where(and(eq(promotionSlotClaims.citySlug, citySlug), inArray(promotionSlotClaims.date, dates)));
}

/** Quiz ids (of the given ones) that already hold a claim of any tier. */
export async function claimedQuizIds(db: Db, quizIds: string[]): Promise<Set<string>> {
  if (quizIds.length === 0) return new Set();
  const rows = await db
    .selectDistinct({ quizId: promotionSlotClaims.quizId })
    .from(promotionSlotClaims)
    .where(inArray(promotionSlotClaims.quizId, quizIds));
  return new Set(rows.map((r) => r.quizId));
}

/**
 * The atomic claim of one slot (see the file comment). Candidates are 1 … max+1; max+1 violates the
 * CHECK (tier limits), NULL (quiz already claimed) violates NOT NULL, a concurrent equal pick violates
 * the UNIQUE index. Nine bound parameters.
 */
export function claimSlotStatement(
  db: Db,
  c: { id: string; orderId: string; quizId: string; citySlug: string; date: string; tier: PromotionTier },
) {
  return batchableRun(db, sql`
    INSERT INTO promotion_slot_claims (id, order_id, quiz_id, city_slug, date, tier, slot_no, state)
    SELECT ${c.id}, ${c.orderId}, ${c.quizId}, ${c.citySlug}, ${c.date}, ${c.tier},
      CASE WHEN EXISTS (SELECT 1 FROM promotion_slot_claims q WHERE q.quiz_id = ${c.quizId}) THEN NULL ELSE
        (SELECT MIN(s.n) FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) s
          WHERE NOT EXISTS (SELECT 1 FROM promotion_slot_claims x
            WHERE x.city_slug = ${c.citySlug} AND x.date = ${c.date} AND x.tier = ${c.tier} AND x.slot_no = s.n))
      END,
      'held'`);
}

/** What a deletion would remove: one quiz, a series (optionally but one of its dates), a place, a business or an account. */
export type DeleteScope =
  | { quizId: string }
  | { recurrenceId: string; exceptQuizId?: string }
  | { locationId: string }
  | { venueId: string }
  | { userId: string };

function scopeQuizIds(scope: DeleteScope): SQL {
  if ('quizId' in scope) return sql`SELECT ${scope.quizId}`;
  if ('recurrenceId' in scope) {
    return scope.exceptQuizId
      ? sql`SELECT id FROM quizzes WHERE recurrence_id = ${scope.recurrenceId} AND id <> ${scope.exceptQuizId}`
      : sql`SELECT id FROM quizzes WHERE recurrence_id = ${scope.recurrenceId}`;
  }
  if ('locationId' in scope) return sql`SELECT id FROM quizzes WHERE location_id = ${scope.locationId}`;
  if ('venueId' in scope) return sql`SELECT q.id FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE l.venue_id = ${scope.venueId}`;
  return sql`SELECT q.id FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE v.user_id = ${scope.userId}`;
}

/**
 * Purchases a deletion of `scope` would silently lose: slots held for an open checkout, and paid
 * promotions that have not run yet (end date today or later). Reads the (small) claim and promotion
 * tables by their quiz index.
 */
export async function pendingPurchasesIn(db: Db, scope: DeleteScope, today: string): Promise<{ openCheckout: boolean; paidUntil: string | null }> {
  const ids = scopeQuizIds(scope);
  const [row] = await db.all<{ open: number; paid_until: string | null }>(sql`
    SELECT
      EXISTS (SELECT 1 FROM promotion_slot_claims c JOIN checkout_orders o ON o.id = c.order_id
        WHERE c.state = 'held' AND o.status = 'open' AND c.quiz_id IN (${ids})) AS open,
      (SELECT MAX(p.end_date) FROM promotions p
        WHERE p.status = 'active' AND p.order_id IS NOT NULL AND p.amount_paid > 0 AND p.end_date >= ${today}
          AND p.quiz_id IN (${ids})) AS paid_until`);
  return { openCheckout: !!row?.open, paidUntil: row?.paid_until ?? null };
}
