/**
 * GET /api/listing: series selection, visibility, ranking tiers, paging, Stockholm dates and caching
 * (spec 01 §4, §6). Every test builds its own city with a unique name, so tests never see each
 * other's data; the clock is pinned per request.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { promotions, users } from '../../worker/db/schema';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { newId } from '../../worker/lib/ids';
import { slugify } from '../../worker/lib/slug';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, VERIFIED_AT, uniqueTown } from '../factories';

// Monday 2030-01-07, 11:00 in Stockholm.
const MONDAY = '2030-01-07T10:00:00Z';
const HOUSE = 'house@test.local';

async function houseUserId(): Promise<string> {
  const db = testDb();
  const rows = await db.all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
  if (rows[0]) return rows[0].id;
  const id = newId();
  await db.insert(users).values({ id, email: HOUSE, emailVerifiedAt: VERIFIED_AT }).onConflictDoNothing();
  return (await db.all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`))[0]!.id;
}

async function place(opts: { city?: string; owner?: string; isPublic?: boolean; venueName?: string; placeName?: string } = {}) {
  const owner = opts.owner ?? (await createUser()).id;
  const venue = await createVenue(owner, { isPublic: opts.isPublic ?? true, ...(opts.venueName ? { name: opts.venueName } : {}) });
  const city = opts.city ?? uniqueTown();
  const location = await createLocation(venue.id, { city, ...(opts.placeName ? { name: opts.placeName } : {}) });
  return { venue, location, city, citySlug: slugify(city), owner };
}

async function series(locationId: string, dates: string[], over: Record<string, unknown> = {}) {
  const rid = newId();
  const rows = [];
  for (const date of dates) rows.push(await createQuiz(locationId, { date, isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly', ...over }));
  return rows;
}

async function list(query: string, opts: { clock?: string; cookie?: string } = {}) {
  const res = await callJson(`/api/listing?${query}`, { clock: opts.clock ?? MONDAY, cookie: opts.cookie });
  expect(res.status).toBe(200);
  return res.body as {
    items: Array<{ id: string; date: string; tier: string; isCancelled: boolean; unclaimed: boolean; venue: { name: string }; categoryLabel: string }>;
    total: number;
    page: number;
    hasMore: boolean;
    mode: string;
    today: string;
  };
}

const ids = (b: { items: Array<{ id: string }> }) => b.items.map((i) => i.id);

describe('series selection', () => {
  it('a selected date shows the series occurrence and single quizzes on exactly that date', async () => {
    const p = await place();
    const s = await series(p.location.id, ['2030-01-07', '2030-01-14', '2030-01-21']);
    const single14 = await createQuiz(p.location.id, { date: '2030-01-14' });
    await createQuiz(p.location.id, { date: '2030-01-15' });
    const b = await list(`city=${p.citySlug}&date=2030-01-14`);
    expect(b.mode).toBe('date');
    expect(ids(b).sort()).toEqual([s[1]!.id, single14.id].sort());
  });

  it("weekday 'all' shows each series' next occurrence on or after today and single quizzes from today", async () => {
    const p = await place();
    const s = await series(p.location.id, ['2029-12-31', '2030-01-09', '2030-01-16']);
    await createQuiz(p.location.id, { date: '2030-01-06' }); // yesterday: gone
    const later = await createQuiz(p.location.id, { date: '2030-03-01' });
    const today = await createQuiz(p.location.id, { date: '2030-01-07' });
    const b = await list(`city=${p.citySlug}&weekday=all`);
    expect(b.mode).toBe('all');
    expect(ids(b).sort()).toEqual([s[1]!.id, later.id, today.id].sort());
    // No filter at all is the same rule.
    expect(ids(await list(`city=${p.citySlug}`)).sort()).toEqual(ids(b).sort());
  });

  it('one series at two places is listed once per place', async () => {
    const p = await place();
    const loc2 = await createLocation(p.venue.id, { city: p.city });
    const rid = newId();
    const a = await createQuiz(p.location.id, { date: '2030-01-08', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
    await createQuiz(p.location.id, { date: '2030-01-15', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
    const b2 = await createQuiz(loc2.id, { date: '2030-01-09', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
    expect(ids(await list(`city=${p.citySlug}`)).sort()).toEqual([a.id, b2.id].sort());
  });

  it('a specific weekday: weekly next occurrence, biweekly only within 7 days, single quizzes always', async () => {
    const p = await place();
    const weekly = await series(p.location.id, ['2030-01-09', '2030-01-16']); // Wednesdays
    const biNear = await series(p.location.id, ['2030-01-09', '2030-01-23'], { recurrencePattern: 'biweekly' });
    await series(p.location.id, ['2030-01-16', '2030-01-30'], { recurrencePattern: 'biweekly' }); // 9 days away
    const singleFar = await createQuiz(p.location.id, { date: '2030-02-06' }); // a Wednesday
    await createQuiz(p.location.id, { date: '2030-02-07' }); // a Thursday
    await series(p.location.id, ['2030-01-10', '2030-01-17']); // Thursdays
    const b = await list(`city=${p.citySlug}&weekday=onsdag`);
    expect(b.mode).toBe('weekday');
    expect(ids(b).sort()).toEqual([weekly[0]!.id, biNear[0]!.id, singleFar.id].sort());
    // Sorted by date within the tier? all standard → random but all present; ASCII slug works too.
    expect(ids(await list(`city=${p.citySlug}&weekday=onsdag`)).sort()).toEqual(ids(b).sort());
  });

  it("the weekday that is today includes today's quiz", async () => {
    const p = await place();
    const s = await series(p.location.id, ['2029-12-31', '2030-01-07', '2030-01-14']);
    const b = await list(`city=${p.citySlug}&weekday=m%C3%A5ndag`);
    expect(ids(b)).toEqual([s[1]!.id]);
  });

  it('a search term finds the next occurrence per series, case-insensitively with å/ä/ö, over every searched field', async () => {
    const tag = unique('q');
    const p = await place({ venueName: `Ölkällaren ${tag}`, placeName: `Åsa Bar ${tag}` });
    const s = await series(p.location.id, ['2030-01-01', '2030-01-08', '2030-01-15'], {
      quizmaster: `Märta Mästare ${tag}`,
      theme: `Örnar ${tag}`,
      description: `Tävling ${tag}`,
    });
    const single = await createQuiz(p.location.id, { date: '2030-02-01', description: `ÄVENTYR ${tag}` });
    await createQuiz(p.location.id, { date: '2030-01-02', description: `ÄVENTYR ${tag}` }); // past
    for (const term of [`MÄRTA MÄSTARE ${tag}`, `örnar ${tag}`, `tävling ${tag}`]) {
      const b = await list(`search=${encodeURIComponent(term)}&date=2030-01-07`);
      expect(b.mode, term).toBe('search');
      expect(ids(b), term).toEqual([s[1]!.id]);
    }
    // Venue and place names match every quiz there.
    for (const term of [`ÖLKÄLLAREN ${tag}`, `åsa bar ${tag}`]) {
      expect(ids(await list(`search=${encodeURIComponent(term)}`)).sort(), term).toEqual([s[1]!.id, single.id].sort());
    }
    expect(ids(await list(`search=${encodeURIComponent(`äventyr ${tag}`)}`))).toEqual([single.id]);
    expect((await list(`search=${encodeURIComponent(`100%_${tag}`)}`)).total).toBe(0);
  });

  it('a cancelled occurrence is listed and flagged, not hidden', async () => {
    const p = await place();
    const s = await series(p.location.id, ['2030-01-08', '2030-01-15']);
    await testDb().run(sql`UPDATE quizzes SET is_cancelled = 1 WHERE id = ${s[0]!.id}`);
    const b = await list(`city=${p.citySlug}`);
    expect(b.items.map((i) => [i.id, i.isCancelled])).toEqual([[s[0]!.id, true]]);
  });
});

describe('visibility', () => {
  it('visitors see public businesses only; the owner also sees their own hidden one; others do not', async () => {
    const city = uniqueTown();
    const owner = await createUser({ now: new Date(MONDAY) });
    const other = await createUser({ now: new Date(MONDAY) });
    const pub = await place({ city });
    const hidden = await place({ city, owner: owner.id, isPublic: false });
    const q1 = await createQuiz(pub.location.id, { date: '2030-01-08' });
    const q2 = await createQuiz(hidden.location.id, { date: '2030-01-08' });
    const slug = slugify(city);
    expect(ids(await list(`city=${slug}`))).toEqual([q1.id]);
    expect(ids(await list(`city=${slug}`, { cookie: other.cookie }))).toEqual([q1.id]);
    expect(ids(await list(`city=${slug}`, { cookie: owner.cookie })).sort()).toEqual([q1.id, q2.id].sort());
    // The owner's own hidden unit is merged into the walked public page and counted with it.
    const mine = await list(`city=${slug}&weekday=tisdag`, { cookie: owner.cookie });
    expect(ids(mine).sort()).toEqual([q1.id, q2.id].sort());
    expect(mine.total).toBe(2);
    expect(mine.hasMore).toBe(false);
    expect((await list(`city=${slug}`)).total).toBe(1);
  });
});

describe('ranking', () => {
  async function promote(quizId: string, type: 'premium' | 'recommended', start: string, end: string, status: 'active' | 'cancelled' = 'active') {
    await testDb().insert(promotions).values({ id: newId(), quizId, productType: type, status, startDate: start, endDate: end });
  }

  it('premium by date, then recommended, then real accounts, then the house account', async () => {
    const city = uniqueTown();
    const house = await houseUserId();
    const real = await place({ city });
    const unclaimed = await place({ city, owner: house });
    const houseQ = await createQuiz(unclaimed.location.id, { date: '2030-01-08' });
    const houseQ2 = await createQuiz(unclaimed.location.id, { date: '2030-01-07' });
    const realQ = await createQuiz(real.location.id, { date: '2030-01-09' });
    const realQ2 = await createQuiz(real.location.id, { date: '2030-01-10' });
    const rec = await createQuiz(real.location.id, { date: '2030-01-11' });
    const premLate = await createQuiz(unclaimed.location.id, { date: '2030-01-12' });
    const premEarly = await createQuiz(real.location.id, { date: '2030-01-08' });
    const expired = await createQuiz(real.location.id, { date: '2030-01-08' });
    const cancelledPromo = await createQuiz(real.location.id, { date: '2030-01-08' });
    const otherDay = await createQuiz(real.location.id, { date: '2030-01-20' });
    await promote(rec.id, 'recommended', '2030-01-11', '2030-01-11');
    await promote(premLate.id, 'premium', '2030-01-07', '2030-01-14');
    await promote(premEarly.id, 'premium', '2030-01-08', '2030-01-08');
    await promote(expired.id, 'premium', '2030-01-01', '2030-01-06');
    await promote(cancelledPromo.id, 'premium', '2030-01-07', '2030-01-14', 'cancelled');
    await promote(otherDay.id, 'premium', '2030-01-07', '2030-01-14'); // the listed date is outside the promotion
    const b = await list(`city=${slugify(city)}`);
    const tiers = Object.fromEntries(b.items.map((i) => [i.id, i.tier]));
    expect(ids(b).slice(0, 3)).toEqual([premEarly.id, premLate.id, rec.id]);
    expect(tiers[expired.id]).toBe('standard');
    expect(tiers[cancelledPromo.id]).toBe('standard');
    expect(tiers[otherDay.id]).toBe('standard');
    expect(ids(b).slice(-2).sort()).toEqual([houseQ.id, houseQ2.id].sort());
    expect(new Set(ids(b).slice(3, -2))).toEqual(new Set([realQ.id, realQ2.id, expired.id, cancelledPromo.id, otherDay.id]));
    expect(b.items.find((i) => i.id === houseQ.id)!.unclaimed).toBe(true);
    expect(b.items.find((i) => i.id === realQ.id)!.unclaimed).toBe(false);
    // The random order is stable within a Stockholm day.
    expect(ids(await list(`city=${slugify(city)}`))).toEqual(ids(b));
  });

  it('a promotion bought for one occurrence of a series applies to that series on its dates', async () => {
    const p = await place();
    const s = await series(p.location.id, ['2030-01-01', '2030-01-08', '2030-01-15']);
    await promote(s[0]!.id, 'recommended', '2030-01-01', '2030-01-10');
    const b = await list(`city=${p.citySlug}`);
    expect(b.items.map((i) => [i.id, i.tier])).toEqual([[s[1]!.id, 'recommended']]);
  });
});

describe('paging', () => {
  it('pages of 12 with the total; pages do not overlap and cover everything', async () => {
    const p = await place();
    const made = [];
    for (let i = 0; i < 14; i++) made.push((await createQuiz(p.location.id, { date: `2030-01-${String(8 + (i % 5)).padStart(2, '0')}` })).id);
    const p1 = await list(`city=${p.citySlug}&page=1`);
    const p2 = await list(`city=${p.citySlug}&page=2`);
    expect([p1.items.length, p1.total, p1.hasMore]).toEqual([12, 14, true]);
    expect([p2.items.length, p2.total, p2.hasMore, p2.page]).toEqual([2, 14, false, 2]);
    expect([...ids(p1), ...ids(p2)].sort()).toEqual(made.sort());
  });
});

describe('GET /api/listing/cities', () => {
  it('lists each city with a public business once, with its name from the data', async () => {
    const name = uniqueTown({ nonAscii: true });
    const a = await place({ city: name });
    await place({ city: name });
    const hidden = await place({ city: uniqueTown(), isPublic: false });
    const { status, body } = await callJson('/api/listing/cities');
    expect(status).toBe(200);
    const mine = body.cities.filter((c: { slug: string }) => c.slug === a.citySlug);
    expect(mine).toEqual([{ slug: a.citySlug, name }]);
    expect(body.cities.some((c: { slug: string }) => c.slug === hidden.citySlug)).toBe(false);
  });

  it('a page past the end is empty', async () => {
    const p = await place();
    await createQuiz(p.location.id, { date: '2030-01-08' });
    const b = await list(`city=${p.citySlug}&page=3`);
    expect([b.items.length, b.total, b.hasMore]).toEqual([0, 1, false]);
  });
});

describe('Stockholm dates', () => {
  it('Sunday 23:30 UTC is Monday in Stockholm: Sunday quizzes are gone, Monday is today', async () => {
    const p = await place();
    await createQuiz(p.location.id, { date: '2030-01-06' });
    const mon = await createQuiz(p.location.id, { date: '2030-01-07' });
    const b = await list(`city=${p.citySlug}`, { clock: '2030-01-06T23:30:00Z' });
    expect(b.today).toBe('2030-01-07');
    expect(ids(b)).toEqual([mon.id]);
    expect(ids(await list(`city=${p.citySlug}&weekday=mandag`, { clock: '2030-01-06T23:30:00Z' }))).toEqual([mon.id]);
    // 22:59 UTC on the Sunday is still Sunday.
    expect((await list(`city=${p.citySlug}`, { clock: '2030-01-06T22:59:00Z' })).today).toBe('2030-01-06');
  });

  it('the week of the spring switch (2030-03-31) and the autumn switch (2030-10-27)', async () => {
    const p = await place();
    const sat = await createQuiz(p.location.id, { date: '2030-03-30' });
    const sun = await createQuiz(p.location.id, { date: '2030-03-31' });
    // 23:30 UTC on Saturday 30 March is 00:30 CET on Sunday 31 March.
    const spring = await list(`city=${p.citySlug}&weekday=sondag`, { clock: '2030-03-30T23:30:00Z' });
    expect(spring.today).toBe('2030-03-31');
    expect(ids(spring)).toEqual([sun.id]);
    expect(ids(await list(`city=${p.citySlug}&date=2030-03-30`, { clock: '2030-03-30T22:30:00Z' }))).toEqual([sat.id]);
    const autumnSat = await createQuiz(p.location.id, { date: '2030-10-26' });
    const autumnSun = await createQuiz(p.location.id, { date: '2030-10-27' });
    // 22:30 UTC on Saturday 26 October is 00:30 CEST on Sunday 27 October; 21:59 UTC is still Saturday.
    expect(ids(await list(`city=${p.citySlug}`, { clock: '2030-10-26T22:30:00Z' }))).toEqual([autumnSun.id]);
    expect(ids(await list(`city=${p.citySlug}&weekday=lordag`, { clock: '2030-10-26T21:59:00Z' }))).toEqual([autumnSat.id]);
  });
});

describe('bad input', () => {
  it.each([
    ['date=2030-13-45', 'Datum'],
    ['date=igår', 'Datum'],
    ['page=0', 'Sida'],
    ['page=abc', 'Sida'],
    ['weekday=funday', 'Veckodag'],
    ['city=%3Cscript%3E', 'Stad'],
    [`search=${'x'.repeat(101)}`, 'Sök'],
  ])('%s answers 400 naming the field and changes nothing', async (q, field) => {
    const before = await snapshot();
    const { status, body } = await callJson(`/api/listing?${q}`, { clock: MONDAY });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_input');
    expect(body.error.message).toContain(field);
    expect(await snapshot()).toEqual(before);
  });
});

describe('edge cache', () => {
  it('anonymous answers are cached under the data version; a write that bumps it is seen at once', async () => {
    const p = await place();
    const q1 = await createQuiz(p.location.id, { date: '2030-01-08' });
    const url = `/api/listing?city=${p.citySlug}`;
    const first = await call(url, { clock: MONDAY });
    expect(first.headers.get('x-cache')).toBe('MISS');
    expect(((await first.json()) as any).total).toBe(1);
    const second = await call(url, { clock: MONDAY });
    expect(second.headers.get('x-cache')).toBe('HIT');
    expect(((await second.json()) as any).total).toBe(1);
    // A write without a version bump is not visible yet (proves the cache is really used) …
    const q2 = await createQuiz(p.location.id, { date: '2030-01-09' });
    expect(((await (await call(url, { clock: MONDAY })).json()) as any).total).toBe(1);
    // … and the bump that every public write batches makes it visible on the next request.
    await bumpDataVersion(testDb());
    const third = await call(url, { clock: MONDAY });
    expect(third.headers.get('x-cache')).toBe('MISS');
    expect(((await third.json()) as any).items.map((i: any) => i.id).sort()).toEqual([q1.id, q2.id].sort());
  });

  it('a signed-in request is never cached nor served from the cache', async () => {
    const user = await createUser({ now: new Date(MONDAY) });
    const p = await place({ owner: user.id, isPublic: false });
    const q = await createQuiz(p.location.id, { date: '2030-01-08' });
    const url = `/api/listing?city=${p.citySlug}`;
    const mine = await call(url, { clock: MONDAY, cookie: user.cookie });
    expect(mine.headers.get('x-cache')).toBe('BYPASS');
    expect(mine.headers.get('cache-control')).toContain('no-store');
    expect(((await mine.json()) as any).items.map((i: any) => i.id)).toEqual([q.id]);
    const anon = await call(url, { clock: MONDAY });
    expect(anon.headers.get('x-cache')).toBe('MISS');
    expect(((await anon.json()) as any).total).toBe(0);
  });
});
