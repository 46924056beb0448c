import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkoutOrders } from '../../worker/db/schema';
import { createMarketingCheckout } from '../../worker/features/promotion/service';
import { pricingFor } from '../../worker/features/promotion/contract';
import { getPricing, type PriceCache } from '../../worker/features/promotion/pricing';
import type { Config } from '../../worker/env';
import { createLocalPayments, createStripePayments, type PaymentsPort } from '../../worker/ports/payments';
import { callJson, createQuiz, createUser, pinnedClock, snapshot, testDb, testDeps } from '../factories';
import { expectConsoleError } from '../setup/console';
import { buy, claimsOf, NOW, orderRow, ownerWithQuiz, QUIZ_DATE, rivalQuiz } from './promotion-support';

const stripeConfig = { secretKey: 'sk_test_x', webhookSecret: 'whsec_x', priceRecommended: 'price_rec', pricePremium: 'price_pre' };

/** A strict fake of Stripe's HTTP API: answers only the listed GETs, fails the test on anything else. */
function strictStripeFetch(routes: Record<string, unknown>, calls: string[]): typeof fetch {
  return (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    calls.push(`${method} ${url}`);
    const path = new URL(url).pathname;
    if (method === 'GET' && path in routes) {
      return new Response(JSON.stringify(routes[path]), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } });
    }
    throw new Error(`unexpected Stripe call ${method} ${url}`);
  }) as typeof fetch;
}

/** getPricing's deps: the port, the Stripe price ids and a clock pinned at `now`. */
const pricingDeps = (payments: PaymentsPort, stripe: Pick<Config['stripe'], 'priceRecommended' | 'pricePremium'>, now: Date) => ({
  payments,
  config: { stripe } as unknown as Config,
  clock: pinnedClock(now),
});

describe('GET /api/promotion/pricing', () => {
  it('answers the fallback 49 / 98 kr with the week options when no Stripe key is set', async () => {
    const { status, body } = await callJson('/api/promotion/pricing');
    expect(status).toBe(200);
    expect(body.source).toBe('fallback');
    expect(body.reason).toBe('unconfigured');
    expect(body.recommended.weeklyPriceSek).toBe(49);
    expect(body.premium.weeklyPriceSek).toBe(98);
    expect(body.recommended.options.map((o: any) => o.priceSek)).toEqual([49, 78, 118]);
    expect(body.premium.options.map((o: any) => [o.weeks, o.priceSek, o.exposureDays, o.popular])).toEqual([
      [1, 98, 7, false],
      [2, 157, 14, true],
      [4, 235, 28, false],
    ]);
  });

  it('reads the two Stripe prices (öre) and caches them', async () => {
    const calls: string[] = [];
    const port = createStripePayments({
      ...stripeConfig,
      secretKey: stripeConfig.secretKey,
      fetchFn: strictStripeFetch(
        {
          '/v1/prices/price_rec': { id: 'price_rec', object: 'price', unit_amount: 5900, currency: 'sek' },
          '/v1/prices/price_pre': { id: 'price_pre', object: 'price', unit_amount: 12900, currency: 'sek' },
        },
        calls,
      ),
    });
    const cache: PriceCache = { entry: null };
    const now = new Date(NOW);
    const first = await getPricing(pricingDeps(port, stripeConfig, now), cache);
    expect(first).toEqual(pricingFor({ recommended: 59, premium: 129 }, 'live'));
    expect(calls).toHaveLength(2);
    await getPricing(pricingDeps(port, stripeConfig, new Date(now.getTime() + 60_000)), cache);
    expect(calls).toHaveLength(2); // served from the cache
  });

  it('falls back to 49 / 98 kr when Stripe cannot be reached (no network: the fake refuses every call)', async () => {
    const calls: string[] = [];
    const port = createStripePayments({ ...stripeConfig, fetchFn: strictStripeFetch({}, calls) });
    const pricing = await getPricing(pricingDeps(port, stripeConfig, new Date(NOW)), { entry: null });
    expect(calls.length).toBeGreaterThan(0);
    expect(pricing).toEqual(pricingFor({ recommended: 49, premium: 98 }, 'fallback', 'unavailable'));
  });

  it('falls back when a price has no SEK amount, and without price ids asks nothing', async () => {
    const calls: string[] = [];
    const port = createStripePayments({
      ...stripeConfig,
      fetchFn: strictStripeFetch(
        {
          '/v1/prices/price_rec': { id: 'price_rec', object: 'price', unit_amount: 500, currency: 'eur' },
          '/v1/prices/price_pre': { id: 'price_pre', object: 'price', unit_amount: 12900, currency: 'sek' },
        },
        calls,
      ),
    });
    expect(await getPricing(pricingDeps(port, stripeConfig, new Date(NOW)), { entry: null })).toMatchObject({ source: 'fallback', reason: 'unavailable' });
    const before = calls.length;
    expect((await getPricing(pricingDeps(port, { ...stripeConfig, pricePremium: null }, new Date(NOW)), { entry: null })).source).toBe('fallback');
    expect(calls.length).toBe(before);
    expect((await getPricing(pricingDeps(createLocalPayments({ webhookSecret: 'x' }), stripeConfig, new Date(NOW)), { entry: null })).source).toBe('fallback');
  });
});

describe('POST /api/promotion/availability', () => {
  it('answers the 02 §3 shape: free day, then limited and sold out as slots are taken', async () => {
    const me = await ownerWithQuiz();
    const { status, body } = await callJson('/api/promotion/availability', { cookie: me.user.cookie, clock: NOW, body: { quizIds: [me.quiz.id] } });
    expect(status).toBe(200);
    expect(body.maxRecommendedSlotsPerDay).toBe(3);
    expect(body.maxPremiumSlotsPerDay).toBe(1);
    expect(body.byDate).toEqual([
      expect.objectContaining({
        date: QUIZ_DATE,
        recommended: { isAvailable: true, availableSlots: 3, userHasPurchased: false },
        premium: { isAvailable: true, availableSlots: 1, userHasPurchased: false },
        quizzes: [{ id: me.quiz.id }],
      }),
    ]);
    expect(body.overall).toEqual({ recommended: { canProceed: true }, premium: { canProceed: true } });

    const rival = await rivalQuiz(me.city);
    expect((await buy(rival, 'premium')).status).toBe(201);
    expect((await buy(await rivalQuiz(me.city), 'recommended')).status).toBe(201);
    const after = (await callJson('/api/promotion/availability', { cookie: me.user.cookie, clock: NOW, body: { quizIds: [me.quiz.id] } })).body;
    expect(after.byDate[0].premium).toEqual({ isAvailable: false, availableSlots: 0, userHasPurchased: false });
    expect(after.byDate[0].recommended).toEqual({ isAvailable: true, availableSlots: 2, userHasPurchased: false });
    expect(after.overall.premium.canProceed).toBe(false);

    // The rival sees its own purchase.
    const theirs = (await callJson('/api/promotion/availability', { cookie: rival.user.cookie, clock: NOW, body: { quizIds: [rival.quiz.id] } })).body;
    expect(theirs.byDate[0].premium.userHasPurchased).toBe(true);
  });

  it("refuses bad input, visitors, someone else's quiz and unknown quizzes", async () => {
    const me = await ownerWithQuiz();
    const other = await ownerWithQuiz();
    const empty = await callJson('/api/promotion/availability', { cookie: me.user.cookie, body: { quizIds: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('Inga quiz valda – Välj minst ett quiz att marknadsföra');
    expect((await callJson('/api/promotion/availability', { body: { quizIds: [me.quiz.id] } })).status).toBe(401);
    expect((await callJson('/api/promotion/availability', { cookie: me.user.cookie, body: { quizIds: [other.quiz.id] } })).status).toBe(403);
    expect((await callJson('/api/promotion/availability', { cookie: me.user.cookie, body: { quizIds: ['nope'] } })).status).toBe(404);
  });
});

describe('POST /api/promotion/marketing-checkout', () => {
  it('opens an order, holds the slot and answers the local checkout url', async () => {
    const me = await ownerWithQuiz();
    const { status, body } = await buy(me, 'premium');
    expect(status).toBe(201);
    expect(body.url).toBe(`/dev/checkout/${body.orderId}`);
    expect(body.sessionId).toBe(`cs_local_${body.orderId}`);
    expect(body.amountTotal).toBe(9800);
    const order = await orderRow(body.orderId);
    expect(order).toMatchObject({ status: 'open', userId: me.user.id, venueId: me.venue.id, amountTotal: 9800, stripeSessionId: body.sessionId });
    expect(order.expiresAt - new Date(NOW).getTime()).toBeGreaterThanOrEqual(30 * 60 * 1000);
    const claims = await claimsOf(body.orderId);
    expect(claims).toEqual([expect.objectContaining({ quizId: me.quiz.id, tier: 'premium', slotNo: 1, state: 'held', date: QUIZ_DATE })]);
  });

  it('charges each occurrence its tier and claims the smallest free slot numbers', async () => {
    const me = await ownerWithQuiz();
    const second = await createQuiz(me.location.id, { date: '2030-03-19' });
    const rival = await rivalQuiz(me.city);
    expect((await buy(rival, 'recommended')).status).toBe(201);
    const { status, body } = await callJson('/api/promotion/marketing-checkout', {
      cookie: me.user.cookie,
      clock: NOW,
      body: {
        venueId: me.venue.id,
        items: [
          { quizId: me.quiz.id, tier: 'recommended' },
          { quizId: second.id, tier: 'premium' },
        ],
      },
    });
    expect(status).toBe(201);
    expect(body.amountTotal).toBe(4900 + 9800);
    const claims = (await claimsOf(body.orderId)).sort((a, b) => a.date.localeCompare(b.date));
    expect(claims.map((c) => [c.date, c.tier, c.slotNo])).toEqual([
      [QUIZ_DATE, 'recommended', 2],
      ['2030-03-19', 'premium', 1],
    ]);
  });

  it('20 concurrent buyers of one Premium slot: exactly one gets it', async () => {
    const first = await ownerWithQuiz();
    const buyers = [first, ...(await Promise.all(Array.from({ length: 19 }, () => rivalQuiz(first.city))))];
    const results = await Promise.all(buyers.map((b) => buy(b, 'premium')));
    const ok = results.filter((r) => r.status === 201);
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 201)) {
      expect(r.status).toBe(409);
      expect(r.body.error.message).toBe('Premium slots inte tillgängliga');
    }
    const availability = (await callJson('/api/promotion/availability', { cookie: first.user.cookie, clock: NOW, body: { quizIds: [first.quiz.id] } })).body;
    expect(availability.byDate[0].premium.availableSlots).toBe(0);
  });

  it('4 Rekommenderat buyers for one city and day: the 4th fails and stores nothing', async () => {
    const first = await ownerWithQuiz();
    const buyers = [first, await rivalQuiz(first.city), await rivalQuiz(first.city)];
    for (const b of buyers) expect((await buy(b, 'recommended')).status).toBe(201);
    const fourth = await rivalQuiz(first.city);
    const before = await snapshot();
    const res = await buy(fourth, 'recommended');
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Rekommenderade slots inte tillgängliga');
    expect(await snapshot()).toEqual(before);
    // Another city the same day is unaffected.
    expect((await buy(await ownerWithQuiz(), 'recommended')).status).toBe(201);
  });

  it('a day that is full for one occurrence makes the whole order fail', async () => {
    const me = await ownerWithQuiz();
    const free = await createQuiz(me.location.id, { date: '2030-03-19' });
    expect((await buy(await rivalQuiz(me.city), 'premium')).status).toBe(201);
    const before = await snapshot();
    const res = await callJson('/api/promotion/marketing-checkout', {
      cookie: me.user.cookie,
      clock: NOW,
      body: {
        venueId: me.venue.id,
        items: [
          { quizId: free.id, tier: 'premium' },
          { quizId: me.quiz.id, tier: 'premium' },
        ],
      },
    });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Premium slots inte tillgängliga');
    expect(await snapshot()).toEqual(before);
  });

  it('an already promoted quiz cannot be bought again', async () => {
    const me = await ownerWithQuiz();
    expect((await buy(me, 'recommended')).status).toBe(201);
    const before = await snapshot();
    const again = await buy(me, 'premium');
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe('Quizet är redan marknadsfört');
    expect(await snapshot()).toEqual(before);
  });

  it('validates with the 02 §5 messages and stores nothing', async () => {
    const me = await ownerWithQuiz();
    // Not 'sessions': the later pinned clock below slides the session's expiry.
    const tables = ['promotions', 'promotion_slot_claims', 'checkout_orders'];
    const before = await snapshot(tables);
    const none = await callJson('/api/promotion/marketing-checkout', { cookie: me.user.cookie, body: { venueId: me.venue.id, items: [] } });
    expect(none.status).toBe(400);
    expect(none.body.error.message).toContain('Inga quiz valda – Välj minst ett quiz att marknadsföra');
    const noTier = await callJson('/api/promotion/marketing-checkout', {
      cookie: me.user.cookie,
      body: { venueId: me.venue.id, items: [{ quizId: me.quiz.id }] },
    });
    expect(noTier.status).toBe(400);
    expect(noTier.body.error.message).toContain('Välj marknadsföringstyp');
    const past = await callJson('/api/promotion/marketing-checkout', {
      cookie: me.user.cookie,
      clock: '2030-03-20T09:00:00Z',
      body: { venueId: me.venue.id, items: [{ quizId: me.quiz.id, tier: 'premium' }] },
    });
    expect(past.status).toBe(400);
    expect(past.body.error.message).toContain('Quizet har redan varit');
    const cancelled = await createQuiz(me.location.id, { date: QUIZ_DATE, isCancelled: true });
    const onCancelled = await callJson('/api/promotion/marketing-checkout', {
      cookie: me.user.cookie,
      clock: NOW,
      body: { venueId: me.venue.id, items: [{ quizId: cancelled.id, tier: 'premium' }] },
    });
    expect(onCancelled.status).toBe(400);
    expect(onCancelled.body.error.message).toBe('Quizet är inställt');
    const singleCancelled = await callJson('/api/promotion/checkout', {
      cookie: me.user.cookie,
      clock: NOW,
      body: { quizId: cancelled.id, tier: 'premium', weeks: 1 },
    });
    expect(singleCancelled.status).toBe(400);
    expect(await snapshot(tables)).toEqual(before);
  });

  it("refuses visitors, someone else's business or quiz, and unknown ids — nothing stored", async () => {
    const me = await ownerWithQuiz();
    const other = await ownerWithQuiz({ city: me.city });
    const before = await snapshot();
    const body = (venueId: string, quizId: string) => ({ venueId, items: [{ quizId, tier: 'premium' }] });
    expect((await callJson('/api/promotion/marketing-checkout', { body: body(me.venue.id, me.quiz.id) })).status).toBe(401);
    expect((await callJson('/api/promotion/marketing-checkout', { cookie: me.user.cookie, body: body(other.venue.id, other.quiz.id) })).status).toBe(403);
    expect((await callJson('/api/promotion/marketing-checkout', { cookie: me.user.cookie, clock: NOW, body: body(me.venue.id, other.quiz.id) })).status).toBe(
      403,
    );
    expect((await callJson('/api/promotion/marketing-checkout', { cookie: me.user.cookie, body: body('nope', me.quiz.id) })).status).toBe(404);
    expect((await callJson('/api/promotion/marketing-checkout', { cookie: me.user.cookie, clock: NOW, body: body(me.venue.id, 'nope') })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
  });

  it('a superadmin may buy for any business', async () => {
    const me = await ownerWithQuiz();
    const admin = await createUser({ roles: ['superadmin'], now: new Date(NOW) });
    const res = await buy({ ...me, user: admin }, 'recommended');
    expect(res.status).toBe(201);
    expect((await orderRow(res.body.orderId)).userId).toBe(admin.id);
  });
});

describe('POST /api/promotion/checkout (one quiz for 1, 2 or 4 weeks)', () => {
  it('covers the series occurrences inside the weeks at the week option price', async () => {
    const me = await ownerWithQuiz();
    const series = `series-${me.quiz.id}`;
    const dates = ['2030-03-12', '2030-03-19', '2030-03-26', '2030-04-02'];
    const occ = [];
    for (const date of dates) occ.push(await createQuiz(me.location.id, { date, recurrenceId: series, isRecurring: true, recurrencePattern: 'weekly' }));
    const { status, body } = await callJson('/api/promotion/checkout', {
      cookie: me.user.cookie,
      clock: NOW,
      body: { quizId: occ[0]!.id, tier: 'premium', weeks: 2 },
    });
    expect(status).toBe(201);
    expect(body.amountTotal).toBe(15700);
    const claims = await claimsOf(body.orderId);
    expect(claims.map((c) => c.date).sort()).toEqual(['2030-03-12', '2030-03-19']);
    const items = JSON.parse((await orderRow(body.orderId)).items);
    expect(items.reduce((s: number, i: any) => s + i.amount, 0)).toBe(15700);
    expect(items.every((i: any) => i.weeks === 2)).toBe(true);
  });

  it('a single quiz claims its own date; bad weeks, visitors and others are refused', async () => {
    const me = await ownerWithQuiz();
    const other = await ownerWithQuiz();
    const before = await snapshot();
    const bad = await callJson('/api/promotion/checkout', { cookie: me.user.cookie, body: { quizId: me.quiz.id, tier: 'premium', weeks: 3 } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Välj 1, 2 eller 4 veckor');
    expect((await callJson('/api/promotion/checkout', { body: { quizId: me.quiz.id, tier: 'premium', weeks: 1 } })).status).toBe(401);
    expect((await callJson('/api/promotion/checkout', { cookie: me.user.cookie, body: { quizId: other.quiz.id, tier: 'premium', weeks: 1 } })).status).toBe(
      403,
    );
    expect((await callJson('/api/promotion/checkout', { cookie: me.user.cookie, body: { quizId: 'nope', tier: 'premium', weeks: 1 } })).status).toBe(404);
    expect(await snapshot()).toEqual(before);
    const ok = await callJson('/api/promotion/checkout', { cookie: me.user.cookie, clock: NOW, body: { quizId: me.quiz.id, tier: 'recommended', weeks: 4 } });
    expect(ok.status).toBe(201);
    // 4 weeks at 2.4 × 49 kr = 118 kr, minus the volume discount (10 % from more than three weeks): 106,20 kr.
    expect(ok.body.amountTotal).toBe(10620);
    expect((await claimsOf(ok.body.orderId)).map((c) => [c.date, c.tier])).toEqual([[QUIZ_DATE, 'recommended']]);
  });
});

describe('checkout through the Stripe adapter (strict fake of the Stripe API, no network)', () => {
  function deps(fetchFn: typeof fetch, me: Awaited<ReturnType<typeof ownerWithQuiz>>) {
    const payments = createStripePayments({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', fetchFn });
    const actor = { id: me.user.id, email: me.user.email, roles: ['admin' as const] };
    const run = () =>
      createMarketingCheckout(testDeps({ now: NOW, config: { appUrl: 'https://quizkvall.se' }, ports: { payments: () => payments } }), actor, {
        venueId: me.venue.id,
        items: [{ quizId: me.quiz.id, tier: 'premium' }],
      });
    return run;
  }

  it('creates the session with our order id, an idempotency key, ≥ 30 min expiry and the return URLs', async () => {
    const me = await ownerWithQuiz();
    const seen: Array<{ url: string; headers: Headers; body: URLSearchParams }> = [];
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if ((init?.method ?? 'GET') !== 'POST' || new URL(url).pathname !== '/v1/checkout/sessions') throw new Error(`unexpected Stripe call ${url}`);
      seen.push({ url, headers: new Headers(init?.headers), body: new URLSearchParams(String(init?.body)) });
      return new Response(JSON.stringify({ id: 'cs_test_123', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_123' }), {
        status: 200,
        headers: { 'content-type': 'application/json', 'request-id': 'req_1' },
      });
    }) as typeof fetch;
    const result = await deps(fetchFn, me)();
    expect(result.url).toBe('https://checkout.stripe.com/c/pay/cs_test_123');
    expect(seen).toHaveLength(1);
    const { headers, body } = seen[0]!;
    expect(headers.get('idempotency-key')).toBe(`checkout-${result.orderId}`);
    expect(body.get('metadata[orderId]')).toBe(result.orderId);
    expect(body.get('client_reference_id')).toBe(result.orderId);
    expect(body.get('mode')).toBe('payment');
    expect(body.get('line_items[0][price_data][unit_amount]')).toBe('9800');
    expect(body.get('line_items[0][price_data][currency]')).toBe('sek');
    expect(body.has('payment_method_types[0]')).toBe(false); // automatic payment methods (card, Swish, wallets)
    expect(Number(body.get('expires_at')) - new Date(NOW).getTime() / 1000).toBeGreaterThanOrEqual(30 * 60);
    expect(body.get('success_url')).toBe(`https://quizkvall.se/admin?payment=success&session_id={CHECKOUT_SESSION_ID}&venueId=${me.venue.id}`);
    expect(body.get('cancel_url')).toBe(`https://quizkvall.se/admin?payment=cancelled&order_id=${result.orderId}&venueId=${me.venue.id}`);
    expect((await orderRow(result.orderId)).stripeSessionId).toBe('cs_test_123');
  });

  it('when Stripe refuses, the order fails, the holds are released at once and the owner gets a Swedish error', async () => {
    const me = await ownerWithQuiz();
    const fetchFn = (async () =>
      new Response(JSON.stringify({ error: { type: 'api_error', message: 'boom' } }), {
        status: 400,
        headers: { 'content-type': 'application/json' },
      })) as unknown as typeof fetch;
    const logged = expectConsoleError(/checkout session could not be created StripeInvalidRequestError: boom/);
    await expect(deps(fetchFn, me)()).rejects.toMatchObject({ status: 500, message: 'Kunde inte skapa betalning. Försök igen.' });
    logged.verify();
    const orders = await testDb().select().from(checkoutOrders).where(eq(checkoutOrders.userId, me.user.id));
    expect(orders.map((o) => o.status)).toEqual(['failed']);
    expect(await claimsOf(orders[0]!.id)).toEqual([]);
    // The slot is free for the next try.
    expect((await buy(me, 'premium')).status).toBe(201);
  });
});
