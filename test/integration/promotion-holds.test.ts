/**
 * Issue 26.3 "One free account can hold a city's Premium slots for months": what one account and one
 * business may hold unpaid is bounded (HOLD_LIMITS: open checkouts, held slot-days), checkout creation
 * is rate-limited per account, and a city-day released unpaid cannot be taken back by the same buyer
 * during the cool-down. Also issue 26.8: cancelling a local checkout releases its hold at once.
 */
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../worker/db/client';
import * as schema from '../../worker/db/schema';
import { checkoutOrders, promotionSlotClaims, quizzes } from '../../worker/db/schema';
import { parseConfig } from '../../worker/env';
import { createMarketingCheckout } from '../../worker/features/promotion/service';
import { createLocalPayments } from '../../worker/ports/payments';
import { CITY_HOLD_LIMITS, CITY_HOLD_MESSAGES, HOLD_LIMITS, HOLD_LIMIT_MESSAGES } from '../../worker/features/promotion/contract';
import { addDays } from '../../worker/lib/clock';
import { newId } from '../../worker/lib/ids';
import { callJson, createLocation, createUser, createVenue, pinnedClock, testDb, unique, uniqueTown } from '../factories';
import { claimsOf, orderRow } from './promotion-support';

/** The reproduction's dates: 153 days from 2026-12-28 to 2027-05-29, asked for a week before. */
const NOW = '2026-12-20T09:00:00Z';
const FIRST = '2026-12-28';
const DAYS = 153;

async function ownerIn(city: string) {
  const user = await createUser({ now: new Date(NOW) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city });
  return { user, venue, location };
}

/** A daily series of `n` quizzes from `first` at the owner's place (inserted directly, five rows a statement). */
async function dailySeries(locationId: string, first: string, n: number) {
  const recurrenceId = newId();
  const rows = Array.from({ length: n }, (_, i) => ({
    id: newId(),
    locationId,
    date: addDays(first, i),
    startTime: '19:00:00',
    category: 'allmänbildning',
    isRecurring: true,
    recurrenceId,
    recurrencePattern: 'weekly' as const,
  }));
  for (let i = 0; i < rows.length; i += 5)
    await testDb()
      .insert(quizzes)
      .values(rows.slice(i, i + 5));
  return rows;
}

function checkout(who: { user: { cookie: string }; venue: { id: string } }, quizIds: string[], clock = NOW, tier: 'premium' | 'recommended' = 'premium') {
  return callJson('/api/promotion/marketing-checkout', {
    cookie: who.user.cookie,
    clock,
    body: { venueId: who.venue.id, items: quizIds.map((quizId) => ({ quizId, tier })) },
  });
}

async function heldBy(userId: string) {
  const [row] = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM promotion_slot_claims c JOIN checkout_orders o ON o.id = c.order_id
    WHERE o.user_id = ${userId} AND o.status = 'open' AND c.state = 'held'`);
  return row!.n;
}

describe('what one buyer may hold unpaid', () => {
  it('the reproduction: seven checkouts at once from a new account for 153 Premium days hold at most the bound, and other owners can still buy', async () => {
    const city = uniqueTown();
    const attacker = await ownerIn(city);
    const series = await dailySeries(attacker.location.id, FIRST, DAYS);
    expect(series.at(-1)!.date).toBe('2027-05-29');
    const slices = Array.from({ length: 7 }, (_, i) => series.slice(i * 22, i * 22 + 22).map((q) => q.id));
    const results = await Promise.all(slices.map((ids) => checkout(attacker, ids)));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 201).length).toBeLessThanOrEqual(HOLD_LIMITS.openCheckouts);
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    // The refused ones are told the rule.
    const refused = results.filter((x) => x.status !== 201);
    expect(refused.length).toBeGreaterThanOrEqual(7 - HOLD_LIMITS.openCheckouts);
    for (const r of refused) {
      expect([409, 429]).toContain(r.status);
      if (r.status === 409) {
        expect(r.body.error.details.reason).toBe('hold_limit');
        expect(r.body.error.message).toMatch(
          /^(Du har redan 2 påbörjade betalningar|Högst 60 obetalda marknadsföringsdagar|Många Premium-dagar i |Just nu kan inga fler Premium-dagar i )/,
        );
      }
    }
    const held = await heldBy(attacker.user.id);
    expect(held).toBeLessThanOrEqual(HOLD_LIMITS.heldDays);

    // Another owner in the same city buys Premium on a day the attacker asked for: not sold out.
    const rival = await ownerIn(city);
    const heldDates = new Set(
      (
        await testDb().select({ date: promotionSlotClaims.date }).from(promotionSlotClaims).where(eq(promotionSlotClaims.citySlug, attacker.location.citySlug))
      ).map((c) => c.date),
    );
    const freeDate = series.map((q) => q.date).find((d) => !heldDates.has(d))!;
    expect(freeDate).toBeDefined();
    const [rivalQuiz] = await dailySeries(rival.location.id, freeDate, 1);
    const bought = await checkout(rival, [rivalQuiz!.id]);
    expect(bought.status).toBe(201);
    expect(heldDates.size).toBeLessThan(DAYS);
  });

  it('a third open checkout is refused with the rule; one over the held-day bound too; the order insert itself re-checks', async () => {
    const city = uniqueTown();
    const o = await ownerIn(city);
    const series = await dailySeries(o.location.id, FIRST, HOLD_LIMITS.heldDays + 10);
    const ids = series.map((q) => q.id);
    expect((await checkout(o, ids.slice(0, 1))).status).toBe(201);
    const tooMany = await checkout(o, ids.slice(1, HOLD_LIMITS.heldDays + 1));
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.error.message).toBe(HOLD_LIMIT_MESSAGES.heldDays(1));
    expect(tooMany.body.error.details).toEqual({ reason: 'hold_limit', limit: 'held_days' });
    expect((await checkout(o, ids.slice(1, 2))).status).toBe(201);
    const third = await checkout(o, ids.slice(2, 3));
    expect(third.status).toBe(409);
    expect(third.body.error.message).toBe(HOLD_LIMIT_MESSAGES.openCheckouts);
    expect(await heldBy(o.user.id)).toBe(2);
    // Nothing of the refused orders was stored.
    const orders = await testDb().select().from(checkoutOrders).where(eq(checkoutOrders.userId, o.user.id));
    expect(orders).toHaveLength(2);
  });

  it('a released hold cannot be taken back by the same business straight away; others can; after the cool-down it can', async () => {
    const city = uniqueTown();
    const o = await ownerIn(city);
    const [q1, q2] = await dailySeries(o.location.id, FIRST, 2);
    const first = await checkout(o, [q1!.id]);
    expect(first.status).toBe(201);
    const cancel = await callJson('/api/payments/cancel', { cookie: o.user.cookie, clock: NOW, body: { orderId: first.body.orderId } });
    expect(cancel.status).toBe(200);
    const again = await checkout(o, [q1!.id, q2!.id]);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(HOLD_LIMIT_MESSAGES.cooldown(HOLD_LIMITS.cooldownMinutes));
    expect(again.body.error.details.reason).toBe('hold_cooldown');
    // Another business's quiz on that city-day: free to buy.
    const rival = await ownerIn(city);
    const [r1] = await dailySeries(rival.location.id, FIRST, 1);
    expect((await checkout(rival, [r1!.id], NOW, 'recommended')).status).toBe(201);
    // The same buyer, other dates: fine. The released day after the cool-down: fine.
    expect((await checkout(o, [q2!.id])).status).toBe(201);
    const later = new Date(Date.parse(NOW) + (HOLD_LIMITS.cooldownMinutes + 1) * 60_000).toISOString();
    expect((await checkout(o, [q1!.id], later, 'recommended')).status).toBe(201);
  });

  it(`checkout creation is rate-limited per account: ${HOLD_LIMITS.checkoutsPerHour} an hour, then 429 with the rule`, async () => {
    const o = await ownerIn(`Ratestad ${unique('h')}`);
    const series = await dailySeries(o.location.id, FIRST, HOLD_LIMITS.checkoutsPerHour + 1);
    for (const q of series.slice(0, HOLD_LIMITS.checkoutsPerHour)) {
      const r = await checkout(o, [q.id]);
      expect([201, 409]).toContain(r.status);
      if (r.status === 201) await callJson('/api/payments/cancel', { cookie: o.user.cookie, clock: NOW, body: { orderId: r.body.orderId } });
    }
    const over = await checkout(o, [series.at(-1)!.id]);
    expect(over.status).toBe(429);
    expect(over.body.error.message).toBe(HOLD_LIMIT_MESSAGES.rate(60));
  });
});

/** Unpaid Premium days held in a city per account (open orders whose hold has not ended at `at`). */
async function cityHeld(citySlug: string, at = NOW) {
  const rows = await testDb().all<{ user_id: string; n: number }>(sql`SELECT o.user_id, COUNT(*) AS n FROM promotion_slot_claims c
    JOIN checkout_orders o ON o.id = c.order_id
    WHERE c.city_slug = ${citySlug} AND c.tier = 'premium' AND c.state = 'held' AND o.status = 'open' AND o.expires_at >= ${Date.parse(at)}
    GROUP BY o.user_id`);
  const total = rows.reduce((s, r) => s + r.n, 0);
  // What the accounts holding more than a small order's days hold together.
  const bulk = rows.filter((r) => r.n > CITY_HOLD_LIMITS.smallDays).reduce((s, r) => s + r.n, 0);
  return { total, bulk, accounts: rows.length };
}

/** The documented bound for `k` accounts in one city: hoarders together ≤ bulk, every other account ≤ a small order. */
const boundFor = (k: number) => Math.min(CITY_HOLD_LIMITS.premiumDays, CITY_HOLD_LIMITS.bulkPremiumDays + (k - 1) * CITY_HOLD_LIMITS.smallDays);

describe('unpaid Premium holds in one city, all accounts together (issue 43.3)', () => {
  const { bulkPremiumDays: BULK, smallDays: SMALL } = CITY_HOLD_LIMITS;

  it('four throwaway accounts hoard consecutive Premium days: hoarders together hold at most the bulk bound, each other account a small order; a fifth owner buys a free day', async () => {
    const city = uniqueTown();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => ownerIn(city)));
    const citySlug = accounts[0]!.location.citySlug;
    // Each account has its own daily quizzes over the same 120 days; account i asks for its own quarter.
    const series = await Promise.all(accounts.map((a) => dailySeries(a.location.id, FIRST, 120)));
    const first = await checkout(
      accounts[0]!,
      series[0]!.slice(0, BULK).map((q) => q.id),
    );
    expect(first.status).toBe(201);
    // The next hoarder is refused as a whole and told how much would still fit, and when to try again.
    const second = await checkout(
      accounts[1]!,
      series[1]!.slice(BULK, 2 * BULK).map((q) => q.id),
    );
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe(CITY_HOLD_MESSAGES.fewer(city, SMALL, 35));
    expect(second.body.error.details).toEqual({ reason: 'hold_limit', limit: 'city_premium_days', citySlug, retryAfterMinutes: 35 });
    // Just past the bound, as one more day of the first hoarder: nothing fits, try again when the first hold ends.
    const oneMore = await checkout(accounts[0]!, [series[0]![BULK]!.id]);
    expect(oneMore.status).toBe(409);
    expect(oneMore.body.error.message).toBe(CITY_HOLD_MESSAGES.full(city, 35));
    // The other three take a small order each (a month of a weekly quiz) and nothing more.
    for (const [i, a] of accounts.entries()) {
      if (i === 0) continue;
      const dates = series[i]!.slice(BULK + i * SMALL, BULK + (i + 1) * SMALL);
      expect(
        (
          await checkout(
            a,
            dates.map((q) => q.id),
          )
        ).status,
      ).toBe(201);
      const more = await checkout(a, [series[i]![100 + i]!.id]);
      expect(more.status).toBe(409);
      expect(more.body.error.details.limit).toBe('city_premium_days');
    }
    const held = await cityHeld(citySlug);
    expect(held.bulk).toBeLessThanOrEqual(BULK);
    expect(held.total).toBe(boundFor(4));
    // A fifth, ordinary owner buys a day nobody holds.
    const fifth = await ownerIn(city);
    const [day] = await dailySeries(fifth.location.id, addDays(FIRST, 110), 1);
    expect((await checkout(fifth, [day!.id])).status).toBe(201);
    expect((await cityHeld(citySlug)).total).toBe(boundFor(4) + 1);
  });

  it('in parallel: four accounts, two checkouts each at once, never hold more than the bound; the order insert itself re-checks', async () => {
    const city = uniqueTown();
    const accounts = await Promise.all(Array.from({ length: 4 }, () => ownerIn(city)));
    const citySlug = accounts[0]!.location.citySlug;
    const series = await Promise.all(accounts.map((a) => dailySeries(a.location.id, FIRST, 160)));
    // Account i asks for 40 consecutive days of its own and, at the same time, a small order elsewhere.
    const asks = accounts.flatMap((a, i) => [
      checkout(
        a,
        series[i]!.slice(i * 30, i * 30 + 30).map((q) => q.id),
      ),
      checkout(
        a,
        series[i]!.slice(120 + i * SMALL, 120 + (i + 1) * SMALL).map((q) => q.id),
      ),
    ]);
    const results = await Promise.all(asks);
    // Every answer is a stored order or the city's hold limit (a refused one names it).
    expect(results.map((r) => (r.status === 201 ? 'stored' : `${r.status} ${r.body.error?.details?.reason}`))).toEqual(
      results.map((r) => (r.status === 201 ? 'stored' : '409 hold_limit')),
    );
    expect(results.some((r) => r.status === 201)).toBe(true);
    const held = await cityHeld(citySlug);
    expect(held.bulk).toBeLessThanOrEqual(BULK);
    expect(held.total).toBeLessThanOrEqual(boundFor(4));
    // Every stored order has all its claims (no half-held order).
    const orders = await testDb().all<{ id: string; items: string; n: number }>(sql`SELECT o.id, o.items,
      (SELECT COUNT(*) FROM promotion_slot_claims c WHERE c.order_id = o.id) AS n FROM checkout_orders o
      WHERE o.user_id IN (${sql.join(
        accounts.map((a) => sql`${a.user.id}`),
        sql`, `,
      )})`);
    for (const o of orders) expect(o.n).toBe(JSON.parse(o.items).length);
  });

  it('the order insert re-checks: a rival who fills the city between the check and the batch makes the batch store nothing', async () => {
    const city = uniqueTown();
    const [a, b] = await Promise.all([ownerIn(city), ownerIn(city)]);
    const [qa, qb] = await Promise.all([dailySeries(a.location.id, FIRST, BULK), dailySeries(b.location.id, addDays(FIRST, BULK), BULK)]);
    const deps = (db: Db) => ({ db, clock: pinnedClock(NOW), config: parseConfig(env), payments: createLocalPayments({ webhookSecret: 'whsec_test' }) });
    const order = (o: typeof a, ids: string[], db: Db) =>
      createMarketingCheckout(
        deps(db),
        { id: o.user.id, email: o.user.email, roles: ['admin'] },
        { venueId: o.venue.id, items: ids.map((quizId) => ({ quizId, tier: 'premium' as const })) },
      );
    // b's checkout runs in the gap after a's checks, just before a's batch.
    let rival: Promise<unknown> | null = null;
    const d1 = new Proxy(env.DB, {
      get(target, prop) {
        if (prop === 'batch')
          return async (stmts: D1PreparedStatement[]) => {
            if (!rival) {
              rival = order(
                b,
                qb.map((q) => q.id),
                testDb(),
              );
              await rival;
            }
            return target.batch(stmts);
          };
        const v = Reflect.get(target, prop, target);
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const refused = await order(
      a,
      qa.map((q) => q.id),
      drizzle(d1, { schema }),
    ).catch((e: unknown) => e);
    expect(rival).not.toBeNull();
    expect(refused).toMatchObject({ status: 409, code: 'conflict', details: { reason: 'hold_limit', limit: 'city_premium_days' } });
    const held = await cityHeld(a.location.citySlug);
    expect(held).toEqual({ total: BULK, bulk: BULK, accounts: 1 });
    expect(await testDb().select().from(checkoutOrders).where(eq(checkoutOrders.userId, a.user.id))).toHaveLength(0);
  });

  it('holds past their expiry do not count: after the first hoard lapses another account may hold as much', async () => {
    const city = uniqueTown();
    const [a, b] = await Promise.all([ownerIn(city), ownerIn(city)]);
    const [qa, qb] = await Promise.all([dailySeries(a.location.id, FIRST, BULK), dailySeries(b.location.id, addDays(FIRST, BULK), BULK)]);
    expect(
      (
        await checkout(
          a,
          qa.map((q) => q.id),
        )
      ).status,
    ).toBe(201);
    const ids = qb.map((q) => q.id);
    expect((await checkout(b, ids)).status).toBe(409);
    // One millisecond before the hold ends it still counts; just after, it does not (lapsed, released by the checkout).
    const lastHeld = new Date(Date.parse(NOW) + 35 * 60_000 - 1).toISOString();
    expect((await checkout(b, ids, lastHeld)).status).toBe(409);
    const after = new Date(Date.parse(NOW) + 35 * 60_000 + 1).toISOString();
    expect((await checkout(b, ids, after)).status).toBe(201);
    expect((await cityHeld(a.location.citySlug, after)).total).toBe(BULK);
  });

  it('other cities and Rekommenderat are not counted', async () => {
    const city = uniqueTown();
    const a = await ownerIn(city);
    const other = await ownerIn(`Annanstad ${unique('c')}`);
    const [qa, qo] = await Promise.all([dailySeries(a.location.id, FIRST, BULK), dailySeries(other.location.id, FIRST, BULK)]);
    expect(
      (
        await checkout(
          a,
          qa.map((q) => q.id),
        )
      ).status,
    ).toBe(201);
    expect(
      (
        await checkout(
          other,
          qo.map((q) => q.id),
        )
      ).status,
    ).toBe(201);
    const b = await ownerIn(city);
    const qb = await dailySeries(b.location.id, addDays(FIRST, BULK), BULK);
    expect(
      (
        await checkout(
          b,
          qb.map((q) => q.id),
          NOW,
          'recommended',
        )
      ).status,
    ).toBe(201);
  });
});

describe('cancelling a checkout (issue 26.8)', () => {
  it('the local checkout: POST /api/payments/cancel releases the hold at once; a rival can buy the slot', async () => {
    const city = uniqueTown();
    const o = await ownerIn(city);
    const [q] = await dailySeries(o.location.id, FIRST, 1);
    const { status, body } = await checkout(o, [q!.id]);
    expect(status).toBe(201);
    expect(await claimsOf(body.orderId)).toHaveLength(1);
    const res = await callJson('/api/payments/cancel', { cookie: o.user.cookie, clock: NOW, body: { orderId: body.orderId } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'expired' });
    expect(await claimsOf(body.orderId)).toHaveLength(0);
    expect((await orderRow(body.orderId)).status).toBe('expired');
    const rival = await ownerIn(city);
    const [r] = await dailySeries(rival.location.id, FIRST, 1);
    expect((await checkout(rival, [r!.id])).status).toBe(201);
    // Someone else's order cannot be cancelled.
    const foreign = await callJson('/api/payments/cancel', { cookie: rival.user.cookie, clock: NOW, body: { orderId: body.orderId } });
    expect(foreign.status).toBe(403);
  });
});
