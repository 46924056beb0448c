/** Issue 4: session, login, logout, TOTP login, throttling, no enumeration, CSRF. */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions, totpFactors } from '../../worker/db/schema';
import { totpCodeAt } from '../../worker/lib/totp';
import { newId } from '../../worker/lib/ids';
import { call, callJson, createUser, snapshot, testDb, unique, VERIFIED_AT } from '../factories';

function sessionCookie(res: Response): string | null {
  const raw = res.headers.getSetCookie?.() ?? [res.headers.get('set-cookie') ?? ''];
  for (const c of raw) {
    const m = /(?:^|\s)qk_session=([^;]*)/.exec(c);
    if (m?.[1]) return `qk_session=${m[1]}`;
  }
  return null;
}

const NOW = '2030-03-01T10:00:00.000Z';

describe('GET /api/auth/session', () => {
  it('answers user null for a visitor', async () => {
    const { status, body } = await callJson('/api/auth/session');
    expect(status).toBe(200);
    expect(body).toMatchObject({ user: null, expiresAt: null });
  });

  it('answers the user, roles and expiry for a signed-in owner', async () => {
    const at = '2026-10-25T01:30:00Z';
    const u = await createUser({ now: new Date(at) });
    const { body } = await callJson('/api/auth/session', { cookie: u.cookie, clock: at });
    expect(body.user).toEqual({ id: u.id, email: u.email, roles: ['admin'], isSuperadmin: false });
    expect(body.expiresAt).toBeGreaterThan(Date.parse(at));
  });

  it('marks a superadmin', async () => {
    const u = await createUser({ roles: ['admin', 'superadmin'] });
    const { body } = await callJson('/api/auth/session', { cookie: u.cookie });
    expect(body.user.isSuperadmin).toBe(true);
  });

  it('treats a forged cookie as signed out', async () => {
    const u = await createUser();
    const forged = u.cookie.replace(/\.[a-z0-9]+$/, '.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa');
    const { body } = await callJson('/api/auth/session', { cookie: forged });
    expect(body.user).toBeNull();
  });
});

describe('POST /api/auth/login', () => {
  it('signs in with the right password and sets an HttpOnly cookie', async () => {
    const u = await createUser();
    const res = await call('/api/auth/login', { body: { email: u.email.toUpperCase(), password: u.password }, clock: NOW });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.user).toMatchObject({ id: u.id, email: u.email, roles: ['admin'] });
    const setCookie = res.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const cookie = sessionCookie(res)!;
    const s = await callJson('/api/auth/session', { cookie });
    expect(s.body.user.id).toBe(u.id);
  });

  it('answers a wrong password and an unknown e-mail identically (no enumeration)', async () => {
    const u = await createUser();
    const wrong = await callJson('/api/auth/login', { body: { email: u.email, password: 'fel-losen' } });
    const unknown = await callJson('/api/auth/login', { body: { email: `${unique('nobody')}@test.local`, password: 'fel-losen' } });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error.message).toBe('Felaktig e-post eller lösenord. Försök igen.');
    expect(sessionCookie(wrong.res)).toBeNull();
  });

  it('refuses an unverified e-mail with a distinct error, only after the right password', async () => {
    const u = await createUser({ verified: false });
    const wrong = await callJson('/api/auth/login', { body: { email: u.email, password: 'fel-losen' } });
    expect(wrong.status).toBe(401);
    const right = await callJson('/api/auth/login', { body: { email: u.email, password: u.password } });
    expect(right.status).toBe(403);
    expect(right.body.error.message).toContain('E-post inte bekräftad');
    expect(right.body.error.details.reason).toBe('email_not_confirmed');
  });

  it('rejects bad input with a Swedish message naming the field and creates no session', async () => {
    const before = await snapshot(['sessions']);
    const { status, body } = await callJson('/api/auth/login', { body: { email: 'inte-en-adress', password: '' } });
    expect(status).toBe(400);
    expect(body.error.message).toContain('E-post');
    expect(await snapshot(['sessions'])).toEqual(before);
  });

  it('locks one client out of one account after 10 failures (also for the right password), for 15 minutes', async () => {
    const u = await createUser();
    const ip = `10.1.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 10; i++) {
      const r = await callJson('/api/auth/login', { body: { email: u.email, password: 'fel' }, headers: { 'cf-connecting-ip': ip }, clock: NOW });
      expect(r.status).toBe(401);
    }
    const blocked = await callJson('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip }, clock: NOW });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toMatch(/Vänta \d+ minuter/);
    // The window ends 15 minutes after the last attempt.
    const later = await callJson('/api/auth/login', {
      body: { email: u.email, password: u.password },
      headers: { 'cf-connecting-ip': ip },
      clock: '2030-03-01T10:16:00.000Z',
    });
    expect(later.status).toBe(200);
  });

  it('throttles failed attempts per client across accounts', async () => {
    const ip = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
    for (let i = 0; i < 50; i++) {
      await call('/api/auth/login', { body: { email: `${unique('x')}@test.local`, password: 'fel' }, headers: { 'cf-connecting-ip': ip }, clock: NOW });
    }
    const u = await createUser();
    const blocked = await callJson('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip }, clock: NOW });
    expect(blocked.status).toBe(429);
    const other = await callJson('/api/auth/login', {
      body: { email: u.email, password: u.password },
      headers: { 'cf-connecting-ip': '10.9.9.9' },
      clock: NOW,
    });
    expect(other.status).toBe(200);
  });

  it('refuses a cross-site POST (CSRF) and creates no session', async () => {
    const u = await createUser();
    const before = await snapshot(['sessions']);
    const res = await call('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    const res2 = await call('/api/auth/login', { body: { email: u.email, password: u.password }, noOrigin: true, headers: { 'sec-fetch-site': 'cross-site' } });
    expect(res2.status).toBe(403);
    expect(await snapshot(['sessions'])).toEqual(before);
  });
});

describe('POST /api/auth/logout', () => {
  it('ends the session so the cookie no longer works', async () => {
    const u = await createUser();
    const res = await call('/api/auth/logout', { method: 'POST', cookie: u.cookie });
    expect(res.status).toBe(200);
    expect(res.headers.get('set-cookie')).toMatch(/qk_session=;/);
    const { body } = await callJson('/api/auth/session', { cookie: u.cookie });
    expect(body.user).toBeNull();
  });

  it('is harmless without a session', async () => {
    const res = await call('/api/auth/logout', { method: 'POST' });
    expect(res.status).toBe(200);
  });
});

describe('TOTP second step', () => {
  async function enrolled() {
    const u = await createUser();
    const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
    await testDb().insert(totpFactors).values({ id: newId(), userId: u.id, secret, verifiedAt: VERIFIED_AT });
    return { ...u, secret };
  }

  it('asks for the code after the password; the pending session is not signed in', async () => {
    const u = await enrolled();
    const res = await call('/api/auth/login', { body: { email: u.email, password: u.password }, clock: NOW });
    expect(await res.json()).toEqual({ mfaRequired: true });
    const pending = sessionCookie(res)!;
    const s = await callJson('/api/auth/session', { cookie: pending });
    expect(s.body.user).toBeNull();
    expect(s.body.mfaPending).toBe(true);
    const owner = await callJson('/api/account', { cookie: pending });
    expect(owner.status).toBe(401);
  });

  it('signs in with the right code, refuses a wrong one and a replay', async () => {
    const u = await enrolled();
    const res = await call('/api/auth/login', { body: { email: u.email, password: u.password }, clock: NOW });
    const pending = sessionCookie(res)!;
    const wrong = await callJson('/api/auth/login/totp', {
      body: { code: '000000' === totpCodeAt(u.secret, new Date(NOW)) ? '111111' : '000000' },
      cookie: pending,
      clock: NOW,
    });
    expect(wrong.status).toBe(401);
    const code = totpCodeAt(u.secret, new Date(NOW));
    const ok = await call('/api/auth/login/totp', { body: { code }, cookie: pending, clock: NOW });
    expect(ok.status).toBe(200);
    const full = sessionCookie(ok)!;
    expect((await callJson('/api/auth/session', { cookie: full })).body.user.id).toBe(u.id);
    // The pending session is gone and the same code cannot be used again.
    expect((await callJson('/api/auth/session', { cookie: pending })).body.mfaPending).toBe(false);
    const again = await call('/api/auth/login', { body: { email: u.email, password: u.password }, clock: NOW });
    const replay = await callJson('/api/auth/login/totp', { body: { code }, cookie: sessionCookie(again)!, clock: NOW });
    expect(replay.status).toBe(401);
  });

  it('limits wrong codes per pending session and per user', async () => {
    const u = await enrolled();
    const wrongCode = totpCodeAt(u.secret, new Date(NOW)) === '000000' ? '111111' : '000000';
    const login = async () => sessionCookie(await call('/api/auth/login', { body: { email: u.email, password: u.password }, clock: NOW }))!;
    let pending = await login();
    for (let i = 0; i < 4; i++) expect((await callJson('/api/auth/login/totp', { body: { code: wrongCode }, cookie: pending, clock: NOW })).status).toBe(401);
    expect((await callJson('/api/auth/login/totp', { body: { code: wrongCode }, cookie: pending, clock: NOW })).status).toBe(429);
    // That pending session is gone.
    expect((await callJson('/api/auth/login/totp', { body: { code: totpCodeAt(u.secret, new Date(NOW)) }, cookie: pending, clock: NOW })).status).toBe(401);
    pending = await login();
    for (let i = 0; i < 5; i++) await callJson('/api/auth/login/totp', { body: { code: wrongCode }, cookie: pending, clock: NOW });
    pending = await login();
    const blocked = await callJson('/api/auth/login/totp', { body: { code: totpCodeAt(u.secret, new Date(NOW)) }, cookie: pending, clock: NOW });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.message).toMatch(/Vänta \d+ minuter/);
  });

  it('refuses a code without a pending session', async () => {
    const { status } = await callJson('/api/auth/login/totp', { body: { code: '123456' } });
    expect(status).toBe(401);
  });
});

describe('sessions table', () => {
  it('stores only a hash of the session secret', async () => {
    const u = await createUser();
    const [id, secret] = u.cookie.split('=')[1]!.split('.');
    const [row] = await testDb().select().from(sessions).where(eq(sessions.id, id!));
    expect(row!.secretHash).not.toContain(secret!);
    expect(row!.secretHash).toMatch(/^[0-9a-f]{64}$/);
  });
});
