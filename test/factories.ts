/**
 * Test data built through the real database with unique values, plus a request helper that calls the
 * Worker like a same-origin browser would. For integration tests (they run inside workerd).
 */
import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { createDb, type Db } from '../worker/db/client';
import { parseConfig, type Config } from '../worker/env';
import { createClock } from '../worker/lib/clock';
import { ensureListingDay } from '../worker/features/listing/listing-day';
import { createDeps, productionPorts, type Deps, type PortFactories } from '../worker/ports/deps';
import { locations, profiles, quizzes, userRoles, users, venues, passwordCredentials, type QuizRow } from '../worker/db/schema';
import { newId } from '../worker/lib/ids';
import { hashPassword } from '../worker/lib/password';
import { createSession, SESSION_COOKIE } from '../worker/lib/session';
import { TEST_TOWNS, TEST_TOWNS_NON_ASCII } from './fixtures/test-towns';
import { slugify } from '../worker/lib/slug';

export const ORIGIN = 'http://localhost';

export function testDb(): Db {
  return createDb(env.DB);
}

/**
 * A run's deps for calling a service directly, built by the same createDeps as a request: the test
 * database (or a faulty one), the test config (with overrides), a clock pinned at `now` (ISO or Date;
 * real time when omitted) and the production ports (the mailer writes the outbox) unless `ports`
 * replaces some with fakes.
 */
export function testDeps(opts: { now?: string | Date; db?: Db; config?: Partial<Config>; ports?: Partial<PortFactories> } = {}): Deps {
  const config = { ...parseConfig(env as unknown as Env), ...opts.config };
  const now = opts.now === undefined ? undefined : typeof opts.now === 'string' ? opts.now : opts.now.toISOString();
  return createDeps({ db: opts.db ?? testDb(), config, clock: createClock(now) }, { ...productionPorts, ...opts.ports });
}

/** A clock pinned at `at` (what x-clock-now does for a request), for calling a service directly. */
export function pinnedClock(at: string | Date) {
  return createClock(typeof at === 'string' ? at : at.toISOString());
}

let seq = 0;
/** A short unique suffix for names and e-mails. */
export function unique(prefix = 't'): string {
  seq++;
  // Random, not the clock: tests never read the real date (test/unit/test-clock-guard.test.ts).
  return `${prefix}${seq}${crypto.randomUUID().replace(/-/g, '').slice(0, 10)}`;
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  /** Cookie header value for a signed-in request. */
  cookie: string;
}

/** When factories' users verified their address: a fixed past instant (nothing compares it with a clock). */
export const VERIFIED_AT = '2026-01-01T00:00:00.000Z';

/** A verified user with roles (default: venue owner) and a live session. */
export async function createUser(
  opts: { roles?: Array<'admin' | 'superadmin'>; email?: string; password?: string; verified?: boolean; now?: Date } = {},
): Promise<TestUser> {
  const db = testDb();
  const id = newId();
  const email = (opts.email ?? `${unique('user')}@test.local`).toLowerCase();
  const password = opts.password ?? 'hemligt123';
  // 1 000 iterations keep tests fast; production hashes use the 100 000 cap.
  const hash = await hashPassword(password, 1000);
  // One batch, in this order (issue 27: one round trip instead of four or five; the security worlds make hundreds).
  await db.batch([
    db.insert(users).values({ id, email, emailVerifiedAt: opts.verified === false ? null : VERIFIED_AT }),
    db.insert(passwordCredentials).values({ userId: id, hash }),
    db.insert(profiles).values({ userId: id }),
    ...(opts.roles ?? ['admin']).map((role) => db.insert(userRoles).values({ userId: id, role })),
  ]);
  const { token } = await createSession(db, id, opts.now ?? new Date());
  return { id, email, password, cookie: `${SESSION_COOKIE}=${token}` };
}

/** A test business's row (createVenue inserts it; a caller that batches its writes inserts it itself). */
export function venueValues(userId: string, over: Partial<typeof venues.$inferInsert> = {}): typeof venues.$inferInsert & { id: string } {
  const name = over.name ?? `Testpuben ${unique('v')}`;
  return { userId, name, slug: slugify(`${name}-${unique('s')}`), isPublic: true, ...over, id: over.id ?? newId() };
}

let townCursor = 0;
/**
 * A known town that the previous calls of this runtime did not get (test/fixtures/test-towns.ts): a test's own city,
 * now that only a town of the gazetteer is a public city (issue 43.6). `nonAscii`: one with å, ä or ö.
 */
export function uniqueTown(opts: { nonAscii?: boolean } = {}): string {
  const list = opts.nonAscii ? TEST_TOWNS_NON_ASCII : TEST_TOWNS;
  return list[townCursor++ % list.length]!;
}

/** A place's town unless a test names one: a known town (issue 43.6: only those are public cities), in no other test's data. */
export const DEFAULT_TOWN = 'Tidaholm';

/** A test place's row (createLocation inserts it). */
export function locationValues(venueId: string, over: Partial<typeof locations.$inferInsert> = {}): typeof locations.$inferInsert & { id: string } {
  const city = over.city ?? DEFAULT_TOWN;
  return { venueId, name: `Plats ${unique('l')}`, address: 'Testgatan 1', city, citySlug: slugify(city), ...over, id: over.id ?? newId() };
}

export async function createVenue(userId: string, over: Partial<typeof venues.$inferInsert> = {}) {
  const [row] = await testDb().insert(venues).values(venueValues(userId, over)).returning();
  return row!;
}

export async function createLocation(venueId: string, over: Partial<typeof locations.$inferInsert> = {}) {
  const [row] = await testDb().insert(locations).values(locationValues(venueId, over)).returning();
  return row!;
}

export async function createQuiz(locationId: string, over: Partial<typeof quizzes.$inferInsert> = {}): Promise<QuizRow> {
  const [row] = await testDb()
    .insert(quizzes)
    // An owner's quiz says its category and price (free); pass null for an unknown one (a tip, a synced calendar).
    .values({ id: newId(), locationId, date: '2030-01-01', startTime: '19:00:00', category: 'allmänbildning', price: 0, ...over })
    .returning();
  return row!;
}

/** An owner with a business, one place and no quizzes: the usual starting point. */
export async function createOwnerWithPlace(city = DEFAULT_TOWN) {
  const user = await createUser();
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city });
  return { user, venue, location };
}

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Cookie header (TestUser.cookie). */
  cookie?: string;
  /** Pins the Worker's clock for this request (ISO instant; APP_ENV=test only). */
  clock?: string;
  /** `false`: do not run the listing-day job before a GET (to test a stale listing). */
  listingDay?: boolean;
  headers?: Record<string, string>;
  /** Send no Origin header (to test CSRF refusal). */
  noOrigin?: boolean;
  /** Call this app (testApp(fakes)) instead of the Worker itself. */
  app?: { fetch(req: Request): Response | Promise<Response> };
}

/**
 * The listing-day job for the day of a pinned clock, as the 00:05 cron would have run it (issue 30.8): a
 * request never advances the listing (a stale one starts the Workflow and is served as stored), so a test
 * runs the job for the day its request will see first. Run by `call()` before each GET (for `clock`, else
 * the Worker's own clock); call it yourself before a request sent another way. Rewinds when the clock went
 * back (APP_ENV=test). Not recorded in job_runs (the cron's `runListingDay` is).
 */
let testConfig: Config | undefined;

export async function runListingDayAt(at: string | null): Promise<void> {
  testConfig ??= parseConfig(env);
  const config = testConfig;
  await ensureListingDay(testDb(), { today: createClock(at ?? config.clockNow).today(), houseEmail: config.houseAccountEmail, rewind: true }, null);
}

/**
 * Calls the Worker like a same-origin browser: Origin header, JSON body, optional session cookie. A GET
 * first brings the listing to the request's day (runListingDayAt) unless `listingDay: false`.
 */
export async function call(path: string, opts: CallOptions = {}): Promise<Response> {
  if (opts.listingDay !== false && (opts.method ?? (opts.body === undefined ? 'GET' : 'POST')) === 'GET') await runListingDayAt(opts.clock ?? null);
  const headers: Record<string, string> = { ...opts.headers };
  if (!opts.noOrigin) headers.origin ??= ORIGIN;
  if (opts.cookie) headers.cookie = opts.cookie;
  if (opts.clock) headers['x-clock-now'] = opts.clock;
  // Each call comes from its own client unless the test names one: per-client limits (sign-in, mail
  // endpoints) are tested on purpose, with an explicit cf-connecting-ip, never by accident.
  headers['cf-connecting-ip'] ??= randomClientIp();
  let body: string | undefined;
  if (opts.body !== undefined) {
    headers['content-type'] ??= 'application/json';
    body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
  }
  const init = { method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers, body, redirect: 'manual' as const };
  if (opts.app) return opts.app.fetch(new Request(`${ORIGIN}${path}`, init));
  return SELF.fetch(`${ORIGIN}${path}`, init);
}

/** A made-up client address from the documentation range (RFC 5737 198.51.100.0/24 and friends). */
export function randomClientIp(): string {
  return `198.51.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}`;
}

/** call() + JSON body. */
export async function callJson<T = any>(path: string, opts: CallOptions = {}): Promise<{ status: number; body: T; res: Response }> {
  const res = await call(path, opts);
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T, res };
}

/**
 * Row counts and a content checksum of tables, to prove that a refused request changed nothing. Every column of
 * every row counts: one statement renders each table in SQL as one string (rows in rowid order, each value as its
 * type and exact bytes: hex() for text and blobs, so a U+0000 inside a string counts too), hashed here. One
 * statement instead of a SELECT * per table: 18 tables took ~85 ms as 18 reads of every row (issue 27).
 */
export async function snapshot(
  tables: string[] = ['users', 'venues', 'locations', 'quizzes', 'promotions', 'promotion_slot_claims', 'checkout_orders', 'feedback', 'sessions'],
): Promise<Record<string, string>> {
  const db = testDb();
  const unknown = tables.filter((t) => !tableColumns.has(t));
  if (unknown.length) {
    const names = unknown.map((t) => `'${t.replace(/'/g, "''")}'`).join(', ');
    const cols = await db.all<{ t: string; c: string }>(
      sql.raw(
        `SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table' AND m.name IN (${names}) ORDER BY m.name, p.cid`,
      ),
    );
    for (const { t, c } of cols) tableColumns.set(t, [...(tableColumns.get(t) ?? []), c]);
    for (const t of unknown) if (!tableColumns.has(t)) throw new Error(`snapshot: no table ${t}`);
  }
  const value = (c: string) =>
    `(typeof("${c}") || ':' || CASE typeof("${c}") WHEN 'text' THEN hex("${c}") WHEN 'blob' THEN hex("${c}") ELSE quote("${c}") END)`;
  const parts = tables.map(
    (t, i) =>
      `(SELECT count(*) || ';' || ifnull(group_concat(${tableColumns.get(t)!.map(value).join(" || ',' || ")}, ';' ORDER BY rowid), '') FROM "${t}") AS t${i}`,
  );
  const [row] = await db.all<Record<string, string>>(sql.raw(`SELECT ${parts.join(', ')}`));
  const out: Record<string, string> = {};
  tables.forEach((t, i) => {
    const text = row![`t${i}`]!;
    out[t] = `${text.slice(0, text.indexOf(';'))}:${text.length}:${hashString(text)}`;
  });
  return out;
}

/** Column names per table (the schema does not change while the tests run). */
const tableColumns = new Map<string, string[]>();

function hashString(s: string): number {
  let h = 0;
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0;
  return h;
}

/**
 * The two search indexes (migration 0020, contentless FTS5 keyed by each unit's search key
 * tier << 61 | shuffle << 30 | id) are sound and hold exactly one entry per listing_series unit under its
 * current key: FTS5's own integrity check, then the keys compared with listing_series both ways.
 */
export async function expectSearchIndexes() {
  for (const t of ['listing_search', 'listing_search_words'] as const) {
    await testDb().run(sql.raw(`INSERT INTO ${t} (${t}) VALUES ('integrity-check')`));
    const [row] = await testDb().all<{ entries: number; units: number; keyed: number }>(
      sql.raw(`
      SELECT (SELECT count(*) FROM ${t}) AS entries, (SELECT count(*) FROM listing_series) AS units,
        (SELECT count(*) FROM ${t} s JOIN listing_series e ON e.id = s.rowid & 1073741823
          WHERE s.rowid = (coalesce(e.tier, 2) << 61) + (e.shuffle << 30) + e.id) AS keyed`),
    );
    expect(row, t).toEqual({ entries: row!.units, units: row!.units, keyed: row!.units });
  }
}
