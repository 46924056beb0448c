/**
 * Issue 13, faults 3, 4, 5, 7, 9 and 12: the sign-in throttles and the mail-sending endpoints, attacked
 * as a hostile client would (parallel requests, several clients, many addresses). Each test failed on
 * the code before the fix: the limit was read before the hash and counted after it, one limit per
 * account locked the owner out, and registration was limited per address only.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { mailOutbox, totpFactors } from '../../../worker/db/schema';
import { requestPasswordReset } from '../../../worker/features/auth/service';
import type { Mailer } from '../../../worker/ports/mailer';
import { LOGIN_PAIR_LIMIT, TOTP_SESSION_LIMIT, TOTP_USER_LIMIT } from '../../../worker/features/auth/contract';
import { MAIL_CLIENT_LIMIT } from '../../../worker/lib/rate-limit';
import { totpCodeAt } from '../../../worker/lib/totp';
import { newId } from '../../../worker/lib/ids';
import { call, callJson, createUser, testDb, testDeps, unique, VERIFIED_AT } from '../../factories';

const NOW = '2030-03-01T10:00:00.000Z';
const at = (seconds: number) => new Date(Date.parse(NOW) + seconds * 1000).toISOString();
const ip = () => `10.13.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;

function sessionCookie(res: Response): string | null {
  const m = /qk_session=([^;]*)/.exec(res.headers.get('set-cookie') ?? '');
  return m && m[1] ? `qk_session=${m[1]}` : null;
}

describe('13.3 the login throttle counts before it checks', () => {
  it('40 parallel wrong passwords from one client: at most 10 reach the password check', async () => {
    const u = await createUser();
    const client = ip();
    const results = await Promise.all(
      Array.from({ length: 40 }, () => call('/api/auth/login', { body: { email: u.email, password: 'fel-lösen' }, headers: { 'cf-connecting-ip': client }, clock: NOW })),
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
      Array.from({ length: 100 }, () => call('/api/auth/login', { body: { email: u.email, password: 'fel-lösen' }, headers: { 'cf-connecting-ip': ip() }, clock: NOW })),
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
    expect((await call('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip() }, clock: at(3) })).status).toBe(429);
    expect((await call('/api/auth/login', { body: { email: u.email, password: u.password }, headers: { 'cf-connecting-ip': ip() }, clock: at(7) })).status).toBe(200);
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
    const results = await Promise.all(Array.from({ length: 20 }, () => call('/api/auth/login/totp', { body: { code: wrongCode }, cookie: pending, clock: NOW })));
    // Once the pending sign-in has ended, late requests get 401 "Ingen inloggning väntar…" without a
    // check; only answers that say the code was wrong were actually checked.
    const checked = (await wrongCodeAnswers(results)).length;
    expect(checked).toBeLessThan(TOTP_SESSION_LIMIT);
    expect(results.filter((r) => r.status === 429).length).toBeGreaterThan(0);
  });

  it('parallel guesses over several pending sign-ins: at most 10 per user are checked', async () => {
    const { wrongCode, login } = await pendingSignIn();
    const pendings = [await login(), await login(), await login(), await login()];
    const results = await Promise.all(pendings.flatMap((p) => Array.from({ length: 6 }, () => call('/api/auth/login/totp', { body: { code: wrongCode }, cookie: p, clock: NOW }))));
    expect((await wrongCodeAnswers(results)).length).toBeLessThanOrEqual(TOTP_USER_LIMIT);
  });
});

describe('13.7 mail-sending endpoints are limited per client too', () => {
  it('one client cannot register 30 addresses in a row (each would send a mail)', async () => {
    const client = ip();
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) {
      const email = `${unique('reg')}@test.local`;
      statuses.push((await call('/api/auth/register', { body: { email, password: 'hemligt123', confirmPassword: 'hemligt123' }, headers: { 'cf-connecting-ip': client }, clock: NOW })).status);
    }
    expect(statuses.filter((s) => s === 201)).toHaveLength(MAIL_CLIENT_LIMIT);
    expect(statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429)).toBe(true);
  });

  it('probing which addresses exist (409) is limited per client as well', async () => {
    const client = ip();
    const known = await createUser();
    const statuses: number[] = [];
    for (let i = 0; i < MAIL_CLIENT_LIMIT + 5; i++) {
      statuses.push((await call('/api/auth/register', { body: { email: known.email, password: 'hemligt123', confirmPassword: 'hemligt123' }, headers: { 'cf-connecting-ip': client }, clock: at(i * 16 * 60) })).status);
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
      expect(statuses.slice(0, MAIL_CLIENT_LIMIT).every((s) => s === 200), `${path}: ${statuses}`).toBe(true);
      expect(statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429), `${path}: ${statuses}`).toBe(true);
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
      statuses.push((await call('/api/account/email', { body: { newEmail: `${unique('ny')}@test.local`, password: u.password }, cookie: u.cookie, headers: { 'cf-connecting-ip': client }, clock: NOW })).status);
    }
    expect(statuses.slice(0, MAIL_CLIENT_LIMIT).every((s) => s === 200), String(statuses)).toBe(true);
    expect(statuses.slice(MAIL_CLIENT_LIMIT).every((s) => s === 429), String(statuses)).toBe(true);
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
