/**
 * Bad input (issue 9 item 2): property-based tests with fast-check for every JSON endpoint, every path
 * parameter and every query parameter. Whatever arrives — malformed JSON, wrong types, huge strings,
 * U+0000/U+2028/RTL/emoji, edge numbers, unknown fields, SQL and HTML — the Worker answers without a
 * 5xx; a refusal carries `{ error: { code, message } }` with a Swedish message; input that is surely
 * invalid is refused with 400 and changes no table.
 *
 * The endpoint list comes from route-table.ts (whose completeness authz-matrix.test.ts enforces), so a
 * new JSON route is fuzzed as soon as it is classified there with a valid body.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, runListingDayAt, snapshot, unique, type TestUser } from '../../factories';
import { HOSTILE_CITIES } from '../../fixtures/hostile-cities';
import { allChecked, anyJson, anyString, checkAllAtOnce, envelopeProblem, MALFORMED_BODIES, nastyString, RUNS, SEED, wrongType } from './inputs';
import { objectId, ROUTES, targetFor, type Actor, type RouteCase, type Target } from './route-table';
import { CLOCK, createWorld, GUARDED_TABLES, type World } from './world';

/** Control characters every text input must refuse (NUL broke FTS5 MATCH with a 500 before issue 13.6). */
const CONTROL_VALUES = ['\u0000', '\u0007', '\u001b[31m', '\u007f'];
/** Lone surrogates: text without a UTF-8 form, refused in every text input (issue 43.6). */
const ILL_FORMED_VALUES = ['\uD800', '\uDFFF', '\uDC00\uD800'];
/** A body's `city` is a place's town: only a known town is accepted (issue 43.6); empty is the optional business town's "none". */
const CITY_VALUES = HOSTILE_CITIES.filter(([, , message]) => message !== 'Ange stad');

/** Counts every request sent, for the README figures (printed at the end). */
const tried = { json: 0, path: 0, query: 0 };

/** The actor who is allowed to call the route, so that validation (not authorization) decides. */
function allowedActor(spec: RouteCase): Actor {
  if (spec.fuzzActor) return spec.fuzzActor;
  if (spec.expect.own < 400) return 'own';
  if (spec.expect.superadmin < 400) return 'superadmin';
  return 'visitor';
}
function userOf(world: World, actor: Actor): TestUser | undefined {
  return actor === 'own' ? world.a.user : actor === 'superadmin' ? world.superadmin : actor === 'other' ? world.b.user : undefined;
}
function pathOf(key: string, spec: RouteCase, t: Target): string {
  if (spec.path) return spec.path(t);
  return key.slice(key.indexOf(' ') + 1).replace(':id', encodeURIComponent(objectId(spec.object, t) ?? ''));
}

/**
 * `send` does not bring the listing to CLOCK's day before each GET as call() does: every request of this file is sent
 * at CLOCK and the listing's day depends only on the day and the house account, so each test does it once, after its
 * world exists (`runListingDayAt(CLOCK)`; issue 27: one D1 read per GET).
 */
async function send(path: string, opts: { method: string; raw?: string; body?: unknown; user?: TestUser; contentType?: string }) {
  const res = await call(path, {
    listingDay: false,
    method: opts.method,
    body: opts.raw !== undefined ? opts.raw : opts.body,
    cookie: opts.user?.cookie,
    clock: CLOCK,
    headers: { 'content-type': opts.contentType ?? 'application/json' },
  });
  return { status: res.status, text: await res.text() };
}

function checkAnswer(label: string, status: number, text: string, opts: { mustRefuse: boolean; api: boolean }): void {
  if (status >= 500) throw new Error(`${label}: ${status} ${text.slice(0, 200)}`);
  if (opts.mustRefuse && status !== 400) throw new Error(`${label}: expected 400, got ${status} ${text.slice(0, 200)}`);
  if (status >= 400 && opts.api) {
    const problem = envelopeProblem(status, text);
    if (problem) throw new Error(`${label}: ${problem}`);
  }
}

const jsonRoutes = Object.entries(ROUTES).filter(([key, spec]) => spec.body && !key.startsWith('POST /api/payments/webhook'));

describe('bad input: JSON bodies', () => {
  // A world per route: part 2 may be accepted and write. Part 1 is refused whole, so its requests go out at once.
  for (const [key, spec] of jsonRoutes) {
    it(`${key}: surely invalid bodies → 400, Swedish envelope, nothing stored; anything else → no 5xx`, async () => {
      const world = await createWorld();
      await runListingDayAt(CLOCK);
      const actor = allowedActor(spec);
      const user = userOf(world, actor);
      const method = key.slice(0, key.indexOf(' '));
      const t = targetFor(world, unique('f'));
      const path = pathOf(key, spec, t);
      const valid = spec.body!(t) as Record<string, unknown>;
      const keys = Object.keys(valid);

      // 1. Surely invalid: malformed JSON, a non-object, or one field of the wrong type.
      const before = await snapshot(GUARDED_TABLES);
      const surelyInvalid = fc.oneof(
        fc.constantFrom(...MALFORMED_BODIES).map((raw) => ({ raw, body: undefined as unknown })),
        fc
          .constantFrom(...keys)
          .chain((k) => wrongType(valid[k]).map((v) => ({ raw: undefined as string | undefined, body: { ...valid, [k]: v } as unknown }))),
      );
      const surelyInvalidChecked = checkAllAtOnce(
        [surelyInvalid],
        async (input) => {
          tried.json++;
          const { status, text } = await send(path, { method, raw: input.raw, body: input.body, user });
          checkAnswer(`${key} ${input.raw !== undefined ? `raw ${JSON.stringify(input.raw)}` : JSON.stringify(input.body).slice(0, 200)}`, status, text, {
            mustRefuse: true,
            api: true,
          });
        },
        { numRuns: RUNS, seed: SEED },
      );
      const fixed: Array<() => Promise<void>> = [];
      // Every text field at 5 000 characters (over every limit but the CSV import's): refused.
      for (const k of keys.filter((k) => typeof valid[k] === 'string' && k !== 'csv')) {
        fixed.push(async () => {
          tried.json++;
          const { status, text } = await send(path, { method, body: { ...valid, [k]: 'x'.repeat(5000) }, user });
          if (status < 400 || status >= 500) throw new Error(`${key}: a 5 000-character "${k}" got ${status} ${text.slice(0, 150)}`);
          const problem = envelopeProblem(status, text);
          if (problem) throw new Error(`${key} "${k}": ${problem}`);
        });
      }
      // Control characters (issue 13.6) in every text field: refused with 400 naming the field.
      // (Routes whose body is not JSON — the raw CSV upload — have their own checks.)
      const isJsonBody = typeof valid === 'object' && !(spec.headers?.['content-type'] && !spec.headers['content-type'].includes('json'));
      for (const k of isJsonBody ? keys.filter((k) => typeof valid[k] === 'string') : []) {
        for (const bad of CONTROL_VALUES) {
          fixed.push(async () => {
            tried.json++;
            const value = `${valid[k] as string}${bad}`;
            const { status, text } = await send(path, { method, body: { ...valid, [k]: value }, user });
            checkAnswer(`${key} "${k}" with ${JSON.stringify(bad)}`, status, text, { mustRefuse: true, api: true });
          });
        }
      }
      // Lone surrogates (issue 43.6) in every text field: refused with 400.
      for (const k of isJsonBody ? keys.filter((k) => typeof valid[k] === 'string') : []) {
        for (const bad of ILL_FORMED_VALUES) {
          fixed.push(async () => {
            tried.json++;
            const { status, text } = await send(path, { method, body: { ...valid, [k]: `${valid[k] as string}${bad}` }, user });
            checkAnswer(`${key} "${k}" with ${JSON.stringify(bad)}`, status, text, { mustRefuse: true, api: true });
          });
        }
      }
      // A place's town (issue 43.6): every hostile city is refused with 400 and a Swedish message naming Stad.
      for (const [what, city] of isJsonBody && typeof valid.city === 'string' ? CITY_VALUES : []) {
        fixed.push(async () => {
          tried.json++;
          const { status, text } = await send(path, { method, body: { ...valid, city }, user });
          checkAnswer(`${key} city ${what}`, status, text, { mustRefuse: true, api: true });
          if (!text.includes('"message":"Stad: ')) throw new Error(`${key} city ${what}: the message does not name Stad: ${text.slice(0, 200)}`);
        });
      }
      // A valid body under another content type (issue 13.8): 415, never read as {}.
      for (const contentType of isJsonBody ? ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x'] : []) {
        fixed.push(async () => {
          tried.json++;
          const { status, text } = await send(path, { method, body: valid, user, contentType });
          if (status !== 415) throw new Error(`${key} as ${contentType}: expected 415, got ${status} ${text.slice(0, 150)}`);
          const problem = envelopeProblem(status, text);
          if (problem) throw new Error(`${key} as ${contentType}: ${problem}`);
        });
      }
      await Promise.all([surelyInvalidChecked, allChecked(fixed)]);
      const after = await snapshot(GUARDED_TABLES);
      expect(after, `${key}: a refused body changed a table`).toEqual(before);

      // 2. Anything else: fields replaced by arbitrary values, unknown fields added, a wrong content type.
      const mutated = fc.record({
        replace: fc.dictionary(fc.constantFrom(...keys), anyJson, { maxKeys: keys.length }),
        extra: fc.dictionary(fc.oneof(nastyString, fc.constantFrom('id', 'userId', 'isAdmin', 'roles', 'status', '__proto__')), anyJson, { maxKeys: 3 }),
        contentType: fc.constantFrom('application/json', 'application/json', 'application/json', 'text/plain', 'application/x-www-form-urlencoded'),
      });
      await fc.assert(
        fc.asyncProperty(mutated, async ({ replace, extra, contentType }) => {
          tried.json++;
          const body = { ...extra, ...valid, ...replace };
          const { status, text } = await send(path, { method, body, user, contentType });
          checkAnswer(`${key} ${contentType} ${JSON.stringify(body).slice(0, 300)}`, status, text, { mustRefuse: false, api: path.startsWith('/api/') });
          // No field but the CSV import takes more than 4 000 characters: a longer value must never be stored.
          const huge = Object.entries(replace).find(([k, v]) => k !== 'csv' && typeof v === 'string' && v.length > 4000);
          if (huge && contentType === 'application/json' && status < 400) {
            throw new Error(`${key}: a ${(huge[1] as string).length}-character "${huge[0]}" was accepted with ${status}`);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    });
  }
});

describe('bad input: the Stripe webhook', () => {
  it('arbitrary bodies with missing, garbage or foreign signatures → 400 with the envelope, nothing changed', async () => {
    await createWorld();
    const before = await snapshot(GUARDED_TABLES);
    // Header values must be printable ASCII on the wire (fetch refuses anything else before sending).
    const signature = fc.oneof(
      fc.constant(undefined),
      nastyString.filter((v) => /^[\x20-\x7e]*$/.test(v)),
      fc.constantFrom('t=1,v1=abc', `t=99999999999,v1=${'a'.repeat(64)}`, 'v1=', 't=,v1=,v0='),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.constantFrom(...MALFORMED_BODIES),
          anyJson.map((v) => JSON.stringify(v) ?? 'null'),
        ),
        signature,
        async (raw, sig) => {
          tried.json++;
          const res = await call('/api/payments/webhook', {
            noOrigin: true,
            body: raw,
            clock: CLOCK,
            headers: { 'content-type': 'application/json', ...(sig === undefined ? {} : { 'stripe-signature': sig }) },
          });
          checkAnswer(`webhook ${JSON.stringify(sig)} ${raw.slice(0, 80)}`, res.status, await res.text(), { mustRefuse: true, api: true });
        },
      ),
      { numRuns: RUNS * 2, seed: SEED, endOnFailure: true },
    );
    expect(await snapshot(GUARDED_TABLES)).toEqual(before);
  });
});

describe('bad input: path parameters', () => {
  const idRoutes = Object.entries(ROUTES).filter(([key]) => /:[a-z]+/i.test(key));
  /** Ids that can never exist: so every call must be refused and nothing may change. */
  // '.' and '..' are dot-segments: the URL itself resolves them before any route sees them.
  const badId = fc
    .oneof(anyString, fc.constantFrom('%2F', '%', '%zz', '%E0%A4%A', '\u0000', ' ', 'a'.repeat(65), 'a'.repeat(5000)))
    .filter((s) => s.length > 0 && !/^(\.|%2e){1,2}$/i.test(s));
  // Every request here is refused (or only reads a page), and each test proves that no guarded table changed:
  // so one world serves every route, and each route's ids go out at once.
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
    await runListingDayAt(CLOCK);
  });
  for (const [key, spec] of idRoutes) {
    it(`${key}: arbitrary ids → no 5xx, a refusal with the envelope, nothing changed`, async () => {
      const actor = allowedActor(spec);
      const user = userOf(world, actor);
      const method = key.slice(0, key.indexOf(' '));
      const template = key.slice(key.indexOf(' ') + 1);
      const isApi = template.startsWith('/api/');
      const isPage = !template.startsWith('/api/') && !template.startsWith('/dev/');
      const t = targetFor(world, unique('f'));
      const before = await snapshot(GUARDED_TABLES);
      await checkAllAtOnce(
        [badId, fc.boolean()],
        async (id, encode) => {
          tried.path++;
          // Raw ids exercise broken percent-encoding; encoded ids reach the handler verbatim.
          const segment = !encode && /^[%A-Za-z0-9]*$/.test(id) ? id : encodeURIComponent(id);
          const path = template.replace(/:[a-z]+/gi, segment);
          const { status, text } = await send(path, {
            method,
            body: spec.body ? spec.body(t) : method === 'GET' || method === 'DELETE' ? undefined : {},
            user,
          });
          const label = `${method} ${path.slice(0, 200)}`;
          if (status >= 500) throw new Error(`${label}: ${status} ${text.slice(0, 200)}`);
          if (isPage) {
            // Public pages: the not-found page, a redirect to the ASCII slug, or (for text that slugifies to a real page) 200.
            if (![200, 301, 404].includes(status)) throw new Error(`${label}: unexpected ${status}`);
            return;
          }
          if (status < 400) throw new Error(`${label}: a made-up id was accepted with ${status}`);
          if (isApi) {
            const problem = envelopeProblem(status, text);
            if (problem) throw new Error(`${label}: ${problem}`);
          }
        },
        { numRuns: RUNS, seed: SEED },
      );
      expect(await snapshot(GUARDED_TABLES), `${key}: a refused id changed a table`).toEqual(before);
    });
  }
});

/** The quiz filters (issue 20): the listing, its feed and every listing page read them. */
const QUIZ_FILTER_PARAMS = ['price', 'team', 'category', 'time', 'sprak'];

/** Every query parameter of every route that reads one. */
const QUERY_PARAMS: Record<string, { path: (t: Target) => string; params: string[]; actor: Actor }> = {
  'GET /api/listing': { path: () => '/api/listing', params: ['city', 'weekday', 'date', 'search', 'page', ...QUIZ_FILTER_PARAMS], actor: 'visitor' },
  'GET /api/calendar/listing.ics': {
    path: () => '/api/calendar/listing.ics',
    params: ['city', 'weekday', 'date', 'search', ...QUIZ_FILTER_PARAMS],
    actor: 'visitor',
  },
  'GET /api/listing/map': {
    path: () => '/api/listing/map',
    params: ['city', 'weekday', 'date', 'search', 'near', 'radius', ...QUIZ_FILTER_PARAMS],
    actor: 'visitor',
  },
  'GET /api/listing/card': {
    path: () => '/api/listing/card',
    params: ['unit', 'city', 'weekday', 'date', 'search', 'near', 'radius', ...QUIZ_FILTER_PARAMS],
    actor: 'visitor',
  },
  'GET /api/admin/venues': { path: () => '/api/admin/venues', params: ['q', 'offset', 'limit'], actor: 'superadmin' },
  'GET /api/admin/feedback': { path: () => '/api/admin/feedback', params: ['offset'], actor: 'superadmin' },
  'GET /api/admin/tips': { path: () => '/api/admin/tips', params: ['status', 'order', 'cursor'], actor: 'superadmin' },
  'GET /tipsa/visa': { path: () => '/tipsa/visa', params: ['t'], actor: 'visitor' },
  'GET /api/owner/dashboard': { path: () => '/api/owner/dashboard', params: ['venueId'], actor: 'own' },
  'GET /api/owner/kit': { path: () => '/api/owner/kit', params: ['venueId'], actor: 'own' },
  'GET /api/payments/verify': { path: () => '/api/payments/verify', params: ['session_id'], actor: 'own' },
  'GET /api/auth/google': { path: () => '/api/auth/google', params: ['mode', 'redirect', 'takeoverVenue'], actor: 'visitor' },
  'GET /api/auth/google/callback': { path: () => '/api/auth/google/callback', params: ['code', 'state', 'error'], actor: 'visitor' },
  'GET /': { path: () => '/', params: ['city', 'weekday', 'date', 'search', 'page', ...QUIZ_FILTER_PARAMS], actor: 'visitor' },
  'GET /legacy': { path: () => '/legacy', params: ['city', 'weekday', 'date', 'search', 'page', ...QUIZ_FILTER_PARAMS], actor: 'visitor' },
  'GET /stad/:city': { path: (t) => `/stad/${t.citySlug}`, params: ['weekday', 'date', 'search', 'page', ...QUIZ_FILTER_PARAMS], actor: 'visitor' },
  'GET /quiz/:slug': { path: (t) => `/quiz/${t.citySlug}`, params: ['weekday', 'date', 'search', 'page', ...QUIZ_FILTER_PARAMS], actor: 'visitor' },
  'GET /quiz/:city/:second': { path: (t) => `/quiz/${t.citySlug}/tisdag`, params: QUIZ_FILTER_PARAMS, actor: 'visitor' },
};

describe('bad input: query parameters', () => {
  const queryValue = fc.oneof(
    anyString,
    nastyNumber(),
    fc.constantFrom('0', '-1', '1.5', '99999999999999999999', '1e3', '0x10', ' 1', '2026-02-30', '2026-13-01', '9999-12-31', '0000-00-00'),
  );
  // Only reads, each test proving that no guarded table changed: one world for every route, requests at once.
  let world: World;
  beforeAll(async () => {
    world = await createWorld();
    await runListingDayAt(CLOCK);
  });
  for (const [key, q] of Object.entries(QUERY_PARAMS)) {
    it(`${key}: arbitrary ${q.params.join(', ')} → no 5xx, refusals with the Swedish envelope`, async () => {
      const user = userOf(world, q.actor);
      const t = targetFor(world, unique('f'));
      const isApi = key.startsWith('GET /api/');
      const before = await snapshot(GUARDED_TABLES);
      await checkAllAtOnce(
        [fc.dictionary(fc.constantFrom(...q.params, 'unknown'), queryValue, { minKeys: 1, maxKeys: q.params.length + 1 }), fc.boolean()],
        async (params, repeat) => {
          tried.query++;
          const search = new URLSearchParams();
          for (const [k, v] of Object.entries(params)) {
            search.append(k, v);
            if (repeat) search.append(k, 'x'); // the same parameter twice
          }
          const path = `${q.path(t)}?${search.toString()}`;
          const { status, text } = await send(path, { method: 'GET', user });
          const label = `GET ${path.slice(0, 300)}`;
          if (status >= 500) throw new Error(`${label}: ${status} ${text.slice(0, 200)}`);
          if (status >= 400 && isApi) {
            const problem = envelopeProblem(status, text);
            if (problem) throw new Error(`${label}: ${problem}`);
          }
        },
        { numRuns: RUNS * 2, seed: SEED },
      );
      // Control characters in every parameter (issue 13.6): an API answers 400 with the envelope; a page is
      // never a 5xx (it ignores the bad filter, as it does any invalid one).
      await allChecked(
        q.params.flatMap((param) =>
          CONTROL_VALUES.map((bad) => async () => {
            tried.query++;
            const path = `${q.path(t)}?${new URLSearchParams({ [param]: `a${bad}b` }).toString()}`;
            const { status, text } = await send(path, { method: 'GET', user });
            // The OAuth callback is a browser navigation: it refuses by redirecting to the login page.
            if (key === 'GET /api/auth/google/callback' && status === 302) return;
            if (isApi) checkAnswer(`GET ${path}`, status, text, { mustRefuse: true, api: true });
            else if (status >= 500) throw new Error(`GET ${path}: ${status}`);
          }),
        ),
      );
      // Reads never write (the session may not be renewed either: it is fresh).
      expect(await snapshot(GUARDED_TABLES), `${key}: a read changed a table`).toEqual(before);
    });
  }

  it('reports how many inputs were tried', () => {
    console.log(`[fuzz] inputs tried: ${tried.json} JSON bodies, ${tried.path} path ids, ${tried.query} query strings`);
    expect(tried.json + tried.path + tried.query).toBeGreaterThan(0);
  });
});

function nastyNumber() {
  return fc.constantFrom(-1, 0, 1.5, 2147483648, Number.MAX_SAFE_INTEGER + 2, 1e308).map(String);
}

describe('bad input: search terms at the length limit', () => {
  // Regression: D1 refuses LIKE/GLOB patterns longer than 50 bytes ("LIKE or GLOB pattern too complex")
  // while the contracts allow 100 characters (up to 400 bytes). Found by the query property above; the
  // searches now use instr().
  const term = 'ä'.repeat(60); // 120 bytes, allowed by every search contract
  for (const [label, path, actor] of [
    ['GET /api/listing?search', `/api/listing?search=${encodeURIComponent(term)}`, 'visitor'],
    ['GET /?search', `/?search=${encodeURIComponent(term)}`, 'visitor'],
    ['GET /api/admin/venues?q', `/api/admin/venues?q=${encodeURIComponent(term)}`, 'superadmin'],
  ] as const) {
    it(`${label} with 60 characters is answered (200), not a 500`, async () => {
      const world = await createWorld();
      const res = await call(path, { clock: CLOCK, cookie: actor === 'superadmin' ? world.superadmin.cookie : undefined });
      expect(res.status, (await res.text()).slice(0, 200)).toBe(200);
    });
  }
});
