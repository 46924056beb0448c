/**
 * HTTP caching of public responses (issue 8 §6): Cache-Control with stale-while-revalidate, ETag,
 * 304 on If-None-Match, and nothing shared for requests that carry the session cookie.
 */
import { describe, expect, it, vi } from 'vitest';
import { PRIVATE_CACHE_CONTROL, PUBLIC_CACHE_CONTROL } from '../../worker/lib/cache';
import { etagMatches } from '../../worker/middleware/http-cache';
import { eq, sql } from 'drizzle-orm';
import { quizzes } from '../../worker/db/schema';
import { bumpDataVersion, DATA_VERSION_TTL_MS, invalidateDataVersion } from '../../worker/lib/data-version';
import { call, callJson, createOwnerWithPlace, createQuiz, createUser, testDb, unique, uniqueTown } from '../factories';

const CLOCK = '2030-01-08T12:00:00Z';

describe('public page caching headers', () => {
  it('GET / carries public Cache-Control with stale-while-revalidate and a strong ETag', async () => {
    const res = await call('/', { clock: CLOCK });
    expect(res.status).toBe(200);
    const cc = res.headers.get('cache-control') ?? '';
    expect(cc).toBe(PUBLIC_CACHE_CONTROL);
    expect(cc).toMatch(/(^|, )public(,|$)/);
    expect(cc).toMatch(/max-age=\d+/);
    expect(cc).toMatch(/stale-while-revalidate=\d+/);
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]{40}"$/);
    expect(await res.text()).toContain('<html');
  });

  it('the same content gives the same ETag; If-None-Match with it answers 304 without a body', async () => {
    const first = await call('/', { clock: CLOCK });
    const tag = first.headers.get('etag')!;
    await first.text();
    const second = await call('/', { clock: CLOCK });
    expect(second.headers.get('etag')).toBe(tag);
    await second.text();

    const cond = await call('/', { clock: CLOCK, headers: { 'if-none-match': tag } });
    expect(cond.status).toBe(304);
    expect(await cond.text()).toBe('');
    expect(cond.headers.get('etag')).toBe(tag);
    expect(cond.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    // The 304 still carries the security headers of the 200 it stands for.
    expect(cond.headers.get('x-content-type-options')).toBe('nosniff');

    // A list containing the tag, and the weak form, also match (weak comparison).
    expect((await call('/', { clock: CLOCK, headers: { 'if-none-match': `"nope", W/${tag}` } })).status).toBe(304);
  });

  it('a stale or foreign ETag gets the full 200 page', async () => {
    const res = await call('/', { clock: CLOCK, headers: { 'if-none-match': '"0000000000000000000000000000000000000000"' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<html');
  });

  it('a request with the session cookie is never marked shareable and gets no ETag (no 304 either)', async () => {
    const user = await createUser();
    const anon = await call('/', { clock: CLOCK });
    const tag = anon.headers.get('etag')!;
    await anon.text();
    const res = await call('/', { clock: CLOCK, cookie: user.cookie, headers: { 'if-none-match': tag } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PRIVATE_CACHE_CONTROL);
    expect(res.headers.get('etag')).toBeNull();
    expect(await res.text()).toContain('<html');
  });

  it('an unknown cookie value (stale session) is treated the same way: private', async () => {
    const res = await call('/', { clock: CLOCK, cookie: 'qk_session=bogus.token' });
    expect(res.headers.get('cache-control')).toBe(PRIVATE_CACHE_CONTROL);
    expect(res.headers.get('etag')).toBeNull();
    await res.text();
  });

  it('non-public paths get no public caching (API health, feedback POST, SPA 404 envelope)', async () => {
    const health = await call('/api/health');
    expect(health.headers.get('cache-control') ?? '').not.toContain('public');
    expect(health.headers.get('etag')).toBeNull();
    await health.text();
    const post = await call('/api/feedback', { body: {} });
    expect(post.headers.get('cache-control') ?? '').not.toContain('public');
    await post.text();
  });

  it('error responses on public paths are not marked shareable', async () => {
    const res = await call(`/quiz/det-har-finns-inte-alls-${crypto.randomUUID().slice(0, 8)}/nej`);
    expect(res.status).toBe(404);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    await res.text();
  });
});

describe('etagMatches (weak comparison, RFC 9110 §13.1.2)', () => {
  it('matches exact, weak, list members and *; not prefixes or missing', () => {
    expect(etagMatches('"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"abc"', 'W/"abc"')).toBe(true);
    expect(etagMatches('W/"abc"', '"abc"')).toBe(true);
    expect(etagMatches('"abc"', '"x", "abc"')).toBe(true);
    expect(etagMatches('"abc"', '*')).toBe(true);
    expect(etagMatches('"abc"', '"ab"')).toBe(false);
    expect(etagMatches('"abc"', undefined)).toBe(false);
    expect(etagMatches('"abc"', '')).toBe(false);
  });
});

describe('public listing API caching headers', () => {
  it('GET /api/listing: public Cache-Control with stale-while-revalidate, ETag, 304 on If-None-Match', async () => {
    const res = await call('/api/listing?city=tidaholm', { clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe(PUBLIC_CACHE_CONTROL);
    const tag = res.headers.get('etag');
    expect(tag).toMatch(/^"[0-9a-f]{40}"$/);
    await res.text();
    const cond = await call('/api/listing?city=tidaholm', { clock: CLOCK, headers: { 'if-none-match': tag! } });
    expect(cond.status).toBe(304);
    expect(await cond.text()).toBe('');
  });

  it('bad listing input (400) is not marked shareable', async () => {
    const res = await call('/api/listing?page=0', { clock: CLOCK });
    expect(res.status).toBe(400);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('etag')).toBeNull();
    await res.text();
  });
});

describe('versioned cache key: a write that changes public data is visible on the next request', () => {
  it('listing and city page: HIT until a real write bumps the version, then fresh data and a new ETag', async () => {
    const city = uniqueTown();
    const { user, location } = await createOwnerWithPlace(city);
    const citySlug = location.citySlug;
    const quiz = await createQuiz(location.id, { date: '2030-01-10', quizmaster: 'Första Mästaren' });
    const listing = `/api/listing?city=${citySlug}`;

    const first = await callJson(listing, { clock: CLOCK });
    expect(first.status).toBe(200);
    expect(first.body.items.map((q: { id: string }) => q.id)).toEqual([quiz.id]);
    expect(first.body.items[0].isCancelled).toBe(false);
    const tag1 = first.res.headers.get('etag')!;
    const page1 = await call(`/quiz/${citySlug}`, { clock: CLOCK });
    expect(page1.status).toBe(200);
    const pageTag1 = page1.headers.get('etag')!;
    await page1.text();

    // Served from the edge cache: a change written behind the app's back (no version bump) is not seen.
    await testDb().update(quizzes).set({ quizmaster: 'Smygande Mästaren' }).where(eq(quizzes.id, quiz.id));
    const cached = await callJson(listing, { clock: CLOCK });
    expect(cached.res.headers.get('x-cache')).toBe('HIT');
    expect(cached.body.items[0].quizmaster).toBe('Första Mästaren');
    expect(cached.res.headers.get('etag')).toBe(tag1);
    expect((await call(listing, { clock: CLOCK, headers: { 'if-none-match': tag1 } })).status).toBe(304);

    // A real write through the owner API bumps the public-data version in its batch.
    const write = await callJson(`/api/owner/quizzes/${quiz.id}/cancel`, { body: { cancelled: true }, cookie: user.cookie });
    expect(write.status).toBe(200);

    const after = await callJson(listing, { clock: CLOCK });
    expect(after.res.headers.get('x-cache')).toBe('MISS');
    expect(after.body.items[0].isCancelled).toBe(true);
    expect(after.body.items[0].quizmaster).toBe('Smygande Mästaren');
    expect(after.res.headers.get('etag')).not.toBe(tag1);
    // The old validator no longer matches: the browser gets the new body, not a 304.
    const revalidate = await call(listing, { clock: CLOCK, headers: { 'if-none-match': tag1 } });
    expect(revalidate.status).toBe(200);
    await revalidate.text();

    const page2 = await call(`/quiz/${citySlug}`, { clock: CLOCK });
    expect(page2.status).toBe(200);
    expect(page2.headers.get('etag')).not.toBe(pageTag1);
    expect(await page2.text()).toContain('Smygande Mästaren');
  });
});

describe('edge-cache keys hold only the parameters a route knows (issue 26.4)', () => {
  it('pages, /api/listing, feeds and widgets: an unknown parameter is a HIT of the same entry; a known one is its own entry', async () => {
    const { location, venue: place } = await createOwnerWithPlace(uniqueTown());
    await createQuiz(location.id, { date: '2030-01-15' });
    const city = location.citySlug;
    const venue = place.slug;
    const routes: Array<[string, string]> = [
      ['/', 'search=quiz'],
      [`/quiz/${city}`, 'price=gratis'],
      [`/stad/${city}`, 'weekday=tisdag'],
      [`/api/listing?city=${city}`, 'page=2'],
      [`/api/listing/map?city=${city}`, 'weekday=tisdag'],
      ['/api/listing/cities', ''],
      [`/api/calendar/city/${city}.ics`, ''],
      [`/api/calendar/listing.ics?city=${city}`, 'weekday=tisdag'],
      [`/embed/${city}`, 'theme=dark'],
      [`/embed/${city}/${venue}`, 'compact=1'],
      ['/sitemap.xml', ''],
    ];
    const get = async (path: string) => {
      const res = await call(path, { clock: CLOCK });
      expect(res.status, path).toBe(200);
      return { xcache: res.headers.get('x-cache'), etag: res.headers.get('etag'), body: await res.text() };
    };
    const join = (path: string, q: string) => `${path}${path.includes('?') ? '&' : '?'}${q}`;
    for (const [path] of routes) {
      const first = await get(path);
      for (const q of ['x=1', `utm_source=nyhetsbrev&fbclid=${unique('f')}`, 'x=%3Cscript%3E&y=']) {
        const again = await get(join(path, q));
        expect(again.xcache, `${path} + ${q}`).toBe('HIT');
        expect(again.etag, `${path} + ${q}`).toBe(first.etag);
      }
    }
    // A parameter the route knows is part of the key: a new value is a miss.
    for (const [path, known] of routes.filter(([, k]) => k !== '')) {
      expect((await get(join(path, known))).xcache, `${path} + ${known}`).toBe('MISS');
    }
  });

  it('an invalid value of a known parameter (ignored by the page) is a HIT of the canonical entry, reading no row (issue 43.8)', async () => {
    const { location, venue: place } = await createOwnerWithPlace(uniqueTown());
    await createQuiz(location.id, { date: '2030-01-15' });
    const city = location.citySlug;
    const get = async (path: string) => {
      const res = await call(path, { clock: CLOCK });
      expect(res.status, path).toBe(200);
      return { xcache: res.headers.get('x-cache'), rows: Number(res.headers.get('x-d1-rows-read')), etag: res.headers.get('etag'), body: await res.text() };
    };
    const join = (path: string, q: string) => `${path}${path.includes('?') ? '&' : '?'}${q}`;
    // Per page: its canonical query, and junk that page ignores, two different values each.
    const cases: Array<[string, string[]]> = [
      ['/', ['weekday=x', 'sprak=x', 'near=a', 'date=x', 'radius=x', 'city=%00', 'search=%01', 'near=57.7,11.9&radius=x', 'weekday=tisdag&weekday=x']],
      [`/quiz/${city}`, ['weekday=x', 'date=2030-02-30', 'sprak=x']],
      [`/quiz/${city}/tisdag`, ['date=x', 'time=x']],
      [`/stad/${city}`, ['radius=x', 'near=1000,1000']],
      [`/embed/${city}`, ['theme=x', 'compact=x']],
      [`/embed/${city}/${place.slug}`, ['theme=x', 'compact=2']],
    ];
    for (const [path, junk] of cases) {
      const canonical = await get(path);
      for (const q of junk) {
        const qs = (n: number) =>
          q
            .replace(/=x\b/g, `=x${n}${unique('j')}`)
            .replace(/=a\b/, `=a${n}`)
            .replace(/=(%0[01])/, `=$1${n}`);
        const first = await get(join(path, qs(1)));
        const second = await get(join(path, qs(2)));
        // The notice naming an ignored quiz filter keeps such a request apart from the plain page, but one
        // entry serves every invalid value of it: its second request is a hit, whatever the value.
        expect(second.xcache, `${path} + ${q}`).toBe('HIT');
        // Nothing read for the page (at most the data version, when its one-second memo has run out).
        expect(second.rows, `${path} + ${q}`).toBeLessThanOrEqual(1);
        expect(second.etag).toBe(first.etag);
        // Without its junk the request is the canonical one (the page alone, or with the valid part).
        // (A named quiz filter, sprak or time, is the notice's own entry instead: checked by the hit above.)
        const named = /sprak|time/.test(q);
        const valid = q.split('&').filter((p) => !/=(x|a|%0[01])$/.test(p));
        const expected = named ? first.etag : valid.length ? (await get(join(path, valid.join('&')))).etag : canonical.etag;
        expect(first.etag, `${path} + ${q}: the canonical entry`).toBe(expected);
        expect(named ? first.etag !== canonical.etag : true, `${path} + ${q}: the notice is not the plain page`).toBe(true);
      }
    }
  });

  it('a search feed names its own URL with the known parameters only, whoever asked first', async () => {
    const { location } = await createOwnerWithPlace(uniqueTown());
    const folded = await (await call(`/api/calendar/listing.ics?x=${unique('x')}&city=${location.citySlug}`, { clock: CLOCK })).text();
    const ics = folded.replace(/\r\n /g, ''); // RFC 5545 §3.1 line folding
    expect(ics).toContain(`URL:http://localhost/api/calendar/listing.ics?city=${location.citySlug}\r\n`);
    expect(ics).not.toContain('x=');
  });
});

describe('memoized data version (one D1 read per isolate and DATA_VERSION_TTL_MS, not per request)', () => {
  /** Bumps the version in D1 behind the app's back: no bumpDataVersion call, so nothing forgets the memo. */
  const sneakyBump = () => testDb().run(sql`UPDATE public_data_version SET version = version + 1 WHERE id = 1`);
  const xcache = async (path: string) => {
    const res = await call(path, { clock: CLOCK });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    return res.headers.get('x-cache');
  };

  it('a version change nobody announced is picked up once the TTL has passed', async () => {
    const { location } = await createOwnerWithPlace(uniqueTown());
    const path = `/api/listing?city=${location.citySlug}`;
    // The memo's clock is Date.now() in this isolate (the Worker runs in it): frozen here, so "within the
    // TTL" does not depend on how fast this machine is; only Date is faked (timers and I/O stay real).
    const frozen = Date.parse('2026-11-26T09:00:00Z');
    vi.useFakeTimers({ toFake: ['Date'], now: frozen });
    try {
      invalidateDataVersion(); // the next request reads the version now, on the frozen clock
      expect(await xcache(path)).toBe('MISS');
      await sneakyBump();
      // Within the TTL the memo answers (no read of D1), so the old key still hits.
      vi.setSystemTime(frozen + DATA_VERSION_TTL_MS - 1);
      expect(await xcache(path)).toBe('HIT');
      vi.setSystemTime(frozen + DATA_VERSION_TTL_MS + 1);
      expect(await xcache(path)).toBe('MISS');
      expect(await xcache(path)).toBe('HIT');
    } finally {
      vi.useRealTimers();
    }
  });

  it('bumpDataVersion(db) is seen by the very next request (listing API and page)', async () => {
    const { location } = await createOwnerWithPlace(uniqueTown());
    const listing = `/api/listing?city=${location.citySlug}`;
    const pagePath = `/quiz/${location.citySlug}`;
    for (const p of [listing, pagePath]) await xcache(p);
    expect(await xcache(listing)).toBe('HIT');
    expect(await xcache(pagePath)).toBe('HIT');
    await bumpDataVersion(testDb());
    expect(await xcache(listing)).toBe('MISS');
    expect(await xcache(pagePath)).toBe('MISS');
  });

  it('every non-GET request forgets the memo when it ends (even one that changes nothing)', async () => {
    const { location } = await createOwnerWithPlace(uniqueTown());
    const path = `/api/listing?city=${location.citySlug}`;
    await xcache(path);
    expect(await xcache(path)).toBe('HIT');
    await sneakyBump();
    const post = await call('/api/feedback', { body: {} });
    expect(post.status).toBeGreaterThanOrEqual(400);
    await post.arrayBuffer();
    expect(await xcache(path)).toBe('MISS');
  });
});
