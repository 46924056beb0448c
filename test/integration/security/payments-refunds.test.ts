/**
 * Issue 13.2 (second half) and 13.11: money that arrives for an order whose quizzes are gone (or whose
 * hold was already released) is never reported as a success — /api/payments/verify answers
 * success:false with a Swedish refund message, the payments port refunds it, and the superadmin's
 * 'Att återbetala' list shows it. A production Worker without STRIPE_SECRET_KEY answers checkout
 * with 503 (a missing configuration), logged once.
 */
import { eq, sql } from 'drizzle-orm';
import { env } from 'cloudflare:workers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { app } from '../../../worker/app';
import { paymentRefunds, promotionSlotClaims } from '../../../worker/db/schema';
import { handlePaymentEvent } from '../../../worker/features/payments/service';
import { createLocalPayments, createStripePayments, localRefunds, type PaymentsPort } from '../../../worker/ports/payments';
import { DEV_WEBHOOK_SECRET } from '../../../worker/env';
import { callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, pinnedClock, uniqueTown } from '../../factories';
import { NOW, buy, orderRow, ownerWithQuiz, promotionsOf, sendEvent } from '../promotion-support';

const LATER = new Date(Date.parse(NOW) + 40 * 60 * 1000).toISOString();

afterEach(() => vi.restoreAllMocks());

async function refundRow(orderId: string) {
  const [row] = await testDb().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, orderId));
  return row ?? null;
}

/**
 * Makes a bought quiz disappear while its order is still open. The trigger forbids exactly that, so
 * this test fakes the state the guard exists to prevent (claim marked sold, then the raw delete), to
 * prove the webhook's own safety net.
 */
async function vanish(orderId: string, quizId: string) {
  const db = testDb();
  await db.update(promotionSlotClaims).set({ state: 'sold' }).where(eq(promotionSlotClaims.quizId, quizId));
  await db.run(sql`DELETE FROM quizzes WHERE id = ${quizId}`);
  expect((await orderRow(orderId)).status).toBe('open');
}

describe('paid, but nothing to deliver', () => {
  it('hold expired, quiz deleted, then the payment arrives: verify says no success, the money is refunded and listed for the superadmin', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const o = await ownerWithQuiz();
    const { body } = await buy(o, 'recommended');
    const order = { id: body.orderId as string, sessionId: body.sessionId as string };
    // The buyer lingers on the checkout page past the hold; meanwhile the owner deletes the quiz.
    expect((await callJson(`/api/owner/quizzes/${o.quiz.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: LATER })).status).toBe(200);
    expect((await sendEvent('checkout.session.completed', order, { clock: LATER })).status).toBe(200);

    expect((await orderRow(order.id)).status).toBe('expired');
    expect(await promotionsOf(order.id)).toHaveLength(0);
    const refund = await refundRow(order.id);
    expect(refund).toMatchObject({ amount: 4900, reason: 'order_closed', status: 'refunded', providerRefundId: `re_local_${order.id}` });
    expect(localRefunds.find((r) => r.orderId === order.id)).toMatchObject({ amount: 4900, sessionId: order.sessionId });

    const verify = await callJson(`/api/payments/verify?session_id=${order.sessionId}`, { cookie: o.user.cookie, clock: LATER });
    expect(verify.status).toBe(200);
    expect(verify.body.success).toBe(false);
    expect(verify.body.message).toBe('Quizet du betalade för finns inte längre, så köpet kunde inte genomföras. Pengarna betalas tillbaka till dig.');
    expect(verify.body.refund).toEqual({ amount: 4900, status: 'refunded' });

    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(NOW) });
    const list = await callJson('/api/payments/refunds', { cookie: admin.cookie, clock: NOW });
    expect(list.status).toBe(200);
    expect(list.body.refunds.find((r: { orderId: string }) => r.orderId === order.id)).toMatchObject({
      amount: 4900,
      status: 'refunded',
      reason: 'order_closed',
      buyerEmail: o.user.email,
      venueName: o.venue.name,
    });
    // Only the superadmin sees it.
    expect((await callJson('/api/payments/refunds', { cookie: o.user.cookie, clock: NOW })).status).toBe(403);
    expect((await callJson('/api/payments/refunds', { clock: NOW })).status).toBe(401);
  });

  it('a replayed paid event does not refund twice', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const o = await ownerWithQuiz();
    const { body } = await buy(o, 'premium');
    const order = { id: body.orderId as string, sessionId: body.sessionId as string };
    await sendEvent('checkout.session.expired', order);
    await sendEvent('checkout.session.completed', order, { eventId: `evt_a_${order.id}` });
    await sendEvent('checkout.session.async_payment_succeeded', order, { eventId: `evt_b_${order.id}` });
    const rows = await testDb().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, order.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ amount: 9800, status: 'refunded' });
  });

  it('every bought quiz gone while the order was open: order paid, no promotion, refund of all, verify success:false', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const o = await ownerWithQuiz();
    const { body } = await buy(o, 'premium');
    const order = { id: body.orderId as string, sessionId: body.sessionId as string };
    await vanish(order.id, o.quiz.id);
    expect((await sendEvent('checkout.session.completed', order)).status).toBe(200);
    expect((await orderRow(order.id)).status).toBe('paid');
    expect(await refundRow(order.id)).toMatchObject({ amount: 9800, reason: 'items_gone', status: 'refunded' });
    const verify = await callJson(`/api/payments/verify?session_id=${order.sessionId}`, { cookie: o.user.cookie, clock: NOW });
    expect(verify.body).toMatchObject({ success: false, promotions: [], refund: { amount: 9800, status: 'refunded' } });
    expect(verify.body.message).toContain('Pengarna betalas tillbaka');
  });

  it('one of two quizzes gone: the other is delivered, the missing one (in öre) refunded, and verify says so', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const o = await ownerWithQuiz();
    const second = await createQuiz(o.location.id, { date: '2030-03-19' });
    const { status, body } = await callJson('/api/promotion/marketing-checkout', {
      cookie: o.user.cookie,
      clock: NOW,
      body: {
        venueId: o.venue.id,
        items: [
          { quizId: o.quiz.id, tier: 'recommended' },
          { quizId: second.id, tier: 'premium' },
        ],
      },
    });
    expect(status).toBe(201);
    const order = { id: body.orderId as string, sessionId: body.sessionId as string };
    await vanish(order.id, second.id);
    await sendEvent('checkout.session.completed', order);
    expect((await promotionsOf(order.id)).map((p) => p.quizId)).toEqual([o.quiz.id]);
    expect(await refundRow(order.id)).toMatchObject({ amount: 9800, reason: 'items_gone', status: 'refunded' });
    const verify = await callJson(`/api/payments/verify?session_id=${order.sessionId}`, { cookie: o.user.cookie, clock: NOW });
    expect(verify.body.success).toBe(true);
    expect(verify.body.promotions).toHaveLength(1);
    expect(verify.body.message).toBe('Betalningen är genomförd, men ett eller flera quiz fanns inte längre. För dem betalas 98 kr tillbaka till dig.');
  });

  it('a delivered order records no refund', async () => {
    const o = await ownerWithQuiz();
    const { body } = await buy(o, 'recommended');
    await sendEvent('checkout.session.completed', { id: body.orderId, sessionId: body.sessionId });
    expect(await refundRow(body.orderId)).toBeNull();
  });

  it('when the provider refuses the refund it is listed as needing a manual refund; the superadmin marks it done', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const o = await ownerWithQuiz();
    const { body } = await buy(o, 'recommended');
    const order = { id: body.orderId as string, sessionId: body.sessionId as string };
    await sendEvent('checkout.session.expired', order);
    const failing: PaymentsPort = {
      ...createLocalPayments({ webhookSecret: DEV_WEBHOOK_SECRET }),
      refund: async () => {
        throw new Error('charge already refunded');
      },
    };
    const event = {
      id: `evt_fail_${order.id}`,
      type: 'checkout.session.completed',
      session: { id: order.sessionId, orderId: order.id, paymentStatus: 'paid', amountTotal: 4900, paymentIntentId: 'pi_123' },
    };
    expect(await handlePaymentEvent({ db: testDb(), clock: pinnedClock(NOW), payments: failing }, event)).toBe('applied');
    expect(await refundRow(order.id)).toMatchObject({ status: 'needs_manual', paymentIntentId: 'pi_123', error: 'charge already refunded' });

    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(NOW) });
    const row = (await refundRow(order.id))!;
    expect((await callJson(`/api/payments/refunds/${row.id}/refunded`, { method: 'POST', cookie: o.user.cookie, clock: NOW })).status).toBe(403);
    const done = await callJson(`/api/payments/refunds/${row.id}/refunded`, { method: 'POST', cookie: admin.cookie, clock: NOW });
    expect(done.status).toBe(200);
    expect((await refundRow(order.id))!.status).toBe('refunded');
    expect((await callJson('/api/payments/refunds/finns-inte/refunded', { method: 'POST', cookie: admin.cookie, clock: NOW })).status).toBe(404);
  });
});

describe('the Stripe adapter refunds (strict fake of the Stripe API, no network)', () => {
  function fake(replies: Record<string, unknown>, seen: Array<{ method: string; path: string; headers: Headers; body: URLSearchParams }>): typeof fetch {
    return (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      const method = init?.method ?? 'GET';
      const reply = replies[`${method} ${url.pathname}`];
      if (!reply) throw new Error(`unexpected Stripe call ${method} ${url}`);
      seen.push({ method, path: url.pathname, headers: new Headers(init?.headers), body: new URLSearchParams(String(init?.body ?? '')) });
      return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } });
    }) as typeof fetch;
  }

  it('refunds the payment intent of the event, once per order (idempotency key), for exactly the amount', async () => {
    const seen: Parameters<typeof fake>[1] = [];
    const port = createStripePayments({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
      fetchFn: fake({ 'POST /v1/refunds': { id: 're_1', object: 'refund' } }, seen),
    });
    expect(await port.refund({ orderId: 'order-1', paymentIntentId: 'pi_1', sessionId: 'cs_1', amount: 4900 })).toEqual({ id: 're_1' });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body.get('payment_intent')).toBe('pi_1');
    expect(seen[0]!.body.get('amount')).toBe('4900');
    expect(seen[0]!.headers.get('idempotency-key')).toBe('refund-order-1');
  });

  it('without a payment intent in the event it reads it from the session first', async () => {
    const seen: Parameters<typeof fake>[1] = [];
    const port = createStripePayments({
      secretKey: 'sk_test_x',
      webhookSecret: 'whsec_x',
      fetchFn: fake(
        {
          'GET /v1/checkout/sessions/cs_2': { id: 'cs_2', object: 'checkout.session', payment_intent: 'pi_2' },
          'POST /v1/refunds': { id: 're_2', object: 'refund' },
        },
        seen,
      ),
    });
    expect(await port.refund({ orderId: 'order-2', paymentIntentId: null, sessionId: 'cs_2', amount: 9800 })).toEqual({ id: 're_2' });
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /v1/checkout/sessions/cs_2', 'POST /v1/refunds']);
    expect(seen[1]!.body.get('payment_intent')).toBe('pi_2');
  });
});

describe('production without STRIPE_SECRET_KEY', () => {
  const PROD = 'https://quizkvall.test';
  const prodEnv = () => ({ ...env, APP_ENV: 'production', APP_URL: PROD, STRIPE_SECRET_KEY: '', STRIPE_WEBHOOK_SECRET: 'whsec_prod' }) as Env;
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;

  it('checkout answers 503 with a Swedish message, stores no open order or hold, and logs the cause once', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const user = await createUser();
    const v = await createVenue(user.id);
    const location = await createLocation(v.id, { city: uniqueTown() });
    // Real time in production (the test clock header is ignored): a date well ahead.
    const quiz = await createQuiz(location.id, { date: '2031-06-10' });
    const post = () =>
      app.fetch(
        new Request(`${PROD}/api/promotion/marketing-checkout`, {
          method: 'POST',
          headers: { origin: PROD, cookie: user.cookie, 'content-type': 'application/json' },
          body: JSON.stringify({ venueId: v.id, items: [{ quizId: quiz.id, tier: 'premium' }] }),
        }),
        prodEnv(),
        ctx,
      );
    const before = await snapshot(['promotion_slot_claims', 'promotions']);
    const first = await post();
    expect(first.status).toBe(503);
    expect(await first.json()).toEqual({
      error: { code: 'unavailable', message: 'Betalning är inte tillgänglig just nu. Försök igen senare eller kontakta supporten.' },
    });
    const second = await post();
    expect(second.status).toBe(503);
    expect(await snapshot(['promotion_slot_claims', 'promotions'])).toEqual(before);
    const open = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM checkout_orders WHERE venue_id = ${v.id} AND status = 'open'`);
    expect(open[0]!.n).toBe(0);
    const configLogs = errors.mock.calls.filter((c) => String(c[0]).includes('STRIPE_SECRET_KEY'));
    expect(configLogs.length).toBeLessThanOrEqual(1);
    expect(errors.mock.calls.filter((c) => String(c[0]).includes('checkout session could not be created'))).toHaveLength(0);
  });
});
