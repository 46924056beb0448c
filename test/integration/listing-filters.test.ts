/**
 * Quiz filters (issue 20 item 1): price, team size, category and start time on GET /api/listing, the
 * public pages and the listing feed — each alone, combined, with every mode (all, weekday, date, search,
 * near), with the promoted tiers, bad values, hidden businesses, and the trigger-kept unit columns.
 * Every test builds its own city; the clock is pinned (Monday 2030-01-07).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import unknownFactsMigration from '../../migrations/0031_unknown_facts.sql?raw';
import { calendarFeeds, calendarSyncItems, promotions, tips } from '../../worker/db/schema';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { newId } from '../../worker/lib/ids';
import { slugify } from '../../worker/lib/slug';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, uniqueTown } from '../factories';

const MONDAY = '2030-01-07T10:00:00Z';

type Item = { id: string; date: string; tier: string; price: number | null; teamSize: number | null };

async function world() {
  const owner = await createUser({ now: new Date(MONDAY) });
  const venue = await createVenue(owner.id, { name: `Filterkrogen ${unique('v')}` });
  const city = uniqueTown();
  const location = await createLocation(venue.id, { city, latitude: 59.33, longitude: 18.06 });
  const loc = location.id;
  const rid = newId();
  // A: free (0 kr), max 4, allmänbildning, 19:00, Tuesday single.
  const a = await createQuiz(loc, { date: '2030-01-08', startTime: '19:00:00', price: 0, teamSize: 4, category: 'allmänbildning' });
  // B: a weekly Tuesday music series, 40 kr, max 6, 20:00 (the band 19–20 includes 20:00).
  const b1 = await createQuiz(loc, {
    date: '2030-01-08',
    startTime: '20:00:00',
    price: 40,
    teamSize: 6,
    category: 'tema',
    theme: 'Musik',
    isRecurring: true,
    recurrenceId: rid,
    recurrencePattern: 'weekly',
  });
  const b2 = await createQuiz(loc, {
    date: '2030-01-15',
    startTime: '20:00:00',
    price: 40,
    teamSize: 6,
    category: 'tema',
    theme: 'Musik',
    isRecurring: true,
    recurrenceId: rid,
    recurrencePattern: 'weekly',
  });
  // C: 80 kr, no max team size, sport, 18:30, Wednesday.
  const c = await createQuiz(loc, { date: '2030-01-09', startTime: '18:30:00', price: 80, teamSize: null, category: 'tema', theme: 'Sport' });
  // D: 0 kr (free), max 8, an old stored category 'filmquiz', 21:00, Thursday.
  const d = await createQuiz(loc, { date: '2030-01-10', startTime: '21:00:00', price: 0, teamSize: 8, category: 'filmquiz' });
  // E: 50 kr, max 2, a custom theme (Annat), no start time (= 19:00), Friday.
  const e = await createQuiz(loc, { date: '2030-01-11', startTime: null, price: 50, teamSize: 2, category: 'tema', theme: 'Quizzens historia' });
  // U: price and category unknown (as a tip or a synced calendar leaves them; issue 44.3), 19:00, Saturday.
  const u = await createQuiz(loc, { date: '2030-01-12', startTime: '19:00:00', price: null, teamSize: null, category: null });
  await bumpDataVersion(testDb());
  return { owner, venue, city, citySlug: slugify(city), location, rid, a, b1, b2, c, d, e, u };
}

async function list(query: string, cookie?: string) {
  const res = await callJson(`/api/listing?${query}`, { clock: MONDAY, cookie });
  expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as { items: Item[]; total: number; mode: string };
}
const ids = (b: { items: Array<{ id: string }> }) => b.items.map((i) => i.id).sort();
const sorted = (...xs: Array<{ id: string }>) => xs.map((x) => x.id).sort();

describe('each filter alone (mode all, one city)', () => {
  it('price, team size, category and start time each keep exactly their quizzes', async () => {
    const w = await world();
    const q = `city=${w.citySlug}`;
    expect(ids(await list(q))).toEqual(sorted(w.a, w.b1, w.c, w.d, w.e, w.u));
    // An unknown price is in neither price filter (issue 44.3).
    expect(ids(await list(`${q}&price=gratis`))).toEqual(sorted(w.a, w.d));
    expect(ids(await list(`${q}&price=max50`))).toEqual(sorted(w.a, w.b1, w.d, w.e));
    expect(ids(await list(`${q}&price=alla`))).toEqual(sorted(w.a, w.b1, w.c, w.d, w.e, w.u));
    // Team size: the max allows the number, or there is no max.
    expect(ids(await list(`${q}&team=5`))).toEqual(sorted(w.b1, w.c, w.d, w.u));
    expect(ids(await list(`${q}&team=8`))).toEqual(sorted(w.c, w.d, w.u));
    expect(ids(await list(`${q}&team=2`))).toEqual(sorted(w.a, w.b1, w.c, w.d, w.e, w.u));
    expect(ids(await list(`${q}&category=allmanbildning`))).toEqual(sorted(w.a));
    expect(ids(await list(`${q}&category=musik`))).toEqual(sorted(w.b1));
    expect(ids(await list(`${q}&category=sport`))).toEqual(sorted(w.c));
    expect(ids(await list(`${q}&category=film-tv`))).toEqual(sorted(w.d));
    expect(ids(await list(`${q}&category=annat`))).toEqual(sorted(w.e));
    expect(ids(await list(`${q}&time=fore19`))).toEqual(sorted(w.c));
    expect(ids(await list(`${q}&time=19-20`))).toEqual(sorted(w.a, w.b1, w.e, w.u));
    expect(ids(await list(`${q}&time=efter20`))).toEqual(sorted(w.d));
    // Case and 'alla' are forgiven; totals follow the filter.
    const up = await list(`${q}&price=GRATIS&category=Alla&time=&team=`);
    expect(ids(up)).toEqual(sorted(w.a, w.d));
    expect(up.total).toBe(2);
  });

  it('combined filters intersect', async () => {
    const w = await world();
    const q = `city=${w.citySlug}`;
    expect(ids(await list(`${q}&price=gratis&category=musik`))).toEqual([]);
    expect(ids(await list(`${q}&price=max50&category=musik&time=19-20&team=6`))).toEqual(sorted(w.b1));
    expect(ids(await list(`${q}&price=max50&category=musik&time=19-20&team=7`))).toEqual([]);
    expect(ids(await list(`${q}&price=gratis&team=5`))).toEqual(sorted(w.d));
    expect(ids(await list(`${q}&price=gratis&time=19-20`))).toEqual(sorted(w.a));
  });
});

describe('the map of the results', () => {
  it('GET /api/listing/map and /api/listing/card apply the same quiz filters as the cards', async () => {
    const w = await world();
    const map = async (query: string) => {
      const res = await callJson(`/api/listing/map?${query}`, { clock: MONDAY });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body as { points: Array<{ unit: number }>; total: number };
    };
    expect((await map(`city=${w.citySlug}`)).total).toBe(6);
    const free = await map(`city=${w.citySlug}&price=gratis`);
    expect(free.total).toBe(2);
    expect(free.points.length).toBe(2);
    const musicFree = await map(`city=${w.citySlug}&price=gratis&category=musik`);
    expect(musicFree).toMatchObject({ total: 0, points: [] });
    // A marker of the free map opens only a free card; under a filter it does not pass, the card is 404.
    const unit = free.points[0]!.unit;
    const card = await callJson(`/api/listing/card?unit=${unit}&city=${w.citySlug}&price=gratis`, { clock: MONDAY });
    expect(card.status).toBe(200);
    expect([w.a.id, w.d.id]).toContain(card.body.item.id);
    expect((await callJson(`/api/listing/card?unit=${unit}&city=${w.citySlug}&price=gratis&category=sport`, { clock: MONDAY })).status).toBe(404);
    expect((await callJson(`/api/listing/map?city=${w.citySlug}&price=gratis-ish`, { clock: MONDAY })).status).toBe(400);
  });
});

describe('with every mode', () => {
  it('weekday, date and search keep their selection rules and add the filter', async () => {
    const w = await world();
    const q = `city=${w.citySlug}`;
    const tue = await list(`${q}&weekday=tisdag&category=musik`);
    expect(tue.mode).toBe('weekday');
    expect(tue.items.map((i) => [i.id, i.date])).toEqual([[w.b1.id, '2030-01-08']]);
    expect(ids(await list(`${q}&weekday=tisdag&price=gratis`))).toEqual(sorted(w.a));
    const date = await list(`${q}&date=2030-01-10&price=gratis`);
    expect(date.mode).toBe('date');
    expect(ids(date)).toEqual(sorted(w.d));
    expect(ids(await list(`${q}&date=2030-01-09&price=max50`))).toEqual([]);
    const search = await list(`search=${encodeURIComponent(w.venue.name)}&category=sport`);
    expect(search.mode).toBe('search');
    expect(ids(search)).toEqual(sorted(w.c));
    // Without a city (the live index), the filter still applies: only this world's free music quiz is found by its name.
    expect(ids(await list(`search=${encodeURIComponent(w.venue.name)}&price=gratis&weekday=all`))).toEqual(sorted(w.a, w.d));
  });

  it('near mode: within the radius and the filters', async () => {
    const w = await world();
    const res = await callJson(`/api/listing?near=59.33,18.06&radius=1&category=musik&price=max50`, { clock: MONDAY });
    expect(res.status).toBe(200);
    const mine = (res.body.items as Item[]).filter((i) => [w.a.id, w.b1.id, w.c.id, w.d.id, w.e.id].includes(i.id));
    expect(mine.map((i) => i.id)).toEqual([w.b1.id]);
    for (const i of res.body.items as Item[]) {
      expect(i.price).not.toBeNull();
      expect(i.price!).toBeLessThanOrEqual(50);
    }
  });

  it('promoted tiers: a promoted quiz outside the filter is not shown; one inside still ranks first', async () => {
    const w = await world();
    const other = await createVenue((await createUser()).id, { name: `Annan ${unique('v')}` });
    const otherLoc = await createLocation(other.id, { city: w.city });
    const promotedFree = await createQuiz(otherLoc.id, { date: '2030-01-12', price: 0, category: 'tema', theme: 'Musik' });
    await testDb()
      .insert(promotions)
      .values([
        { id: newId(), quizId: w.c.id, productType: 'premium', status: 'active', startDate: '2030-01-07', endDate: '2030-01-13' },
        { id: newId(), quizId: promotedFree.id, productType: 'premium', status: 'active', startDate: '2030-01-07', endDate: '2030-01-13' },
      ]);
    await bumpDataVersion(testDb());
    const free = await list(`city=${w.citySlug}&price=gratis`);
    expect(free.items[0]).toMatchObject({ id: promotedFree.id, tier: 'premium' });
    expect(ids(free)).toEqual(sorted(w.a, w.d, promotedFree));
    expect(free.total).toBe(3);
    const sport = await list(`city=${w.citySlug}&category=sport`);
    expect(sport.items.map((i) => [i.id, i.tier])).toEqual([[w.c.id, 'premium']]);
  });
});

describe('visibility and the read model', () => {
  it('hidden businesses never leak through a filter; their owner sees them when signed in', async () => {
    const w = await world();
    const hiddenOwner = await createUser({ now: new Date(MONDAY) });
    const hidden = await createVenue(hiddenOwner.id, { isPublic: false, name: `Dold ${unique('d')}` });
    const hl = await createLocation(hidden.id, { city: w.city });
    const secret = await createQuiz(hl.id, { date: '2030-01-08', price: 0, category: 'tema', theme: 'Musik' });
    await bumpDataVersion(testDb());
    for (const q of ['price=gratis', 'category=musik', 'price=gratis&category=musik', 'team=3', 'time=19-20']) {
      const b = await list(`city=${w.citySlug}&${q}`);
      expect(ids(b), q).not.toContain(secret.id);
      const s = await list(`search=${encodeURIComponent(hidden.name)}&${q}`);
      expect(s.total, q).toBe(0);
    }
    expect(ids(await list(`city=${w.citySlug}&price=gratis&category=musik`, hiddenOwner.cookie))).toEqual([secret.id]);
  });

  it('an edit of price, team size, category or time moves the unit between filters (triggers)', async () => {
    const w = await world();
    const q = `city=${w.citySlug}`;
    await testDb().run(sql`UPDATE quizzes SET price = 0 WHERE recurrence_id = ${w.rid}`);
    await bumpDataVersion(testDb());
    expect(ids(await list(`${q}&price=gratis&category=musik`))).toEqual(sorted(w.b1));
    // Back to unknown: out of both price filters again (listing_series.price -1).
    await testDb().run(sql`UPDATE quizzes SET price = NULL WHERE recurrence_id = ${w.rid}`);
    await bumpDataVersion(testDb());
    expect(ids(await list(`${q}&price=gratis&category=musik`))).toEqual([]);
    expect(ids(await list(`${q}&price=max50&category=musik`))).toEqual([]);
    expect(ids(await list(`${q}&category=musik`))).toEqual(sorted(w.b1));
    await testDb().run(sql`UPDATE quizzes SET theme = 'Sport' WHERE recurrence_id = ${w.rid}`);
    await bumpDataVersion(testDb());
    expect(ids(await list(`${q}&category=musik`))).toEqual([]);
    expect(ids(await list(`${q}&category=sport`))).toEqual(sorted(w.b1, w.c));
    await testDb().run(sql`UPDATE quizzes SET team_size = 8, start_time = '18:00:00' WHERE recurrence_id = ${w.rid}`);
    await bumpDataVersion(testDb());
    expect(ids(await list(`${q}&team=8&time=fore19`))).toEqual(sorted(w.b1, w.c));
  });

  it('the owner API edit of a whole series is what the filter sees', async () => {
    const w = await world();
    const res = await callJson(`/api/owner/series/${w.rid}`, {
      method: 'PATCH',
      cookie: w.owner.cookie,
      clock: MONDAY,
      body: { startTime: '18:00', category: 'allmänbildning', theme: null, customTheme: null, quizmaster: null, teamSize: 3, description: null, price: 0 },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(ids(await list(`city=${w.citySlug}&price=gratis&category=allmanbildning&time=fore19&team=3`))).toEqual(sorted(w.b1));
  });
});

describe('bad values', () => {
  it('→ 400 with a Swedish message naming the field, nothing stored', async () => {
    const before = await snapshot();
    for (const [query, label, path] of [
      ['price=billig', 'Pris', 'price'],
      ['price=50', 'Pris', 'price'],
      ['team=0', 'Lagstorlek', 'team'],
      ['team=13', 'Lagstorlek', 'team'],
      ['team=fyra', 'Lagstorlek', 'team'],
      ['team=2.5', 'Lagstorlek', 'team'],
      ['category=jazz', 'Kategori', 'category'],
      ['category=musik%00', 'Kategori', 'category'],
      ['time=22', 'Starttid', 'time'],
      ['time=före19', 'Starttid', 'time'],
    ] as const) {
      for (const base of ['/api/listing', '/api/calendar/listing.ics']) {
        const res = await callJson(`${base}?${query}`, { clock: MONDAY });
        expect(res.status, `${base}?${query}`).toBe(400);
        expect(res.body.error.code).toBe('invalid_input');
        expect(res.body.error.message).toContain(`${label}:`);
        expect(res.body.error.issues[0].path).toBe(path);
      }
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('listing feed', () => {
  it('holds only the dates of the filtered units, and each date is checked', async () => {
    const w = await world();
    const feed = async (q: string) => {
      const r = await call(`/api/calendar/listing.ics?${q}`, { clock: MONDAY });
      expect(r.status).toBe(200);
      return r.text();
    };
    const all = await feed(`city=${w.citySlug}`);
    for (const x of [w.a, w.b1, w.b2, w.c, w.d, w.e, w.u]) expect(all).toContain(x.id);
    // The unknown quiz's event says "Pris ej angivet" and has no category line; the free one says Gratis (issue 44.3).
    const event = (id: string) => {
      const unfolded = all.replace(/\r?\n[ \t]/g, '');
      const at = unfolded.indexOf(id);
      return unfolded.slice(unfolded.lastIndexOf('BEGIN:VEVENT', at), unfolded.indexOf('END:VEVENT', at));
    };
    expect(event(w.u.id)).toContain('Pris: Pris ej angivet');
    expect(event(w.u.id)).not.toContain('Kategori:');
    expect(event(w.u.id)).not.toContain('Gratis');
    expect(event(w.a.id)).toContain('Pris: Gratis');
    const music = await feed(`city=${w.citySlug}&category=musik&price=max50`);
    expect(music).toContain(w.b1.id);
    expect(music).toContain(w.b2.id);
    for (const x of [w.a, w.c, w.d, w.e, w.u]) expect(music).not.toContain(x.id);
    // One date of the series edited alone (a special, 100 kr): it leaves the "max 50 kr" feed, the series stays.
    await testDb().run(sql`UPDATE quizzes SET price = 100 WHERE id = ${w.b1.id}`);
    await bumpDataVersion(testDb());
    const after = await feed(`city=${w.citySlug}&category=musik&price=max50`);
    expect(after).not.toContain(w.b1.id);
    expect(after).toContain(w.b2.id);
    const free = await feed(`city=${w.citySlug}&price=gratis`);
    expect(free).toContain(w.a.id);
    expect(free).toContain(w.d.id);
    expect(free).not.toContain(w.b2.id);
    expect(free).not.toContain(w.u.id);
  });
});

describe('public pages', () => {
  const page = async (path: string) => {
    const res = await call(path, { clock: MONDAY });
    return { status: res.status, html: await res.text() };
  };

  it('city, weekday, combined and start pages read the filters from the URL (no JavaScript needed)', async () => {
    const w = await world();
    const city = await page(`/quiz/${w.citySlug}?price=max50&category=musik`);
    expect(city.status).toBe(200);
    expect(city.html).toContain(w.b1.id);
    for (const x of [w.a, w.c, w.d, w.e]) expect(city.html).not.toContain(x.id);
    // The filter form shows the chosen values (server-rendered selects).
    expect(city.html).toMatch(/<option value="musik" selected="">Musik<\/option>/);
    expect(city.html).toMatch(/<option value="max50" selected="">Högst 50 kr<\/option>/);
    const combined = await page(`/quiz/${w.citySlug}/tisdag?price=gratis`);
    expect(combined.status).toBe(200);
    expect(combined.html).toContain(w.a.id);
    expect(combined.html).not.toContain(w.b1.id);
    const weekday = await page(`/quiz/torsdag?category=film-tv&city=${w.citySlug}`);
    expect(weekday.html).toContain(w.d.id);
    expect(weekday.html).not.toContain(w.a.id);
    const home = await page(`/?city=${w.citySlug}&weekday=all&time=efter20`);
    expect(home.html).toContain(w.d.id);
    expect(home.html).not.toContain(w.a.id);
  });

  it('a bad filter value on a page is ignored with a friendly notice, never an error', async () => {
    const w = await world();
    const r = await page(`/quiz/${w.citySlug}?price=billig&category=musik&team=99`);
    expect(r.status).toBe(200);
    expect(r.html).toContain(w.b1.id);
    expect(r.html).not.toContain(w.a.id);
    expect(r.html).toContain('Några filter kunde inte användas och visas inte: Pris, Lagstorlek.');
  });
});

describe('migration 0031: invented facts become unknown where the provenance shows them (issue 44.3)', () => {
  it("an owner's empty price was 'Gratis' (the form said so) and becomes 0; tips, synced and imported quizzes stay unknown; an unedited tip's category goes", async () => {
    const HOUSE = 'house@test.local';
    await call('/api/listing', { clock: MONDAY }); // the listing-day job records the house account's address
    const [h] = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
    const houseId = h ? h.id : (await createUser({ email: HOUSE })).id;
    const [state] = await testDb().all<{ house_id: string }>(sql`SELECT house_id FROM listing_state WHERE id = 1`);
    expect(state!.house_id).toBe(houseId);
    const city = `Migrationsstad ${unique('c')}`;
    const placeOf = async (userId: string) => (await createLocation((await createVenue(userId, { name: `M ${unique('v')}` })).id, { city })).id;
    const owner = (await createUser()).id;
    const ownPlace = await placeOf(owner);
    const ownerEmpty = await createQuiz(ownPlace, { date: '2030-01-08', price: null });
    const synced = await createQuiz(ownPlace, { date: '2030-01-09', price: null, category: null, recurrenceId: `cal-f-${unique('r')}`, isRecurring: true });
    const tracked = await createQuiz(ownPlace, { date: '2030-01-10', price: null, category: null });
    const feedId = newId();
    await testDb()
      .insert(calendarFeeds)
      .values({ id: feedId, locationId: ownPlace, url: `https://k.example.se/${feedId}.ics` });
    await testDb().insert(calendarSyncItems).values({ feedId, key: 'uid', quizId: tracked.id, syncedHash: 'x' });
    const tipPlace = await placeOf(houseId);
    const [tipVenue] = await testDb().all<{ venue_id: string }>(sql`SELECT venue_id FROM locations WHERE id = ${tipPlace}`);
    const tipBase = { address: 'Gatan 1', city, citySlug: slugify(city), weekday: 2, startTime: '19:00:00', status: 'approved' as const };
    await testDb()
      .insert(tips)
      .values({ id: newId(), venueName: 'Tipsat', venueId: tipVenue!.venue_id, ...tipBase });
    const stamp = '2030-01-01T10:00:00.000Z';
    const tipped = await createQuiz(tipPlace, { date: '2030-01-08', price: null, category: 'allmänbildning', createdAt: stamp, updatedAt: stamp });
    const tipEdited = await createQuiz(tipPlace, {
      date: '2030-01-09',
      price: null,
      category: 'allmänbildning',
      createdAt: stamp,
      updatedAt: '2030-01-02T10:00:00.000Z',
    });
    const imported = await createQuiz(await placeOf(houseId), { date: '2030-01-08', price: null, category: 'allmänbildning' });
    const alreadyFree = await createQuiz(ownPlace, { date: '2030-01-11', price: 0 });
    const priced = await createQuiz(ownPlace, { date: '2030-01-12', price: 40 });

    // The migration's data statements (the file also recreates triggers, which the test database has already).
    const data = unknownFactsMigration.match(/^UPDATE quizzes AS q[\s\S]*?;$/gm)!;
    expect(data).toHaveLength(2);
    for (const stmt of data) await testDb().run(sql.raw(stmt));
    await bumpDataVersion(testDb());

    const row = async (id: string) =>
      (await testDb().all<{ price: number | null; category: string | null }>(sql`SELECT price, category FROM quizzes WHERE id = ${id}`))[0];
    expect(await row(ownerEmpty.id)).toEqual({ price: 0, category: 'allmänbildning' });
    expect(await row(synced.id)).toEqual({ price: null, category: null });
    expect(await row(tracked.id)).toEqual({ price: null, category: null });
    expect(await row(tipped.id)).toEqual({ price: null, category: null });
    expect(await row(tipEdited.id)).toEqual({ price: null, category: 'allmänbildning' });
    expect(await row(imported.id)).toEqual({ price: null, category: 'allmänbildning' });
    expect(await row(alreadyFree.id)).toEqual({ price: 0, category: 'allmänbildning' });
    expect(await row(priced.id)).toEqual({ price: 40, category: 'allmänbildning' });
    // The units follow (triggers): the owner's quiz is free now, the unknown ones are in no price filter.
    const free = await list(`city=${slugify(city)}&price=gratis`);
    expect(ids(free)).toEqual(sorted(ownerEmpty, alreadyFree));
    const units = await testDb().all<{ key: string; price: number }>(sql`SELECT key, price FROM listing_series WHERE key IN (${tipped.id}, ${imported.id})`);
    expect(units.map((u) => u.price)).toEqual([-1, -1]);
  });
});
