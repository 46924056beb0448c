/**
 * SQL of payments: checkout orders, recorded provider events and refunds. Every state change is
 * conditional on the order's state (orders only move forward: open → paid | failed | expired).
 */
import { and, desc, eq, sql, type SQL } from 'drizzle-orm';
import { batchableRun } from '../../db/batch';
import type { Db } from '../../db/client';
import {
  checkoutOrders,
  paymentEvents,
  paymentRefunds,
  promotions,
  quizzes,
  users,
  venues,
  type CheckoutOrderRow,
  type PaymentRefundRow,
  type PromotionRow,
} from '../../db/schema';
import type { OrderItem } from '../promotion/contract';
import { newId } from '../../lib/ids';

export const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;

export async function eventSeen(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id)).limit(1);
  return !!row;
}

export async function orderById(db: Db, id: string): Promise<CheckoutOrderRow | null> {
  const [order] = await db.select().from(checkoutOrders).where(eq(checkoutOrders.id, id)).limit(1);
  return order ?? null;
}

export async function orderBySession(db: Db, sessionId: string): Promise<CheckoutOrderRow | null> {
  const [order] = await db.select().from(checkoutOrders).where(eq(checkoutOrders.stripeSessionId, sessionId)).limit(1);
  return order ?? null;
}

/**
 * True inside a statement when the bought occurrence (quiz, date, city) is still what was bought: the quiz exists,
 * on the bought date, at a place in the bought city (issue 26.2). The one rule for a promotion's insert, the
 * refund of what is not delivered and the release of its slot, so the three always agree.
 */
const deliverable = (quizId: SQL, date: SQL, citySlug: SQL) =>
  sql`EXISTS (SELECT 1 FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE q.id = ${quizId} AND q.date = ${date} AND l.city_slug = ${citySlug})`;
/** The same for the order item `j` (a row of json_each(o.items)). */
const itemDeliverable = deliverable(sql`json_extract(j.value, '$.quizId')`, sql`json_extract(j.value, '$.date')`, sql`json_extract(j.value, '$.citySlug')`);

/**
 * The paid signal that finds the order still open records what it cannot deliver, in the webhook's batch BEFORE
 * the order becomes paid (the WHERE decides, not a read before the batch): the sum of the items that are not
 * deliverable because their quiz is gone ('items_gone') or is no longer on the bought date in the bought city
 * ('items_changed', issue 26.2). Nothing when everything is delivered; at most one row per order (unique
 * index, INSERT OR IGNORE).
 */
export function recordUndeliveredStatement(db: Db, orderId: string, ref: { sessionId: string | null; paymentIntentId: string | null }) {
  return batchableRun(
    db,
    sql`
    INSERT OR IGNORE INTO payment_refunds (id, order_id, amount, reason, stripe_session_id, payment_intent_id)
    SELECT ${newId()}, t.id, t.amount, CASE WHEN t.changed > 0 THEN 'items_changed' ELSE 'items_gone' END, ${ref.sessionId}, ${ref.paymentIntentId}
    FROM (
      SELECT o.id,
        (SELECT COALESCE(SUM(json_extract(j.value, '$.amount')), 0) FROM json_each(o.items) j WHERE NOT ${itemDeliverable}) AS amount,
        (SELECT COUNT(*) FROM json_each(o.items) j
          WHERE EXISTS (SELECT 1 FROM quizzes q WHERE q.id = json_extract(j.value, '$.quizId')) AND NOT ${itemDeliverable}) AS changed
      FROM checkout_orders o WHERE o.id = ${orderId} AND o.status = 'open'
    ) t
    WHERE t.amount > 0`,
  );
}

/**
 * Money arrived for an order whose hold was already released (expired or failed): all of it goes back. Always
 * in the paid signal's batch: the order's state when the batch runs decides (the hold may end between the
 * webhook's read and its batch).
 */
export function recordClosedPaidStatement(db: Db, orderId: string, ref: { sessionId: string | null; paymentIntentId: string | null }) {
  return batchableRun(
    db,
    sql`
    INSERT OR IGNORE INTO payment_refunds (id, order_id, amount, reason, stripe_session_id, payment_intent_id)
    SELECT ${newId()}, o.id, o.amount_total, 'order_closed', ${ref.sessionId}, ${ref.paymentIntentId}
    FROM checkout_orders o WHERE o.id = ${orderId} AND o.status IN ('expired', 'failed')`,
  );
}

export async function refundOfOrder(db: Db, orderId: string): Promise<PaymentRefundRow | null> {
  const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.orderId, orderId)).limit(1);
  return row ?? null;
}

export async function setRefundOutcome(
  db: Db,
  id: string,
  outcome: { status: 'refunded' | 'needs_manual'; providerRefundId?: string | null; error?: string | null },
  fromPending = true,
) {
  return db
    .update(paymentRefunds)
    .set({ status: outcome.status, providerRefundId: outcome.providerRefundId ?? null, error: outcome.error ?? null, updatedAt: nowIso })
    .where(fromPending ? and(eq(paymentRefunds.id, id), eq(paymentRefunds.status, 'pending')) : eq(paymentRefunds.id, id))
    .returning({ id: paymentRefunds.id });
}

export const REFUND_LIST_LIMIT = 200;

/** The superadmin's 'Att återbetala' list: newest first, with the buyer and the business. */
export async function listRefunds(db: Db) {
  return db
    .select({
      id: paymentRefunds.id,
      orderId: paymentRefunds.orderId,
      amount: paymentRefunds.amount,
      reason: paymentRefunds.reason,
      status: paymentRefunds.status,
      providerRefundId: paymentRefunds.providerRefundId,
      error: paymentRefunds.error,
      createdAt: paymentRefunds.createdAt,
      updatedAt: paymentRefunds.updatedAt,
      buyerEmail: users.email,
      venueName: venues.name,
      stripeSessionId: checkoutOrders.stripeSessionId,
    })
    .from(paymentRefunds)
    .innerJoin(checkoutOrders, eq(checkoutOrders.id, paymentRefunds.orderId))
    .leftJoin(users, eq(users.id, checkoutOrders.userId))
    .leftJoin(venues, eq(venues.id, checkoutOrders.venueId))
    .orderBy(desc(paymentRefunds.createdAt))
    .limit(REFUND_LIST_LIMIT);
}

// ---------------------------------------------------------------- paid, closed and expired orders (issue 28.6)

/** True inside a statement while the order is paid: every paid-order statement of the batch is guarded by it. */
const orderIsPaid = (orderId: string) => sql`EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = ${orderId} AND o.status = 'paid')`;

/** The order's holds become sold (once it is paid in the same batch). */
export function sellHeldClaimsStatement(db: Db, orderId: string) {
  return batchableRun(
    db,
    sql`UPDATE promotion_slot_claims SET state = 'sold', updated_at = ${nowIso} WHERE order_id = ${orderId} AND state = 'held' AND ${orderIsPaid(orderId)}`,
  );
}

/**
 * One bought occurrence's promotion, active at once for its date. INSERT OR IGNORE on the (order, quiz, type)
 * unique index, guarded by the order being paid and the occurrence being deliverable.
 */
export function paidPromotionStatement(db: Db, id: string, orderId: string, it: OrderItem) {
  return batchableRun(
    db,
    sql`
    INSERT OR IGNORE INTO promotions (id, quiz_id, order_id, product_type, status, start_date, end_date, weeks, amount_paid)
    SELECT ${id}, ${it.quizId}, ${orderId}, ${it.tier}, 'active', ${it.date}, ${it.date}, ${it.weeks}, ${it.amount}
    WHERE ${orderIsPaid(orderId)} AND ${deliverable(sql`${it.quizId}`, sql`${it.date}`, sql`${it.citySlug}`)}`,
  );
}

/**
 * The held slots of a paid order whose quiz has no deliverable item (the ones that get no promotion) go back to
 * other buyers. Placed between the order's open → paid update and the sale of its holds: only then does a paid
 * order have held slots, so only the signal that moves it open → paid releases anything.
 */
export function releaseUndeliverableHoldsStatement(db: Db, orderId: string) {
  return batchableRun(
    db,
    sql`DELETE FROM promotion_slot_claims WHERE order_id = ${orderId} AND state = 'held' AND ${orderIsPaid(orderId)}
    AND NOT EXISTS (SELECT 1 FROM checkout_orders o, json_each(o.items) j
      WHERE o.id = ${orderId} AND json_extract(j.value, '$.quizId') = promotion_slot_claims.quiz_id AND ${itemDeliverable})`,
  );
}

/** expires_at of an order closed at `nowMs`: when its hold ended (the cool-down of issue 26.3 runs from it). */
export const holdEndedAt = (nowMs: number) => sql`MIN(${checkoutOrders.expiresAt}, ${nowMs})`;

/** The holds of an order that is failed or expired (checked inside the statement) are deleted. */
export function releaseClosedOrderHoldsStatement(db: Db, orderId: string) {
  return batchableRun(
    db,
    sql`DELETE FROM promotion_slot_claims WHERE order_id = ${orderId} AND state = 'held'
      AND EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = ${orderId} AND o.status IN ('failed', 'expired'))`,
  );
}

/** The order's promotions that are really shown: whose period covers its quiz's current date (issue 26.2). */
export async function shownPromotionsOf(db: Db, orderId: string): Promise<PromotionRow[]> {
  const rows = await db
    .select({ promotion: promotions, quizDate: quizzes.date })
    .from(promotions)
    .leftJoin(quizzes, eq(quizzes.id, promotions.quizId))
    .where(eq(promotions.orderId, orderId))
    .orderBy(promotions.startDate);
  return rows.filter((r) => r.quizDate !== null && r.quizDate >= r.promotion.startDate && r.quizDate <= r.promotion.endDate).map((r) => r.promotion);
}
