/**
 * Payment state (ARCHITECTURE.md "Payments"). The webhook is the source of truth: each verified event
 * is applied in ONE db.batch that also records its id in payment_events, so a replay fails that batch
 * on the primary key and changes nothing twice. Orders only move forward (open → paid | failed |
 * expired): every write is conditional on the order's state, so out-of-order events are no-ops.
 */
import { and, eq, lt, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { checkoutOrders, paymentEvents, promotions, type CheckoutOrderRow } from '../../db/schema';
import { isSuperadmin, requireActor, type Actor } from '../../lib/authz';
import { forbidden, notFound } from '../../lib/errors';
import { bumpDataVersion } from '../../lib/data-version';
import { newId } from '../../lib/ids';
import type { PaymentEvent, PaymentsPort } from '../../ports/payments';
import { batchableRun } from '../promotion/queries';
import type { OrderItem } from '../promotion/service';
import { VERIFY_MESSAGES, type VerifyResponse } from './contract';

/** Holds of orders whose async payment (e.g. a bank debit) is still pending are kept this long. */
export const ASYNC_PAYMENT_HOLD_MS = 7 * 24 * 60 * 60 * 1000;
/** Orders per clean-up chunk: the statements bind 2 × this + 2 parameters. */
export const RELEASE_CHUNK = 40;

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

const nowIso = sql`(strftime('%Y-%m-%dT%H:%M:%fZ','now'))`;
type Statement = BatchItem<'sqlite'>;
type Statements = [Statement, ...Statement[]];

async function eventSeen(db: Db, id: string): Promise<boolean> {
  const [row] = await db.select({ id: paymentEvents.id }).from(paymentEvents).where(eq(paymentEvents.id, id)).limit(1);
  return !!row;
}

/** Applies one verified provider event. */
export async function handlePaymentEvent(db: Db, event: PaymentEvent, now: Date): Promise<EventOutcome> {
  if (await eventSeen(db, event.id)) return 'duplicate';
  const record = (orderId: string | null) => db.insert(paymentEvents).values({ id: event.id, type: event.type, orderId });
  const handled = [
    'checkout.session.completed',
    'checkout.session.async_payment_succeeded',
    'checkout.session.async_payment_failed',
    'checkout.session.expired',
  ];
  const orderId = event.session?.orderId ?? null;
  const [order] = orderId ? await db.select().from(checkoutOrders).where(eq(checkoutOrders.id, orderId)).limit(1) : [];
  if (!handled.includes(event.type) || !order || (order.stripeSessionId && order.stripeSessionId !== event.session!.id)) {
    await record(order?.id ?? null).onConflictDoNothing();
    return 'ignored';
  }

  let statements: Statements;
  switch (event.type) {
    case 'checkout.session.completed':
      statements =
        event.session!.paymentStatus === 'paid' || event.session!.paymentStatus === 'no_payment_required'
          ? paidStatements(db, order, record(order.id))
          : // Completed but the money is still on its way (async method): keep the hold until it succeeds or fails.
            [
              record(order.id),
              db
                .update(checkoutOrders)
                .set({ expiresAt: now.getTime() + ASYNC_PAYMENT_HOLD_MS, updatedAt: now.toISOString() })
                .where(and(eq(checkoutOrders.id, order.id), eq(checkoutOrders.status, 'open'))),
            ];
      break;
    case 'checkout.session.async_payment_succeeded':
      statements = paidStatements(db, order, record(order.id));
      break;
    case 'checkout.session.async_payment_failed':
      statements = closeStatements(db, order.id, 'failed', record(order.id));
      break;
    default:
      statements = closeStatements(db, order.id, 'expired', record(order.id));
  }
  try {
    await db.batch(statements);
  } catch (err) {
    // The same event delivered twice at the same moment: the second batch fails on the event id.
    if (await eventSeen(db, event.id)) return 'duplicate';
    throw err;
  }
  const paidSignal =
    event.type === 'checkout.session.async_payment_succeeded' ||
    (event.type === 'checkout.session.completed' && event.session!.paymentStatus === 'paid');
  if (paidSignal && (order.status === 'expired' || order.status === 'failed')) {
    // Money arrived for an order whose hold was already released: nothing is delivered, refund by hand.
    console.error(`payment for order ${order.id} in state ${order.status}: refund needed`);
  }
  return 'applied';
}

function paidStatements(db: Db, order: CheckoutOrderRow, recordEvent: Statement): Statements {
  const items = JSON.parse(order.items) as OrderItem[];
  const isPaid = sql`EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = ${order.id} AND o.status = 'paid')`;
  return [
    recordEvent,
    db
      .update(checkoutOrders)
      .set({ status: 'paid', updatedAt: nowIso })
      .where(and(eq(checkoutOrders.id, order.id), eq(checkoutOrders.status, 'open'))),
    batchableRun(db, sql`UPDATE promotion_slot_claims SET state = 'sold', updated_at = ${nowIso} WHERE order_id = ${order.id} AND state = 'held' AND ${isPaid}`),
    // One promotion per bought occurrence, active at once for its date. INSERT OR IGNORE on the
    // (order, quiz, type) unique index, guarded by the order being paid and the quiz still existing.
    ...items.map((it) =>
      batchableRun(db, sql`
        INSERT OR IGNORE INTO promotions (id, quiz_id, order_id, product_type, status, start_date, end_date, weeks, amount_paid)
        SELECT ${newId()}, ${it.quizId}, ${order.id}, ${it.tier}, 'active', ${it.date}, ${it.date}, ${it.weeks}, ${it.amount}
        WHERE ${isPaid} AND EXISTS (SELECT 1 FROM quizzes q WHERE q.id = ${it.quizId})`),
    ),
    bumpDataVersion(db),
  ];
}

function closeStatements(db: Db, orderId: string, status: 'failed' | 'expired', recordEvent: Statement): Statements {
  return [
    recordEvent,
    db
      .update(checkoutOrders)
      .set({ status, updatedAt: nowIso })
      .where(and(eq(checkoutOrders.id, orderId), eq(checkoutOrders.status, 'open'))),
    batchableRun(db, sql`DELETE FROM promotion_slot_claims WHERE order_id = ${orderId} AND state = 'held'
      AND EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = ${orderId} AND o.status IN ('failed', 'expired'))`),
  ];
}

/**
 * Marks open orders past their expiry as expired and deletes their holds, in chunks of RELEASE_CHUNK
 * orders (indexed: status + expires_at, claims by order; ≤ 100 bound parameters per statement).
 * Called before every claim/availability read and by the nightly job. Returns the orders expired.
 */
export async function releaseExpiredHolds(db: Db, now: Date, maxChunks = 1): Promise<number> {
  let total = 0;
  const nowMs = now.getTime();
  for (let i = 0; i < maxChunks; i++) {
    const rows = await db
      .select({ id: checkoutOrders.id })
      .from(checkoutOrders)
      .where(and(eq(checkoutOrders.status, 'open'), lt(checkoutOrders.expiresAt, nowMs)))
      .limit(RELEASE_CHUNK);
    if (rows.length === 0) break;
    const ids = sql.join(rows.map((r) => sql`${r.id}`), sql`, `);
    const [res] = await db.batch([
      batchableRun(db, sql`UPDATE checkout_orders SET status = 'expired', updated_at = ${nowIso}
        WHERE id IN (${ids}) AND status = 'open' AND expires_at < ${nowMs}`),
      // Guarded by the order's state: an order whose expiry was just extended (async payment) keeps its holds.
      batchableRun(db, sql`DELETE FROM promotion_slot_claims WHERE order_id IN (${ids}) AND state = 'held'
        AND EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = promotion_slot_claims.order_id AND o.status IN ('expired', 'failed'))`),
    ]);
    total += (res as { meta?: { changes?: number } }).meta?.changes ?? 0;
    if (rows.length < RELEASE_CHUNK) break;
  }
  return total;
}

async function ownOrder(db: Db, actor: Actor, where: ReturnType<typeof eq>): Promise<CheckoutOrderRow> {
  requireActor(actor);
  const [order] = await db.select().from(checkoutOrders).where(where).limit(1);
  if (!order) throw notFound('Betalningen hittades inte.');
  if (order.userId !== actor.id && !isSuperadmin(actor)) throw forbidden();
  return order;
}

/** verify-payment: reads only our own state (the webhook decides). */
export async function verifyPayment(db: Db, actor: Actor, sessionId: string): Promise<VerifyResponse> {
  const order = await ownOrder(db, actor, eq(checkoutOrders.stripeSessionId, sessionId));
  const base = { status: order.status, marketingType: null, isPremium: false, promotions: [], alreadyProcessed: false };
  if (order.status !== 'paid') {
    return { ...base, success: false, message: VERIFY_MESSAGES[order.status] };
  }
  const rows = await db.select().from(promotions).where(eq(promotions.orderId, order.id)).orderBy(promotions.startDate);
  const types = new Set(rows.map((r) => r.productType));
  // The first verification records itself; a repeat (reload, second tab) says 'already processed'.
  const first = await db
    .insert(paymentEvents)
    .values({ id: `verify:${order.id}`, type: 'verify', orderId: order.id })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  const alreadyProcessed = first.length === 0;
  return {
    success: true,
    status: 'paid',
    marketingType: types.size === 1 ? [...types][0]! : types.size > 1 ? 'mixed' : null,
    isPremium: types.has('premium'),
    promotions: rows.map((r) => ({ quizId: r.quizId, productType: r.productType, startDate: r.startDate, endDate: r.endDate, amountPaid: r.amountPaid })),
    message: alreadyProcessed ? VERIFY_MESSAGES.alreadyProcessed : VERIFY_MESSAGES.paid,
    alreadyProcessed,
  };
}

/** The buyer came back with payment=cancelled: end the session so its holds are released by the expired event. */
export async function cancelCheckout(db: Db, actor: Actor, payments: PaymentsPort, orderId: string): Promise<{ status: CheckoutOrderRow['status'] }> {
  const order = await ownOrder(db, actor, eq(checkoutOrders.id, orderId));
  if (order.status === 'open' && order.stripeSessionId) await payments.expireSession(order.stripeSessionId);
  return { status: order.status };
}
