/**
 * Issue 13.2 "Paid, nothing delivered": a quiz, series, place, business or account with an open
 * checkout (or a paid promotion that has not run yet) cannot be deleted by any path — 409 with a
 * Swedish message and nothing deleted; the database trigger refuses even a raw DELETE. Once the hold
 * is released (expiry, cancel) the deletion goes through.
 */
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkoutOrders, type locations, quizzes, users, type venues } from '../../../worker/db/schema';
import { addDays } from '../../../worker/lib/clock';
import { isOpenCheckoutAbort } from '../../../worker/lib/open-checkout';
import { callJson, createLocation, createQuiz, createUser, snapshot, testDb, unique } from '../../factories';
import { NOW, QUIZ_DATE, buy, claimsOf, orderRow, ownerWithQuiz, sendEvent } from '../promotion-support';

const LATER = new Date(Date.parse(NOW) + 40 * 60 * 1000).toISOString(); // past the 35-minute hold

async function withOpenCheckout(opts: { series?: boolean } = {}) {
  const o = await ownerWithQuiz();
  let quiz = o.quiz;
  if (opts.series) {
    const recurrenceId = unique('r');
    await testDb().update(quizzes).set({ isRecurring: true, recurrenceId, recurrencePattern: 'weekly' }).where(eq(quizzes.id, o.quiz.id));
    await createQuiz(o.location.id, { date: addDays(QUIZ_DATE, 7), isRecurring: true, recurrenceId, recurrencePattern: 'weekly' });
    quiz = { ...o.quiz, recurrenceId };
  }
  const { status, body } = await buy({ ...o, quiz }, 'recommended');
  expect(status).toBe(201);
  return { ...o, quiz, orderId: body.orderId as string, sessionId: body.sessionId as string };
}

async function exists(table: typeof quizzes | typeof locations | typeof venues | typeof users, id: string) {
  const rows = await testDb().select({ id: table.id }).from(table).where(eq(table.id, id));
  return rows.length === 1;
}

describe('deleting while a checkout is open', () => {
  it('quiz: 409 with the Swedish message, nothing deleted; after the hold expires it can be deleted', async () => {
    const o = await withOpenCheckout();
    const before = await snapshot();
    const res = await callJson(`/api/owner/quizzes/${o.quiz.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: NOW });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toBe('Det finns en pågående betalning för det här quizet. Vänta tills den är klar eller avbruten innan du tar bort det.');
    expect(res.body.error.details.reason).toBe('open_checkout');
    expect(await snapshot()).toEqual(before);
    expect(await claimsOf(o.orderId)).toHaveLength(1);

    const later = await callJson(`/api/owner/quizzes/${o.quiz.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: LATER });
    expect(later.status).toBe(200);
    expect(await exists(quizzes, o.quiz.id)).toBe(false);
    expect((await orderRow(o.orderId)).status).toBe('expired');
  });

  it('series: 409, no date deleted; also converting the series to a single quiz (which deletes the other dates)', async () => {
    const o = await withOpenCheckout({ series: true });
    const before = await snapshot();
    const res = await callJson(`/api/owner/series/${o.quiz.recurrenceId}`, { method: 'DELETE', cookie: o.user.cookie, clock: NOW });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('pågående betalning för den här serien');
    expect(await snapshot()).toEqual(before);
    // The paid-for date is the first one; un-recurring from the second date would delete the first.
    const [second] = await testDb().select().from(quizzes).where(sql`${quizzes.recurrenceId} = ${o.quiz.recurrenceId} AND ${quizzes.id} <> ${o.quiz.id}`);
    const edit = await callJson(`/api/owner/quizzes/${second!.id}`, {
      method: 'PATCH',
      cookie: o.user.cookie,
      clock: NOW,
      body: { date: second!.date, startTime: '19:00', category: 'allmänbildning', recurring: false },
    });
    expect(edit.status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('place: 409, nothing deleted', async () => {
    const o = await withOpenCheckout();
    const before = await snapshot();
    const res = await callJson(`/api/owner/locations/${o.location.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: NOW });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('ett quiz på den här platsen');
    expect(await snapshot()).toEqual(before);
  });

  it('business (superadmin): 409, nothing deleted', async () => {
    const o = await withOpenCheckout();
    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(NOW) });
    const before = await snapshot();
    const res = await callJson(`/api/admin/venues/${o.venue.id}`, { method: 'DELETE', cookie: admin.cookie, clock: NOW });
    expect(res.status).toBe(409);
    expect(res.body.error.message).toContain('ett quiz i den här verksamheten');
    expect(await snapshot()).toEqual(before);
  });

  it('account (own and by the superadmin): 409, the whole account is left as it was', async () => {
    const o = await withOpenCheckout();
    // A second place with quizzes, so a chunked deletion would have had something to delete first.
    const other = await createQuiz((await createLocation(o.venue.id, { city: o.city })).id, { date: QUIZ_DATE });
    const before = await snapshot();
    const own = await callJson('/api/account', { method: 'DELETE', cookie: o.user.cookie, clock: NOW });
    expect(own.status).toBe(409);
    expect(own.body.error.message).toContain('ett quiz i det här kontot');
    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(NOW) });
    const before2 = await snapshot();
    const byAdmin = await callJson(`/api/admin/users/${o.user.id}`, { method: 'DELETE', cookie: admin.cookie, clock: NOW });
    expect(byAdmin.status).toBe(409);
    expect(await snapshot()).toEqual(before2);
    expect(before2.quizzes).toBe(before.quizzes);
    expect(await exists(quizzes, other.id)).toBe(true);
    expect(await exists(users, o.user.id)).toBe(true);
  });

  it('the database itself refuses: a raw DELETE of the quiz (cascade to its held slot) aborts', async () => {
    const o = await withOpenCheckout();
    await expect(testDb().run(sql`DELETE FROM quizzes WHERE id = ${o.quiz.id}`)).rejects.toSatisfy(isOpenCheckoutAbort);
    await expect(testDb().run(sql`DELETE FROM venues WHERE id = ${o.venue.id}`)).rejects.toSatisfy(isOpenCheckoutAbort);
    expect(await exists(quizzes, o.quiz.id)).toBe(true);
    expect(await claimsOf(o.orderId)).toHaveLength(1);
  });

  it('release paths still work under the trigger: expired event, cancel, failed async payment, nightly expiry', async () => {
    const expired = await withOpenCheckout();
    expect((await sendEvent('checkout.session.expired', { id: expired.orderId, sessionId: expired.sessionId })).status).toBe(200);
    expect(await claimsOf(expired.orderId)).toHaveLength(0);
    const failed = await withOpenCheckout();
    await sendEvent('checkout.session.completed', { id: failed.orderId, sessionId: failed.sessionId }, { paymentStatus: 'unpaid' });
    await sendEvent('checkout.session.async_payment_failed', { id: failed.orderId, sessionId: failed.sessionId });
    expect((await orderRow(failed.orderId)).status).toBe('failed');
    expect(await claimsOf(failed.orderId)).toHaveLength(0);
    // Expiry by a later claim read (releaseExpiredHolds), then the quiz goes.
    const stale = await withOpenCheckout();
    const del = await callJson(`/api/owner/locations/${stale.location.id}`, { method: 'DELETE', cookie: stale.user.cookie, clock: LATER });
    expect(del.status).toBe(200);
    expect((await orderRow(stale.orderId)).status).toBe('expired');
  });

  it('paid promotion that has not run yet: deleting the quiz or its place is refused (no silent loss); a past one does not block', async () => {
    const o = await withOpenCheckout();
    expect((await sendEvent('checkout.session.completed', { id: o.orderId, sessionId: o.sessionId })).status).toBe(200);
    expect((await orderRow(o.orderId)).status).toBe('paid');
    const before = await snapshot();
    const res = await callJson(`/api/owner/quizzes/${o.quiz.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: NOW });
    expect(res.status).toBe(409);
    expect(res.body.error.details).toEqual({ reason: 'paid_promotion', paidUntil: QUIZ_DATE });
    expect(res.body.error.message).toContain(`betald marknadsföring som visas till och med ${QUIZ_DATE}`);
    const place = await callJson(`/api/owner/locations/${o.location.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: NOW });
    expect(place.status).toBe(409);
    expect(await snapshot()).toEqual(before);
    // The day after the promotion ran, the quiz may go.
    const after = await callJson(`/api/owner/quizzes/${o.quiz.id}`, { method: 'DELETE', cookie: o.user.cookie, clock: `${addDays(QUIZ_DATE, 1)}T09:00:00Z` });
    expect(after.status).toBe(200);
    expect(await exists(quizzes, o.quiz.id)).toBe(false);
    const [order] = await testDb().select().from(checkoutOrders).where(eq(checkoutOrders.id, o.orderId));
    expect(order!.status).toBe('paid');
  });
});
