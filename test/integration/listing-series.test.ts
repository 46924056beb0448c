/**
 * listing_series (one row per series-at-a-place or single quiz) is derived data kept by SQLite triggers
 * (migration 0005). These tests check the triggers against an oracle computed from quizzes, places and
 * businesses from scratch, after random sequences of every kind of write the app (or a cascade) makes,
 * and check the trigram index with FTS5's own integrity-check.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../worker/lib/ids';
import { startMinutes, topicOf } from '../../worker/lib/quiz-filters';
import { slugify } from '../../worker/lib/slug';
import { call, createLocation, createQuiz, createUser, createVenue, expectSearchIndexes, testDb, unique, uniqueTown } from '../factories';

interface Unit {
  key: string;
  location_id: string;
  city_slug: string;
  venue_id: string;
  owner_id: string;
  is_public: number;
  last_date: string;
  days_mask: number;
  place_text: string;
  quiz_text: string;
  /** Effective coordinates (migration 0009): the place's own, else its town's centre, else null. */
  lat: number | null;
  lng: number | null;
  /** Quiz filters (migration 0015), from the unit's latest row. */
  price: number;
  team_max: number | null;
  topic: string | null;
  start_min: number;
}

type OracleRow = Omit<Unit, 'price' | 'team_max' | 'topic' | 'start_min'> & {
  r_price: number | null;
  r_team: number | null;
  r_cat: string | null;
  r_theme: string | null;
  r_start: string | null;
};

/** What listing_series must hold for the given places, recomputed from the source tables. */
async function oracle(locationIds: string[]): Promise<Unit[]> {
  const ids = JSON.stringify(locationIds);
  // The filter values are computed here in TypeScript (worker/lib/quiz-filters.ts), not by the triggers' SQL.
  // SQLite takes the bare columns r_* from the row of max(q.date): the unit's latest row.
  const rows = await testDb().all<OracleRow>(sql`
    SELECT CASE WHEN q.recurrence_id IS NULL THEN q.id ELSE q.recurrence_id || '@' || q.location_id END AS key,
      q.location_id, l.city_slug, l.venue_id, v.user_id AS owner_id, v.is_public AS is_public, max(q.date) AS last_date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT q2.weekday AS w FROM quizzes q2
        WHERE q2.location_id = q.location_id AND coalesce(q2.recurrence_id, q2.id) = coalesce(q.recurrence_id, q.id))) AS days_mask,
      v.name || ' | ' || l.name AS place_text,
      group_concat(coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), ' | ') AS quiz_text,
      CASE WHEN l.latitude IS NULL OR l.longitude IS NULL THEN t.lat ELSE l.latitude END AS lat,
      CASE WHEN l.latitude IS NULL OR l.longitude IS NULL THEN t.lng ELSE l.longitude END AS lng,
      q.price AS r_price, q.team_size AS r_team, q.category AS r_cat, q.theme AS r_theme, q.start_time AS r_start
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id LEFT JOIN towns t ON t.slug = l.city_slug
    WHERE q.location_id IN (SELECT value FROM json_each(${ids}))
    GROUP BY coalesce(q.recurrence_id, q.id), q.location_id ORDER BY key`);
  return rows.map(({ r_price, r_team, r_cat, r_theme, r_start, ...u }) => ({
    ...u,
    // An unknown price is PRICE_UNKNOWN in the listing (issue 44.3), not 0.
    price: r_price ?? -1,
    team_max: r_team,
    topic: topicOf(r_cat, r_theme),
    start_min: startMinutes(r_start),
  }));
}

async function actual(locationIds: string[], venueIds: string[]): Promise<Unit[]> {
  return testDb().all<Unit>(sql`
    SELECT key, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, place_text, quiz_text, lat, lng, price, team_max, topic, start_min FROM listing_series
    WHERE location_id IN (SELECT value FROM json_each(${JSON.stringify(locationIds)}))
       OR venue_id IN (SELECT value FROM json_each(${JSON.stringify(venueIds)}))
    ORDER BY key`);
}

/** quiz_text is a set of distinct field tuples in no fixed order: compare the sets of fields. */
const normal = (units: Unit[]) => units.map((u) => ({ ...u, quiz_text: [...new Set(u.quiz_text.split(' | '))].sort().join(' | ') }));

async function expectConsistent(locationIds: string[], venueIds: string[]) {
  expect(normal(await actual(locationIds, venueIds))).toEqual(normal(await oracle(locationIds)));
  // Both search indexes hold every unit once under its current search key (migration 0020).
  await expectSearchIndexes();
}

async function ftsKeys(text: string): Promise<string[]> {
  const rows = await testDb().all<{ key: string }>(sql`
    SELECT e.key AS key FROM listing_series e WHERE e.id IN (SELECT rowid & 1073741823 FROM listing_search WHERE listing_search MATCH ${`"${text}"`}) ORDER BY key`);
  return rows.map((r) => r.key);
}

/** Real towns (in the gazetteer: their centre is the fallback) — with å/ä/ö. */
const TOWNS = ['Västerås', 'Umeå', 'Malmö', 'Göteborg'];

/**
 * Edits of one filtered column each (price, team size, category, theme, start time), including old
 * category values: one column per statement, so a trigger that does not fire on that column is caught.
 */
const FILTER_EDITS: Array<[column: 'price' | 'team_size' | 'category' | 'theme' | 'start_time', value: string | number | null]> = [
  ['price', null],
  ['price', 0],
  ['price', 40],
  ['price', 120],
  ['team_size', null],
  ['team_size', 3],
  ['team_size', 8],
  ['category', 'allmänbildning'],
  ['category', 'musikquiz'],
  ['category', 'tema'],
  ['category', null],
  ['theme', 'Film & TV'],
  ['theme', 'Egen grej'],
  ['theme', null],
  ['start_time', null],
  ['start_time', '18:30:00'],
  ['start_time', '21:15'],
];

const DATES = ['2030-01-07', '2030-01-08', '2030-01-10', '2030-01-14', '2030-01-15', '2030-01-19', '2030-02-01'];

type Op =
  | { t: 'single'; loc: number; date: number; title: number }
  | { t: 'series'; loc: number; dates: number[]; title: number }
  | { t: 'delete'; pick: number }
  | { t: 'retitle'; pick: number; title: number }
  | { t: 'refilter'; pick: number; k: number }
  | { t: 'redate'; pick: number; date: number }
  | { t: 'toSeries'; pick: number }
  | { t: 'toSingle'; pick: number }
  | { t: 'move'; pick: number; loc: number }
  | { t: 'renameVenue'; venue: number }
  | { t: 'toggleVenue'; venue: number }
  | { t: 'newOwner'; venue: number }
  | { t: 'renamePlace'; loc: number }
  | { t: 'moveCity'; loc: number }
  | { t: 'moveTown'; loc: number; town: number }
  | { t: 'pin'; loc: number; k: number }
  | { t: 'unpin'; loc: number }
  | { t: 'deletePlace'; loc: number }
  | { t: 'deleteVenue'; venue: number };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ t: fc.constant('single' as const), loc: fc.nat(3), date: fc.nat(DATES.length - 1), title: fc.nat(3) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('series' as const),
      loc: fc.nat(3),
      dates: fc.uniqueArray(fc.nat(DATES.length - 1), { minLength: 1, maxLength: 4 }),
      title: fc.nat(3),
    }),
  },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('delete' as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('retitle' as const), pick: fc.nat(), title: fc.nat(3) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('redate' as const), pick: fc.nat(), date: fc.nat(DATES.length - 1) }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('refilter' as const), pick: fc.nat(), k: fc.nat(FILTER_EDITS.length - 1) }) },
  fc.record({ t: fc.constant('toSeries' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('toSingle' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('move' as const), pick: fc.nat(), loc: fc.nat(3) }),
  fc.record({ t: fc.constant('renameVenue' as const), venue: fc.nat(1) }),
  fc.record({ t: fc.constant('toggleVenue' as const), venue: fc.nat(1) }),
  fc.record({ t: fc.constant('newOwner' as const), venue: fc.nat(1) }),
  fc.record({ t: fc.constant('renamePlace' as const), loc: fc.nat(3) }),
  fc.record({ t: fc.constant('moveCity' as const), loc: fc.nat(3) }),
  fc.record({ t: fc.constant('moveTown' as const), loc: fc.nat(3), town: fc.nat(TOWNS.length - 1) }),
  { weight: 2, arbitrary: fc.record({ t: fc.constant('pin' as const), loc: fc.nat(3), k: fc.nat(9) }) },
  fc.record({ t: fc.constant('unpin' as const), loc: fc.nat(3) }),
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deletePlace' as const), loc: fc.nat(3) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('deleteVenue' as const), venue: fc.nat(1) }) },
);

describe('listing_series triggers', () => {
  it('match a from-scratch recomputation after any sequence of writes and cascades', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        const db = testDb();
        const owner = await createUser();
        const tag = unique('ls');
        const venueIds = [(await createVenue(owner.id, { name: `Krog ${tag} A` })).id, (await createVenue(owner.id, { name: `Krog ${tag} B` })).id];
        const locIds: string[] = [];
        // Places 0 and 1 in unknown towns (no fallback), 2 and 3 in real ones (town centre).
        for (let i = 0; i < 4; i++)
          locIds.push((await createLocation(venueIds[i % 2]!, { name: `Plats ${tag} ${i}`, city: i < 2 ? `Stad ${tag} ${i % 2}` : TOWNS[i]! })).id);
        const quizIds: string[] = [];
        const pick = (n: number) => (quizIds.length ? quizIds[n % quizIds.length]! : null);
        for (const op of ops) {
          const live = new Set(
            (await db.all<{ id: string }>(sql`SELECT id FROM quizzes WHERE location_id IN (SELECT value FROM json_each(${JSON.stringify(locIds)}))`)).map(
              (r) => r.id,
            ),
          );
          quizIds.splice(0, quizIds.length, ...[...live]);
          const liveLocs = new Set(
            (await db.all<{ id: string }>(sql`SELECT id FROM locations WHERE id IN (SELECT value FROM json_each(${JSON.stringify(locIds)}))`)).map((r) => r.id),
          );
          const loc = (n: number) => (liveLocs.has(locIds[n]!) ? locIds[n]! : null);
          switch (op.t) {
            case 'single': {
              const l = loc(op.loc);
              if (l) await createQuiz(l, { date: DATES[op.date]!, title: `Titel ${op.title}` });
              break;
            }
            case 'series': {
              const l = loc(op.loc);
              const rid = newId();
              if (l)
                for (const d of op.dates)
                  await createQuiz(l, { date: DATES[d]!, title: `Serie ${op.title}`, isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
              break;
            }
            case 'delete': {
              const id = pick(op.pick);
              if (id) await db.run(sql`DELETE FROM quizzes WHERE id = ${id}`);
              break;
            }
            case 'retitle': {
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET title = ${`Ny titel ${op.title}`}, theme = 'Musik' WHERE id = ${id}`);
              break;
            }
            case 'refilter': {
              const id = pick(op.pick);
              const [column, value] = FILTER_EDITS[op.k]!;
              if (id) await db.run(sql`UPDATE quizzes SET ${sql.raw(column)} = ${value} WHERE id = ${id}`);
              break;
            }
            case 'redate': {
              const id = pick(op.pick);
              // OR IGNORE: a series cannot have two rows on one date (quizzes_series_date_uq).
              if (id) await db.run(sql`UPDATE OR IGNORE quizzes SET date = ${DATES[op.date]!} WHERE id = ${id}`);
              break;
            }
            case 'toSeries': {
              const id = pick(op.pick);
              if (id)
                await db.run(
                  sql`UPDATE quizzes SET recurrence_id = ${newId()}, is_recurring = 1, recurrence_pattern = 'biweekly' WHERE id = ${id} AND recurrence_id IS NULL`,
                );
              break;
            }
            case 'toSingle': {
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET recurrence_id = NULL, is_recurring = 0, recurrence_pattern = NULL WHERE id = ${id}`);
              break;
            }
            case 'move': {
              const id = pick(op.pick);
              const l = loc(op.loc);
              if (id && l) await db.run(sql`UPDATE OR IGNORE quizzes SET location_id = ${l} WHERE id = ${id}`);
              break;
            }
            case 'renameVenue':
              await db.run(sql`UPDATE venues SET name = ${`Omdöpt ${tag} ${unique('n')}`} WHERE id = ${venueIds[op.venue]!}`);
              break;
            case 'toggleVenue':
              await db.run(sql`UPDATE venues SET is_public = 1 - is_public WHERE id = ${venueIds[op.venue]!}`);
              break;
            case 'newOwner': {
              const other = await createUser();
              await db.run(sql`UPDATE venues SET user_id = ${other.id} WHERE id = ${venueIds[op.venue]!}`);
              break;
            }
            case 'renamePlace':
              await db.run(sql`UPDATE locations SET name = ${`Ny plats ${unique('p')}`} WHERE id = ${locIds[op.loc]!}`);
              break;
            case 'moveCity': {
              const city = uniqueTown();
              await db.run(sql`UPDATE locations SET city = ${city}, city_slug = ${slugify(city)} WHERE id = ${locIds[op.loc]!}`);
              break;
            }
            case 'moveTown': {
              const city = TOWNS[op.town]!;
              await db.run(sql`UPDATE locations SET city = ${city}, city_slug = ${slugify(city)} WHERE id = ${locIds[op.loc]!}`);
              break;
            }
            case 'pin':
              await db.run(sql`UPDATE locations SET latitude = ${57 + op.k / 10}, longitude = ${12 + op.k / 7} WHERE id = ${locIds[op.loc]!}`);
              break;
            case 'unpin':
              await db.run(sql`UPDATE locations SET latitude = NULL, longitude = NULL WHERE id = ${locIds[op.loc]!}`);
              break;
            case 'deletePlace':
              await db.run(sql`DELETE FROM locations WHERE id = ${locIds[op.loc]!}`);
              break;
            case 'deleteVenue':
              await db.run(sql`DELETE FROM venues WHERE id = ${venueIds[op.venue]!}`);
              break;
          }
          await expectConsistent(locIds, venueIds);
        }
      }),
      { numRuns: 25 },
    );
  });

  it("a unit carries its place's own coordinates, else its town's centre from the gazetteer (å/ä/ö towns), else none", async () => {
    const owner = await createUser();
    const venue = await createVenue(owner.id);
    const unitOf = async (city: string, over: { latitude?: number; longitude?: number } = {}) => {
      const l = await createLocation(venue.id, { city, ...over });
      const q = await createQuiz(l.id, { date: '2030-01-08' });
      const [row] = await testDb().all<{ lat: number | null; lng: number | null }>(sql`SELECT lat, lng FROM listing_series WHERE key = ${q.id}`);
      return row!;
    };
    expect(await unitOf('Västerås')).toEqual({ lat: 59.61617, lng: 16.55276 });
    expect(await unitOf('Umeå')).toEqual({ lat: 63.82842, lng: 20.25972 });
    expect(await unitOf('Malmö')).toEqual({ lat: 55.60587, lng: 13.00073 });
    expect(await unitOf('Göteborg')).toEqual({ lat: 57.70716, lng: 11.96679 });
    expect(await unitOf('Malmö', { latitude: 55.5952, longitude: 12.9933 })).toEqual({ lat: 55.5952, lng: 12.9933 });
    expect(await unitOf(`Ingenstans ${unique('x')}`)).toEqual({ lat: null, lng: null });
    // Setting, moving and clearing the pin afterwards (the place trigger).
    const l = await createLocation(venue.id, { city: 'Umeå' });
    const q = await createQuiz(l.id, { date: '2030-01-08' });
    const coords = async () =>
      (await testDb().all<{ lat: number | null; lng: number | null }>(sql`SELECT lat, lng FROM listing_series WHERE key = ${q.id}`))[0];
    await testDb().run(sql`UPDATE locations SET latitude = 63.8, longitude = 20.3 WHERE id = ${l.id}`);
    expect(await coords()).toEqual({ lat: 63.8, lng: 20.3 });
    await testDb().run(sql`UPDATE locations SET latitude = NULL, longitude = NULL, city = 'Västerås', city_slug = 'vasteras' WHERE id = ${l.id}`);
    expect(await coords()).toEqual({ lat: 59.61617, lng: 16.55276 });
  });

  it('search finds a unit by business, place and quiz text, case-insensitively, with å ≠ a', async () => {
    const owner = await createUser();
    const tag = unique('fts').toLowerCase();
    const venue = await createVenue(owner.id, { name: `Ölstugan Ågren ${tag}` });
    const location = await createLocation(venue.id, { name: `Källaren ${tag}` });
    const rid = newId();
    await createQuiz(location.id, { date: '2030-01-08', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly', theme: `Schlager ${tag}` });
    await createQuiz(location.id, { date: '2030-01-15', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly', quizmaster: `Märta ${tag}` });
    const key = `${rid}@${location.id}`;
    expect(await ftsKeys(`ÖLSTUGAN ÅGREN ${tag}`)).toEqual([key]);
    expect(await ftsKeys(`källaren ${tag}`)).toEqual([key]);
    expect(await ftsKeys(`schlager ${tag}`)).toEqual([key]);
    expect(await ftsKeys(`märta ${tag}`)).toEqual([key]);
    expect(await ftsKeys(`marta ${tag}`)).toEqual([]);
  });

  it('one- and two-character searches through the API match the beginning of a word (word index), case-insensitively', async () => {
    const owner = await createUser();
    const tag = unique('w').toLowerCase();
    const city = uniqueTown();
    const venue = await createVenue(owner.id, { name: `Ölkällan ${tag}` });
    const location = await createLocation(venue.id, { name: `Zebrabaren ${tag}`, city });
    const q = await createQuiz(location.id, { date: '2030-01-08', quizmaster: 'Qvist' });
    const other = await createQuiz((await createLocation(venue.id, { name: `Annan ${tag}`, city })).id, { date: '2030-01-08' });
    const hits = async (term: string) => {
      const res = await call(`/api/listing?city=${slugify(city)}&search=${encodeURIComponent(term)}`, { clock: '2030-01-07T12:00:00Z' });
      expect(res.status).toBe(200);
      return ((await res.json()) as { items: Array<{ id: string }> }).items.map((i) => i.id).sort();
    };
    expect(await hits('zE')).toEqual([q.id]);
    expect(await hits('Q')).toEqual([q.id]);
    expect(await hits('öl')).toEqual([q.id, other.id].sort());
    expect(await hits('ol')).toEqual([]);
    // Inside a word is not the beginning of one (from three characters on, any substring matches).
    expect(await hits('br')).toEqual([]);
    expect(await hits('bra')).toEqual([q.id]);
    // No letter or digit: answered by a scan, still a substring match.
    expect(await hits('&')).toEqual([]);
  });
});
