/**
 * Races on unique values (issue 43.2): parallel requests that insert the same unique value (a double-clicked
 * form, two tabs) answer as the request that came second would — the pre-check's 201/409, or registration's
 * enumeration-safe answer — never a 5xx. Each case fires ten requests at once.
 */
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox, users, venues } from '../../worker/db/schema';
import { ensureHouseUser } from '../../worker/features/admin/import';
import { completeGoogleSignIn } from '../../worker/features/auth/google';
import { onUniqueRace, uniqueViolation } from '../../worker/lib/unique-race';
import { newId } from '../../worker/lib/ids';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, testDeps, unique } from '../factories';

const PARALLEL = 10;

async function statuses(requests: Array<Promise<Response>>): Promise<number[]> {
  const all = await Promise.all(requests);
  await Promise.all(all.map((r) => r.arrayBuffer()));
  return all.map((r) => r.status).sort();
}

const noServerError = (s: number[]) => expect(s.filter((x) => x >= 500)).toEqual([]);

describe('uniqueViolation / onUniqueRace', () => {
  it('names the constraint of D1’s error, also below a cause; other errors pass through', async () => {
    const u = await createUser();
    const err = await testDb()
      .insert(users)
      .values({ id: 'x', email: u.email })
      .then(() => null)
      .catch((e: unknown) => e);
    expect(uniqueViolation(err)).toBe('users.email');
    expect(uniqueViolation(new Error('no such table: x'))).toBeNull();
    expect(uniqueViolation(new Error('outer', { cause: new Error('D1_ERROR: UNIQUE constraint failed: a.b, a.c: SQLITE_CONSTRAINT') }))).toBe('a.b, a.c');
    await expect(
      onUniqueRace(
        () => Promise.reject(err),
        ['users.email'],
        () => 'raced',
      ),
    ).resolves.toBe('raced');
    await expect(
      onUniqueRace(
        () => Promise.reject(err),
        ['venues.slug'],
        () => 'raced',
      ),
    ).rejects.toBe(err);
  });
});

describe(`${PARALLEL} parallel requests on one unique value (issue 43.2)`, () => {
  it('registrations of one new address: one account, no 5xx, each accepted one mails a link', async () => {
    const email = `${unique('dubbel')}@test.local`;
    const s = await statuses(
      Array.from({ length: PARALLEL }, () => call('/api/auth/register', { body: { email, password: 'hemligt1', confirmPassword: 'hemligt1' } })),
    );
    noServerError(s);
    // Five per address and 15 minutes (REGISTER_LIMIT); the rest are told to wait.
    expect(s).toEqual([201, 201, 201, 201, 201, 429, 429, 429, 429, 429]);
    expect(await testDb().select().from(users).where(eq(users.email, email))).toHaveLength(1);
    expect(await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email))).toHaveLength(5);
  });

  it('Google sign-ins of one new Google account: one account, every caller gets it', async () => {
    const profile = { sub: unique('g'), email: `${unique('google')}@test.local`, emailVerified: true };
    const results = await Promise.all(Array.from({ length: PARALLEL }, () => completeGoogleSignIn(testDeps(), profile)));
    expect(new Set(results.map((r) => r.userId)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await testDb().select().from(users).where(eq(users.email, profile.email))).toHaveLength(1);
  });

  it('e-mail change links of two accounts to one address opened at once: one 200, one 409', async () => {
    const target = `${unique('mal')}@test.local`;
    const tokens: string[] = [];
    for (let i = 0; i < 2; i++) {
      const u = await createUser();
      expect((await callJson('/api/account/email', { cookie: u.cookie, body: { newEmail: target, password: u.password } })).status).toBe(200);
      const [mail] = await testDb().all<{ text: string }>(sql`SELECT text FROM mail_outbox WHERE to_email = ${target} ORDER BY rowid DESC LIMIT 1`);
      tokens.push(new URL(mail!.text.match(/https?:\/\/\S+type=email_change\S*/)![0]).searchParams.get('token')!);
    }
    const s = await statuses(tokens.map((token) => call('/api/account/email/confirm', { body: { token } })));
    expect(s).toEqual([200, 409]);
    expect(await testDb().select().from(users).where(eq(users.email, target))).toHaveLength(1);
  });

  it('new businesses of one name: every one created, each with its own slug', async () => {
    const owner = await createUser();
    const name = `Tvillingen ${unique('t')}`;
    const all = await Promise.all(Array.from({ length: PARALLEL }, () => callJson('/api/owner/venues', { cookie: owner.cookie, body: { name } })));
    expect(all.map((r) => r.status)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(all.map((r) => r.body.slug)).size).toBe(PARALLEL);
  });

  it('new businesses of one name made by a superadmin: every one created, each with its own slug', async () => {
    const admin = await createUser({ roles: ['admin', 'superadmin'] });
    const name = `Husets ${unique('h')}`;
    const all = await Promise.all(Array.from({ length: PARALLEL }, () => callJson('/api/admin/venues', { cookie: admin.cookie, body: { name } })));
    expect(all.map((r) => r.status)).toEqual(Array(PARALLEL).fill(201));
    expect(new Set(all.map((r) => r.body.venue.slug)).size).toBe(PARALLEL);
  });

  it('takeovers of one unclaimed business by ten accounts: one 200, the rest 409', async () => {
    const houseId = await ensureHouseUser(testDb(), (env as unknown as { HOUSE_ACCOUNT_EMAIL?: string }).HOUSE_ACCOUNT_EMAIL ?? 'house@test.local');
    const venue = await createVenue(houseId);
    await createLocation(venue.id);
    const claimants = await Promise.all(Array.from({ length: PARALLEL }, () => createUser()));
    const s = await statuses(claimants.map((u) => call('/api/takeover', { cookie: u.cookie, body: { venueId: venue.id } })));
    expect(s).toEqual([200, ...Array(PARALLEL - 1).fill(409)]);
    const [row] = await testDb().select().from(venues).where(eq(venues.id, venue.id));
    expect(claimants.map((u) => u.id)).toContain(row!.userId);
  });

  it('a series date moved onto another date of the series: 409 in Swedish (the same recogniser)', async () => {
    const clock = '2030-01-07T10:00:00Z';
    const owner = await createUser({ now: new Date(clock) });
    const venue = await createVenue(owner.id);
    const place = await createLocation(venue.id);
    const recurrenceId = newId();
    const series = { locationId: place.id, isRecurring: true, recurrenceId, recurrencePattern: 'weekly' as const, recurrenceDays: '["onsdag"]' };
    const first = await createQuiz(place.id, { ...series, date: '2030-01-09' });
    await createQuiz(place.id, { ...series, date: '2030-01-16' });
    const r = await callJson(`/api/owner/quizzes/${first.id}`, {
      method: 'PATCH',
      cookie: owner.cookie,
      clock,
      body: { date: '2030-01-16', startTime: '19:00', category: 'allmänbildning' },
    });
    expect(r.status).toBe(409);
    expect(r.body.error.message).toBe('Serien har redan ett quiz det datumet.');
  });

  it('TOTP enrolments of one account: one factor left, no 5xx', async () => {
    const u = await createUser();
    const s = await statuses(Array.from({ length: PARALLEL }, () => call('/api/account/totp/enroll', { cookie: u.cookie, body: { password: u.password } })));
    expect(s).toEqual(Array(PARALLEL).fill(200));
    const [row] = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM totp_factors WHERE user_id = ${u.id}`);
    expect(row!.n).toBe(1);
  });
});
