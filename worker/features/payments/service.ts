/**
 * Payment state (ARCHITECTURE.md "Payments"). The webhook is the source of truth: each verified event
 * is applied in ONE db.batch that also records its id in payment_events, so a replay fails that batch
 * on the primary key and changes nothing twice. Orders only move forward (open → paid | failed |
 * expired): every write is conditional on the order's state, so out-of-order events are no-ops.
 */
import { and, eq, lte } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutOrders, paymentEvents, type CheckoutOrderRow } from '../../db/schema';
import type { BatchStatement } from '../../db/batch';
import { isSuperadmin, requireActor, type Actor } from '../../lib/authz';
import { forbidden, notFound } from '../../lib/errors';
import { bumpDataVersion } from '../../lib/data-version';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';
import type { PaymentEvent } from '../../ports/payments';

/** What the payment services need: the database, the clock and the payments port. */
export type PaymentDeps = Pick<Deps, 'db' | 'clock' | 'payments'>;
import { formatOre, type OrderItem } from '../promotion/contract';
import { VERIFY_EVENT_TYPE, VERIFY_MESSAGES, type RefundListResponse, type VerifyResponse } from './contract';
import {
  eventSeen,
  holdEndedAt,
  listRefunds,
  nowIso,
  orderById,
  orderBySession,
  paidPromotionStatement,
  recordClosedPaidStatement,
  recordUndeliveredStatement,
  refundOfOrder,
  releaseClosedOrderHoldsStatement,
  releaseUndeliverableHoldsStatement,
  sellHeldClaimsStatement,
  setRefundOutcome,
  shownPromotionsOf,
} from './queries';

/** Holds of orders whose async payment (e.g. a bank debit) is still pending are kept this long. */
export const ASYNC_PAYMENT_HOLD_MS = 7 * 24 * 60 * 60 * 1000;
/** Orders per clean-up chunk: the statements bind 2 × this + 2 parameters. */

export type EventOutcome = 'applied' | 'duplicate' | 'ignored';

type Statements = [BatchStatement, ...BatchStatement[]];

/**
 * The webhook: verifies the signature over the raw body (throws WebhookSignatureError → 400) and
 * applies the event. The route and the local checkout page both come through here.
 */
export async function receiveWebhook(deps: PaymentDeps, input: { rawBody: string; signature: string }): Promise<EventOutcome> {
  const event = await deps.payments.verifyWebhook(input.rawBody, input.signature);
  return handlePaymentEvent(deps, event);
}

/** Applies one verified provider event. */
export async function handlePaymentEvent(deps: PaymentDeps, event: PaymentEvent): Promise<EventOutcome> {
  const { db } = deps;
  const now = deps.clock.now();
  if (await eventSeen(db, event.id)) return 'duplicate';
  const record = (orderId: string | null) => db.insert(paymentEvents).values({ id: event.id, type: event.type, orderId });
  const handled = [
    'checkout.session.completed',
    'checkout.session.async_payment_succeeded',
    'checkout.session.async_payment_failed',
    'checkout.session.expired',
  ];
  const orderId = event.session?.orderId ?? null;
  const order = orderId ? await orderById(db, orderId) : null;
  if (!handled.includes(event.type) || !order || (order.stripeSessionId && order.stripeSessionId !== event.session!.id)) {
    await record(order?.id ?? null).onConflictDoNothing();
    return 'ignored';
  }

  const session = event.session!;
  const ref = { sessionId: session.id, paymentIntentId: session.paymentIntentId };
  let statements: Statements;
  switch (event.type) {
    case 'checkout.session.completed':
      statements =
        session.paymentStatus === 'paid' || session.paymentStatus === 'no_payment_required'
          ? paidStatements(db, order, record(order.id), ref)
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
      statements = paidStatements(db, order, record(order.id), ref);
      break;
    case 'checkout.session.async_payment_failed':
      statements = closeStatements(db, order.id, 'failed', record(order.id), now.getTime());
      break;
    default:
      statements = closeStatements(db, order.id, 'expired', record(order.id), now.getTime());
  }
  try {
    await db.batch(statements);
  } catch (err) {
    // The same event delivered twice at the same moment: the second batch fails on the event id.
    if (await eventSeen(db, event.id)) return 'duplicate';
    throw err;
  }
  // Whatever the batch recorded as not deliverable is refunded now (a crash here leaves it 'pending',
  // which the superadmin's 'Att återbetala' list shows).
  await settleRefund(deps, { orderId: order.id });
  return 'applied';
}

/**
 * Paid: the order moves open → paid, its holds become sold and one promotion per bought occurrence
 * whose quiz is still what was bought is inserted — all in one batch. Whatever could not be delivered is
 * recorded in payment_refunds in the same batch: the items whose quiz is gone or changed, or the whole
 * payment when the order's hold had already been released (expired/failed), so money is never silently kept.
 * Every statement is in every paid batch and guarded by the order's state when the batch runs, never chosen
 * from the read above: the hold may end (expiry job, cancel, provider event) between that read and the batch.
 */
function paidStatements(
  db: Db,
  order: CheckoutOrderRow,
  recordEvent: BatchStatement,
  ref: { sessionId: string | null; paymentIntentId: string | null },
): Statements {
  const items = JSON.parse(order.items) as OrderItem[];
  return [
    recordEvent,
    // Still open: what cannot be delivered is refunded. Decided before the order becomes paid, so only the signal
    // that moves it open → paid decides (a later duplicate must not count promotions that ran and were deleted since).
    recordUndeliveredStatement(db, order.id, ref),
    // Already closed (expired/failed): all of the money goes back.
    recordClosedPaidStatement(db, order.id, ref),
    db
      .update(checkoutOrders)
      .set({ status: 'paid', updatedAt: nowIso })
      .where(and(eq(checkoutOrders.id, order.id), eq(checkoutOrders.status, 'open'))),
    // A slot whose item cannot be delivered is not sold: it goes back to other buyers (held slots of a paid order
    // exist only right here, in the batch that moved it open → paid).
    releaseUndeliverableHoldsStatement(db, order.id),
    sellHeldClaimsStatement(db, order.id),
    // One promotion per bought occurrence, active at once for its date, if the order is paid and the quiz is
    // still what was bought (issue 26.2).
    ...items.map((it) => paidPromotionStatement(db, newId(), order.id, it)),
    bumpDataVersion(db),
  ];
}

/**
 * Refunds a recorded, still pending refund of an order through the payments port (idempotent at the
 * provider by the order id). A failed refund is marked 'needs_manual' for the superadmin.
 */
export async function settleRefund(deps: Pick<Deps, 'db' | 'payments'>, input: { orderId: string }): Promise<void> {
  const { db, payments } = deps;
  const { orderId } = input;
  const refund = await refundOfOrder(db, orderId);
  if (refund?.status !== 'pending') return;
  console.error(`order ${orderId}: payment of ${refund.amount} öre could not be delivered (${refund.reason}): refund needed, refunding`);
  try {
    const done = await payments.refund({ orderId, paymentIntentId: refund.paymentIntentId, sessionId: refund.stripeSessionId, amount: refund.amount });
    await setRefundOutcome(db, refund.id, { status: 'refunded', providerRefundId: done.id });
  } catch (err) {
    console.error(`order ${orderId}: automatic refund failed, needs manual refund`, err);
    await setRefundOutcome(db, refund.id, { status: 'needs_manual', error: err instanceof Error ? err.message.slice(0, 500) : 'okänt fel' });
  }
}

function closeStatements(db: Db, orderId: string, status: 'failed' | 'expired', recordEvent: BatchStatement, nowMs: number): Statements {
  return [
    recordEvent,
    db
      .update(checkoutOrders)
      // expires_at: when the hold ended (the cool-down of issue 26.3 runs from it).
      .set({ status, expiresAt: holdEndedAt(nowMs), updatedAt: nowIso })
      .where(and(eq(checkoutOrders.id, orderId), eq(checkoutOrders.status, 'open'))),
    releaseClosedOrderHoldsStatement(db, orderId),
  ];
}

async function ownOrder(db: Db, actor: Actor, find: { id: string } | { sessionId: string }): Promise<CheckoutOrderRow> {
  requireActor(actor);
  const order = 'id' in find ? await orderById(db, find.id) : await orderBySession(db, find.sessionId);
  if (!order) throw notFound('Betalningen hittades inte.');
  if (order.userId !== actor.id && !isSuperadmin(actor)) throw forbidden();
  return order;
}

/** verify-payment: reads only our own state (the webhook decides). */
export async function verifyPayment(deps: Pick<Deps, 'db'>, actor: Actor, input: { sessionId: string }): Promise<VerifyResponse> {
  const { db } = deps;
  const { sessionId } = input;
  const order = await ownOrder(db, actor, { sessionId });
  const refundRow = await refundOfOrder(db, order.id);
  const refund = refundRow ? { amount: refundRow.amount, status: refundRow.status } : null;
  const base = { status: order.status, marketingType: null, isPremium: false, promotions: [], alreadyProcessed: false, refund };
  const changed = refundRow?.reason === 'items_changed';
  if (order.status !== 'paid' && refund) return { ...base, success: false, message: VERIFY_MESSAGES.refunded };
  if (order.status !== 'paid') {
    return { ...base, success: false, message: VERIFY_MESSAGES[order.status] };
  }
  // Only what is really shown counts (issue 26.2): a promotion whose period covers its quiz's current date.
  const rows = await shownPromotionsOf(db, order.id);
  // Paid, but nothing could be delivered (every quiz was gone or moved): never a success; the money goes back.
  if (rows.length === 0)
    return { ...base, success: false, message: refund ? (changed ? VERIFY_MESSAGES.refundedChanged : VERIFY_MESSAGES.refunded) : VERIFY_MESSAGES.undelivered };
  const types = new Set(rows.map((r) => r.productType));
  // The first verification records itself; a repeat (reload, second tab) says 'already processed'.
  const first = await db
    .insert(paymentEvents)
    .values({ id: `${VERIFY_EVENT_TYPE}:${order.id}`, type: VERIFY_EVENT_TYPE, orderId: order.id })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  const alreadyProcessed = first.length === 0;
  return {
    success: true,
    status: 'paid',
    marketingType: types.size === 1 ? [...types][0]! : types.size > 1 ? 'mixed' : null,
    isPremium: types.has('premium'),
    promotions: rows.map((r) => ({ quizId: r.quizId, productType: r.productType, startDate: r.startDate, endDate: r.endDate, amountPaid: r.amountPaid })),
    message: refund
      ? (changed ? VERIFY_MESSAGES.partlyRefundedChanged : VERIFY_MESSAGES.partlyRefunded)(formatOre(refund.amount))
      : alreadyProcessed
        ? VERIFY_MESSAGES.alreadyProcessed
        : VERIFY_MESSAGES.paid,
    alreadyProcessed,
    refund,
  };
}

/** An open order whose expiry lies further ahead than this waits for an async payment (ASYNC_PAYMENT_HOLD_MS): cancel leaves it. */
const ORDINARY_HOLD_MAX_MS = 60 * 60 * 1000;

/**
 * The buyer came back with payment=cancelled (Stripe's cancel URL, or the local checkout): the session
 * is ended at the provider and the hold released here at once (issue 26.8; the local port has no
 * provider to send an expired event, and Stripe's may come late). Money that still arrives for the
 * order is refunded by the webhook ('order_closed'). The order's expires_at becomes now: the moment
 * its hold ended, from which the cool-down of issue 26.3 runs.
 */
export async function cancelCheckout(
  deps: Pick<Deps, 'db' | 'payments' | 'clock'>,
  actor: Actor,
  input: { orderId: string },
): Promise<{ status: CheckoutOrderRow['status'] }> {
  const { db } = deps;
  const order = await ownOrder(db, actor, { id: input.orderId });
  const nowMs = deps.clock.now().getTime();
  if (order.status !== 'open' || order.expiresAt > nowMs + ORDINARY_HOLD_MAX_MS) return { status: order.status };
  if (order.stripeSessionId) {
    try {
      await deps.payments.expireSession(order.stripeSessionId);
    } catch (err) {
      // The hold is released anyway; a payment that still completes is refunded by the webhook.
      console.error(`order ${order.id}: could not expire the provider session on cancel`, err);
    }
  }
  await db.batch([
    db
      .update(checkoutOrders)
      .set({ status: 'expired', expiresAt: nowMs, updatedAt: nowIso })
      .where(and(eq(checkoutOrders.id, order.id), eq(checkoutOrders.status, 'open'), lte(checkoutOrders.expiresAt, nowMs + ORDINARY_HOLD_MAX_MS))),
    releaseClosedOrderHoldsStatement(db, order.id),
  ]);
  return { status: (await orderById(db, order.id))?.status ?? order.status };
}

/** The superadmin's 'Att återbetala' list. */
function requireSuperadminSv(actor: Actor) {
  requireActor(actor);
  if (!isSuperadmin(actor)) throw forbidden('Endast superadmin kan se återbetalningar.');
}

export async function refundList(deps: Pick<Deps, 'db'>, actor: Actor): Promise<RefundListResponse> {
  requireSuperadminSv(actor);
  const rows = await listRefunds(deps.db);
  return { refunds: rows.map((r) => ({ ...r, buyerEmail: r.buyerEmail ?? null, venueName: r.venueName ?? null })) };
}

/** The superadmin refunded by hand (in the Stripe dashboard): the row is marked refunded. */
export async function markRefunded(deps: Pick<Deps, 'db'>, actor: Actor, input: { id: string }): Promise<{ id: string; status: 'refunded' }> {
  const { id } = input;
  requireSuperadminSv(actor);
  const [row] = await setRefundOutcome(deps.db, id, { status: 'refunded', providerRefundId: null, error: null }, false);
  if (!row) throw notFound('Återbetalningen hittades inte.');
  return { id, status: 'refunded' };
}
