/**
 * Headers and cookies (issue 9 item 6): security headers on pages, API and errors; HSTS only in
 * production; the session cookie's flags; cross-site state changes refused on EVERY non-GET route
 * (the list comes from app.routes, so new routes are covered automatically); secrets never logged.
 *
 * "Production" requests run the real app with the one config override APP_ENV=production
 * (app.fetch with the test env plus that var), so the decision under test is the app's own.
 */
import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { app } from '../../../worker/app';
import { mailOutbox } from '../../../worker/db/schema';
import { call, createUser, snapshot, testDb, unique } from '../../factories';
import { registeredRoutes } from './app-routes';
import { ROUTES, targetFor } from './route-table';
import { CLOCK, createWorld, GUARDED_TABLES } from './world';

const PROD_ORIGIN = 'https://quizkvall.test';
const prodEnv = () => ({ ...env, APP_ENV: 'production', APP_URL: PROD_ORIGIN }) as Env;
async function prodFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
  return app.fetch(new Request(`${PROD_ORIGIN}${path}`, init), prodEnv(), ctx);
}

function expectSecurityHeaders(res: Response, label: string) {
  const csp = res.headers.get('content-security-policy') ?? '';
  expect(csp, label).toContain("default-src 'self'");
  expect(csp, label).toContain("script-src 'self'");
  expect(csp, label).not.toMatch(/script-src[^;]*'unsafe-(inline|eval)'/);
  expect(csp, label).toContain("object-src 'none'");
  expect(csp, label).toContain("frame-ancestors 'none'");
  // Our own pages may frame our own widgets (the owner's embed preview); only Turnstile besides.
  expect(
    csp
      .match(/frame-src ([^;]*)/)?.[1]
      .split(' ')
      .sort(),
    label,
  ).toEqual(["'self'", 'https://challenges.cloudflare.com']);
  expect(csp, label).toContain("base-uri 'self'");
  expect(res.headers.get('x-content-type-options'), label).toBe('nosniff');
  expect(res.headers.get('x-frame-options'), label).toBe('DENY');
  expect(res.headers.get('referrer-policy'), label).toBe('strict-origin-when-cross-origin');
}

afterEach(() => vi.restoreAllMocks());

describe('security headers', () => {
  it('pages, API answers, errors and the JSON 404 all carry CSP, nosniff, frame and referrer policies', async () => {
    const world = await createWorld();
    const paths = [
      '/',
      `/quiz/${world.a.citySlug}`,
      `/quiz/${world.a.citySlug}/${world.a.venueSlug}`,
      '/quiz/finns-inte-alls',
      '/sitemap.xml',
      '/sitemaps/stallen-1.xml',
      '/robots.txt',
      '/api/health',
      '/api/listing',
      '/api/owner/dashboard', // 401
      '/api/finns-inte', // JSON 404
      '/api/listing?page=-1', // 400
    ];
    for (const path of paths) expectSecurityHeaders(await call(path, { clock: CLOCK }), path);
    expectSecurityHeaders(await call('/api/feedback', { method: 'POST', body: '{', clock: CLOCK }), 'malformed JSON');
  });

  it('HSTS only in production (local http://localhost stays reachable)', async () => {
    expect((await call('/')).headers.get('strict-transport-security')).toBeNull();
    const res = await prodFetch('/api/health');
    const hsts = res.headers.get('strict-transport-security') ?? '';
    expect(hsts).toMatch(/max-age=(\d+)/);
    expect(Number(/max-age=(\d+)/.exec(hsts)![1])).toBeGreaterThanOrEqual(15_552_000);
    expectSecurityHeaders(res, 'production');
  });

  it('production hides the development routes and ignores the test clock header', async () => {
    expect((await prodFetch('/dev/mail.json')).status).toBe(404);
    expect((await prodFetch('/dev/checkout/x')).status).toBe(404);
    const res = await prodFetch('/api/promotion/pricing', { headers: { 'x-clock-now': '1999-01-01T00:00:00Z' } });
    expect(res.status).toBe(200);
    // A pinned clock would show in the listing's "today"; production must use real time.
    const listing = (await (await prodFetch('/api/listing', { headers: { 'x-clock-now': '1999-01-01T00:00:00Z' } })).json()) as { today?: string };
    expect(listing.today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(listing.today).not.toBe('1999-01-01');
    // …while in tests the same header does pin it (so the check above can fail).
    const pinned = (await (await call('/api/listing', { clock: '1999-01-01T12:00:00Z' })).json()) as { today?: string };
    expect(pinned.today).toBe('1999-01-01');
  });
});

describe('D1 row-count headers (issue 43.9)', () => {
  const STATS = ['x-d1-rows-read', 'x-d1-rows-written', 'x-d1-statements'];
  // Staging runs APP_ENV=production with D1_STATS=1: the counts are for a signed-in superadmin only.
  const statsEnv = () => ({ ...prodEnv(), D1_STATS: '1' }) as Env;
  const fetchAs = async (path: string, cookie?: string) => {
    const ctx = { waitUntil: () => {}, passThroughOnException: () => {}, props: {} } as unknown as ExecutionContext;
    const res = await app.fetch(new Request(`${PROD_ORIGIN}${path}`, { headers: cookie ? { cookie } : {} }), statsEnv(), ctx);
    await res.arrayBuffer();
    return STATS.map((h) => res.headers.get(h));
  };

  it('production with D1_STATS=1 never sends them to a visitor or an owner, only to a superadmin', async () => {
    for (const path of ['/api/health', '/api/listing', '/api/tips/config', '/api/does-not-exist']) {
      expect(await fetchAs(path), path).toEqual([null, null, null]);
    }
    const owner = await createUser();
    expect(await fetchAs('/api/listing', owner.cookie)).toEqual([null, null, null]);
    const superadmin = await createUser({ roles: ['superadmin'] });
    const [read, written] = await fetchAs('/api/listing', superadmin.cookie);
    expect(Number(read)).toBeGreaterThan(0);
    expect(written).toMatch(/^\d+$/);
    // Outside production (development, test) they stay on for everyone: the bench and the cost tests read them.
    expect((await call('/api/health')).headers.get('x-d1-rows-read')).toMatch(/^\d+$/);
  });
});

describe('session cookie', () => {
  async function loginCookie(fetcher: (path: string, init: RequestInit) => Promise<Response>, origin: string) {
    const world = await createWorld();
    const res = await fetcher('/api/auth/login', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json', 'x-clock-now': CLOCK },
      body: JSON.stringify({ email: world.a.user.email, password: world.a.user.password }),
    });
    expect(res.status).toBe(200);
    return res.headers.getSetCookie().find((c) => c.startsWith('qk_session='))!;
  }

  it('HttpOnly, SameSite=Lax, Path=/ and an expiry; Secure on https and always in production', async () => {
    const local = await loginCookie(
      (p, i) => call(p, { method: i.method, body: i.body as string, headers: i.headers as Record<string, string> }),
      'http://localhost',
    );
    expect(local).toMatch(/;\s*HttpOnly/i);
    expect(local).toMatch(/;\s*SameSite=Lax/i);
    expect(local).toMatch(/;\s*Path=\//i);
    expect(local, local.replace(/=[^;]+/, '=…')).toMatch(/;\s*(Expires|Max-Age)=/i);
    const prod = await loginCookie(prodFetch, PROD_ORIGIN);
    expect(prod).toMatch(/;\s*HttpOnly/i);
    expect(prod).toMatch(/;\s*SameSite=Lax/i);
    expect(prod).toMatch(/;\s*Secure/i);
  });

  it('the cookie holds id.secret; only a hash of the secret is stored', async () => {
    const world = await createWorld();
    const res = await call('/api/auth/login', { body: { email: world.a.user.email, password: world.a.user.password }, clock: CLOCK });
    const token = decodeURIComponent(/qk_session=([^;]+)/.exec(res.headers.getSetCookie().join(';'))![1]!);
    const [id, secret] = token.split('.');
    const rows = await testDb().all<{ secret_hash: string }>(sql`SELECT secret_hash FROM sessions WHERE id = ${id}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.secret_hash).not.toContain(secret!);
    expect(JSON.stringify(await snapshot(['sessions']))).not.toContain(secret!);
  });
});

describe('cross-site requests', () => {
  // Exempt by design: the Stripe webhook (signature) and the RFC 8058 one-click unsubscribe (signed link;
  // mail providers POST it without Origin; it only ends one follow — follows.test.ts — or forgets one
  // tipster's address — tips.test.ts —, cancels one RSVP — rsvp.test.ts — or stops quizmaster invitations to one address — quizmasters.test.ts).
  const EXEMPT = new Set([
    'POST /api/payments/webhook',
    'POST /bevakningar/avsluta',
    'POST /tipsa/stopp',
    'POST /vi-kommer/avboka',
    'POST /quizmaster-inbjudan/stopp',
  ]);
  const stateChanging = () => registeredRoutes().filter((r) => !r.startsWith('GET ') && !EXEMPT.has(r));

  it('every state-changing route refuses a foreign Origin, Sec-Fetch-Site: cross-site, and a request with neither', async () => {
    const world = await createWorld();
    const routes = stateChanging();
    expect(routes.length).toBeGreaterThan(40);
    const before = await snapshot(GUARDED_TABLES);
    const problems: string[] = [];
    for (const key of routes) {
      const spec = ROUTES[key];
      const t = targetFor(world, unique('x'));
      const method = key.slice(0, key.indexOf(' '));
      const template = key.slice(key.indexOf(' ') + 1);
      const path = spec?.path ? spec.path(t) : template.replace(':id', world.a.venueId);
      const body = spec?.body ? JSON.stringify(spec.body(t)) : undefined;
      // The attacker's page makes the signed-in owner's browser send these (cookie included).
      const variants: Array<[string, Record<string, string>]> = [
        ['foreign Origin', { origin: 'https://evil.example' }],
        ['Origin null', { origin: 'null' }],
        ['cross-site fetch metadata', { 'sec-fetch-site': 'cross-site' }],
        ['same-site (sibling subdomain)', { 'sec-fetch-site': 'same-site', origin: 'http://evil.localhost' }],
        ['no Origin, no fetch metadata', {}],
        ['lookalike Origin', { origin: 'http://localhost.evil.example' }],
      ];
      for (const [label, headers] of variants) {
        const res = await call(path, {
          method,
          noOrigin: true,
          cookie: world.a.user.cookie,
          clock: CLOCK,
          headers: { ...headers, 'content-type': 'application/json' },
          body,
        });
        const text = await res.text();
        if (res.status !== 403) problems.push(`${key} (${label}): ${res.status} ${text.slice(0, 100)}`);
        else if (!text.includes('annan webbplats')) problems.push(`${key} (${label}): 403 without the CSRF message: ${text.slice(0, 100)}`);
      }
    }
    expect(problems).toEqual([]);
    expect(await snapshot(GUARDED_TABLES)).toEqual(before);
  });

  it('the same requests from our own origin pass the guard (the refusal above is the guard, not something else)', async () => {
    const world = await createWorld();
    const res = await call('/api/owner/profile', { method: 'PUT', cookie: world.a.user.cookie, clock: CLOCK, body: { firstName: 'Kim' } });
    expect(res.status).toBe(200);
    const viaFetchMetadata = await call('/api/owner/profile', {
      method: 'PUT',
      noOrigin: true,
      cookie: world.a.user.cookie,
      clock: CLOCK,
      headers: { 'sec-fetch-site': 'same-origin' },
      body: { firstName: 'Kim' },
    });
    expect(viaFetchMetadata.status).toBe(200);
  });
});

describe('secrets never reach the logs', () => {
  it('register → verify → login → forgot → reset → login: no token, cookie or password in any console output', async () => {
    const logged: string[] = [];
    for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => {
        logged.push(args.map((a) => (a instanceof Error ? `${a.message} ${a.stack}` : typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
      });
    }
    const email = `${unique('logg')}@test.local`;
    const password = 'hemligt-lösen-1';
    const newPassword = 'annat-lösen-22';
    const secrets: string[] = [password, newPassword];

    expect((await call('/api/auth/register', { body: { email, password, confirmPassword: password }, clock: CLOCK })).status).toBe(201);
    const verifyMail = await latestMailTo(email);
    const verifyToken = new URL(/https?:\/\/\S+/.exec(verifyMail)![0]).searchParams.get('token')!;
    secrets.push(verifyToken);
    const verified = await call('/api/auth/verify', { body: { token: verifyToken }, clock: CLOCK });
    expect(verified.status).toBe(200);
    secrets.push(sessionSecret(verified));
    // A failed login (wrong password) is also a place where passwords leak into logs.
    expect((await call('/api/auth/login', { body: { email, password: 'fel-lösen-333' }, clock: CLOCK })).status).toBe(401);
    secrets.push('fel-lösen-333');
    const login = await call('/api/auth/login', { body: { email, password }, clock: CLOCK });
    expect(login.status).toBe(200);
    secrets.push(sessionSecret(login));

    expect((await call('/api/auth/forgot', { body: { email }, clock: CLOCK })).status).toBe(200);
    const resetToken = new URL(/https?:\/\/\S+/.exec(await latestMailTo(email))![0]).searchParams.get('token')!;
    secrets.push(resetToken);
    expect((await call('/api/auth/reset', { body: { token: resetToken, password: newPassword, confirmPassword: newPassword }, clock: CLOCK })).status).toBe(
      200,
    );
    const again = await call('/api/auth/login', { body: { email, password: newPassword }, clock: CLOCK });
    expect(again.status).toBe(200);
    secrets.push(sessionSecret(again));

    for (const secret of secrets) {
      expect(secret.length).toBeGreaterThan(8);
      for (const line of logged) expect(line.includes(secret), `a secret reached the log: ${line.slice(0, 200)}`).toBe(false);
    }
  });
});

async function latestMailTo(email: string): Promise<string> {
  const rows = await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
  rows.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : 0));
  return rows.at(-1)!.text;
}

function sessionSecret(res: Response): string {
  const m = /qk_session=([^;]+)/.exec(res.headers.getSetCookie().join(';'));
  return decodeURIComponent(m![1]!).split('.')[1]!;
}
