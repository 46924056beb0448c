/**
 * Issue 13, faults 3, 4, 5, 7, 9 and 12: the sign-in throttles and the mail-sending endpoints, attacked
 * as a hostile client would (parallel requests, several clients, many addresses). Each test failed on
 * the code before the fix: the limit was read before the hash and counted after it, one limit per
 * account locked the owner out, and registration was limited per address only.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox, totpFactors } from '../../../worker/db/schema';
import { requestPasswordReset } from '../../../worker/features/auth/reset';
import type { Mailer } from '../../../worker/ports/mailer';
import { LOGIN_DEVICE_LIMIT, LOGIN_PAIR_LIMIT, TOTP_SESSION_LIMIT, TOTP_USER_LIMIT } from '../../../worker/features/auth/contract';
import { MAIL_CLIENT_LIMIT } from '../../../worker/lib/rate-limit';
import { totpCodeAt } from '../../../worker/lib/totp';
import { newId } from '../../../worker/lib/ids';
import { call, callJson, createUser, testDb, testDeps, unique, VERIFIED_AT } from '../../factories';

const NOW = '2030-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const ip = () => `10.13.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

function sessionCookie(res: Response): string | null {
  const m = /qk_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  return m?.[1] ? `qk_session=${m[1]}` : null;
}

describe('13.3 the login throttle counts before it checks', () => {
  it('40 parallel wrong passwords from one client: at most 10 reach the password check', async () => {
    const u = await createUser();
    const client = ip();
    const results = await Promise.all(
      Array.from({ length: 40 }, () =>
        call('/api/auth/login', { body: { email: u.email, password: 'fel-lösen' }, headers: { 'cf-connecting-ip': client }, clock: NOW }),
      ),
    );
    const statuses = results.map((r) => r.status);
    const checked = statuses.filter((s) => s === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(LOGIN_PAIR_LIMIT);
    expect(statuses.filter((s) => s !== 401).every((s) => s === 429)).toBe(true);
  });

  it('100 wrong passwords from many clients at once: at most 10 reach the check before the account slows down', async () => {
    const u = await createUser();
    const results = await Promise.all(
      Array.from({ length: 100 }, () =>
        call('/api/auth/login', { body: { email: u.email, password: 'fel-lösen' }, headers: { 'cf-connecting-ip': ip() }, clock: NOW }),
      ),
    );
    const checked = results.filter((r) => r.status === 401).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(results.every((r) => r.status === 401 || r.status === 429)).toBe(true);
  });
});

describe('13.5 a stranger cannot lock the owner out', () => {
  it('ten wrong passwords from another client: the owner signs in from their own client', async () => {
    const u = await createUser();
    const attacker = ip();
    for (let i = 0; i < 10; i++) {
      await call('/api/auth/login', { body: { email: u.email, password: 'fel' }, headers: { 'cf-connecting-ip': attacker }, clock: at(i) });
    }
    // The attacker's own client is locked for this account…
    const again = await callJson('/api/auth/login', { body: { email: u.email, password: 'fel' }, headers: { 'cf-connecting-ip': attacker }, clock: at(20) });
    expect(again.status).toBe(429);
    // …the owner, a few seconds later from another client, gets in with the right password.
    const owner = await call('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip() }, clock: at(30) });
    expect(owner.status).toBe(200);
  });

  it('past ten attempts an account is slowed (growing delay, seconds), never locked for 15 minutes', async () => {
    const u = await createUser();
    for (let i = 0; i < 10; i++) {
      await call('/api/auth/login', { body: { email: u.email, password: 'fel' }, headers: { 'cf-connecting-ip': ip() }, clock: NOW });
    }
    const tooSoon = await callJson('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip() }, clock: NOW });
    expect(tooSoon.status).toBe(429);
    expect(tooSoon.body.error.message).toMatch(/Vänta \d+ sekunder/);
    expect(Number(tooSoon.res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
    const wrongAfterDelay = await call('/api/auth/login', { body: { email: u.email, password: 'fel' }, headers: { 'cf-connecting-ip': ip() }, clock: at(2) });
    expect(wrongAfterDelay.status).toBe(401);
    // The next delay has doubled: one second later is too soon, after it the owner is in.
    expect(
      (await call('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip() }, clock: at(3) })).status,
    ).toBe(429);
    expect(
      (await call('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip() }, clock: at(7) })).status,
    ).toBe(200);
  });
});

describe('13.4 TOTP guesses are counted before they are checked', () => {
  async function wrongCodeAnswers(results: Response[]) {
    const bodies = await Promise.all(results.map(async (r) => (r.status === 401 ? ((await r.json()) as { error: { message: string } }) : null)));
    return bodies.filter((b) => b?.error.message === 'Felaktig kod. Försök igen.');
  }
  async function pendingSignIn() {
    const u = await createUser();
    const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
    await testDb().insert(totpFactors).values({ id: newId(), userId: u.id, secret, verifiedAt: VERIFIED_AT });
    const wrongCode = totpCodeAt(secret, new Date(NOW)) === '000000' ? '111111' : '000000';
    const login = async () => sessionCookie(await call('/api/auth/login', { body: { email: u.email, password: u.password }, clock: NOW }))!;
    return { u, wrongCode, login };
  }

  it('20 parallel wrong codes on one pending sign-in: at most 5 are checked', async () => {
    const { wrongCode, login } = await pendingSignIn();
    const pending = await login();
    const results = await Promise.all(
      Array.from({ length: 20 }, () => call('/api/auth/login/totp', { body: { code: wrongCode }, cookie: pending, clock: NOW })),
    );
    // Once the pending sign-in has ended, late requests get 401 "Ingen inloggning väntar…" without a
    // check; only answers that say the code was wrong were actually checked.
    const checked = (await wrongCodeAnswers(results)).length;
    expect(checked).toBeLessThan(TOTP_SESSION_LIMIT);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });

  it('parallel guesses over several pending sign-ins: at most 10 per user are checked', async () => {
    const { wrongCode, login } = await pendingSignIn();
    const pendings = [await login(), await login(), await login(), await login()];
    const results = await Promise.all(
      pendings.flatMap((p) => Array.from({ length: 6 }, () => call('/api/auth/login/totp', { body: { code: wrongCode }, cookie: p, clock: NOW }))),
    );
    expect((await wrongCodeAnswers(results)).length).toBeLessThanOrEqual(TOTP_USER_LIMIT);
  });
});

describe('13.7 mail-sending endpoints are limited per client too', () => {
  it('one client cannot register 30 addresses in a row (each would send a mail)', async () => {
    const client = ip();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const email = `${unique('reg')}@test.local`;
      statuses.push(
        (
          await call('/api/auth/register', {
            body: { email, password: 'hemligt123', confirmPassword: 'hemligt123' },
            headers: { 'cf-connecting-ip': client },
            clock: NOW,
          })
        ).status,
      );
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAIL_CLIENT_LIMIT);
    expect(statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('probing which addresses exist (409) is limited per client as well', async () => {
    const client = ip();
    const known = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < MAIL_CLIENT_LIMIT + 5; i++) {
      statuses.push(
        (
          await call('/api/auth/register', {
            body: { email: known.email, password: 'hemligt123', confirmPassword: 'hemligt123' },
            headers: { 'cf-connecting-ip': client },
            clock: at(i * 16 * 60),
          })
        ).status,
      );
    }
    // 16 minutes apart: the per-address limit (5 per 15 minutes) never trips; the per-client one still stops the probe.
    expect(statuses.slice(0, MAIL_CLIENT_LIMIT).every((s) => s === 409)).toBe(true);
    expect(statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('forgot and resend: the same per-client limit', async () => {
    for (const path of ['/api/auth/forgot', '/api/auth/resend']) {
      const client = ip();
      const statuses: number[] = [];
      for (let i = 0; i < MAIL_CLIENT_LIMIT + 2; i++) {
        statuses.push((await call(path, { body: { email: `${unique('x')}@test.local` }, headers: { 'cf-connecting-ip': client }, clock: NOW })).status);
      }
      expect(
        statuses.slice(0, MAIL_CLIENT_LIMIT).every((s) => s === 200),
        `${path}: ${statuses}`,
      ).toBe(true);
      expect(
        statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429),
        `${path}: ${statuses}`,
      ).toBe(true);
    }
  });
});

describe('13.7 e-mail change (mails the new address, reveals a taken one) is limited per client', () => {
  it('one client across two accounts: the limit holds per client, not per account', async () => {
    const client = ip();
    const a = await createUser({ now: new Date(NOW) });
    const b = await createUser({ now: new Date(NOW) });
    const statuses: number[] = [];
    for (let i = 0; i < MAIL_CLIENT_LIMIT + 2; i++) {
      const u = i % 2 ? a : b;
      statuses.push(
        (
          await call('/api/account/email', {
            body: { newEmail: `${unique('ny')}@test.local`, password: u.password },
            cookie: u.cookie,
            headers: { 'cf-connecting-ip': client },
            clock: NOW,
          })
        ).status,
      );
    }
    expect(
      statuses.slice(0, MAIL_CLIENT_LIMIT).every((s) => s === 200),
      String(statuses),
    ).toBe(true);
    expect(
      statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429),
      String(statuses),
    ).toBe(true);
  });
});

describe('13.12 forgot answers in one time class for known and unknown addresses', () => {
  it('the answer does not wait for the mail (a slow provider cannot tell known addresses apart)', async () => {
    const u = await createUser();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const sent: string[] = [];
    const slowMailer = {
      send: async (m: { to: string }) => {
        await gate; // the provider takes as long as the test wants
        sent.push(m.to);
      },
    } as unknown as Mailer;
    const deferred: Promise<unknown>[] = [];
    const ctx = () => ({ clientKey: ip(), defer: (w: Promise<unknown>) => void deferred.push(w) });
    // The slow mailer goes in through the same door as production's: the run's port factories.
    const deps = testDeps({ now: NOW, ports: { mailer: () => slowMailer } });
    // Both calls return while the mail provider is still busy (before the fix the known one waited for it).
    const outcome = await Promise.race([
      Promise.all([
        requestPasswordReset(deps, { email: u.email, ...ctx() }),
        requestPasswordReset(deps, { email: `${unique('ghost')}@test.local`, ...ctx() }),
      ]).then(() => 'answered'),
      new Promise((r) => setTimeout(() => r('waited for the mail'), 2000)),
    ]);
    expect(outcome).toBe('answered');
    expect(sent).toEqual([]);
    expect(deferred).toHaveLength(1);
    release();
    await Promise.all(deferred);
    expect(sent).toEqual([u.email]);
  });

  it('over HTTP both answer 200 and only the known address gets a reset link', async () => {
    const u = await createUser();
    for (const email of [u.email, `${unique('nobody')}@test.local`]) {
      const res = await call('/api/auth/forgot', { body: { email }, clock: NOW });
      expect(res.status).toBe(200);
    }
    await expect.poll(async () => (await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, u.email))).length).toBe(1);
  });
});

/**
 * Issue 26.5: with attempts from rotating client addresses the owner's right password got 429 on every
 * try, and their own refused tries extended a 15-minute lock. OWASP "Slow Down Online Guessing Attacks
 * with Device Cookies": a client that signed in to the account before carries a signed device cookie and
 * is limited on its own, apart from the untrusted pool.
 */
describe('26.5 device cookies: a client that signed in before keeps signing in under attack', () => {
  const DEVICE = 'qk_device';
  function deviceCookie(res: Response): string | null {
    const m = new RegExp(`${DEVICE}=([^;]*)`).exec(res.headers.get('set-cookie') ?? '');
    return m?.[1] ? `${DEVICE}=${m[1]}` : null;
  }
  const login = (email: string, password: string, seconds: number, opts: { cookie?: string; client?: string } = {}) =>
    call('/api/auth/login', { body: { email, password }, cookie: opts.cookie, headers: { 'cf-connecting-ip': opts.client ?? ip() }, clock: at(seconds) });

  it('a successful sign-in sets an HttpOnly device cookie that names the account by a hash, not the e-mail', async () => {
    const u = await createUser();
    const res = await login(u.email, u.password, 0);
    expect(res.status).toBe(200);
    const header = res.headers.get('set-cookie') ?? '';
    const cookie = deviceCookie(res);
    expect(cookie).not.toBeNull();
    expect(header).toMatch(new RegExp(`${DEVICE}=[^;]*;.*HttpOnly`, 'i'));
    const raw = decodeURIComponent(cookie!);
    const [local] = u.email.split('@');
    expect(raw).not.toContain(local!);
    // the readable part of the token neither
    const body = raw.slice(DEVICE.length + 1).split('.')[0]!;
    expect(atob(body.replace(/-/g, '+').replace(/_/g, '/'))).not.toContain(local!);
    // A wrong password sets none.
    expect(deviceCookie(await login(u.email, 'fel', 1))).toBeNull();
  });

  it('rotating attackers for 92 s: the owner with a device cookie gets in on every try (14 of 14)', async () => {
    const u = await createUser();
    const device = deviceCookie(await login(u.email, u.password, 0))!;
    expect(device).not.toBeNull();
    const owner = ip();
    const ownerStatuses: number[] = [];
    for (let s = 1; s <= 92; s++) {
      // A guess a second, each from a fresh address: every slot the slowed account opens is taken.
      await login(u.email, 'fel', s);
      if (s % 6 === 0 && ownerStatuses.length < 14) ownerStatuses.push((await login(u.email, u.password, s, { cookie: device, client: owner })).status);
    }
    expect(ownerStatuses).toHaveLength(14);
    expect(
      ownerStatuses.every((st) => st === 200),
      String(ownerStatuses),
    ).toBe(true);
    // The untrusted pool is still slowed meanwhile.
    expect((await login(u.email, u.password, 92)).status).toBe(429);
  }, 90_000);

  it('a device cookie of one account does not help on another, and a tampered one is untrusted', async () => {
    const a = await createUser();
    const b = await createUser();
    const deviceA = deviceCookie(await login(a.email, a.password, 0))!;
    for (let i = 0; i < 12; i++) await login(b.email, 'fel', 1);
    expect((await login(b.email, b.password, 1, { cookie: deviceA })).status).toBe(429);
    for (let i = 0; i < 12; i++) await login(a.email, 'fel', 1);
    const i = DEVICE.length + 4; // a character of the signed payload
    const tampered = deviceA.slice(0, i) + (deviceA[i] === 'A' ? 'B' : 'A') + deviceA.slice(i + 1);
    expect((await login(a.email, a.password, 1, { cookie: tampered })).status).toBe(429);
    expect((await login(a.email, a.password, 1, { cookie: deviceA })).status).toBe(200);
  });

  it('30 parallel wrong passwords with one device cookie: at most LOGIN_DEVICE_LIMIT reach the check', async () => {
    const u = await createUser();
    const device = deviceCookie(await login(u.email, u.password, 0))!;
    const results = await Promise.all(Array.from({ length: 30 }, () => login(u.email, 'fel', 1, { cookie: device })));
    const checked = results.filter((r) => r.status === 401).length;
    expect(checked).toBeGreaterThan(0);
    expect(checked).toBeLessThanOrEqual(LOGIN_DEVICE_LIMIT);
    expect(results.every((r) => r.status === 401 || r.status === 429)).toBe(true);
  });

  it("the owner's own refused tries do not extend their lock (device and plain client alike)", async () => {
    const u = await createUser();
    const device = deviceCookie(await login(u.email, u.password, 0))!;
    const owner = ip();
    for (let i = 1; i <= LOGIN_DEVICE_LIMIT; i++) expect((await login(u.email, 'fel', i, { cookie: device, client: owner })).status).toBe(401);
    // Locked now; the owner keeps trying every minute for 14 minutes: refused, not counted.
    for (let m = 1; m <= 14; m++) expect((await login(u.email, u.password, LOGIN_DEVICE_LIMIT + m * 60, { cookie: device, client: owner })).status).toBe(429);
    // 15 minutes after the last counted try the right password works again.
    expect((await login(u.email, u.password, LOGIN_DEVICE_LIMIT + 15 * 60 + 1, { cookie: device, client: owner })).status).toBe(200);
  });

  it('without a device cookie the pair lock (client + account) is not extended by refused tries either', async () => {
    const v = await createUser();
    const client = ip();
    for (let i = 1; i <= LOGIN_PAIR_LIMIT; i++) await login(v.email, 'fel', i * 61, { client });
    const last = LOGIN_PAIR_LIMIT * 61;
    for (let m = 1; m <= 14; m++) expect((await login(v.email, v.password, last + m * 60, { client })).status).toBe(429);
    expect((await login(v.email, v.password, last + 15 * 60 + 1, { client })).status).toBe(200);
  });

  it('a device cookie is issued only after the TOTP step, not for a pending sign-in', async () => {
    const u = await createUser();
    const secret = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(20))));
    await testDb().insert(totpFactors).values({ id: newId(), userId: u.id, secret, verifiedAt: '2026-01-01T00:00:00.000Z' });
    const first = await login(u.email, u.password, 0);
    expect(first.status).toBe(200);
    expect(deviceCookie(first)).toBeNull();
    const done = await call('/api/auth/login/totp', { body: { code: totpCodeAt(secret, new Date(at(0))) }, cookie: sessionCookie(first)!, clock: at(0) });
    expect(done.status).toBe(200);
    expect(deviceCookie(done)).not.toBeNull();
  });
});
