/** Issue 4: own account — summary, deletion (cascade, chunks), password and e-mail change, TOTP. */
import { desc, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { locations, mailOutbox, oauthAccounts, quizzes, sessions, totpFactors, users, venues } from '../../worker/db/schema';
import { deleteUserAccount } from '../../worker/features/accounts/service';
import { totpCodeAt } from '../../worker/lib/totp';
import { call, callJson, createLocation, createOwnerWithPlace, createQuiz, createUser, createVenue, snapshot, testDb, testDeps, unique } from '../factories';

const NOW = '2030-06-15T10:00:00.000Z'; // Saturday 2030-06-15 in Stockholm

function sessionCookie(res: Response): string | null {
  for (const c of res.headers.getSetCookie()) {
    const m = /(?:^|\s)qk_session=([^;]*)/.exec(c);
    if (m?.[1]) return `qk_session=${m[1]}`;
  }
  return null;
}

async function lastMail(to: string) {
  const [row] = await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, to)).orderBy(desc(mailOutbox.createdAt)).limit(1);
  return row ?? null;
}

async function secondSession(email: string, password: string): Promise<string> {
  const res = await call('/api/auth/login', { body: { email, password } });
  expect(res.status).toBe(200);
  return sessionCookie(res)!;
}

describe('guards', () => {
  const routes: Array<[string, string, unknown?]> = [
    ['GET', '/api/account'],
    ['DELETE', '/api/account'],
    ['POST', '/api/account/password', { password: 'hemligt9', confirmPassword: 'hemligt9' }],
    ['POST', '/api/account/email', { newEmail: 'x@test.local', password: 'x' }],
    ['POST', '/api/account/totp/enroll', {}],
    ['POST', '/api/account/totp/confirm', { code: '123456' }],
    ['POST', '/api/account/totp/remove', {}],
  ];
  it.each(routes)('%s %s answers 401 to a visitor and changes nothing', async (method, path, body) => {
    const before = await snapshot(['users', 'venues', 'sessions', 'totp_factors', 'password_credentials']);
    const r = await callJson(path, { method, body });
    expect(r.status).toBe(401);
    expect(await snapshot(['users', 'venues', 'sessions', 'totp_factors', 'password_credentials'])).toEqual(before);
  });

  it('a session still waiting for its TOTP code is not signed in', async () => {
    const u = await createUser();
    await testDb()
      .insert(totpFactors)
      .values({ id: crypto.randomUUID(), userId: u.id, secret: btoa('12345678901234567890'), verifiedAt: NOW });
    const res = await call('/api/auth/login', { body: { email: u.email, password: u.password } });
    const pending = sessionCookie(res)!;
    expect((await callJson('/api/account', { cookie: pending })).status).toBe(401);
    expect((await callJson('/api/account', { method: 'DELETE', cookie: pending })).status).toBe(401);
    expect(await testDb().select().from(users).where(eq(users.id, u.id))).toHaveLength(1);
  });
});

describe('GET /api/account', () => {
  it('counts businesses, places and upcoming quizzes (Stockholm today)', async () => {
    const user = await createUser({ now: new Date(NOW) });
    const venue = await createVenue(user.id);
    const location = await createLocation(venue.id);
    await createLocation(venue.id);
    await createQuiz(location.id, { date: '2030-06-14' }); // yesterday
    await createQuiz(location.id, { date: '2030-06-15' }); // today
    await createQuiz(location.id, { date: '2030-07-01' });
    const { status, body } = await callJson('/api/account', { cookie: user.cookie, clock: NOW });
    expect(status).toBe(200);
    expect(body).toEqual({ email: user.email, hasPassword: true, totpEnabled: false, counts: { venues: 1, places: 2, upcomingQuizzes: 2 } });
  });
});

describe('DELETE /api/account', () => {
  it('deletes the user with businesses, places, quizzes and sessions; others are untouched', async () => {
    const { user, venue, location } = await createOwnerWithPlace();
    await createQuiz(location.id);
    const other = await createOwnerWithPlace();
    await createQuiz(other.location.id);
    const otherBefore = await testDb().select().from(quizzes).where(eq(quizzes.locationId, other.location.id));
    const r = await call('/api/account', { method: 'DELETE', cookie: user.cookie });
    expect(r.status).toBe(200);
    expect(r.headers.get('set-cookie')).toMatch(/qk_session=;/);
    expect(await testDb().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    expect(await testDb().select().from(venues).where(eq(venues.id, venue.id))).toEqual([]);
    expect(await testDb().select().from(locations).where(eq(locations.id, location.id))).toEqual([]);
    expect(await testDb().select().from(quizzes).where(eq(quizzes.locationId, location.id))).toEqual([]);
    expect(await testDb().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect(await testDb().select().from(quizzes).where(eq(quizzes.locationId, other.location.id))).toEqual(otherBefore);
    expect((await callJson('/api/auth/session', { cookie: other.user.cookie })).body.user.id).toBe(other.user.id);
    expect((await call('/api/auth/login', { body: { email: user.email, password: user.password } })).status).toBe(401);
  });

  it('refuses a cross-site request', async () => {
    const u = await createUser();
    const before = await snapshot(['users', 'sessions']);
    const r = await call('/api/account', { method: 'DELETE', cookie: u.cookie, headers: { origin: 'https://evil.example' } });
    expect(r.status).toBe(403);
    expect(await snapshot(['users', 'sessions'])).toEqual(before);
  });
});

describe('deleteUserAccount', () => {
  it('removes a big account in bounded chunks (more quizzes than one chunk)', async () => {
    const { user, venue, location } = await createOwnerWithPlace();
    const second = await createLocation(venue.id);
    for (const loc of [location.id, second.id]) {
      await testDb().run(sql`
        WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 700)
        INSERT INTO quizzes (id, location_id, date, start_time, category)
        SELECT lower(hex(randomblob(16))), ${loc}, '2030-01-01', '19:00:00', 'allmänbildning' FROM n`);
    }
    const [{ n }] = (await testDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM quizzes WHERE location_id IN (${location.id}, ${second.id})`)) as [
      { n: number },
    ];
    expect(n).toBe(1400);
    const v0 = await testDb().all<{ version: number }>(sql`SELECT version FROM public_data_version WHERE id = 1`);
    expect(await deleteUserAccount(testDeps(), { userId: user.id })).toBe(true);
    const left = await testDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM quizzes WHERE location_id IN (${location.id}, ${second.id})`);
    expect(left[0]!.n).toBe(0);
    expect(await testDb().select().from(users).where(eq(users.id, user.id))).toEqual([]);
    const v1 = await testDb().all<{ version: number }>(sql`SELECT version FROM public_data_version WHERE id = 1`);
    expect(v1[0]!.version).toBeGreaterThan(v0[0]!.version);
  });

  it('answers false for a user that does not exist', async () => {
    expect(await deleteUserAccount(testDeps(), { userId: 'no-such-user' })).toBe(false);
  });

  it('also removes Google links and keeps other owners’ businesses', async () => {
    const u = await createUser();
    await testDb()
      .insert(oauthAccounts)
      .values({ provider: 'google', providerUserId: unique('g'), userId: u.id });
    const other = await createUser();
    const v = await createVenue(other.id);
    await deleteUserAccount(testDeps(), { userId: u.id });
    expect(await testDb().select().from(oauthAccounts).where(eq(oauthAccounts.userId, u.id))).toEqual([]);
    expect(await testDb().select().from(venues).where(eq(venues.id, v.id))).toHaveLength(1);
  });
});

describe('POST /api/account/password', () => {
  it('changes the password and ends the other sessions, keeping this one', async () => {
    const u = await createUser();
    const other = await secondSession(u.email, u.password);
    const r = await callJson('/api/account/password', {
      cookie: u.cookie,
      body: { currentPassword: u.password, password: 'nytt-losen', confirmPassword: 'nytt-losen' },
    });
    expect(r.status).toBe(200);
    expect((await callJson('/api/auth/session', { cookie: u.cookie })).body.user.id).toBe(u.id);
    expect((await callJson('/api/auth/session', { cookie: other })).body.user).toBeNull();
    expect((await call('/api/auth/login', { body: { email: u.email, password: 'nytt-losen' } })).status).toBe(200);
    expect((await lastMail(u.email))!.subject).toContain('lösenord har ändrats');
  });

  it('refuses a wrong current password and changes nothing', async () => {
    const u = await createUser();
    const other = await secondSession(u.email, u.password);
    const before = await snapshot(['password_credentials', 'sessions']);
    const r = await callJson('/api/account/password', {
      cookie: u.cookie,
      body: { currentPassword: 'fel', password: 'nytt-losen', confirmPassword: 'nytt-losen' },
    });
    expect(r.status).toBe(401);
    expect(r.body.error.message).toBe('Fel lösenord.');
    expect(await snapshot(['password_credentials', 'sessions'])).toEqual(before);
    expect((await callJson('/api/auth/session', { cookie: other })).body.user.id).toBe(u.id);
  });

  it('uses the spec 02 §5 messages for bad input and stores nothing', async () => {
    const u = await createUser();
    const before = await snapshot(['password_credentials', 'sessions']);
    const empty = await callJson('/api/account/password', { cookie: u.cookie, body: { currentPassword: u.password, password: '', confirmPassword: '' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toContain('Ange både nytt lösenord och bekräftelse.');
    const short = await callJson('/api/account/password', { cookie: u.cookie, body: { currentPassword: u.password, password: '123', confirmPassword: '123' } });
    expect(short.body.error.message).toContain('Lösenordet måste vara minst 6 tecken.');
    const missingCurrent = await callJson('/api/account/password', { cookie: u.cookie, body: { password: 'nytt-losen', confirmPassword: 'nytt-losen' } });
    expect(missingCurrent.status).toBe(400);
    expect(await snapshot(['password_credentials', 'sessions'])).toEqual(before);
  });
});

describe('e-mail change', () => {
  function tokenOf(text: string) {
    const link = (text.match(/https?:\/\/\S+/g) ?? []).find((l) => l.includes('type=email_change'))!;
    return new URL(link).searchParams.get('token')!;
  }

  it('needs the password, mails the new address, and changes it once the link is opened (once)', async () => {
    const u = await createUser();
    const newEmail = `${unique('ny')}@test.local`;
    const wrong = await callJson('/api/account/email', { cookie: u.cookie, body: { newEmail, password: 'fel' } });
    expect(wrong.status).toBe(401);
    const missing = await callJson('/api/account/email', { cookie: u.cookie, body: { newEmail: '', password: '' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toContain('Ange både ny mejladress och lösenord.');
    const r = await callJson('/api/account/email', { cookie: u.cookie, body: { newEmail: newEmail.toUpperCase(), password: u.password } });
    expect(r.status).toBe(200);
    expect((await testDb().select().from(users).where(eq(users.id, u.id)))[0]!.email).toBe(u.email);
    const token = tokenOf((await lastMail(newEmail))!.text);
    const ok = await callJson('/api/account/email/confirm', { body: { token } });
    expect(ok).toMatchObject({ status: 200, body: { email: newEmail } });
    expect((await testDb().select().from(users).where(eq(users.id, u.id)))[0]!.email).toBe(newEmail);
    expect((await lastMail(u.email))!.subject).toContain('e-postadress har ändrats');
    expect((await callJson('/api/account/email/confirm', { body: { token } })).status).toBe(400);
  });

  it('refuses an address that belongs to another account', async () => {
    const u = await createUser();
    const taken = await createUser();
    const r = await callJson('/api/account/email', { cookie: u.cookie, body: { newEmail: taken.email, password: u.password } });
    expect(r.status).toBe(409);
  });
});

describe('TOTP enrolment', () => {
  it('enrols with a QR URI, confirms with a code, then login needs the code; removal needs the password', async () => {
    const u = await createUser({ now: new Date(NOW) });
    const enrol = await callJson('/api/account/totp/enroll', { cookie: u.cookie, body: { password: u.password } });
    expect(enrol.status).toBe(200);
    expect(enrol.body.uri).toMatch(/^otpauth:\/\/totp\/Quizkv/);
    expect(enrol.body.secret).toMatch(/^[A-Z2-7]+$/);
    const [factor] = await testDb().select().from(totpFactors).where(eq(totpFactors.userId, u.id));
    expect(factor!.verifiedAt).toBeNull();
    // Not active before confirmation.
    expect(await (await call('/api/auth/login', { body: { email: u.email, password: u.password } })).json()).toHaveProperty('user');
    const bad = await callJson('/api/account/totp/confirm', {
      cookie: u.cookie,
      body: { code: totpCodeAt(factor!.secret, new Date('2001-01-01T00:00:00Z')) },
      clock: NOW,
    });
    expect(bad.status).toBe(400);
    const ok = await callJson('/api/account/totp/confirm', { cookie: u.cookie, body: { code: totpCodeAt(factor!.secret, new Date(NOW)) }, clock: NOW });
    expect(ok.status).toBe(200);
    expect((await callJson('/api/account', { cookie: u.cookie })).body.totpEnabled).toBe(true);
    expect(await (await call('/api/auth/login', { body: { email: u.email, password: u.password } })).json()).toEqual({ mfaRequired: true });
    // A second enrolment is refused while one is active.
    expect((await callJson('/api/account/totp/enroll', { cookie: u.cookie, body: { password: u.password } })).status).toBe(409);
    expect((await callJson('/api/account/totp/remove', { cookie: u.cookie, body: { password: 'fel' } })).status).toBe(401);
    expect(await testDb().select().from(totpFactors).where(eq(totpFactors.userId, u.id))).toHaveLength(1);
    expect((await callJson('/api/account/totp/remove', { cookie: u.cookie, body: { password: u.password } })).status).toBe(200);
    expect(await testDb().select().from(totpFactors).where(eq(totpFactors.userId, u.id))).toEqual([]);
  });

  it('enrolment needs the current password', async () => {
    const u = await createUser();
    expect((await callJson('/api/account/totp/enroll', { cookie: u.cookie, body: {} })).status).toBe(400);
    expect((await callJson('/api/account/totp/enroll', { cookie: u.cookie, body: { password: 'fel' } })).status).toBe(401);
    expect(await testDb().select().from(totpFactors).where(eq(totpFactors.userId, u.id))).toEqual([]);
  });
});
