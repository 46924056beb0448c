/**
 * Authorization matrix (issue 9 item 1, ARCHITECTURE.md "Authorization"): every route the Hono app
 * registers × {visitor, owner A, owner B, superadmin} × {A's object, a missing object}. Expected
 * statuses live in route-table.ts; a registered route without an entry fails here. Every refusal must
 * leave every guarded table unchanged.
 */
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { venues } from '../../../worker/db/schema';
import { call, createUser, snapshot, testDb, unique, type TestUser } from '../../factories';
import { registeredRoutes } from './app-routes';
import { missingTarget, objectId, ROUTES, targetFor, type Actor, type RouteCase, type Target } from './route-table';
import { createSession, SESSION_COOKIE, SESSION_TTL_MS } from '../../../worker/lib/session';
import { CLOCK, CLOCK_DATE, createWorld, GUARDED_TABLES, type World } from './world';

function actorUser(world: World, actor: Actor): TestUser | null {
  if (actor === 'visitor') return null;
  if (actor === 'own') return world.a.user;
  if (actor === 'other') return world.b.user;
  return world.superadmin;
}

function buildPath(key: string, spec: RouteCase, t: Target): string {
  if (spec.path) return spec.path(t);
  const template = key.slice(key.indexOf(' ') + 1);
  const id = objectId(spec.object, t);
  return template.replace(':id', encodeURIComponent(id ?? ''));
}

interface Cell {
  actor: Actor;
  missing: boolean;
  expected: number;
}

function cellsOf(spec: RouteCase): Cell[] {
  const cells: Cell[] = (['visitor', 'other', 'own', 'superadmin'] as Actor[]).map((actor) => ({ actor, missing: false, expected: spec.expect[actor] }));
  if (spec.missing !== undefined) cells.push({ actor: spec.missingActor ?? 'own', missing: true, expected: spec.missing });
  return cells;
}

async function runCell(world: World, key: string, spec: RouteCase, cell: Cell): Promise<string | null> {
  let t = targetFor(world, unique('m'));
  if (cell.missing) t = missingTarget(spec.object, t);
  const method = key.slice(0, key.indexOf(' '));
  const path = buildPath(key, spec, t);
  const user = actorUser(world, cell.actor);
  const res = await call(path, {
    method,
    body: spec.body ? spec.body(t) : method === 'GET' || method === 'DELETE' ? undefined : {},
    cookie: user?.cookie,
    clock: CLOCK,
    headers: spec.headers,
  });
  const text = await res.text();
  const label = `${key} as ${cell.actor}${cell.missing ? ' (missing id)' : ''} → ${path}`;
  if (res.status !== cell.expected) return `${label}: expected ${cell.expected}, got ${res.status} ${text.slice(0, 200)}`;
  if (cell.expected >= 400 && path.startsWith('/api/')) {
    let body: any;
    try {
      body = JSON.parse(text);
    } catch {
      return `${label}: refusal is not JSON: ${text.slice(0, 120)}`;
    }
    if (typeof body?.error?.code !== 'string' || typeof body?.error?.message !== 'string') return `${label}: no error envelope: ${text.slice(0, 120)}`;
  }
  return null;
}

/**
 * Runs one route's row. Refusals first, all on one world, between two snapshots (a refusal must change
 * nothing); they go out at once (issue 27: none of them may change anything, so their order cannot matter).
 * Then each allowed call, one after another: reads share that world, writes get a fresh one (a DELETE by A
 * must not hide what the superadmin may do).
 */
async function runRoute(key: string, spec: RouteCase): Promise<string[]> {
  const problems: string[] = [];
  const method = key.slice(0, key.indexOf(' '));
  const cells = cellsOf(spec);
  const refusals = cells.filter((c) => c.expected >= 400);
  const allowed = cells.filter((c) => c.expected < 400);
  const world = await createWorld();
  if (refusals.length) {
    const before = await snapshot(GUARDED_TABLES);
    for (const p of await Promise.all(refusals.map((cell) => runCell(world, key, spec, cell)))) if (p) problems.push(p);
    const after = await snapshot(GUARDED_TABLES);
    const changed = GUARDED_TABLES.filter((name) => before[name] !== after[name]);
    if (changed.length) problems.push(`${key}: refusals (${refusals.map((c) => c.actor).join(', ')}) changed ${changed.join(', ')}`);
  }
  let fresh = false;
  for (const cell of allowed) {
    const w = method === 'GET' || !fresh ? world : await createWorld();
    fresh = method !== 'GET';
    const p = await runCell(w, key, spec, cell);
    if (p) problems.push(p);
  }
  return problems;
}

describe('authorization matrix', () => {
  it('every registered route is classified in route-table.ts, and every entry is a real route', () => {
    const registered = registeredRoutes();
    const unclassified = registered.filter((r) => !ROUTES[r]);
    const stale = Object.keys(ROUTES).filter((r) => !registered.includes(r));
    expect(unclassified, 'add these routes to test/integration/security/route-table.ts').toEqual([]);
    expect(stale, 'these table entries match no registered route').toEqual([]);
    expect(registered.length).toBeGreaterThan(50);
  });

  // One test per route, every cell inside it; failures are collected so one run shows the whole row.
  // The superadmin's auto-extend extends every series in the database: it runs first, before the other routes have
  // made a few hundred worlds (each with two series), or it alone takes ~13 s (issue 27).
  const first = 'POST /api/owner/series/auto-extend';
  const ordered = Object.entries(ROUTES).sort(([a], [b]) => Number(b === first) - Number(a === first));
  for (const [key, spec] of ordered) {
    it(`${key}`, async () => {
      if (!registeredRoutes().includes(key)) return; // reported by the coverage test above
      const problems = await runRoute(key, spec);
      expect(problems, spec.note ?? '').toEqual([]);
    });
  }
});

describe('hidden businesses (is_public = false) on public reads', () => {
  it('invisible to visitors and other owners on every public read; visible to the owner in the listing API', async () => {
    const world = await createWorld();
    const { a } = world;
    // Hide A's business (same name, so its slug and venue page stay), then read what a visitor can read.
    const [row] = await testDb().select().from(venues).where(eq(venues.id, a.venueId));
    const visible = await call(`/quiz/${a.citySlug}/${a.venueSlug}`, { clock: CLOCK });
    expect(visible.status).toBe(200); // the page exists while public: the check below can fail
    await call(`/api/owner/venues/${a.venueId}`, {
      method: 'PATCH',
      cookie: a.user.cookie,
      clock: CLOCK,
      body: { name: row!.name, isPublic: false },
    }).then(async (r) => expect(r.status, await r.text()).toBe(200));
    const leaks: string[] = [];
    const reads: Array<[string, string | undefined]> = [
      [`/api/listing?city=${a.citySlug}`, undefined],
      [`/api/listing?city=${a.citySlug}`, world.b.user.cookie],
      ['/api/listing/cities', undefined],
      [`/?city=${a.citySlug}`, undefined],
      [`/quiz/${a.citySlug}`, undefined],
      [`/quiz/${a.citySlug}/${a.venueSlug}`, undefined],
      ['/sitemap.xml', undefined],
      ['/sitemaps/sidor-1.xml', undefined],
      ['/sitemaps/stallen-1.xml', undefined],
    ];
    for (const [path, cookie] of reads) {
      const res = await call(path, { clock: CLOCK, cookie });
      const text = await res.text();
      if ([a.quizId, a.seriesQuizId, a.venueId, a.venueSlug].some((id) => text.includes(id))) leaks.push(`${path}${cookie ? ' (owner B)' : ''}: ${res.status}`);
    }
    expect(leaks).toEqual([]);
    // The owner still sees their own hidden quizzes in the listing API (spec 01 §6).
    const own = await call(`/api/listing?city=${a.citySlug}`, { clock: CLOCK, cookie: a.user.cookie });
    expect(await own.text()).toContain(a.seriesQuizId);
  });
});

describe('sessions that must not authorize', () => {
  it('a pending-TOTP session, an expired session, a wrong secret and a deleted user act as a visitor', async () => {
    const world = await createWorld();
    const db = testDb();
    const pending = await createSession(db, world.a.user.id, CLOCK_DATE, { mfaPending: true });
    const expired = await createSession(db, world.a.user.id, new Date(CLOCK_DATE.getTime() - SESSION_TTL_MS - 60_000));
    const [id] = world.a.user.cookie.split('=')[1]!.split('.');
    const cookies: Array<[string, string]> = [
      ['pending TOTP', `${SESSION_COOKIE}=${pending.token}`],
      ['expired', `${SESSION_COOKIE}=${expired.token}`],
      ['wrong secret', `${SESSION_COOKIE}=${id}.${'x'.repeat(40)}`],
      ['garbage', `${SESSION_COOKIE}=%00%ff..`],
    ];
    const before = await snapshot(GUARDED_TABLES.filter((t) => t !== 'sessions'));
    for (const [label, cookie] of cookies) {
      const read = await call(`/api/owner/quizzes/${world.a.quizId}`, { cookie, clock: CLOCK });
      expect(read.status, label).toBe(401);
      const write = await call(`/api/owner/quizzes/${world.a.quizId}`, { method: 'DELETE', cookie, clock: CLOCK });
      expect(write.status, label).toBe(401);
    }
    expect(await snapshot(GUARDED_TABLES.filter((t) => t !== 'sessions'))).toEqual(before);

    // A user deleted by the superadmin: their old cookie no longer works.
    const del = await call(`/api/admin/users/${world.b.user.id}`, { method: 'DELETE', cookie: world.superadmin.cookie, clock: CLOCK });
    expect(del.status).toBe(200);
    expect((await call('/api/owner/dashboard', { cookie: world.b.user.cookie, clock: CLOCK })).status).toBe(401);
  });
});

describe('ids inside bodies', () => {
  it('mixing my ids with someone else’s is refused and changes nothing', async () => {
    const world = await createWorld();
    const { a, b } = world;
    const before = await snapshot(GUARDED_TABLES);
    const attempts: Array<[string, string, unknown]> = [
      ['my business, their quiz', '/api/promotion/marketing-checkout', { venueId: a.venueId, items: [{ quizId: b.seriesQuizId, tier: 'recommended' }] }],
      ['their business, my quiz', '/api/promotion/marketing-checkout', { venueId: b.venueId, items: [{ quizId: a.seriesQuizId, tier: 'recommended' }] }],
      ['my quiz and theirs', '/api/promotion/availability', { quizIds: [a.quizId, b.quizId] }],
      [
        'a quiz at their place',
        '/api/owner/quizzes',
        { locationId: b.locationId, date: '2030-03-20', startTime: '19:00', category: 'allmänbildning', recurring: false },
      ],
      ['their order', '/api/payments/cancel', { orderId: b.orderId }],
    ];
    for (const [label, path, body] of attempts) {
      const res = await call(path, { cookie: a.user.cookie, clock: CLOCK, body });
      expect(res.status, `${label}: ${await res.text()}`).toBe(403);
    }
    expect(await snapshot(GUARDED_TABLES)).toEqual(before);
  });

  it('registering "to take over" a business someone already owns gives no ownership', async () => {
    const world = await createWorld();
    const email = `${unique('kapare')}@test.local`;
    const reg = await call('/api/auth/register', {
      clock: CLOCK,
      body: { email, password: 'hemligt123', confirmPassword: 'hemligt123', takeoverVenue: world.a.venueId },
    });
    expect([201, 400, 409]).toContain(reg.status);
    const rows = await testDb().select().from(venues).where(eq(venues.id, world.a.venueId));
    expect(rows[0]!.userId).toBe(world.a.user.id);
    // Even with a verified account, claiming it is refused.
    const thief = await createUser({ now: CLOCK_DATE });
    const claim = await call('/api/takeover', { cookie: thief.cookie, clock: CLOCK, body: { venueId: world.a.venueId } });
    expect(claim.status).toBe(409);
    expect((await testDb().select().from(venues).where(eq(venues.id, world.a.venueId)))[0]!.userId).toBe(world.a.user.id);
  });
});
