/**
 * The quiz's language (issue 31.3): quizzes.language (sv | en | both), the `sprak` filter on GET /api/listing,
 * the map, the pages and the listing feed (a quiz in both languages matches either), the card's language and
 * the JSON-LD `inLanguage`, the owner forms' field (POST/PATCH, a series edit reaching every future date), and
 * the CHECK. Every test builds its own city; the clock is pinned (Monday 2030-01-07).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { newId } from '../../worker/lib/ids';
import { slugify } from '../../worker/lib/slug';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, uniqueTown } from '../factories';

const MONDAY = '2030-01-07T10:00:00Z';

async function world() {
  const owner = await createUser({ now: new Date(MONDAY) });
  const venue = await createVenue(owner.id, { name: `Språkkrogen ${unique('v')}` });
  const city = uniqueTown();
  const location = await createLocation(venue.id, { city, latitude: 59.33, longitude: 18.06 });
  const loc = location.id;
  const rid = newId();
  // sv: a Tuesday single in Swedish (the default); en: a weekly English series; both: a Thursday single in both.
  const sv = await createQuiz(loc, { date: '2030-01-08', startTime: '19:00:00' });
  const en1 = await createQuiz(loc, {
    date: '2030-01-09',
    startTime: '20:00:00',
    language: 'en',
    price: 60,
    isRecurring: true,
    recurrenceId: rid,
    recurrencePattern: 'weekly',
  });
  const en2 = await createQuiz(loc, {
    date: '2030-01-16',
    startTime: '20:00:00',
    language: 'en',
    price: 60,
    isRecurring: true,
    recurrenceId: rid,
    recurrencePattern: 'weekly',
  });
  const both = await createQuiz(loc, { date: '2030-01-10', startTime: '19:00:00', language: 'both', price: 0 });
  await bumpDataVersion(testDb());
  return { owner, venue, city, citySlug: slugify(city), location, rid, sv, en1, en2, both };
}

type Item = { id: string; language: string };
async function list(query: string) {
  const res = await callJson(`/api/listing?${query}`, { clock: MONDAY });
  expect(res.status, `${query}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body as { items: Item[]; total: number; mode: string };
}
const ids = (b: { items: Array<{ id: string }> }) => b.items.map((i) => i.id).sort();
const sorted = (...xs: Array<{ id: string }>) => xs.map((x) => x.id).sort();

describe('GET /api/listing?sprak=', () => {
  it('svenska keeps Swedish and bilingual quizzes, engelska English and bilingual ones; alla/empty keep all', async () => {
    const w = await world();
    const q = `city=${w.citySlug}`;
    expect(ids(await list(q))).toEqual(sorted(w.sv, w.en1, w.both));
    expect(ids(await list(`${q}&sprak=svenska`))).toEqual(sorted(w.sv, w.both));
    expect(ids(await list(`${q}&sprak=engelska`))).toEqual(sorted(w.en1, w.both));
    expect(ids(await list(`${q}&sprak=ENGELSKA`))).toEqual(sorted(w.en1, w.both));
    expect(ids(await list(`${q}&sprak=alla`))).toEqual(sorted(w.sv, w.en1, w.both));
    expect(ids(await list(`${q}&sprak=`))).toEqual(sorted(w.sv, w.en1, w.both));
    expect((await list(`${q}&sprak=engelska`)).total).toBe(2);
    // With the other filters and modes.
    expect(ids(await list(`${q}&sprak=engelska&price=gratis`))).toEqual(sorted(w.both));
    expect(ids(await list(`${q}&sprak=engelska&weekday=onsdag`))).toEqual(sorted(w.en1));
    expect(ids(await list(`${q}&sprak=svenska&date=2030-01-10`))).toEqual(sorted(w.both));
    expect(ids(await list(`${q}&sprak=engelska&date=2030-01-08`))).toEqual([]);
    expect(ids(await list(`search=${encodeURIComponent(w.venue.name)}&sprak=svenska`))).toEqual(sorted(w.sv, w.both));
    expect(ids(await list(`near=59.33,18.06&radius=1&sprak=engelska&${q}`)).filter((id) => [w.sv.id, w.en1.id, w.both.id].includes(id))).toEqual(
      sorted(w.en1, w.both),
    );
  });

  it('each card carries its language (for the badge)', async () => {
    const w = await world();
    const items = (await list(`city=${w.citySlug}`)).items;
    const lang = Object.fromEntries(items.map((i) => [i.id, i.language]));
    expect(lang).toEqual({ [w.sv.id]: 'sv', [w.en1.id]: 'en', [w.both.id]: 'both' });
  });

  it('a bad value is a 400 naming Språk, in Swedish', async () => {
    const w = await world();
    for (const path of ['/api/listing', '/api/listing/map', '/api/calendar/listing.ics']) {
      const res = await callJson(`${path}?city=${w.citySlug}&sprak=english`, { clock: MONDAY });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.message).toMatch(/^Språk: Ogiltigt språk \(välj svenska, engelska eller alla\)/);
    }
  });

  it('the map follows the filter', async () => {
    const w = await world();
    const res = await callJson(`/api/listing/map?city=${w.citySlug}&sprak=engelska`, { clock: MONDAY });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
  });

  it('the unit follows a whole-series language change (trigger-kept lang)', async () => {
    const w = await world();
    await testDb().run(sql`UPDATE quizzes SET language = 'sv' WHERE recurrence_id = ${w.rid}`);
    await bumpDataVersion(testDb());
    expect(ids(await list(`city=${w.citySlug}&sprak=engelska`))).toEqual(sorted(w.both));
    expect(ids(await list(`city=${w.citySlug}&sprak=svenska`))).toEqual(sorted(w.sv, w.en1, w.both));
  });

  it('quizzes.language accepts only sv, en and both (the CHECK triggers)', async () => {
    const w = await world();
    const failure = (p: Promise<unknown>) =>
      p.then(
        () => 'stored',
        (e: Error & { cause?: Error }) => `${e.message} ${e.cause?.message ?? ''}`,
      );
    expect(await failure(testDb().run(sql`UPDATE quizzes SET language = 'de' WHERE id = ${w.sv.id}`))).toMatch(/quizzes_language_ck/);
    expect(
      await failure(
        testDb().run(
          sql`INSERT INTO quizzes (id, location_id, date, category, language) VALUES (${newId()}, ${w.location.id}, '2030-02-01', 'allmänbildning', 'EN')`,
        ),
      ),
    ).toMatch(/quizzes_language_ck/);
    const [row] = await testDb().all<{ language: string }>(sql`SELECT language FROM quizzes WHERE id = ${w.sv.id}`);
    expect(row!.language).toBe('sv');
  });
});

describe('pages and feed', () => {
  it('/quiz/<city>?sprak=engelska lists the English quizzes with their badge and inLanguage', async () => {
    const w = await world();
    const res = await call(`/quiz/${w.citySlug}?sprak=engelska`, { clock: MONDAY });
    expect(res.status).toBe(200);
    const html = await res.text();
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    const events = ld.filter((o) => o['@type'] === 'Event');
    expect(events.map((e) => e.inLanguage).sort()).toEqual([['sv', 'en'], 'en'].sort());
    expect(html).toContain('På engelska');
    expect(html).toContain('Svenska och engelska');
    const all = await (await call(`/quiz/${w.citySlug}`, { clock: MONDAY })).text();
    const allEvents = [...all.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)]
      .map((m) => JSON.parse(m[1]!))
      .filter((o) => o['@type'] === 'Event');
    expect(allEvents.map((e) => JSON.stringify(e.inLanguage)).sort()).toEqual(['"en"', '"sv"', '["sv","en"]'].sort());
    // An unknown value is ignored on a page (named in the notice), never a 5xx.
    const bad = await call(`/quiz/${w.citySlug}?sprak=tyska`, { clock: MONDAY });
    expect(bad.status).toBe(200);
  });

  it('the venue page shows the badge on every row that has one (issue 44.5)', async () => {
    const w = await world();
    const res = await call(`/quiz/${w.citySlug}/${w.venue.slug}`, { clock: MONDAY });
    expect(res.status).toBe(200);
    const html = await res.text();
    const row = (id: string) => html.match(new RegExp(`<li id="quiz-${id}"[\\s\\S]*?</li>`))?.[0] ?? '';
    expect(row(w.en1.id)).toContain('På engelska');
    expect(row(w.both.id)).toContain('Svenska och engelska');
    expect(row(w.sv.id)).not.toBe('');
    expect(row(w.sv.id)).not.toMatch(/engelska/);
  });

  it('the listing feed holds only the matching dates', async () => {
    const w = await world();
    const feed = async (q: string) => {
      const r = await call(`/api/calendar/listing.ics?${q}`, { clock: MONDAY });
      expect(r.status).toBe(200);
      return r.text();
    };
    const en = await feed(`city=${w.citySlug}&sprak=engelska`);
    for (const x of [w.en1, w.en2, w.both]) expect(en).toContain(x.id);
    expect(en).not.toContain(w.sv.id);
    // One date of the English series switched to Swedish alone: it leaves the English feed, the series stays
    // (a unit carries its latest row's language: an edit of a whole series reaches that one too).
    await testDb().run(sql`UPDATE quizzes SET language = 'sv' WHERE id = ${w.en1.id}`);
    await bumpDataVersion(testDb());
    const after = await feed(`city=${w.citySlug}&sprak=engelska`);
    expect(after).toContain(w.en2.id);
    expect(after).not.toContain(w.en1.id);
    const sv = await feed(`city=${w.citySlug}&sprak=svenska`);
    for (const x of [w.sv, w.both]) expect(sv).toContain(x.id);
    expect(sv).not.toContain(w.en1.id);
  });
});

describe('owner forms: Språk', () => {
  const CLOCK = '2030-01-08T09:00:00Z';
  async function owner() {
    const user = await createUser({ now: new Date(CLOCK) });
    const venue = await createVenue(user.id);
    const location = await createLocation(venue.id, { city: uniqueTown() });
    return { user, venue, location };
  }
  const single = (locationId: string, over: Record<string, unknown> = {}) => ({
    locationId,
    date: '2030-01-15',
    startTime: '19:30',
    category: 'allmänbildning',
    recurring: false,
    ...over,
  });
  const rows = (locationId: string) =>
    testDb().all<{ id: string; date: string; language: string }>(sql`SELECT id, date, language FROM quizzes WHERE location_id = ${locationId} ORDER BY date`);

  it('POST stores the language (default svenska); a bad value is a 400 naming Språk and stores nothing', async () => {
    const { user, location } = await owner();
    const a = await callJson('/api/owner/quizzes', { cookie: user.cookie, clock: CLOCK, body: single(location.id, { language: 'en' }) });
    expect(a.status).toBe(201);
    const b = await callJson('/api/owner/quizzes', { cookie: user.cookie, clock: CLOCK, body: single(location.id, { date: '2030-01-16' }) });
    expect(b.status).toBe(201);
    expect((await rows(location.id)).map((r) => r.language)).toEqual(['en', 'sv']);
    const before = await snapshot();
    const bad = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: single(location.id, { date: '2030-01-17', language: 'tyska' }),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Språk: Välj svenska, engelska eller båda');
    expect(bad.body.error.issues).toEqual([{ path: 'language', message: 'Välj svenska, engelska eller båda' }]);
    expect(await snapshot()).toEqual(before);
  });

  it('a new series carries the language on every date; PATCH of one quiz keeps or changes it; PATCH of the series reaches every future date', async () => {
    const { user, location } = await owner();
    const created = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: single(location.id, { recurring: true, pattern: 'weekly', until: '2030-02-12', language: 'both' }),
    });
    expect(created.status).toBe(201);
    const all = await rows(location.id);
    expect(all.length).toBeGreaterThan(3);
    expect(new Set(all.map((r) => r.language))).toEqual(new Set(['both']));
    const rid = created.body.recurrenceId as string;
    // An edit without the field (an older client) keeps the language.
    const first = all[0]!;
    const keep = await callJson(`/api/owner/quizzes/${first.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { date: first.date, startTime: '19:30', category: 'allmänbildning' },
    });
    expect(keep.status, JSON.stringify(keep.body)).toBe(200);
    expect((await rows(location.id))[0]!.language).toBe('both');
    const bad = await callJson(`/api/owner/quizzes/${first.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { date: first.date, startTime: '19:30', category: 'allmänbildning', language: 'de' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/^Språk: /);
    const series = await callJson(`/api/owner/series/${rid}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { startTime: '19:30', category: 'allmänbildning', language: 'en' },
    });
    expect(series.status, JSON.stringify(series.body)).toBe(200);
    expect(new Set((await rows(location.id)).map((r) => r.language))).toEqual(new Set(['en']));
    const got = await callJson(`/api/owner/series/${rid}`, { cookie: user.cookie, clock: CLOCK });
    expect(got.body.series.language).toBe('en');
    const badSeries = await callJson(`/api/owner/series/${rid}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { startTime: '19:30', category: 'allmänbildning', language: 'english' },
    });
    expect(badSeries.status).toBe(400);
    expect(badSeries.body.error.message).toBe('Språk: Välj svenska, engelska eller båda');
  });
});

describe('CSV import: the språk/language column', () => {
  const CLOCK = '2030-03-05T10:00:00Z';
  it('accepts svenska/engelska/båda and sv/en/both (empty = svenska); a bad value names the column and row, nothing stored', async () => {
    const superadmin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(CLOCK) });
    const p = unique('Språkpub');
    const rows = [
      ['engelska', 'en'],
      ['EN', 'en'],
      ['båda', 'both'],
      ['both', 'both'],
      ['', 'sv'],
      ['svenska', 'sv'],
    ] as const;
    const csv = ['name,address,city,weekday,språk', ...rows.map(([v], i) => `${p} ${i},Gatan ${i},Sigtuna,tisdag,${v}`)].join('\n');
    const done = await callJson('/api/admin/import', { body: { csv }, cookie: superadmin.cookie, clock: CLOCK });
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    const stored = await testDb().all<{ name: string; langs: string }>(sql`
      SELECT v.name AS name, group_concat(DISTINCT q.language) AS langs FROM venues v JOIN locations l ON l.venue_id = v.id JOIN quizzes q ON q.location_id = l.id
      WHERE v.name LIKE ${`${p} %`} GROUP BY v.name ORDER BY v.name`);
    expect(stored.map((r) => r.langs)).toEqual(rows.map(([, l]) => l));

    const before = await snapshot();
    const bad = `name,address,city,weekday,language\n${p} x,Gatan x,Sigtuna,tisdag,tyska\n`;
    const preview = await callJson('/api/admin/import/preview', { body: { csv: bad }, cookie: superadmin.cookie, clock: CLOCK });
    expect(preview.status).toBe(200);
    expect(preview.body.rows[0]).toMatchObject({ line: 2, errors: ['language: Ange språket som svenska, engelska eller båda (sv, en, both)'] });
    const refused = await callJson('/api/admin/import', { body: { csv: bad }, cookie: superadmin.cookie, clock: CLOCK });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body.error)).toContain('rad 2');
    expect(await snapshot()).toEqual(before);
  });
});
