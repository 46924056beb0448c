/**
 * Query plans of every listing and public-page query (issue 8 §3). Instead of copying SQL, the real
 * Worker app answers real requests with a D1 binding that records each statement it runs; every
 * recorded SELECT is then explained with `EXPLAIN QUERY PLAN` and its real parameters. A full scan of
 * quizzes, locations or venues fails the test — so a new query added to the listing or the pages is
 * checked without anyone remembering to add it here.
 *
 * Rule: no `SCAN <quizzes|locations|venues>` at all on the per-request paths (listing API, city,
 * weekday, combined and venue pages). Whole-catalogue answers that are inherently O(catalogue)
 * (the city list, the sitemap) may walk an index (`SCAN … USING [COVERING] INDEX`) but never the table.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../../worker/app';
import { addDays } from '../../worker/lib/clock';
import { DEV_CACHE_BUST_PARAM } from '../../worker/lib/cache';
import { slugify } from '../../worker/lib/slug';
import { createLocation, createQuiz, createUser, createVenue, unique, runListingDayAt, uniqueTown } from '../factories';

interface Recorded {
  sql: string;
  params: unknown[];
}

/**
 * A D1 binding that records every statement (with its bound values) and runs it on the real one. The
 * app opens a Sessions API session per request (middleware/context.ts): the session is recorded too.
 */
function recordingD1<T extends D1Database | D1DatabaseSession>(real: T, log: Recorded[]): T {
  const unwrap = new WeakMap<object, D1PreparedStatement>();
  const wrapStmt = (stmt: D1PreparedStatement, sqlText: string, params: unknown[]): D1PreparedStatement => {
    const proxy = new Proxy(stmt, {
      get(target, prop) {
        if (prop === 'bind') return (...args: unknown[]) => wrapStmt(target.bind(...args), sqlText, args);
        const value = Reflect.get(target, prop, target) as unknown;
        if (typeof value !== 'function') return value;
        if (prop === 'all' || prop === 'raw' || prop === 'first' || prop === 'run') {
          return (...args: unknown[]) => {
            log.push({ sql: sqlText, params });
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return (value as (...a: unknown[]) => unknown).bind(target);
      },
    });
    unwrap.set(proxy, stmt);
    (proxy as unknown as { __sql: string; __params: unknown[] }).__sql = sqlText;
    return proxy;
  };
  return new Proxy(real, {
    get(target, prop) {
      if (prop === 'prepare') return (q: string) => wrapStmt(target.prepare(q), q, []);
      if (prop === 'batch') {
        return (stmts: D1PreparedStatement[]) => target.batch(stmts.map((s) => unwrap.get(s) ?? s));
      }
      if (prop === 'withSession') {
        return (constraint?: string) => recordingD1((target as D1Database).withSession(constraint), log);
      }
      const value = Reflect.get(target, prop, target) as unknown;
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

interface PlanRow {
  id: number;
  parent: number;
  detail: string;
}

async function explain(q: Recorded): Promise<PlanRow[]> {
  const res = await env.DB.prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
    .bind(...q.params)
    .all<PlanRow>();
  return res.results;
}

const WATCHED = ['quizzes', 'locations', 'venues'];

/** Table name behind each alias used in the statement (`quizzes q`, `locations AS l`, "venues"). */
function aliasMap(sqlText: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const t of WATCHED) map.set(t, t);
  const re = /\b(?:from|join)\s+"?(\w+)"?(?:\s+(?:as\s+)?"?(\w+)"?)?/gi;
  for (const m of sqlText.matchAll(re)) {
    const table = m[1]!.toLowerCase();
    const alias = m[2]?.toLowerCase();
    if (alias && !['on', 'where', 'cross', 'join', 'inner', 'left', 'group', 'order', 'limit', 'using'].includes(alias)) map.set(alias, table);
  }
  return map;
}

/** Plan lines that scan a watched table; `allowIndexScan` accepts a full walk of an index. */
function fullScans(sqlText: string, plan: PlanRow[], allowIndexScan: boolean): string[] {
  const aliases = aliasMap(sqlText);
  const bad: string[] = [];
  for (const row of plan) {
    const m = /^SCAN (\w+)/.exec(row.detail);
    if (!m) continue;
    const table = aliases.get(m[1]!.toLowerCase());
    if (!table || !WATCHED.includes(table)) continue;
    if (allowIndexScan && /USING (COVERING )?INDEX/.test(row.detail)) continue;
    bad.push(`${table}: ${row.detail}`);
  }
  return bad;
}

/**
 * A watched table searched inside another loop must be reached by a key (`id=?`, `location_id=?`,
 * `venue_id=?` …). Otherwise, e.g. `locations → quizzes USING quizzes_weekday_date_idx (weekday=? AND
 * date>?)`, every location walks every quiz of that weekday: no "SCAN" in the plan, but worse than one.
 */
function unkeyedNestedLookups(sqlText: string, plan: PlanRow[]): string[] {
  const aliases = aliasMap(sqlText);
  const loops = plan.filter((r) => /^(SCAN|SEARCH) /.test(r.detail));
  const bad: string[] = [];
  // Loops of one query level share a parent; a subquery (scalar, correlated, CTE) starts its own level.
  const seenParent = new Set<number>();
  loops.forEach((row) => {
    const outermost = !seenParent.has(row.parent);
    seenParent.add(row.parent);
    if (outermost) return;
    const m = /^SEARCH (\w+)/.exec(row.detail);
    if (!m) return;
    const table = aliases.get(m[1]!.toLowerCase());
    if (!table || !WATCHED.includes(table)) return;
    if (/\((?:\w+_)?id=\?|\(rowid=\?/.test(row.detail)) return;
    bad.push(`${table} (nested, not by key): ${row.detail}`);
  });
  return bad;
}

/** Today in the pinned clock below (Stockholm). */
const CLOCK = '2030-03-05T10:00:00Z'; // a Tuesday
const TODAY = '2030-03-05';

let city = '';
let citySlug = '';
let venueSlug = '';

async function record(path: string): Promise<{ status: number; queries: Recorded[] }> {
  const queries: Recorded[] = [];
  // The listing's day as the cron would have brought it (a request never advances it: issue 30.8).
  await runListingDayAt(CLOCK);
  const ctx = createExecutionContext();
  const res = await app.fetch(new Request(`http://localhost${path}`, { headers: { 'x-clock-now': CLOCK } }), { ...env, DB: recordingD1(env.DB, queries) }, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return { status: res.status, queries };
}

beforeAll(async () => {
  // A small but complete catalogue: two cities, a real owner and the house account, weekly series,
  // a single quiz and a cancelled occurrence, so every branch of the listing runs its queries.
  city = uniqueTown();
  citySlug = slugify(city);
  const owner = await createUser();
  for (let v = 0; v < 3; v++) {
    const venue = await createVenue(owner.id, { name: `Planpuben ${v} ${unique('n')}`, city });
    if (v === 0) venueSlug = venue.slug;
    const loc = await createLocation(venue.id, { city, latitude: 59.3 + v * 0.01, longitude: 18.05 });
    const rid = unique('series');
    for (let w = 0; w < 6; w++) {
      await createQuiz(loc.id, {
        date: addDays(TODAY, w * 7 - 7 + v),
        isRecurring: true,
        recurrenceId: rid,
        recurrencePattern: 'weekly',
        recurrenceDays: JSON.stringify(['tisdag']),
        quizmaster: 'Planmästaren',
        isCancelled: w === 2,
      });
    }
    await createQuiz(loc.id, { date: addDays(TODAY, 3), title: 'Specialquiz', isRecurring: false });
  }
});

/** Near mode alone and with each filter (issue 15). */
const NEAR_PATHS = [
  '/api/listing?near=59.3,18.05',
  '/api/listing?near=59.3,18.05&radius=100&weekday=tisdag',
  `/api/listing?near=59.3,18.05&date=${addDays(TODAY, 7)}`,
  '/api/listing?near=59.3,18.05&search=planm%C3%A4staren',
  '/api/listing?near=59.3,18.05&search=pl',
  '/api/listing?near=59.3,18.05&sprak=engelska&time=efter20',
];

const PER_REQUEST_PATHS = () => [
  '/api/listing',
  `/api/listing?city=${citySlug}`,
  `/api/listing?city=${citySlug}&weekday=tisdag`,
  `/api/listing?city=${citySlug}&date=${addDays(TODAY, 7)}`,
  '/api/listing?weekday=tisdag',
  `/api/listing?date=${addDays(TODAY, 7)}`,
  '/api/listing?search=planm%C3%A4staren',
  `/api/listing?city=${citySlug}&search=special&page=2`,
  // Quiz filters (issue 20), alone and with each mode.
  `/api/listing?city=${citySlug}&price=gratis&category=musik`,
  '/api/listing?price=max50&team=6&category=sport&time=19-20',
  `/api/listing?city=${citySlug}&weekday=tisdag&time=efter20`,
  `/api/listing?date=${addDays(TODAY, 7)}&price=gratis`,
  '/api/listing?search=planm%C3%A4staren&category=allmanbildning',
  '/api/listing?near=59.3,18.05&price=gratis&team=4',
  `/quiz/${citySlug}?price=gratis&category=musik`,
  `/quiz/${citySlug}/tisdag?team=4`,
  `/api/calendar/listing.ics?city=${citySlug}&price=gratis&category=musik`,
  // The quiz's language (issue 31.3), alone and with each mode.
  `/api/listing?city=${citySlug}&sprak=engelska`,
  `/api/listing?weekday=tisdag&sprak=svenska&price=gratis`,
  `/api/listing?date=${addDays(TODAY, 7)}&sprak=engelska`,
  '/api/listing?search=planm%C3%A4staren&sprak=engelska',
  '/api/listing?near=59.3,18.05&sprak=engelska',
  `/quiz/${citySlug}?sprak=engelska`,
  `/api/calendar/listing.ics?city=${citySlug}&sprak=engelska`,
  ...NEAR_PATHS,
  '/',
  `/stad/${citySlug}`,
  `/quiz/${citySlug}`,
  '/quiz/tisdag',
  `/quiz/${citySlug}/tisdag`,
  `/quiz/${citySlug}-tisdag`,
  `/quiz/${citySlug}/${venueSlug}`,
  '/legacy',
  // Calendar feeds, share images and embeds (issue 16).
  `/api/calendar/city/${citySlug}.ics`,
  `/api/calendar/city/${citySlug}/tisdag.ics`,
  `/api/calendar/venue/${citySlug}/${venueSlug}.ics`,
  `/api/calendar/listing.ics?city=${citySlug}&weekday=tisdag`,
  '/api/calendar/listing.ics?search=planm%C3%A4staren',
  `/og/city/${citySlug}.png`,
  `/og/venue/${citySlug}/${venueSlug}.png`,
  `/embed/${citySlug}`,
  `/embed/${citySlug}/${venueSlug}`,
];
const WHOLE_CATALOGUE_PATHS = ['/api/listing/cities', '/sitemap.xml', '/sitemaps/sidor-1.xml', '/sitemaps/stallen-1.xml'];

describe('query plans: no full scan of quizzes, locations or venues', () => {
  it('every per-request listing and page query starts from an index', async () => {
    const problems: string[] = [];
    let explained = 0;
    for (const path of PER_REQUEST_PATHS()) {
      const { status, queries } = await record(path);
      expect(status, path).toBe(200);
      for (const q of queries.filter((x) => /^\s*(select|with)\b/i.test(x.sql))) {
        explained++;
        const plan = await explain(q);
        const bad = [...fullScans(q.sql, plan, false), ...unkeyedNestedLookups(q.sql, plan)];
        if (bad.length) problems.push(`${path}\n  ${bad.join('\n  ')}\n  SQL: ${q.sql.replace(/\s+/g, ' ').slice(0, 400)}`);
      }
    }
    expect(explained).toBeGreaterThan(PER_REQUEST_PATHS().length);
    expect(problems).toEqual([]);
  });

  it('near mode reads listing_series only through a range of the geo index (never a scan), with every filter', async () => {
    for (const near of NEAR_PATHS) {
      // The cache-bust parameter (kept in the edge-cache key in test only): the cache must not answer from the test above.
      const path = `${near}&${DEV_CACHE_BUST_PARAM}=${unique('p')}`;
      const { status, queries } = await record(path);
      expect(status, path).toBe(200);
      const candidates = queries.filter((q) => /INDEXED BY listing_series_geo_idx/.test(q.sql));
      expect(candidates.length, path).toBeGreaterThanOrEqual(1);
      for (const c of candidates) {
        // Two halves read outwards from the position (north, then south), each a range of the geo index
        // walked in index order: no temporary b-tree sorts the band, so LIMIT stops the read.
        const plan = await explain(c);
        const onUnits = plan.filter((r) => /^(SCAN|SEARCH) e\b/.test(r.detail)).map((r) => r.detail);
        const geoRange = expect.stringMatching(/^SEARCH e USING COVERING INDEX listing_series_geo_idx \(lat>\? AND lat<\?\)/);
        expect(onUnits, path).toEqual([geoRange, geoRange]);
        expect(
          plan.filter((r) => /TEMP B-TREE FOR ORDER BY/.test(r.detail)).map((r) => r.detail),
          path,
        ).toEqual([]);
      }
      for (const q of queries.filter((x) => /listing_series e\b/.test(x.sql))) {
        const scans = (await explain(q)).filter((r) => /^SCAN e\b/.test(r.detail));
        expect(scans, `${path}: ${q.sql.slice(0, 200)}`).toEqual([]);
      }
    }
    // And it finds the catalogue's places (so the plans above are of queries that return rows).
    const res = await app.fetch(
      new Request('http://localhost/api/listing?near=59.3,18.05', { headers: { 'x-clock-now': CLOCK } }),
      env,
      createExecutionContext(),
    );
    expect(((await res.json()) as { total: number }).total).toBeGreaterThan(0);
  });

  it('whole-catalogue answers (city list, sitemap) walk indexes, never a table', async () => {
    const problems: string[] = [];
    for (const path of WHOLE_CATALOGUE_PATHS) {
      const { status, queries } = await record(path);
      expect(status, path).toBe(200);
      for (const q of queries.filter((x) => /^\s*(select|with)\b/i.test(x.sql))) {
        const bad = fullScans(q.sql, await explain(q), true);
        if (bad.length) problems.push(`${path}\n  ${bad.join('\n  ')}\n  SQL: ${q.sql.replace(/\s+/g, ' ').slice(0, 400)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('the checker itself catches a full scan (so the test can fail)', async () => {
    const q = { sql: 'SELECT q.id FROM quizzes q WHERE q.description LIKE ?', params: ['%x%'] };
    expect(fullScans(q.sql, await explain(q), false)).toEqual([expect.stringMatching(/^quizzes: SCAN q/)]);
    const ok = { sql: 'SELECT q.id FROM quizzes q WHERE q.date >= ?', params: [TODAY] };
    expect(fullScans(ok.sql, await explain(ok), false)).toEqual([]);
    const keyed = {
      sql: 'SELECT q.id FROM locations l CROSS JOIN quizzes q ON q.location_id = l.id WHERE l.city_slug = ? AND q.date >= ?',
      params: ['x', TODAY],
    };
    expect(unkeyedNestedLookups(keyed.sql, await explain(keyed))).toEqual([]);
    // The same query forced off the (location_id, date) index: caught.
    const forced = {
      sql: 'SELECT q.id FROM locations l CROSS JOIN quizzes q INDEXED BY quizzes_date_idx ON q.location_id = l.id WHERE l.city_slug = ? AND q.date >= ?',
      params: ['x', TODAY],
    };
    expect(unkeyedNestedLookups(forced.sql, await explain(forced))).toEqual([expect.stringMatching(/^quizzes \(nested/)]);
  });
});
