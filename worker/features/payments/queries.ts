/**
 * SQL of payments: checkout orders, recorded provider events and refunds. Every state change is
 * conditional on the order's state (orders only move forward: open → paid | failed | expired).
 */
import { and, desc, eq, lt, sql } from 'drizzle-orm';
import { batchableRun } from '../../db/batch';
import type { Db } from '../../db/client';
import { checkoutOrders, paymentEvents, paymentRefunds, users, venues, type CheckoutOrderRow, type PaymentRefundRow } from '../../db/schema';
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
 * Records what a paid order could not deliver, in the webhook's batch (after the promotions inserts):
 * the sum of the items that got no promotion because their quiz is gone ('items_gone') or is no longer
 * on the bought date in the bought city ('items_changed', issue 26.2). Nothing when everything was
 * delivered; at most one row per order (unique index, INSERT OR IGNORE).
 */
export function recordUndeliveredStatement(db: Db, orderId: string, ref: { sessionId: string | null; paymentIntentId: string | null }) {
  return batchableRun(db, sql`
    INSERT OR IGNORE INTO payment_refunds (id, order_id, amount, reason, stripe_session_id, payment_intent_id)
    SELECT ${newId()}, t.id, t.amount, CASE WHEN t.changed > 0 THEN 'items_changed' ELSE 'items_gone' END, ${ref.sessionId}, ${ref.paymentIntentId}
    FROM (
      SELECT o.id,
        (SELECT COALESCE(SUM(json_extract(j.value, '$.amount')), 0) FROM json_each(o.items) j
          WHERE NOT EXISTS (SELECT 1 FROM promotions p WHERE p.order_id = o.id AND p.quiz_id = json_extract(j.value, '$.quizId'))) AS amount,
        (SELECT COUNT(*) FROM json_each(o.items) j
          WHERE EXISTS (SELECT 1 FROM quizzes q WHERE q.id = json_extract(j.value, '$.quizId'))
            AND NOT EXISTS (SELECT 1 FROM promotions p WHERE p.order_id = o.id AND p.quiz_id = json_extract(j.value, '$.quizId'))) AS changed
      FROM checkout_orders o WHERE o.id = ${orderId} AND o.status = 'paid'
    ) t
    WHERE t.amount > 0`);
}

/** Money arrived for an order whose hold was already released (expired or failed): all of it goes back. */
export function recordClosedPaidStatement(db: Db, orderId: string, amount: number, ref: { sessionId: string | null; paymentIntentId: string | null }) {
  return batchableRun(db, sql`
    INSERT OR IGNORE INTO payment_refunds (id, order_id, amount, reason, stripe_session_id, payment_intent_id)
    SELECT ${newId()}, o.id, ${amount}, 'order_closed', ${ref.sessionId}, ${ref.paymentIntentId}
    FROM checkout_orders o WHERE o.id = ${orderId} AND o.status IN ('expired', 'failed')`);
}

export async function refundOfOrder(db: Db, orderId: string): Promise<PaymentRefundRow | null> {
  const [row] = await db.select().from(paymentRefunds).where(eq(paymentRefunds.orderId, orderId)).limit(1);
  return row ?? null;
}

export async function setRefundOutcome(db: Db, id: string, outcome: { status: 'refunded' | 'needs_manual'; providerRefundId?: string | null; error?: string | null }, fromPending = true) {
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
