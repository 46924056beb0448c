/**
 * Volume discount (spec 02 §9, issue 13.13): an order that buys more than three weeks gets 10 % off,
 * in the order's amounts (öre), the promotions' amounts, the Stripe Checkout (its own discount line)
 * and the local checkout page.
 */
import { describe, expect, it } from 'vitest';
import { createMarketingCheckout } from '../../worker/features/promotion/service';
import type { OrderItem } from '../../worker/features/promotion/contract';
import { createStripePayments } from '../../worker/ports/payments';
import { call, callJson, createQuiz, testDeps } from '../factories';
import { NOW, QUIZ_DATE, orderRow, ownerWithQuiz, promotionsOf, sendEvent } from './promotion-support';
import { addDays } from '../../worker/lib/clock';

/** An owner with quizzes on the given offsets (days) from QUIZ_DATE (a Tuesday). */
async function ownerWithDates(offsets: number[]) {
  const o = await ownerWithQuiz();
  const ids = [o.quiz.id];
  for (const d of offsets.slice(1)) ids.push((await createQuiz(o.location.id, { date: addDays(QUIZ_DATE, d) })).id);
  return { ...o, ids };
}

function marketing(o: Awaited<ReturnType<typeof ownerWithDates>>, tier: 'recommended' | 'premium' = 'recommended') {
  return callJson('/api/promotion/marketing-checkout', {
    cookie: o.user.cookie,
    clock: NOW,
    body: { venueId: o.venue.id, items: o.ids.map((quizId) => ({ quizId, tier })) },
  });
}

describe('volume discount', () => {
  it('four dates in four ISO weeks: 4 × 49 kr = 19 600 öre − 1 960 = 17 640 öre, items and promotions add up to it', async () => {
    const o = await ownerWithDates([0, 7, 14, 21]);
    const { status, body } = await marketing(o);
    expect(status).toBe(201);
    expect(body).toMatchObject({ amountTotal: 17640, subtotal: 19600, discount: 1960 });
    const order = await orderRow(body.orderId);
    expect(order.amountTotal).toBe(17640);
    const items = JSON.parse(order.items) as OrderItem[];
    expect(items.map((i) => i.amount)).toEqual([4410, 4410, 4410, 4410]);
    expect(items.map((i) => i.listAmount)).toEqual([4900, 4900, 4900, 4900]);
    await sendEvent('checkout.session.completed', { id: body.orderId, sessionId: body.sessionId });
    const promos = await promotionsOf(body.orderId);
    expect(promos.reduce((s, p) => s + p.amountPaid, 0)).toBe(17640);
  });

  it('four dates in only three ISO weeks: no discount', async () => {
    const o = await ownerWithDates([0, 2, 7, 14]);
    const { body } = await marketing(o);
    expect(body).toMatchObject({ amountTotal: 19600, subtotal: 19600, discount: 0 });
  });

  it('one quiz for 4 weeks is more than three weeks: Premium 235 kr − 23,50 kr = 21 150 öre; 2 weeks: no discount', async () => {
    const four = await ownerWithQuiz();
    const a = await callJson('/api/promotion/checkout', { cookie: four.user.cookie, clock: NOW, body: { quizId: four.quiz.id, tier: 'premium', weeks: 4 } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ amountTotal: 21150, subtotal: 23500, discount: 2350 });
    const two = await ownerWithQuiz();
    const b = await callJson('/api/promotion/checkout', { cookie: two.user.cookie, clock: NOW, body: { quizId: two.quiz.id, tier: 'premium', weeks: 2 } });
    expect(b.body).toMatchObject({ amountTotal: 15700, subtotal: 15700, discount: 0 });
  });

  it('the local checkout page shows the discount as its own line and the discounted total', async () => {
    const o = await ownerWithDates([0, 7, 14, 21]);
    const { body } = await marketing(o);
    const page = await (await call(`/dev/checkout/${body.orderId}`)).text();
    expect(page).toContain('Mängdrabatt 10 %');
    expect(page).toContain('−19,60 kr');
    expect(page).toContain('Totalt: 176,40 kr');
  });

  it('Stripe Checkout gets the list prices and a one-off coupon for the discount (its own line), no network', async () => {
    const o = await ownerWithDates([0, 7, 14, 21]);
    const seen: Array<{ path: string; headers: Headers; body: URLSearchParams }> = [];
    const fetchFn = (async (input: RequestInfo | URL, init?: RequestInit) => {
      const url = new URL(String(input instanceof Request ? input.url : input));
      if ((init?.method ?? 'GET') !== 'POST') throw new Error(`unexpected Stripe call ${url}`);
      seen.push({ path: url.pathname, headers: new Headers(init?.headers), body: new URLSearchParams(String(init?.body)) });
      const reply =
        url.pathname === '/v1/coupons'
          ? { id: 'coupon_1', object: 'coupon' }
          : url.pathname === '/v1/checkout/sessions'
            ? { id: 'cs_test_vol', object: 'checkout.session', url: 'https://checkout.stripe.com/c/pay/cs_test_vol' }
            : null;
      if (!reply) throw new Error(`unexpected Stripe call ${url}`);
      return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json', 'request-id': 'req_1' } });
    }) as typeof fetch;
    const payments = createStripePayments({ secretKey: 'sk_test_x', webhookSecret: 'whsec_x', fetchFn });
    const result = await createMarketingCheckout(
      testDeps({ now: NOW, config: { appUrl: 'https://quizkvall.se' }, ports: { payments: () => payments } }),
      { id: o.user.id, email: o.user.email, roles: ['admin'] },
      { venueId: o.venue.id, items: o.ids.map((quizId) => ({ quizId, tier: 'recommended' as const })) },
    );
    expect(result.amountTotal).toBe(17640);
    expect(seen.map((s) => s.path)).toEqual(['/v1/coupons', '/v1/checkout/sessions']);
    const coupon = seen[0]!;
    expect(coupon.body.get('amount_off')).toBe('1960');
    expect(coupon.body.get('currency')).toBe('sek');
    expect(coupon.body.get('duration')).toBe('once');
    expect(coupon.body.get('max_redemptions')).toBe('1');
    expect(coupon.body.get('name')).toBe('Mängdrabatt 10 %');
    expect(coupon.headers.get('idempotency-key')).toBe(`checkout-${result.orderId}-discount`);
    const session = seen[1]!.body;
    expect(session.get('discounts[0][coupon]')).toBe('coupon_1');
    expect([0, 1, 2, 3].map((i) => session.get(`line_items[${i}][price_data][unit_amount]`))).toEqual(['4900', '4900', '4900', '4900']);
  });
});
