/**
 * SQL of paid promotion. The slot claim is one INSERT … SELECT that picks the smallest free slot_no;
 * when the day is full (or the quiz already holds a claim) it yields an out-of-range number or NULL, so
 * the schema's CHECK / NOT NULL / UNIQUE make the statement — and the whole batch it is in — fail.
 */
import { and, eq, inArray, lt, sql, type SQL } from 'drizzle-orm';
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
  const rows = await db.selectDistinct({ quizId: promotionSlotClaims.quizId }).from(promotionSlotClaims).where(inArray(promotionSlotClaims.quizId, quizIds));
  return new Set(rows.map((r) => r.quizId));
}

/**
 * The atomic claim of one slot (see the file comment). Candidates are 1 … max+1; max+1 violates the
 * CHECK (tier limits), NULL (quiz already claimed, or its order was not written: over the hold limits)
 * violates NOT NULL, a concurrent equal pick violates the UNIQUE index. Ten bound parameters.
 */
export function claimSlotStatement(db: Db, c: { id: string; orderId: string; quizId: string; citySlug: string; date: string; tier: PromotionTier }) {
  return batchableRun(
    db,
    sql`
    INSERT INTO promotion_slot_claims (id, order_id, quiz_id, city_slug, date, tier, slot_no, state)
    SELECT ${c.id}, ${c.orderId}, ${c.quizId}, ${c.citySlug}, ${c.date}, ${c.tier},
      CASE WHEN EXISTS (SELECT 1 FROM promotion_slot_claims q WHERE q.quiz_id = ${c.quizId})
        OR NOT EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = ${c.orderId}) THEN NULL ELSE
        (SELECT MIN(s.n) FROM (SELECT 1 AS n UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4) s
          WHERE NOT EXISTS (SELECT 1 FROM promotion_slot_claims x
            WHERE x.city_slug = ${c.citySlug} AND x.date = ${c.date} AND x.tier = ${c.tier} AND x.slot_no = s.n))
      END,
      'held'`,
  );
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

// ---------------------------------------------------------------- what one buyer may hold unpaid (issue 26.3)

/** Open checkouts and held slot-days of an account and of a business (indexes: orders by user / venue, claims by order). */
export async function unpaidHolds(db: Db, who: { userId: string; venueId: string }) {
  const [row] = await db.all<{ user_orders: number; venue_orders: number; user_days: number; venue_days: number }>(sql`
    SELECT
      (SELECT COUNT(*) FROM checkout_orders WHERE user_id = ${who.userId} AND status = 'open') AS user_orders,
      (SELECT COUNT(*) FROM checkout_orders WHERE venue_id = ${who.venueId} AND status = 'open') AS venue_orders,
      (SELECT COUNT(*) FROM promotion_slot_claims c JOIN checkout_orders o ON o.id = c.order_id
        WHERE o.user_id = ${who.userId} AND o.status = 'open' AND c.state = 'held') AS user_days,
      (SELECT COUNT(*) FROM promotion_slot_claims c JOIN checkout_orders o ON o.id = c.order_id
        WHERE o.venue_id = ${who.venueId} AND o.status = 'open' AND c.state = 'held') AS venue_days`);
  return {
    openCheckouts: Math.max(row?.user_orders ?? 0, row?.venue_orders ?? 0),
    heldDays: Math.max(row?.user_days ?? 0, row?.venue_days ?? 0),
  };
}

/**
 * Items of this account's or business's checkouts released unpaid since `sinceMs` (an expired order's
 * expires_at is the moment its hold ended: expiry, cancel or the provider's expired event).
 */
export async function recentlyReleasedItems(db: Db, who: { userId: string; venueId: string }, sinceMs: number, limit = 50) {
  return db.all<{ items: string; expires_at: number }>(sql`
    SELECT items, expires_at FROM checkout_orders
    WHERE (user_id = ${who.userId} OR venue_id = ${who.venueId}) AND status = 'expired' AND expires_at > ${sinceMs}
    ORDER BY expires_at DESC LIMIT ${limit}`);
}

/**
 * The order row, inserted only while the account and the business are within HOLD_LIMITS counting this
 * order (the check inside the statement, so concurrent checkouts cannot all pass a check made before
 * any was written). When it inserts nothing, the order's slot claims find no order and fail the batch.
 */
export function insertOrderWithinLimitsStatement(
  db: Db,
  o: {
    id: string;
    userId: string;
    venueId: string;
    kind: 'marketing' | 'promotion';
    amountTotal: number;
    items: string;
    expiresAt: number;
    itemCount: number;
    /** The order's Premium days per city (issue 43.3), and the instant and date holds are counted at. */
    premiumByCity: CityDays[];
    nowMs: number;
    today: string;
  },
  limits: { openCheckouts: number; heldDays: number },
  city: { premiumDays: number; bulkPremiumDays: number; smallDays: number },
) {
  const heldBy = (col: SQL) => sql`(SELECT COUNT(*) FROM promotion_slot_claims c JOIN checkout_orders x ON x.id = c.order_id
    WHERE ${col} AND x.status = 'open' AND c.state = 'held')`;
  // One JSON parameter for every city of the order: [{ "c": slug, "n": days }].
  const wanted = JSON.stringify(o.premiumByCity.map((w) => ({ c: w.citySlug, n: w.days })));
  const inCity = (who: SQL) => livePremiumHeld(sql`json_extract(w.value, '$.c')`, who, o.nowMs, o.today);
  const n = sql`json_extract(w.value, '$.n')`;
  return batchableRun(
    db,
    sql`
    INSERT INTO checkout_orders (id, user_id, venue_id, kind, status, amount_total, currency, items, expires_at)
    SELECT ${o.id}, ${o.userId}, ${o.venueId}, ${o.kind}, 'open', ${o.amountTotal}, 'sek', ${o.items}, ${o.expiresAt}
    WHERE (SELECT COUNT(*) FROM checkout_orders WHERE user_id = ${o.userId} AND status = 'open') < ${limits.openCheckouts}
      AND (SELECT COUNT(*) FROM checkout_orders WHERE venue_id = ${o.venueId} AND status = 'open') < ${limits.openCheckouts}
      AND ${heldBy(sql`x.user_id = ${o.userId}`)} + ${o.itemCount} <= ${limits.heldDays}
      AND ${heldBy(sql`x.venue_id = ${o.venueId}`)} + ${o.itemCount} <= ${limits.heldDays}
      AND NOT EXISTS (SELECT 1 FROM json_each(${wanted}) w
        WHERE ${inCity(sql`1`)} + ${n} > CASE
          WHEN ${inCity(sql`x.user_id = ${o.userId}`)} + ${n} <= ${city.smallDays}
            AND ${inCity(sql`x.venue_id = ${o.venueId}`)} + ${n} <= ${city.smallDays}
          THEN ${city.premiumDays} ELSE ${city.bulkPremiumDays} END)`,
  );
}

/** Premium days of one order in one city (issue 43.3). */
export interface CityDays {
  citySlug: string;
  days: number;
}

/**
 * Unpaid Premium days held in a city by open orders matching `who` whose hold has not expired (a lapsed hold
 * not yet released does not count). Reads the slot index (city, date, tier) from today on, then the order by id.
 */
function livePremiumHeld(citySlug: SQL | string, who: SQL, nowMs: number, today: string): SQL {
  return sql`(SELECT COUNT(*) FROM promotion_slot_claims c JOIN checkout_orders x ON x.id = c.order_id
    WHERE c.city_slug = ${citySlug} AND c.date >= ${today} AND c.tier = 'premium' AND c.state = 'held'
      AND x.status = 'open' AND x.expires_at >= ${nowMs} AND ${who})`;
}

/**
 * A city's unpaid Premium holds, for the refusal's message (issue 43.3): all buyers, this account, this business,
 * and the first moment one of them ends (epoch ms, null when none is held).
 */
export async function cityPremiumHolds(db: Db, who: { userId: string; venueId: string }, citySlug: string, nowMs: number, today: string) {
  const [row] = await db.all<{ total: number; user_days: number; venue_days: number; first_end: number | null }>(sql`
    SELECT
      ${livePremiumHeld(citySlug, sql`1`, nowMs, today)} AS total,
      ${livePremiumHeld(citySlug, sql`x.user_id = ${who.userId}`, nowMs, today)} AS user_days,
      ${livePremiumHeld(citySlug, sql`x.venue_id = ${who.venueId}`, nowMs, today)} AS venue_days,
      (SELECT MIN(x.expires_at) FROM promotion_slot_claims c JOIN checkout_orders x ON x.id = c.order_id
        WHERE c.city_slug = ${citySlug} AND c.date >= ${today} AND c.tier = 'premium' AND c.state = 'held'
          AND x.status = 'open' AND x.expires_at >= ${nowMs}) AS first_end`);
  return {
    total: row?.total ?? 0,
    buyer: Math.max(row?.user_days ?? 0, row?.venue_days ?? 0),
    firstEnd: row?.first_end ?? null,
  };
}

/** The database's own instant, as the orders' `updated_at` is written (payments/queries.ts nowIso). */
const HOLD_NOW_ISO = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

/** Open orders past their expiry (index status + expires_at). */
export async function expiredOpenOrderIds(db: Db, nowMs: number, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: checkoutOrders.id })
    .from(checkoutOrders)
    .where(and(eq(checkoutOrders.status, 'open'), lt(checkoutOrders.expiresAt, nowMs)))
    .limit(limit);
  return rows.map((r) => r.id);
}

/**
 * Expires the given open orders past `nowMs` and deletes their holds, as one batch's statements; the holds are
 * guarded by the order's state: an order whose expiry was just extended (async payment) keeps its holds.
 */
export function expireOrdersStatements(db: Db, orderIds: string[], nowMs: number) {
  const ids = sql.join(
    orderIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return [
    batchableRun(
      db,
      sql`UPDATE checkout_orders SET status = 'expired', updated_at = ${HOLD_NOW_ISO}
      WHERE id IN (${ids}) AND status = 'open' AND expires_at < ${nowMs}`,
    ),
    batchableRun(
      db,
      sql`DELETE FROM promotion_slot_claims WHERE order_id IN (${ids}) AND state = 'held'
      AND EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = promotion_slot_claims.order_id AND o.status IN ('expired', 'failed'))`,
    ),
  ] as const;
}
