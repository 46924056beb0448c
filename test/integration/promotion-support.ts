/** Helpers shared by the promotion and payments integration tests (not a test file itself). */
import { eq } from 'drizzle-orm';
import { checkoutOrders, promotionSlotClaims, promotions } from '../../worker/db/schema';
import { DEV_WEBHOOK_SECRET } from '../../worker/env';
import { signEvent } from '../../worker/ports/payments';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown } from '../factories';

/** Pinned "now" for these tests: a Sunday morning in Stockholm, well before the quiz dates used. */
export const NOW = '2030-03-03T09:00:00Z';
export const QUIZ_DATE = '2030-03-12';

/** An owner with a business, a place in a city of its own (so tests never share slots) and one quiz. */
export async function ownerWithQuiz(opts: { city?: string; date?: string } = {}) {
  // The session is made at the pinned "now", or it would look expired to pinned requests.
  const user = await createUser({ now: new Date(NOW) });
  const venue = await createVenue(user.id);
  const city = opts.city ?? uniqueTown();
  const location = await createLocation(venue.id, { city });
  const quiz = await createQuiz(location.id, { date: opts.date ?? QUIZ_DATE });
  return { user, venue, location, quiz, city };
}

/** Another owner's quiz in the same city and date. */
export async function rivalQuiz(city: string, date = QUIZ_DATE) {
  return ownerWithQuiz({ city, date });
}

export async function buy(who: { user: { cookie: string }; venue: { id: string }; quiz: { id: string } }, tier: 'premium' | 'recommended', clock = NOW) {
  return callJson('/api/promotion/marketing-checkout', {
    cookie: who.user.cookie,
    clock,
    body: { venueId: who.venue.id, items: [{ quizId: who.quiz.id, tier }] },
  });
}

export async function orderRow(orderId: string) {
  const [row] = await testDb().select().from(checkoutOrders).where(eq(checkoutOrders.id, orderId));
  return row!;
}
export async function claimsOf(orderId: string) {
  return testDb().select().from(promotionSlotClaims).where(eq(promotionSlotClaims.orderId, orderId));
}
export async function promotionsOf(orderId: string) {
  return testDb().select().from(promotions).where(eq(promotions.orderId, orderId));
}

/** A Stripe-shaped checkout.session event, signed like Stripe signs it, posted to the webhook. */
export async function sendEvent(
  type: string,
  order: { id: string; sessionId: string },
  opts: { eventId?: string; paymentStatus?: string; secret?: string; signature?: string; clock?: string } = {},
) {
  const payload = JSON.stringify({
    id: opts.eventId ?? `evt_test_${unique('e')}`,
    object: 'event',
    type,
    data: {
      object: {
        id: order.sessionId,
        object: 'checkout.session',
        client_reference_id: order.id,
        metadata: { orderId: order.id },
        payment_status: opts.paymentStatus ?? (type === 'checkout.session.expired' ? 'unpaid' : 'paid'),
        amount_total: 9800,
      },
    },
  });
  const signature = opts.signature ?? (await signEvent(payload, opts.secret ?? DEV_WEBHOOK_SECRET));
  // Stripe's servers send no Origin header: the webhook is exempt from the CSRF guard.
  return call('/api/payments/webhook', {
    noOrigin: true,
    clock: opts.clock ?? NOW,
    body: payload,
    headers: { 'stripe-signature': signature, 'content-type': 'application/json' },
  });
}

export { createUser };
