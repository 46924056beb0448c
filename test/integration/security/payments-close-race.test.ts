/**
 * Issue 42 item 5 (money): a paid signal racing the end of its order's hold. The webhook reads the order, then
 * applies one batch; whatever closes the hold (the expiry job, the buyer's cancel, the provider's expired or
 * failed event) may run in between, and the other way round. A D1 binding whose next batch first runs the other
 * side reproduces each order of the race. Whichever side wins: a paid order whose hold was closed has exactly
 * one refund row (all of it), and an order the payment found open is paid, delivered and never refunded.
 */
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/d1';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../../worker/db/client';
import * as schema from '../../../worker/db/schema';
import { paymentRefunds } from '../../../worker/db/schema';
import { cancelCheckout, handlePaymentEvent } from '../../../worker/features/payments/service';
import { releaseExpiredHolds } from '../../../worker/features/promotion/service';
import { createLocalPayments } from '../../../worker/ports/payments';
import { pinnedClock, testDb, unique } from '../../factories';
import { expectConsoleError } from '../../setup/console';
import { NOW, buy, claimsOf, orderRow, ownerWithQuiz, promotionsOf } from '../promotion-support';
import { INVARIANTS } from './invariants';

/** Past the 35-minute hold of an order opened at NOW. */
const LATER = new Date(Date.parse(NOW) + 40 * 60 * 1000).toISOString();
const payments = createLocalPayments({ webhookSecret: 'whsec_test' });

/** A Db whose first batch runs `between` just before it is sent: the other side of the race wins the gap. */
function dbRunningFirst(between: () => Promise<unknown>): Db {
  let ran = false;
  const d1 = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'batch') {
        return async (stmts: D1PreparedStatement[]) => {
          if (!ran) {
            ran = true;
            await between();
          }
          return target.batch(stmts);
        };
      }
      const v = Reflect.get(target, prop, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return drizzle(d1, { schema });
}

type Order = Awaited<ReturnType<typeof openOrder>>;

async function openOrder() {
  const o = await ownerWithQuiz();
  const { status, body } = await buy(o, 'premium');
  expect(status).toBe(201);
  return { ...o, orderId: body.orderId as string, sessionId: body.sessionId as string, amount: body.amountTotal as number };
}

function event(o: Order, type: string) {
  return {
    id: `evt_${unique('r')}`,
    type,
    session: {
      id: o.sessionId,
      orderId: o.orderId,
      paymentStatus: type === 'checkout.session.completed' ? 'paid' : 'unpaid',
      amountTotal: o.amount,
      paymentIntentId: null,
    },
  };
}

const paid = (db: Db, o: Order) => handlePaymentEvent({ db, clock: pinnedClock(NOW), payments }, event(o, 'checkout.session.completed'));

/** Everything that ends an open order's hold, each as a run against a given Db. */
const CLOSERS: Array<[string, (db: Db, o: Order) => Promise<unknown>]> = [
  ['the expiry job', (db) => releaseExpiredHolds({ db, clock: pinnedClock(LATER) })],
  [
    'the buyer cancels',
    (db, o) => cancelCheckout({ db, payments, clock: pinnedClock(NOW) }, { id: o.user.id, email: o.user.email, roles: ['admin'] }, { orderId: o.orderId }),
  ],
  ['the provider expires the session', (db, o) => handlePaymentEvent({ db, clock: pinnedClock(NOW), payments }, event(o, 'checkout.session.expired'))],
  ['the async payment fails', (db, o) => handlePaymentEvent({ db, clock: pinnedClock(NOW), payments }, event(o, 'checkout.session.async_payment_failed'))],
];

async function refundsOf(orderId: string) {
  return testDb().select().from(paymentRefunds).where(eq(paymentRefunds.orderId, orderId));
}

async function invariantsHold() {
  const db = testDb();
  const broken: string[] = [];
  for (const inv of INVARIANTS) {
    const rows = await db.all(sql.raw(inv.sql));
    if (rows.length) broken.push(`${inv.name}: ${JSON.stringify(rows.slice(0, 2))}`);
  }
  expect(broken).toEqual([]);
}

describe('a paid signal racing the end of the hold', () => {
  for (const [closer, close] of CLOSERS) {
    it(`${closer} between the webhook's read and its batch: the order stays closed and all of the money is refunded once`, async () => {
      expectConsoleError(/could not be delivered \(order_closed\)/);
      const o = await openOrder();
      await paid(
        dbRunningFirst(() => close(testDb(), o)),
        o,
      );
      expect((await orderRow(o.orderId)).status).toMatch(/^(expired|failed)$/);
      expect(await promotionsOf(o.orderId)).toHaveLength(0);
      expect(await claimsOf(o.orderId)).toHaveLength(0);
      const refunds = await refundsOf(o.orderId);
      expect(refunds).toHaveLength(1);
      expect(refunds[0]).toMatchObject({ amount: o.amount, reason: 'order_closed', status: 'refunded' });
      // A redelivered paid signal changes nothing.
      await paid(testDb(), o);
      expect(await refundsOf(o.orderId)).toHaveLength(1);
      await invariantsHold();
    });

    it(`the webhook between ${closer}'s read and its batch: the order is paid and delivered, with no refund row`, async () => {
      const o = await openOrder();
      await close(
        dbRunningFirst(() => paid(testDb(), o)),
        o,
      );
      expect((await orderRow(o.orderId)).status).toBe('paid');
      expect(await promotionsOf(o.orderId)).toHaveLength(1);
      expect((await claimsOf(o.orderId)).map((c) => c.state)).toEqual(['sold']);
      expect(await refundsOf(o.orderId)).toHaveLength(0);
      await invariantsHold();
    });
  }

  it('no race: a paid open order gets its promotion and no refund row', async () => {
    const o = await openOrder();
    expect(await paid(testDb(), o)).toBe('applied');
    expect((await orderRow(o.orderId)).status).toBe('paid');
    expect(await promotionsOf(o.orderId)).toHaveLength(1);
    expect(await refundsOf(o.orderId)).toHaveLength(0);
  });
});
