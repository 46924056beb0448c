/**
 * The ranked listing (issue 19 §2, migration 0018): every listing_series row carries its tier, next
 * occurrence, weekday masks and card as of listing_state.today, and listing_counts the listed units per
 * city and weekday — all kept by triggers and moved on by the first listing read of a day. These tests
 * compare all of it with oracles computed here from a plain join of quizzes, locations and venues (not
 * with the triggers' SQL), and walk the real API page by page at pinned clocks.
 *
 * Storage is shared by the tests of this file (and isolated from other files): listing_state.today is
 * whatever the last listing read's clock said, so every check first reads the listing at its own clock.
 * The house-account test runs first: it needs a database without a house account. listing_counts is
 * compared whole (every city of this file, and Sweden): a test that leaves it wrong fails the later
 * ones too — read the first failure.
 */
import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { daySeed, rotationKey } from '../../worker/features/listing/rank';
import { advanceListingDay } from '../../worker/features/listing/queries/listing-day';
import type { DetailRow } from '../../worker/features/listing/queries/cards';
import { promotions } from '../../worker/db/schema';
import { newId } from '../../worker/lib/ids';
import { slugify } from '../../worker/lib/slug';
import { callJson, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown } from '../factories';

const HOUSE = 'house@test.local';
/** 11:00 in Stockholm on `date` (winter time): the clock of a listing read on that day. */
const at = (date: string) => `${date}T10:00:00Z`;
const MONDAY = '2030-01-07';

const addDays = (d: string, n: number) => new Date(Date.parse(`${d}T12:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);
/** 0 = Sunday … 6 = Saturday, from the date itself (not quizzes.weekday). */
const weekdayOf = (d: string) => new Date(`${d}T12:00:00Z`).getUTCDay();
const WEEKDAY_SLUGS = ['sondag', 'mandag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lordag'];
const every = (first: string, step: number, n: number) => Array.from({ length: n }, (_, i) => addDays(first, i * step));

// ---- Fixtures ----

async function houseUserId(): Promise<string> {
  const [row] = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
  return row ? row.id : (await createUser({ email: HOUSE })).id;
}

async function place(city: string, opts: { owner?: string; isPublic?: boolean } = {}) {
  const owner = opts.owner ?? (await createUser()).id;
  const venue = await createVenue(owner, { isPublic: opts.isPublic ?? true, description: `Beskrivning ${unique('d')}`, website: 'https://example.se' });
  const location = await createLocation(venue.id, { city, phone: '08-123 45', latitude: 59.3, longitude: 18.05 });
  return { owner, venue, location };
}

async function series(locationId: string, dates: string[], over: Record<string, unknown> = {}) {
  const rid = newId();
  const rows = [];
  for (const date of dates)
    rows.push(
      await createQuiz(locationId, { date, isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly', title: `Serie ${rid.slice(0, 6)}`, ...over }),
    );
  return { rid, rows };
}

/** A known town (issue 43.6), for the tests that save a place through the owner's form; each used by one test only. */
const knownCity = (city: 'Tranås' | 'Aneby' | 'Vetlanda') => ({ city, slug: slugify(city) });

const newCity = () => {
  const city = uniqueTown();
  return { city, slug: slugify(city) };
};

// ---- The oracle: what the stored columns must be, from a plain join of the source tables ----

interface SourceRow {
  id: string;
  date: string;
  start_time: string | null;
  title: string | null;
  description: string | null;
  category: string | null;
  theme: string | null;
  quizmaster: string | null;
  team_size: number | null;
  price: number | null;
  is_recurring: number;
  recurrence_id: string | null;
  recurrence_pattern: 'weekly' | 'biweekly' | null;
  is_cancelled: number;
  language: 'sv' | 'en' | 'both';
  l_id: string;
  l_name: string;
  l_address: string;
  l_city: string;
  l_city_slug: string;
  l_phone: string | null;
  l_website: string | null;
  l_lat: number | null;
  l_lng: number | null;
  v_id: string;
  v_name: string;
  v_slug: string;
  v_description: string | null;
  v_website: string | null;
  v_public: number;
  v_owner: string;
}

/** Every quiz with its place and business (of one city, or all of them). */
async function sourceRows(citySlug?: string): Promise<SourceRow[]> {
  const where = citySlug === undefined ? sql`1` : sql`l.city_slug = ${citySlug}`;
  return testDb().all<SourceRow>(sql`
    SELECT q.id, q.date, q.start_time, q.title, q.description, q.category, q.theme, q.quizmaster, q.team_size, q.price,
      q.is_recurring, q.recurrence_id, q.recurrence_pattern, q.is_cancelled, q.language,
      l.id AS l_id, l.name AS l_name, l.address AS l_address, l.city AS l_city, l.city_slug AS l_city_slug, l.phone AS l_phone,
      l.website AS l_website, l.latitude AS l_lat, l.longitude AS l_lng,
      v.id AS v_id, v.name AS v_name, v.slug AS v_slug, v.description AS v_description, v.website AS v_website,
      v.is_public AS v_public, v.user_id AS v_owner
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE ${where}`);
}

interface Expected {
  key: string;
  city: string;
  lid: string;
  tier: number;
  next_qid: string | null;
  next_date: string | null;
  wk_mask: number;
  up_mask: number;
  /** The `sprak` filter's column (issue 31.3): the language of the unit's latest row. */
  lang: string;
  card: DetailRow | null;
  /** Upcoming occurrences by date (for weekday and date mode). */
  upcoming: SourceRow[];
}

const unitKey = (r: SourceRow) => (r.recurrence_id ? `${r.recurrence_id}@${r.l_id}` : r.id);

/** The occurrence weekday mode shows on weekday w (spec 01 §4): the next one on w; biweekly only within 7 days. */
function weekdayOccurrence(u: Pick<Expected, 'upcoming'>, w: number, today: string): SourceRow | undefined {
  return u.upcoming.find((q) => weekdayOf(q.date) === w && (q.recurrence_pattern !== 'biweekly' || q.date <= addDays(today, 6)));
}

function cardOf(q: SourceRow, houseId: string | null): DetailRow {
  return {
    id: q.id,
    date: q.date,
    startTime: q.start_time,
    title: q.title,
    description: q.description,
    category: q.category,
    theme: q.theme,
    quizmaster: q.quizmaster,
    teamSize: q.team_size,
    price: q.price,
    isRecurring: q.is_recurring,
    recurrencePattern: q.recurrence_pattern,
    isCancelled: q.is_cancelled,
    lId: q.l_id,
    lName: q.l_name,
    lAddress: q.l_address,
    lCity: q.l_city,
    lCitySlug: q.l_city_slug,
    lPhone: q.l_phone,
    lWebsite: q.l_website,
    lLat: q.l_lat,
    lLng: q.l_lng,
    vId: q.v_id,
    vName: q.v_name,
    vSlug: q.v_slug,
    vDescription: q.v_description,
    vWebsite: q.v_website,
    house: houseId !== null && q.v_owner === houseId ? 1 : 0,
    language: q.language,
  };
}

async function currentHouseId(): Promise<string | null> {
  const [row] = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
  return row?.id ?? null;
}

/** The expected listing columns of every unit (of one city, or all), as of `today`. */
async function expectedUnits(today: string, citySlug?: string): Promise<Map<string, Expected>> {
  const houseId = await currentHouseId();
  const byUnit = new Map<string, SourceRow[]>();
  for (const r of await sourceRows(citySlug)) byUnit.set(unitKey(r), [...(byUnit.get(unitKey(r)) ?? []), r]);
  const out = new Map<string, Expected>();
  for (const [key, rows] of byUnit) {
    const upcoming = rows.filter((q) => q.date >= today).sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    const next = upcoming[0];
    const any = rows[0]!;
    let wk = 0;
    let up = 0;
    for (const q of upcoming) {
      up |= 1 << weekdayOf(q.date);
      if (q.recurrence_pattern !== 'biweekly' || q.date <= addDays(today, 6)) wk |= 1 << weekdayOf(q.date);
    }
    const tier = !next || !any.v_public ? 2 : any.v_owner === houseId ? 1 : 0;
    out.set(key, {
      key,
      city: any.l_city_slug,
      lid: any.l_id,
      tier,
      next_qid: next?.id ?? null,
      next_date: next?.date ?? null,
      wk_mask: wk,
      up_mask: up,
      lang: rows.reduce((a, b) => (b.date > a.date ? b : a)).language,
      card: next ? cardOf(next, houseId) : null,
      upcoming,
    });
  }
  return out;
}

interface StoredUnit {
  id: number;
  key: string;
  shuffle: number;
  tier: number;
  next_qid: string | null;
  next_date: string | null;
  wk_mask: number;
  up_mask: number;
  lang: string;
  card: string | null;
}

async function storedUnits(citySlug: string): Promise<StoredUnit[]> {
  return testDb().all<StoredUnit>(sql`
    SELECT id, key, shuffle, tier, next_qid, next_date, wk_mask, up_mask, lang, card FROM listing_series WHERE city_slug = ${citySlug}`);
}

async function listingToday(): Promise<string> {
  const [row] = await testDb().all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`);
  return row!.today;
}

/** The stored columns of every unit of the city equal the oracle's (the day is the one of the last listing read). */
async function expectStoredUnits(citySlug: string, today: string) {
  expect(await listingToday()).toBe(today);
  const expected = await expectedUnits(today, citySlug);
  const stored = await storedUnits(citySlug);
  const actual = Object.fromEntries(
    stored.map((s) => [
      s.key,
      {
        tier: s.tier,
        next_qid: s.next_qid,
        next_date: s.next_date,
        wk_mask: s.wk_mask,
        up_mask: s.up_mask,
        lang: s.lang,
        card: s.card === null ? null : (JSON.parse(s.card) as DetailRow),
      },
    ]),
  );
  const want = Object.fromEntries(
    [...expected.values()].map((e) => [
      e.key,
      { tier: e.tier, next_qid: e.next_qid, next_date: e.next_date, wk_mask: e.wk_mask, up_mask: e.up_mask, lang: e.lang, card: e.card },
    ]),
  );
  expect(actual).toEqual(want);
  await expectStoredDates(citySlug, expected, stored);
  return { expected, stored };
}

/**
 * listing_dates (migration 0019) holds exactly one row per listed unit of the city and each of its dates
 * from today on, with the unit's tier, shuffle and city, and a quiz of the unit on that date — and no row
 * of a unit that is gone, unlisted or moved away, nor of a passed date.
 */
async function expectStoredDates(citySlug: string, expected: Map<string, Expected>, stored: StoredUnit[]) {
  const rows = await testDb().all<{ date: string; tier: number; shuffle: number; uid: number; city: string; qid: string }>(sql`
    SELECT date, tier, shuffle, uid, city, qid FROM listing_dates
    WHERE city = ${citySlug} OR uid IN (SELECT id FROM listing_series WHERE city_slug = ${citySlug})`);
  const unitOf = new Map(stored.map((s) => [s.key, s]));
  const want: string[] = [];
  const quizzesOn = new Map<string, string[]>();
  for (const e of expected.values()) {
    if (e.tier >= 2) continue;
    const u = unitOf.get(e.key)!;
    for (const q of e.upcoming) {
      const k = `${u.id}|${q.date}`;
      if (!quizzesOn.has(k)) want.push(`${k}|${e.tier}|${u.shuffle}|${e.city}`);
      quizzesOn.set(k, [...(quizzesOn.get(k) ?? []), q.id]);
    }
  }
  expect(rows.map((r) => `${r.uid}|${r.date}|${r.tier}|${r.shuffle}|${r.city}`).sort()).toEqual(want.sort());
  for (const r of rows) expect(quizzesOn.get(`${r.uid}|${r.date}`), `${r.uid} ${r.date}`).toContain(r.qid);
}

/**
 * listing_counts equals a count of the oracle's units over the whole database: per scope ('' = Sweden,
 * or a city) × (-1 = every day, or each weekday the unit is listed under in weekday mode) the listed
 * units (tier < 2) and, in city scopes, the distinct places. Rows at zero may stay in the table.
 */
async function expectCounts(today: string) {
  expect(await listingToday()).toBe(today);
  const want: Record<string, { units: number; places: Set<string> }> = {};
  for (const u of (await expectedUnits(today)).values()) {
    if (u.tier >= 2) continue;
    for (const city of ['', u.city]) {
      for (let wd = -1; wd < 7; wd++) {
        if (wd >= 0 && !(u.wk_mask & (1 << wd))) continue;
        want[`${city}|${wd}`] ??= { units: 0, places: new Set() };
        const s = want[`${city}|${wd}`]!;
        s.units++;
        if (city !== '') s.places.add(u.lid);
      }
    }
  }
  const rows = await testDb().all<{ city: string; wd: number; units: number; places: number }>(sql`
    SELECT city, wd, units, places FROM listing_counts WHERE units != 0 OR places != 0`);
  const actual = Object.fromEntries(rows.map((r) => [`${r.city}|${r.wd}`, { units: r.units, places: r.places }]));
  expect(actual).toEqual(Object.fromEntries(Object.entries(want).map(([k, v]) => [k, { units: v.units, places: v.places.size }])));
}

// ---- The API ----

interface Item {
  id: string;
  date: string;
  startTime: string | null;
  title: string | null;
  isCancelled: boolean;
  unclaimed: boolean;
  location: { id: string; name: string; address: string; phone: string | null };
  venue: { id: string; name: string; description: string | null };
}
interface Page {
  items: Item[];
  total: number;
  page: number;
  hasMore: boolean;
  mode: string;
  today: string;
  venueCount: number | null;
  totalAtLeast?: true;
}

let bust = 0;
async function list(query: string, date: string, cookie?: string): Promise<Page> {
  const res = await callJson<Page>(`/api/listing?${query}&_b=${++bust}${unique('b')}`, { clock: at(date), cookie });
  expect(res.status, query).toBe(200);
  expect(res.body.today).toBe(date);
  return res.body;
}

/** Every page of a listing until hasMore is false. */
async function walk(query: string, date: string, cookie?: string) {
  const pages: Page[] = [];
  for (let page = 1; ; page++) {
    const p = await list(`${query}&page=${page}`, date, cookie);
    expect(p.items.length, `${query} page ${page}`).toBeLessThanOrEqual(12);
    pages.push(p);
    if (!p.hasMore) break;
    expect(p.items.length, `${query} page ${page} has more`).toBe(12);
    expect(page, 'runaway paging').toBeLessThan(100);
  }
  return { items: pages.flatMap((p) => p.items), pages };
}

/** The day's order within a tier: the rotation of `shuffle` starting at daySeed(today), then the unit id. */
function rankOrder<T extends { tier: number; shuffle: number; id: number }>(units: T[], today: string): T[] {
  const seed = daySeed(today);
  const out = [...units].sort((a, b) => a.tier - b.tier || Number(a.shuffle < seed) - Number(b.shuffle < seed) || a.shuffle - b.shuffle || a.id - b.id);
  // The same order as rank.ts rotationKey gives (what the promoted tiers are sorted by in the Worker).
  const byKey = [...units].sort((a, b) => a.tier - b.tier || rotationKey(a.shuffle, seed) - rotationKey(b.shuffle, seed) || a.id - b.id);
  expect(out.map((u) => u.id)).toEqual(byKey.map((u) => u.id));
  return out;
}

/** What the API shows of a card (ListingQuiz without the derived label, tier and position). */
function shownAs(c: DetailRow) {
  return {
    id: c.id,
    date: c.date,
    startTime: c.startTime,
    title: c.title,
    description: c.description,
    category: c.category,
    theme: c.theme,
    quizmaster: c.quizmaster,
    teamSize: c.teamSize,
    price: c.price,
    isRecurring: !!c.isRecurring,
    recurrencePattern: c.recurrencePattern,
    isCancelled: !!c.isCancelled,
    unclaimed: !!c.house,
    location: {
      id: c.lId,
      name: c.lName,
      address: c.lAddress,
      city: c.lCity,
      citySlug: c.lCitySlug,
      phone: c.lPhone,
      website: c.lWebsite,
      latitude: c.lLat,
      longitude: c.lLng,
    },
    venue: { id: c.vId, name: c.vName, slug: c.vSlug, description: c.vDescription, website: c.vWebsite },
  };
}

/**
 * The API at `date`, for a city, in every mode the counts keep (all days, each weekday): walked page by
 * page it gives every listed unit exactly once, in the oracle's order, each with the oracle's occurrence;
 * `total` and `venueCount` are exact. Also checks the stored columns and the counts (the read set the day).
 */
async function expectListing(citySlug: string, date: string) {
  const first = await list(`city=${citySlug}`, date);
  const { expected, stored } = await expectStoredUnits(citySlug, date);
  await expectCounts(date);
  const rank = new Map(stored.map((s) => [s.key, s]));
  const ranked = (keep: (e: Expected) => boolean) =>
    rankOrder(
      [...expected.values()].filter((e) => e.tier < 2 && keep(e)).map((e) => ({ ...e, id: rank.get(e.key)!.id, shuffle: rank.get(e.key)!.shuffle })),
      date,
    );
  const houseId = await currentHouseId();
  const modes: Array<{ query: string; keep: (e: Expected) => boolean; shows: (e: Expected) => SourceRow | undefined }> = [
    { query: `city=${citySlug}`, keep: () => true, shows: (e) => e.upcoming[0] },
    ...WEEKDAY_SLUGS.map((slug, w) => ({
      query: `city=${citySlug}&weekday=${slug}`,
      keep: (e: Expected) => weekdayOccurrence(e, w, date) !== undefined,
      shows: (e: Expected) => weekdayOccurrence(e, w, date),
    })),
  ];
  for (const m of modes) {
    const want = ranked(m.keep);
    const { items, pages } = await walk(m.query, date);
    expect(
      items.map((i) => i.id),
      m.query,
    ).toEqual(want.map((e) => m.shows(e)!.id));
    // Each card in full: the occurrence's quiz row with its place and business (from the stored card or read).
    expect(items, m.query).toMatchObject(want.map((e) => shownAs(cardOf(m.shows(e)!, houseId))));
    for (const p of pages) {
      expect(p.totalAtLeast, m.query).toBeUndefined();
      expect(p.total, m.query).toBe(want.length);
      expect(p.venueCount, m.query).toBe(new Set(want.map((e) => e.lid)).size);
    }
    // The house account's units come last.
    const tiers = items.map((i) => (i.unclaimed ? 1 : 0));
    expect(tiers, m.query).toEqual([...tiers].sort());
  }
  expect(first.total).toBe(ranked(() => true).length);
  return expected;
}

// ---- Tests ----

describe('house account (tier 1)', () => {
  it('a user who registers with the house e-mail after the listing knows it has their units ranked last; leaving the e-mail lists them as a real account', async () => {
    const { slug, city } = newCity();
    // The listing learns the house e-mail on its first read (listing_state.house_email).
    await list(`city=${slug}`, MONDAY);
    const [state] = await testDb().all<{ house_email: string | null; house_id: string | null }>(
      sql`SELECT house_email, house_id FROM listing_state WHERE id = 1`,
    );
    expect(state).toEqual({ house_email: HOUSE, house_id: null });

    const real = await place(city);
    const realSeries = await series(real.location.id, every(MONDAY, 7, 3));
    const realSingle = await createQuiz(real.location.id, { date: '2030-01-09' });
    // Registers now (trigger listing_rank_house_ai), then builds a business.
    const house = await createUser({ email: HOUSE });
    const hp = await place(city, { owner: house.id });
    const houseSeries = await series(hp.location.id, every('2030-01-08', 7, 3));
    const houseSingle = await createQuiz(hp.location.id, { date: '2030-01-10' });
    const later = await place(city);
    const laterSingle = await createQuiz(later.location.id, { date: '2030-01-11' });

    expect((await testDb().all<{ house_id: string }>(sql`SELECT house_id FROM listing_state WHERE id = 1`))[0]!.house_id).toBe(house.id);
    const expected = await expectListing(slug, MONDAY);
    const tierOf = (key: string) => expected.get(key)!.tier;
    expect([tierOf(`${houseSeries.rid}@${hp.location.id}`), tierOf(houseSingle.id)]).toEqual([1, 1]);
    expect([tierOf(`${realSeries.rid}@${real.location.id}`), tierOf(realSingle.id), tierOf(laterSingle.id)]).toEqual([0, 0, 0]);
    const { items } = await walk(`city=${slug}`, MONDAY);
    expect(
      items
        .slice(3)
        .map((i) => i.id)
        .sort(),
    ).toEqual([houseSeries.rows[0]!.id, houseSingle.id].sort());
    expect(items.map((i) => i.unclaimed)).toEqual([false, false, false, true, true]);

    // The house account changes its e-mail (listing_rank_house_au): a real account now, ranked with the others.
    await testDb().run(sql`UPDATE users SET email = ${`former-${unique('h')}@test.local`} WHERE id = ${house.id}`);
    const after = await expectListing(slug, MONDAY);
    expect([...after.values()].map((e) => e.tier)).toEqual([0, 0, 0, 0, 0]);
    expect((await walk(`city=${slug}`, MONDAY)).items.every((i) => !i.unclaimed)).toBe(true);
    // And back: ranked last again.
    await testDb().run(sql`UPDATE users SET email = ${HOUSE} WHERE id = ${house.id}`);
    const back = await expectListing(slug, MONDAY);
    expect(tierOf(houseSingle.id)).toBe(1);
    expect(back.get(houseSingle.id)!.tier).toBe(1);
  });
});

describe('stored columns equal an independent read', () => {
  it('every unit of a varied catalogue: card, next occurrence, tier and weekday masks, on the day and days later', async () => {
    const { slug, city } = newCity();
    await list(`city=${slug}`, MONDAY);
    const houseId = await houseUserId();
    const a = await place(city);
    // A weekly series (Mondays, today's included), a biweekly series (Wednesdays, next one in 9 days).
    await series(a.location.id, every('2029-12-31', 7, 6));
    await series(a.location.id, every('2030-01-16', 14, 3), { recurrencePattern: 'biweekly', startTime: '18:30:00' });
    // A second series at the same place on another weekday (Fridays), and a multi-weekday biweekly one (Tue + Thu).
    await series(a.location.id, every('2030-01-11', 7, 4), { quizmaster: 'Kim', price: 40, teamSize: 6 });
    await series(a.location.id, [...every('2030-01-08', 14, 3), ...every('2030-01-10', 14, 3)].sort(), {
      recurrencePattern: 'biweekly',
      theme: 'Musik',
      category: 'tema',
    });
    // Single quizzes: today, later, past.
    await createQuiz(a.location.id, { date: MONDAY, title: 'Idag' });
    await createQuiz(a.location.id, { date: '2030-02-20', description: 'Långt bort', price: null });
    await createQuiz(a.location.id, { date: '2030-01-02', title: 'Förbi' });
    // A series whose next occurrence is cancelled and the one after edited individually.
    const b = await place(city);
    const edited = await series(b.location.id, every('2030-01-09', 7, 4));
    await testDb().run(sql`UPDATE quizzes SET is_cancelled = 1 WHERE id = ${edited.rows[0]!.id}`);
    await testDb().run(sql`UPDATE quizzes SET start_time = '21:15:00', title = 'Specialkväll', quizmaster = 'Gäst' WHERE id = ${edited.rows[1]!.id}`);
    // A series that ended yesterday (not listed), one on a place without coordinates.
    await series(b.location.id, every('2029-12-20', 7, 3));
    const bare = await createLocation(b.venue.id, { city, latitude: null, longitude: null, phone: null, website: null });
    await series(bare.id, every('2030-01-12', 7, 2), { startTime: null, category: null });
    // A house-account business and a hidden one.
    const h = await place(city, { owner: houseId });
    await series(h.location.id, every('2030-01-08', 7, 3));
    await createQuiz(h.location.id, { date: '2030-01-13' });
    const hidden = await place(city, { isPublic: false });
    await series(hidden.location.id, every('2030-01-07', 7, 3));
    await createQuiz(hidden.location.id, { date: '2030-01-09' });
    // One series at two places (two units); a single quiz moved to another place; a single turned into a series' first date.
    const second = await createLocation(a.venue.id, { city, name: 'Andra platsen' });
    const rid = newId();
    for (const [loc, date] of [
      [a.location.id, '2030-01-12'],
      [second.id, '2030-01-13'],
      [a.location.id, '2030-01-19'],
      [second.id, '2030-01-20'],
    ] as const) {
      await createQuiz(loc, { date, isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
    }
    const moved = await createQuiz(a.location.id, { date: '2030-01-15', title: 'Flyttad' });
    await testDb().run(sql`UPDATE quizzes SET location_id = ${second.id} WHERE id = ${moved.id}`);
    const converted = await createQuiz(b.location.id, { date: '2030-01-18' });
    await createQuiz(b.location.id, { date: '2030-01-25', isRecurring: true, recurrenceId: converted.id, recurrencePattern: 'weekly' });
    await testDb().run(sql`UPDATE quizzes SET is_recurring = 1, recurrence_id = ${converted.id}, recurrence_pattern = 'weekly' WHERE id = ${converted.id}`);

    const expected = await expectListing(slug, MONDAY);
    // The catalogue has what it claims: every tier, cards with and without place coordinates, a cancelled next occurrence.
    const units = [...expected.values()];
    expect(units.filter((u) => u.tier === 0)).toHaveLength(12);
    expect(units.filter((u) => u.tier === 1)).toHaveLength(2);
    expect(units.filter((u) => u.tier === 2)).toHaveLength(4);
    expect(units.some((u) => u.card?.isCancelled === 1 && u.card.id === edited.rows[0]!.id)).toBe(true);
    expect(units.some((u) => u.card?.house === 1)).toBe(true);
    expect(units.some((u) => u.card !== null && u.card.lLat === null)).toBe(true);
    expect(units.some((u) => u.wk_mask !== u.up_mask)).toBe(true);

    // Days later the stored columns still agree (each read moves the day on), and the edited occurrence is the card.
    for (const day of ['2030-01-08', '2030-01-10', '2030-01-11', '2030-01-14', '2030-01-16', '2030-01-21', '2030-02-04']) await expectListing(slug, day);
    await list(`city=${slug}`, '2030-01-10');
    const { expected: on10 } = await expectStoredUnits(slug, '2030-01-10');
    expect(on10.get(`${edited.rid}@${b.location.id}`)!.card).toMatchObject({
      id: edited.rows[1]!.id,
      startTime: '21:15:00',
      title: 'Specialkväll',
      isCancelled: 0,
    });

    // A business handed over to the house account (a takeover's reverse) and back: its units' tier and card follow.
    await testDb().run(sql`UPDATE venues SET user_id = ${houseId} WHERE id = ${b.venue.id}`);
    const handed = await expectListing(slug, '2030-01-10');
    expect(handed.get(`${edited.rid}@${b.location.id}`)).toMatchObject({ tier: 1, card: { house: 1 } });
    await testDb().run(sql`UPDATE venues SET user_id = ${b.owner} WHERE id = ${b.venue.id}`);
    expect((await expectListing(slug, '2030-01-10')).get(`${edited.rid}@${b.location.id}`)).toMatchObject({ tier: 0, card: { house: 0 } });
  });
});

/** The date mode oracle: the listed units with an occurrence on `date`, in the day's order, each showing that occurrence. */
async function expectDateMode(citySlug: string, today: string, date: string) {
  const p = await list(`city=${citySlug}&date=${date}`, today);
  expect(p.mode).toBe('date');
  const expected = await expectedUnits(today, citySlug);
  const stored = new Map((await storedUnits(citySlug)).map((s) => [s.key, s]));
  const want = rankOrder(
    [...expected.values()]
      .filter((e) => e.tier < 2 && e.upcoming.some((q) => q.date === date))
      .map((e) => ({ ...e, id: stored.get(e.key)!.id, shuffle: stored.get(e.key)!.shuffle })),
    today,
  );
  expect(want.length, 'the date-mode fixture fits on one page').toBeLessThanOrEqual(12);
  expect(p.items.map((i) => i.id)).toEqual(want.map((e) => e.upcoming.find((q) => q.date === date)!.id));
  const houseId = await currentHouseId();
  expect(p.items).toMatchObject(want.map((e) => shownAs(cardOf(e.upcoming.find((q) => q.date === date)!, houseId))));
  expect(p.hasMore).toBe(false);
  expect(p.total).toBe(want.length);
  expect(p.totalAtLeast).toBeUndefined();
  return p;
}

describe('listing_counts', () => {
  it('equal a count from quizzes after creates, deletes, a business hidden and shown, a series moved to another weekday, a quiz moved to another city, a place and a business deleted, and days passing', async () => {
    const one = newCity();
    const two = newCity();
    const check = async (day = MONDAY) => {
      await expectListing(one.slug, day);
      await expectListing(two.slug, day);
    };
    const owner = await createUser({ now: new Date(at(MONDAY)) });
    const a = await place(one.city, { owner: owner.id });
    const b = await place(one.city, { owner: owner.id });
    const c = await place(two.city);
    const mon = await series(a.location.id, every(MONDAY, 7, 4));
    await series(a.location.id, every('2030-01-09', 7, 4)); // Wednesdays at the same place
    const single = await createQuiz(a.location.id, { date: '2030-01-09' }); // a Wednesday too: the place counts once
    const tue = await series(b.location.id, every('2030-01-08', 7, 4));
    await createQuiz(b.location.id, { date: '2030-01-12' });
    await series(c.location.id, every('2030-01-08', 14, 3), { recurrencePattern: 'biweekly' });
    await series(c.location.id, every('2030-01-15', 14, 3), { recurrencePattern: 'biweekly' }); // off week: all days only
    await check();
    const counts = async (city: string) =>
      Object.fromEntries(
        (
          await testDb().all<{ wd: number; units: number; places: number }>(
            sql`SELECT wd, units, places FROM listing_counts WHERE city = ${city} AND units > 0`,
          )
        ).map((r) => [r.wd, [r.units, r.places]]),
      );
    expect(await counts(one.slug)).toEqual({ [-1]: [5, 2], 1: [1, 1], 2: [1, 1], 3: [2, 1], 6: [1, 1] });
    expect(await counts(two.slug)).toEqual({ [-1]: [2, 1], 2: [1, 1] });

    // Deletes: one quiz through the API, a whole series by SQL.
    expect((await callJson(`/api/owner/quizzes/${single.id}`, { method: 'DELETE', cookie: owner.cookie, clock: at(MONDAY) })).status).toBe(200);
    await testDb().run(sql`DELETE FROM quizzes WHERE recurrence_id = ${tue.rid}`);
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [3, 2], 1: [1, 1], 3: [1, 1], 6: [1, 1] });

    // The business hidden, then shown again (the owner's form).
    const venueBody = (isPublic: boolean) => ({
      name: a.venue.name,
      description: 'Quiz',
      address: 'Kungsgatan 2',
      city: '', // the business's own town is optional; the listing counts places' towns
      phone: '',
      website: '',
      isPublic,
    });
    expect(
      (await callJson(`/api/owner/venues/${a.venue.id}`, { method: 'PATCH', cookie: owner.cookie, clock: at(MONDAY), body: venueBody(false) })).status,
    ).toBe(200);
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [1, 1], 6: [1, 1] });
    expect(
      (await callJson(`/api/owner/venues/${a.venue.id}`, { method: 'PATCH', cookie: owner.cookie, clock: at(MONDAY), body: venueBody(true) })).status,
    ).toBe(200);
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [3, 2], 1: [1, 1], 3: [1, 1], 6: [1, 1] });

    // The Monday series moves to Tuesdays (every row in one statement).
    await testDb().run(sql`UPDATE quizzes SET date = date(date, '+1 day') WHERE recurrence_id = ${mon.rid}`);
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [3, 2], 2: [1, 1], 3: [1, 1], 6: [1, 1] });

    // A single quiz moves to a place in the other city.
    const thursday = await createQuiz(b.location.id, { date: '2030-01-10' });
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [4, 2], 2: [1, 1], 3: [1, 1], 4: [1, 1], 6: [1, 1] });
    await testDb().run(sql`UPDATE quizzes SET location_id = ${c.location.id} WHERE id = ${thursday.id}`);
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [3, 2], 2: [1, 1], 3: [1, 1], 6: [1, 1] });
    expect(await counts(two.slug)).toEqual({ [-1]: [3, 1], 2: [1, 1], 4: [1, 1] });

    // A place deleted (the owner's form) and a business deleted (its places and quizzes cascade).
    expect((await callJson(`/api/owner/locations/${b.location.id}`, { method: 'DELETE', cookie: owner.cookie, clock: at(MONDAY) })).status).toBe(200);
    await check();
    expect(await counts(one.slug)).toEqual({ [-1]: [2, 1], 2: [1, 1], 3: [1, 1] });
    const d = await place(two.city);
    await series(d.location.id, every('2030-01-11', 7, 3));
    await check();
    expect(await counts(two.slug)).toEqual({ [-1]: [4, 2], 2: [1, 1], 4: [1, 1], 5: [1, 1] });
    await testDb().run(sql`DELETE FROM venues WHERE id = ${d.venue.id}`);
    await check();
    expect(await counts(two.slug)).toEqual({ [-1]: [3, 1], 2: [1, 1], 4: [1, 1] });

    // Days pass: the Saturday single goes, the biweekly off week comes into its window, everything ends.
    for (const day of ['2030-01-09', '2030-01-13', '2030-01-20', '2030-02-10']) await check(day);
    expect(await counts(one.slug)).toEqual({});
    expect(await counts(two.slug)).toEqual({ [-1]: [1, 1], 2: [1, 1] });
    await check(MONDAY);
  });
});

describe('paging', () => {
  it('walking a city page by page gives every listed unit once: real accounts, then the house account, each in the day’s rotation; total is exact', async () => {
    const { slug, city } = newCity();
    await list(`city=${slug}`, MONDAY);
    const houseId = await houseUserId();
    for (let i = 0; i < 26; i++) {
      const p = await place(city);
      if (i % 3 === 0) await createQuiz(p.location.id, { date: addDays(MONDAY, i % 9) });
      else await series(p.location.id, every(addDays(MONDAY, i % 7), i % 5 === 0 ? 14 : 7, 3), i % 5 === 0 ? { recurrencePattern: 'biweekly' } : {});
      if (i % 4 === 0) await series(p.location.id, every(addDays(MONDAY, (i + 3) % 7), 7, 2)); // a second series at some places
    }
    const hp = await place(city, { owner: houseId });
    for (let i = 0; i < 5; i++) await series(hp.location.id, every(addDays(MONDAY, i), 7, 2));
    // Not listed: ended, hidden.
    await createQuiz((await place(city)).location.id, { date: '2030-01-01' });
    await createQuiz((await place(city, { isPublic: false })).location.id, { date: '2030-01-08' });

    for (const day of [MONDAY, '2030-01-08', '2030-01-12']) {
      const expected = await expectListing(slug, day);
      const listed = [...expected.values()].filter((e) => e.tier < 2);
      expect(listed.length).toBeGreaterThan(24); // at least three pages
      expect(listed.filter((e) => e.tier === 1)).toHaveLength(5);
      // Pages past the end are empty.
      const past = await list(`city=${slug}&page=${Math.ceil(listed.length / 12) + 1}`, day);
      expect(past.items).toEqual([]);
      expect(past.hasMore).toBe(false);
    }
    // The day's order is a rotation: another day starts elsewhere.
    const first = async (day: string) => (await list(`city=${slug}`, day)).items.map((i) => i.location.id).join();
    expect(new Set([await first(MONDAY), await first('2030-01-08'), await first('2030-01-12')]).size).toBeGreaterThan(1);
  });
});

describe('paging with promoted units', () => {
  it('Premium, then Rekommenderat, then the ordinary walk without them: every unit once and the total exact', async () => {
    const { slug, city } = newCity();
    await list(`city=${slug}`, MONDAY);
    const houseId = await houseUserId();
    const firstQuiz: string[] = [];
    for (let i = 0; i < 20; i++) {
      const p = await place(city, i === 19 ? { owner: houseId } : {});
      const s = await series(p.location.id, every(addDays(MONDAY, i % 7), 7, 3), { startTime: `${18 + (i % 3)}:00:00` });
      firstQuiz.push(s.rows[0]!.id);
    }
    const promote = (quizId: string, productType: 'premium' | 'recommended') =>
      testDb()
        .insert(promotions)
        .values({ id: newId(), quizId, productType, status: 'active', startDate: MONDAY, endDate: addDays(MONDAY, 13) });
    await promote(firstQuiz[3]!, 'premium');
    await promote(firstQuiz[1]!, 'premium');
    await promote(firstQuiz[5]!, 'recommended');
    await promote(firstQuiz[8]!, 'recommended');
    await promote(firstQuiz[19]!, 'recommended'); // the house account's: promoted all the same

    const expected = await expectedUnits(MONDAY, slug);
    const stored = new Map((await storedUnits(slug)).map((u) => [u.key, u]));
    const units = [...expected.values()].map((e) => ({ ...e, id: stored.get(e.key)!.id, shuffle: stored.get(e.key)!.shuffle }));
    const byQuiz = (id: string) => units.find((u) => u.next_qid === id)!;
    const premium = [byQuiz(firstQuiz[1]!), byQuiz(firstQuiz[3]!)].sort((a, b) => (a.next_date! < b.next_date! ? -1 : a.next_date! > b.next_date! ? 1 : 0));
    const recommended = rankOrder(
      [firstQuiz[5]!, firstQuiz[8]!, firstQuiz[19]!].map((q) => ({ ...byQuiz(q), tier: 0 })),
      MONDAY,
    );
    const promotedKeys = new Set([...premium, ...recommended].map((u) => u.key));
    const ordinary = rankOrder(
      units.filter((u) => u.tier < 2 && !promotedKeys.has(u.key)),
      MONDAY,
    );
    const want = [...premium, ...recommended, ...ordinary];

    const { items, pages } = await walk(`city=${slug}`, MONDAY);
    expect(items.map((i) => i.id)).toEqual(want.map((u) => u.next_qid));
    expect(items.map((i) => (i as Item & { tier: string }).tier)).toEqual([
      ...premium.map(() => 'premium'),
      ...recommended.map(() => 'recommended'),
      ...ordinary.map(() => 'standard'),
    ]);
    for (const p of pages) {
      expect(p.total).toBe(20);
      expect(p.totalAtLeast).toBeUndefined();
    }
  });
});

describe('day advance', () => {
  it('a later clock moves next occurrences on, drops ended units from the counts, brings biweekly dates into weekday mode; an earlier clock restores it all', async () => {
    const { slug, city } = newCity();
    const p = await place(city);
    const weekly = await series(p.location.id, every(MONDAY, 7, 3)); // Mondays to 2030-01-21
    const tomorrow = await createQuiz(p.location.id, { date: '2030-01-08' });
    const bi = await series(p.location.id, ['2030-01-15', '2030-01-17', '2030-01-29', '2030-01-31'], { recurrencePattern: 'biweekly' }); // Tue + Thu
    const biWed = await series(p.location.id, ['2030-01-16', '2030-01-30'], { recurrencePattern: 'biweekly' });
    const ids = async (query: string, day: string) => (await walk(`city=${slug}${query}`, day)).items.map((i) => i.id).sort();
    const sorted = (...xs: string[]) => [...xs].sort();
    const total = async (day: string) => (await list(`city=${slug}`, day)).total;

    await expectListing(slug, MONDAY);
    expect(await ids('', MONDAY)).toEqual(sorted(weekly.rows[0]!.id, tomorrow.id, bi.rows[0]!.id, biWed.rows[0]!.id));
    expect(await ids('&weekday=tisdag', MONDAY)).toEqual([tomorrow.id]); // the biweekly Tuesday is 8 days away
    expect(await total(MONDAY)).toBe(4);

    // One day later: Monday's quiz is next week's; tomorrow's single is today's.
    await expectListing(slug, '2030-01-08');
    expect(await ids('', '2030-01-08')).toEqual(sorted(weekly.rows[1]!.id, tomorrow.id, bi.rows[0]!.id, biWed.rows[0]!.id));
    // Two days later: the single has passed (counts drop), the biweekly Tuesday is within 7 days, then Wednesday's.
    await expectListing(slug, '2030-01-09');
    expect(await total('2030-01-09')).toBe(3);
    expect(await ids('&weekday=tisdag', '2030-01-09')).toEqual([bi.rows[0]!.id]);
    expect(await ids('&weekday=torsdag', '2030-01-09')).toEqual([]);
    expect(await ids('&weekday=onsdag', '2030-01-09')).toEqual([]); // 7 days away: not yet
    await expectListing(slug, '2030-01-10');
    expect(await ids('&weekday=onsdag', '2030-01-10')).toEqual([biWed.rows[0]!.id]);
    // The same series' Thursday enters the window two days after its Tuesday did.
    expect(await ids('&weekday=torsdag', '2030-01-10')).toEqual([]);
    await expectListing(slug, '2030-01-11');
    expect(await ids('&weekday=torsdag', '2030-01-11')).toEqual([bi.rows[1]!.id]);
    // One week after the start.
    await expectListing(slug, '2030-01-14');
    expect(await ids('', '2030-01-14')).toEqual(sorted(weekly.rows[1]!.id, bi.rows[0]!.id, biWed.rows[0]!.id));
    // The weekly series ends on 2030-01-21: gone the day after.
    await expectListing(slug, '2030-01-22');
    expect(await ids('', '2030-01-22')).toEqual(sorted(bi.rows[2]!.id, biWed.rows[1]!.id));
    expect(await ids('&weekday=mandag', '2030-01-22')).toEqual([]);
    // The clock goes back: everything as on the first day.
    await expectListing(slug, MONDAY);
    expect(await ids('', MONDAY)).toEqual(sorted(weekly.rows[0]!.id, tomorrow.id, bi.rows[0]!.id, biWed.rows[0]!.id));
    expect(await total(MONDAY)).toBe(4);
    // A jump of a month, and back by a week.
    await expectListing(slug, '2030-02-07');
    expect(await total('2030-02-07')).toBe(0);
    await expectListing(slug, '2030-01-31');
  });
});

describe('edits reach the card', () => {
  it('business name and description, place address and phone, an occurrence’s start time and cancellation', async () => {
    const { slug, city } = knownCity('Tranås');
    const owner = await createUser({ now: new Date(at(MONDAY)) });
    const p = await place(city, { owner: owner.id });
    const s = await series(p.location.id, every('2030-01-08', 7, 3), { startTime: '19:00:00' });
    const single = await createQuiz(p.location.id, { date: '2030-01-10', startTime: '18:00:00' });
    await expectListing(slug, MONDAY);
    const opts = { cookie: owner.cookie, clock: at(MONDAY) };
    const cardOfUnit = async (key: string) =>
      JSON.parse((await testDb().all<{ card: string }>(sql`SELECT card FROM listing_series WHERE key = ${key}`))[0]!.card) as DetailRow;
    const item = async (id: string) => (await list(`city=${slug}`, MONDAY)).items.find((i) => i.id === id)!;
    const sKey = `${s.rid}@${p.location.id}`;

    const venueBody = {
      name: 'Nya Namnet',
      description: 'Ny beskrivning',
      address: 'Kungsgatan 2',
      city,
      phone: '',
      website: 'https://example.se',
      isPublic: true,
    };
    expect((await callJson(`/api/owner/venues/${p.venue.id}`, { method: 'PATCH', ...opts, body: venueBody })).status).toBe(200);
    expect(await cardOfUnit(sKey)).toMatchObject({ vName: 'Nya Namnet', vDescription: 'Ny beskrivning' });
    expect(await cardOfUnit(single.id)).toMatchObject({ vName: 'Nya Namnet', vDescription: 'Ny beskrivning' });
    expect((await item(single.id)).venue).toMatchObject({ name: 'Nya Namnet', description: 'Ny beskrivning' });

    const placeBody = { name: p.location.name, address: 'Storgatan 99', city, phone: '031-99 88 77', website: '', latitude: 59.3, longitude: 18.05 };
    expect((await callJson(`/api/owner/locations/${p.location.id}`, { method: 'PATCH', ...opts, body: placeBody })).status).toBe(200);
    expect(await cardOfUnit(sKey)).toMatchObject({ lAddress: 'Storgatan 99', lPhone: '031-99 88 77' });
    expect((await item(s.rows[0]!.id)).location).toMatchObject({ address: 'Storgatan 99', phone: '031-99 88 77' });

    const edit = { date: '2030-01-08', startTime: '20:30', category: 'allmänbildning', quizmaster: 'Bo', teamSize: 6, price: 25, description: 'Ny' };
    expect((await callJson(`/api/owner/quizzes/${s.rows[0]!.id}`, { method: 'PATCH', ...opts, body: edit })).status).toBe(200);
    expect(await cardOfUnit(sKey)).toMatchObject({ id: s.rows[0]!.id, startTime: '20:30:00', quizmaster: 'Bo', price: 25 });
    expect((await item(s.rows[0]!.id)).startTime).toBe('20:30:00');

    expect((await callJson(`/api/owner/quizzes/${single.id}/cancel`, { ...opts, body: { cancelled: true } })).status).toBe(200);
    expect(await cardOfUnit(single.id)).toMatchObject({ isCancelled: 1 });
    expect((await item(single.id)).isCancelled).toBe(true);
    // Moving the next occurrence to another day makes the following one the card.
    expect((await callJson(`/api/owner/quizzes/${s.rows[0]!.id}`, { method: 'PATCH', ...opts, body: { ...edit, date: '2030-01-19' } })).status).toBe(200);
    expect(await cardOfUnit(sKey)).toMatchObject({ id: s.rows[1]!.id, date: '2030-01-15', startTime: '19:00:00' });
    await expectListing(slug, MONDAY);
  });
});

describe('weekday and date modes', () => {
  it('a multi-weekday unit shows that weekday’s occurrence; a date three weeks ahead shows that date’s; a biweekly off week is not on that date', async () => {
    const { slug, city } = newCity();
    const p = await place(city);
    const monThu = await series(p.location.id, [...every(MONDAY, 7, 5), ...every('2030-01-10', 7, 5)].sort());
    for (const q of monThu.rows)
      if (weekdayOf(q.date) === 4) await testDb().run(sql`UPDATE quizzes SET start_time = '20:15:00', quizmaster = 'Torsdagsfolk' WHERE id = ${q.id}`);
    const on = await series(p.location.id, every('2030-01-14', 14, 3), { recurrencePattern: 'biweekly' }); // 14th, 28th
    const off = await series(p.location.id, every('2030-01-21', 14, 3), { recurrencePattern: 'biweekly' }); // 21st, 4th
    const other = await place(city);
    const otherSingle = await createQuiz(other.location.id, { date: '2030-01-28', startTime: '21:00:00' });
    await expectListing(slug, MONDAY);

    const thu = await list(`city=${slug}&weekday=torsdag`, MONDAY);
    expect(thu.items.map((i) => i.id)).toEqual([monThu.rows.find((q) => q.date === '2030-01-10')!.id]);
    // That occurrence's quiz row with the unit's place and business.
    expect(thu.items[0]).toMatchObject({
      date: '2030-01-10',
      startTime: '20:15:00',
      location: { id: p.location.id, address: p.location.address, phone: '08-123 45' },
      venue: { id: p.venue.id, name: p.venue.name },
    });
    // Mondays: this week's, and the single three weeks ahead (a single is listed under its weekday however far); the
    // biweekly Mondays are 7 and 14 days away.
    const mon = await list(`city=${slug}&weekday=mandag`, MONDAY);
    expect(mon.items.map((i) => i.id).sort()).toEqual([monThu.rows[0]!.id, otherSingle.id].sort());
    // On Tuesday the next biweekly Monday is within 7 days.
    expect((await list(`city=${slug}&weekday=mandag`, '2030-01-08')).items.map((i) => i.id).sort()).toEqual(
      [monThu.rows.find((q) => q.date === '2030-01-14')!.id, on.rows[0]!.id, otherSingle.id].sort(),
    );

    // Date mode, three weeks ahead (Monday 28th): the weekly and the on-week series, the single; not the off-week series.
    const d28 = await expectDateMode(slug, MONDAY, '2030-01-28');
    expect(d28.items.map((i) => i.id).sort()).toEqual([monThu.rows.find((q) => q.date === '2030-01-28')!.id, on.rows[1]!.id, otherSingle.id].sort());
    expect(d28.items.map((i) => i.id)).not.toContain(off.rows[0]!.id);
    expect(d28.items.find((i) => i.id === otherSingle.id)).toMatchObject({ startTime: '21:00:00', location: { id: other.location.id } });
    // The off-week series on its own date; a Thursday three weeks ahead shows the Thursday row.
    expect((await expectDateMode(slug, MONDAY, '2030-01-21')).items.map((i) => i.id)).toContain(off.rows[0]!.id);
    const d31 = await expectDateMode(slug, MONDAY, '2030-01-31');
    expect(d31.items).toHaveLength(1);
    expect(d31.items[0]).toMatchObject({ date: '2030-01-31', startTime: '20:15:00', quizmaster: 'Torsdagsfolk', location: { id: p.location.id } });
    for (const date of ['2030-01-07', '2030-01-10', '2030-01-14', '2030-02-04', '2030-02-05']) await expectDateMode(slug, MONDAY, date);
    // On another day too (the stored card is then another occurrence).
    for (const date of ['2030-01-17', '2030-01-28']) await expectDateMode(slug, '2030-01-16', date);
  });
});

describe('the house e-mail of the config changes', () => {
  it('the first read with another house e-mail ranks the old house account’s units as real and the new one’s last', async () => {
    const { slug, city } = newCity();
    const real = await createUser();
    const r = await place(city, { owner: real.id });
    await series(r.location.id, every(MONDAY, 7, 2));
    const h = await place(city, { owner: await houseUserId() });
    await createQuiz(h.location.id, { date: '2030-01-09' });
    await expectListing(slug, MONDAY);
    // As if the config had named the real user's address until now.
    await testDb().run(sql`UPDATE listing_state SET house_email = ${real.email}, house_id = ${real.id} WHERE id = 1`);
    await testDb().run(sql`UPDATE listing_series SET touch = touch + 1 WHERE venue_id IN (${r.venue.id}, ${h.venue.id})`);
    expect((await storedUnits(slug)).map((u) => u.tier).sort()).toEqual([0, 1]);
    expect((await testDb().all<{ tier: number }>(sql`SELECT tier FROM listing_series WHERE venue_id = ${r.venue.id}`))[0]!.tier).toBe(1);
    // The next read brings the state to the configured house e-mail.
    const expected = await expectListing(slug, MONDAY);
    expect([...expected.values()].map((e) => [e.lid, e.tier])).toEqual(
      expect.arrayContaining([
        [r.location.id, 0],
        [h.location.id, 1],
      ]),
    );
    const [state] = await testDb().all<{ house_email: string; house_id: string }>(sql`SELECT house_email, house_id FROM listing_state WHERE id = 1`);
    expect(state).toEqual({ house_email: HOUSE, house_id: await houseUserId() });
  });
});

describe('free text, and an owner with a hidden business', () => {
  it('walk every match once in the listing’s order, with an exact total', async () => {
    const { slug, city } = newCity();
    const tag = unique('Sok');
    for (let i = 0; i < 15; i++) {
      const owner = (await createUser()).id;
      const venue = await createVenue(owner, { name: `${i % 2 ? tag : 'Annan'} krog ${i}` });
      const loc = await createLocation(venue.id, { city });
      if (i % 3) await series(loc.id, every(addDays(MONDAY, i % 7), 7, 2));
      else await createQuiz(loc.id, { date: addDays(MONDAY, i) });
    }
    const houseVenue = await createVenue(await houseUserId(), { name: `${tag} husets` });
    await createQuiz((await createLocation(houseVenue.id, { city })).id, { date: '2030-01-10' });
    // An owner with a business that is not public: one unit ahead (Thursdays), one ended; and somebody else's hidden one.
    const owner = await createUser({ now: new Date(at(MONDAY)) });
    const mine = await place(city, { owner: owner.id, isPublic: false });
    const mineAhead = await series(mine.location.id, every('2030-01-10', 7, 2));
    await createQuiz(mine.location.id, { date: '2030-01-02' });
    const theirs = await place(city, { isPublic: false });
    await createQuiz(theirs.location.id, { date: '2030-01-08' });

    const expected = await expectListing(slug, MONDAY);
    const stored = new Map((await storedUnits(slug)).map((u) => [u.key, u]));
    const ranked = (keep: (e: Expected) => boolean, rankTier: (e: Expected) => number) =>
      rankOrder(
        [...expected.values()].filter(keep).map((e) => ({ ...e, tier: rankTier(e), id: stored.get(e.key)!.id, shuffle: stored.get(e.key)!.shuffle })),
        MONDAY,
      );
    const expectWalk = async (
      query: string,
      want: Array<Expected & { id: number }>,
      opts: { cookie?: string; venueCount: number | null; shows?: (e: Expected) => string },
    ) => {
      const { items, pages } = await walk(query, MONDAY, opts.cookie);
      expect(
        items.map((i) => i.id),
        query,
      ).toEqual(want.map((e) => (opts.shows ? opts.shows(e) : e.next_qid)));
      for (const p of pages) {
        expect(p.total, query).toBe(want.length);
        expect(p.totalAtLeast, query).toBeUndefined();
        expect(p.venueCount, query).toBe(opts.venueCount);
      }
    };
    const publicPlaces = (keep: (e: Expected) => boolean) => new Set([...expected.values()].filter((e) => e.tier < 2 && keep(e)).map((e) => e.lid)).size;
    // Free text: the businesses named with the tag (the house account's last); no place count.
    const named = (e: Expected) => e.card?.vName.includes(tag) === true;
    const hits = ranked(
      (e) => e.tier < 2 && named(e),
      (e) => e.tier,
    );
    expect(hits.length).toBe(8);
    await expectWalk(`city=${slug}&search=${encodeURIComponent(tag)}`, hits, { venueCount: null });
    // The owner sees their own hidden unit that has a date ahead, ranked with the real accounts; not the ended
    // one, not another's. The place count stays the city's public one.
    const isMine = (e: Expected) => e.key === `${mineAhead.rid}@${mine.location.id}`;
    const ownView = ranked(
      (e) => e.tier < 2 || isMine(e),
      (e) => (e.tier === 1 ? 1 : 0),
    );
    expect(ownView.length).toBe([...expected.values()].filter((e) => e.tier < 2).length + 1);
    expect(ownView.length).toBeGreaterThan(12);
    await expectWalk(`city=${slug}`, ownView, { cookie: owner.cookie, venueCount: publicPlaces(() => true) });
    // The same on Thursdays (their unit's weekday), each unit with its Thursday occurrence.
    const thursday = (e: Expected) => weekdayOccurrence(e, 4, MONDAY);
    const ownThursdays = ranked(
      (e) => (e.tier < 2 || isMine(e)) && thursday(e) !== undefined,
      (e) => (e.tier === 1 ? 1 : 0),
    );
    expect(ownThursdays.some(isMine)).toBe(true);
    await expectWalk(`city=${slug}&weekday=torsdag`, ownThursdays, {
      cookie: owner.cookie,
      venueCount: publicPlaces((e) => thursday(e) !== undefined),
      shows: (e) => thursday(e)!.id,
    });
    // And anonymously the index walk gives the same order without it.
    await expectWalk(
      `city=${slug}`,
      ownView.filter((e) => !isMine(e)),
      { venueCount: publicPlaces(() => true) },
    );
  });
});

describe('free text alone (nationwide)', () => {
  it('walks every match once in the listing’s order (real accounts, then the house account, each in the day’s rotation); a lower bound, then the exact total', async () => {
    const { city } = newCity();
    const tag = unique('Fritext');
    const houseId = await houseUserId();
    const venueIds: string[] = [];
    for (let i = 0; i < 16; i++) {
      const venue = await createVenue(i >= 14 ? houseId : (await createUser()).id, { name: `${tag} ${i}` });
      venueIds.push(venue.id);
      const loc = await createLocation(venue.id, { city: i % 2 ? city : `${city} Norra` });
      await series(loc.id, every(addDays(MONDAY, i % 7), 7, 2));
    }
    // Matching but not listed: ended, hidden.
    await createQuiz((await createLocation((await createVenue((await createUser()).id, { name: `${tag} slut` })).id, { city })).id, { date: '2030-01-01' });
    await createQuiz((await createLocation((await createVenue((await createUser()).id, { name: `${tag} dold`, isPublic: false })).id, { city })).id, {
      date: '2030-01-08',
    });
    await list('weekday=all', MONDAY);
    const units = await testDb().all<{ id: number; tier: number; shuffle: number; next_qid: string }>(sql`
      SELECT id, tier, shuffle, next_qid FROM listing_series WHERE venue_id IN (SELECT value FROM json_each(${JSON.stringify(venueIds)}))`);
    expect(units.map((u) => u.tier).sort()).toEqual([...Array(14).fill(0), 1, 1]);
    const want = rankOrder(units, MONDAY);

    const { items, pages } = await walk(`search=${encodeURIComponent(tag)}`, MONDAY);
    expect(pages.length).toBe(2);
    expect(items.map((i) => i.id)).toEqual(want.map((u) => u.next_qid));
    for (const p of pages) expect(p.mode).toBe('search');
    // The search index is walked, not counted: "at least 13" while there is more, exact on the last page.
    expect(pages[0]).toMatchObject({ total: 13, totalAtLeast: true });
    expect(pages[1]!.total).toBe(16);
    expect(pages[1]!.totalAtLeast).toBeUndefined();
  });
});

describe('the day’s advance', () => {
  it('finds the units to refresh through indexes (no full scan of listing_series or quizzes)', async () => {
    const db = testDb();
    const seen: Array<{ sql: string; params: unknown[] }> = [];
    const recording = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'batch') {
          return (items: Array<{ getQuery(): { sql: string; params: unknown[] } }>) => {
            seen.push(...items.map((i) => i.getQuery()));
            return target.batch(items as never);
          };
        }
        return Reflect.get(target, prop, receiver);
      },
    });
    await list('city=x', MONDAY);
    const [state] = await db.all<{ today: string; houseEmail: string; houseId: string | null }>(
      sql`SELECT today, house_email AS houseEmail, house_id AS houseId FROM listing_state WHERE id = 1`,
    );
    // A day forward, and a week forward with a new house e-mail.
    await advanceListingDay(recording, state!, addDays(MONDAY, 1), state!.houseEmail);
    await advanceListingDay(recording, { ...state!, today: addDays(MONDAY, 1), houseEmail: 'old-house@test.local' }, addDays(MONDAY, 8), state!.houseEmail);
    expect(seen.length).toBe(8);
    for (const q of seen) {
      const { results } = await db.$client
        .prepare(`EXPLAIN QUERY PLAN ${q.sql}`)
        .bind(...q.params)
        .all<{ detail: string }>();
      const detail = results.map((r) => r.detail);
      expect(
        detail.filter((d) => /^SCAN (listing_series|quizzes|q|venues|locations)\b/.test(d)),
        `${q.sql}\n${detail.join('\n')}`,
      ).toEqual([]);
    }
    await expectListing(newCity().slug, MONDAY);
  });
});

/** listing_counts of some cities (both weekday and all-days scopes) equal the oracle's count of their units. */
async function expectCityCounts(today: string, slugs: string[]) {
  expect(await listingToday()).toBe(today);
  const want: Record<string, [number, number]> = {};
  for (const slug of slugs) {
    const units = [...(await expectedUnits(today, slug)).values()].filter((u) => u.tier < 2);
    for (let wd = -1; wd < 7; wd++) {
      const inScope = units.filter((u) => wd < 0 || u.wk_mask & (1 << wd));
      if (inScope.length) want[`${slug}|${wd}`] = [inScope.length, new Set(inScope.map((u) => u.lid)).size];
    }
  }
  const rows = await testDb().all<{ city: string; wd: number; units: number; places: number }>(sql`
    SELECT city, wd, units, places FROM listing_counts WHERE city IN (SELECT value FROM json_each(${JSON.stringify(slugs)})) AND (units != 0 OR places != 0)`);
  expect(Object.fromEntries(rows.map((r) => [`${r.city}|${r.wd}`, [r.units, r.places]]))).toEqual(want);
}

type RankOp =
  | { t: 'single'; loc: number; date: number }
  | { t: 'series'; loc: number; start: number; days: number[]; biweekly: boolean; n: number }
  | { t: 'delete'; pick: number }
  | { t: 'deleteUnit'; pick: number }
  | { t: 'cancel'; pick: number }
  | { t: 'retime'; pick: number; time: number }
  | { t: 'relang'; pick: number; lang: number }
  | { t: 'redate'; pick: number; date: number }
  | { t: 'move'; pick: number; loc: number }
  | { t: 'toSingle'; pick: number }
  | { t: 'toSeries'; pick: number; biweekly: boolean }
  | { t: 'togglePublic'; venue: number }
  | { t: 'toggleHouse'; venue: number }
  | { t: 'editPlace'; loc: number }
  | { t: 'renameVenue'; venue: number }
  | { t: 'deletePlace'; loc: number }
  | { t: 'day'; delta: number };

const rankOpArb: fc.Arbitrary<RankOp> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ t: fc.constant('single' as const), loc: fc.nat(3), date: fc.nat(30) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      t: fc.constant('series' as const),
      loc: fc.nat(3),
      start: fc.nat(20),
      days: fc.uniqueArray(fc.nat(6), { minLength: 1, maxLength: 2 }),
      biweekly: fc.boolean(),
      n: fc.integer({ min: 1, max: 3 }),
    }),
  },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('delete' as const), pick: fc.nat() }) },
  fc.record({ t: fc.constant('deleteUnit' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('cancel' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('retime' as const), pick: fc.nat(), time: fc.nat(3) }),
  fc.record({ t: fc.constant('relang' as const), pick: fc.nat(), lang: fc.nat(2) }),
  { weight: 2, arbitrary: fc.record({ t: fc.constant('redate' as const), pick: fc.nat(), date: fc.nat(30) }) },
  fc.record({ t: fc.constant('move' as const), pick: fc.nat(), loc: fc.nat(3) }),
  fc.record({ t: fc.constant('toSingle' as const), pick: fc.nat() }),
  fc.record({ t: fc.constant('toSeries' as const), pick: fc.nat(), biweekly: fc.boolean() }),
  fc.record({ t: fc.constant('togglePublic' as const), venue: fc.nat(1) }),
  fc.record({ t: fc.constant('toggleHouse' as const), venue: fc.nat(1) }),
  fc.record({ t: fc.constant('editPlace' as const), loc: fc.nat(3) }),
  fc.record({ t: fc.constant('renameVenue' as const), venue: fc.nat(1) }),
  fc.record({ t: fc.constant('deletePlace' as const), loc: fc.nat(3) }),
  { weight: 3, arbitrary: fc.record({ t: fc.constant('day' as const), delta: fc.integer({ min: -9, max: 9 }) }) },
);

describe('any sequence of writes and days', () => {
  /**
   * Random writes (every kind a unit's columns depend on) and clock moves, on two cities: after each step the
   * stored columns of every unit and the counts of both cities equal the oracle; after each run the API walks
   * agree too.
   */
  it('keeps every unit’s stored columns and the counts equal to the oracle', async () => {
    const houseId = await houseUserId();
    await fc.assert(
      fc.asyncProperty(fc.array(rankOpArb, { minLength: 1, maxLength: 12 }), async (ops) => {
        const db = testDb();
        const cities = [newCity(), newCity()];
        const slugs = cities.map((c) => c.slug);
        const owner = await createUser();
        const venues = [await createVenue(owner.id), await createVenue(owner.id)];
        const locs: string[] = [];
        for (let i = 0; i < 4; i++) locs.push((await createLocation(venues[i % 2]!.id, { city: cities[i < 2 ? 0 : 1]!.city })).id);
        let day = MONDAY;
        await list(`city=${slugs[0]}`, day);
        const dateOf = (n: number) => addDays(MONDAY, n - 5);
        const quizIds = async () =>
          (
            await db.all<{ id: string }>(sql`SELECT id FROM quizzes WHERE location_id IN (SELECT value FROM json_each(${JSON.stringify(locs)})) ORDER BY id`)
          ).map((r) => r.id);
        for (const op of ops) {
          const live = new Set(
            (await db.all<{ id: string }>(sql`SELECT id FROM locations WHERE id IN (SELECT value FROM json_each(${JSON.stringify(locs)}))`)).map((r) => r.id),
          );
          // A deleted place takes no more quizzes: such a step does nothing.
          if ('loc' in op && op.t !== 'editPlace' && !live.has(locs[op.loc]!)) continue;
          const ids = await quizIds();
          const pick = (n: number) => (ids.length ? ids[n % ids.length]! : null);
          switch (op.t) {
            case 'single':
              await createQuiz(locs[op.loc]!, { date: dateOf(op.date) });
              break;
            case 'series': {
              const rid = newId();
              const first = dateOf(op.start);
              for (const w of op.days) {
                let d = first;
                while (weekdayOf(d) !== w) d = addDays(d, 1);
                for (let i = 0; i < op.n; i++) {
                  await createQuiz(locs[op.loc]!, {
                    date: addDays(d, i * (op.biweekly ? 14 : 7)),
                    isRecurring: true,
                    recurrenceId: rid,
                    recurrencePattern: op.biweekly ? 'biweekly' : 'weekly',
                  });
                }
              }
              break;
            }
            case 'delete': {
              const id = pick(op.pick);
              if (id) await db.run(sql`DELETE FROM quizzes WHERE id = ${id}`);
              break;
            }
            case 'deleteUnit': {
              const id = pick(op.pick);
              if (id) await db.run(sql`DELETE FROM quizzes WHERE id = ${id} OR recurrence_id = (SELECT recurrence_id FROM quizzes WHERE id = ${id})`);
              break;
            }
            case 'cancel': {
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET is_cancelled = 1 - is_cancelled WHERE id = ${id}`);
              break;
            }
            case 'retime': {
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET start_time = ${[null, '18:00:00', '19:30:00', '21:00:00'][op.time]!} WHERE id = ${id}`);
              break;
            }
            case 'relang': {
              // Issue 31.3: one occurrence's language (the unit's lang follows its latest row, the card its next one).
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET language = ${(['sv', 'en', 'both'] as const)[op.lang]!} WHERE id = ${id}`);
              break;
            }
            case 'redate': {
              const id = pick(op.pick);
              // OR IGNORE: a series cannot have two rows on one date.
              if (id) await db.run(sql`UPDATE OR IGNORE quizzes SET date = ${dateOf(op.date)} WHERE id = ${id}`);
              break;
            }
            case 'move': {
              // A series row becomes its series' unit at the other place; a single quiz moves with its unit.
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET location_id = ${locs[op.loc]!} WHERE id = ${id}`);
              break;
            }
            case 'toSingle': {
              const id = pick(op.pick);
              if (id) await db.run(sql`UPDATE quizzes SET recurrence_id = NULL, is_recurring = 0, recurrence_pattern = NULL WHERE id = ${id}`);
              break;
            }
            case 'toSeries': {
              const id = pick(op.pick);
              const pattern = op.biweekly ? 'biweekly' : 'weekly';
              if (id)
                await db.run(
                  sql`UPDATE quizzes SET recurrence_id = ${newId()}, is_recurring = 1, recurrence_pattern = ${pattern} WHERE id = ${id} AND recurrence_id IS NULL`,
                );
              break;
            }
            case 'togglePublic':
              await db.run(sql`UPDATE venues SET is_public = 1 - is_public WHERE id = ${venues[op.venue]!.id}`);
              break;
            case 'toggleHouse':
              await db.run(
                sql`UPDATE venues SET user_id = CASE user_id WHEN ${houseId} THEN ${owner.id} ELSE ${houseId} END WHERE id = ${venues[op.venue]!.id}`,
              );
              break;
            case 'renameVenue':
              await db.run(sql`UPDATE venues SET name = ${`Omdöpt ${unique('n')}`} WHERE id = ${venues[op.venue]!.id}`);
              break;
            case 'deletePlace':
              await db.run(sql`DELETE FROM locations WHERE id = ${locs[op.loc]!}`);
              break;
            case 'editPlace':
              await db.run(sql`UPDATE locations SET address = ${`Gatan ${unique('a')}`}, phone = ${unique('p')} WHERE id = ${locs[op.loc]!}`);
              break;
            case 'day':
              day = addDays(day, op.delta);
              await list(`city=${slugs[0]}`, day);
              break;
          }
          for (const slug of slugs) await expectStoredUnits(slug, day);
          await expectCityCounts(day, slugs);
        }
        for (const slug of slugs) await expectListing(slug, day);
      }),
      { numRuns: 15 },
    );
    // Fifteen random runs of up to twelve writes, each checked against the oracle: a few seconds on an idle
    // machine, over the suite's 30 s with both cores busy — and a timed-out property keeps writing underneath
    // the next tests of this file.
  }, 240_000);
});

// ---- Two bugs this file found in the first 0018 triggers (fixed in the template before 0018 landed) ----
// Each repairs what it would have broken in `finally`, so the other tests of this file see consistent counts.

/** Recount listing_counts from listing_series (what a fixing migration would run after recreating the triggers). */
async function recount() {
  await testDb().run(sql`DELETE FROM listing_counts`);
  await testDb().run(sql`INSERT INTO listing_counts (city, wd, units, places)
    SELECT c.value, w.value, count(*), CASE WHEN c.value = '' THEN 0 ELSE count(DISTINCT e.location_id) END
    FROM listing_series e CROSS JOIN json_each('[-1,0,1,2,3,4,5,6]') w CROSS JOIN json_each(json_array('', e.city_slug)) c
    WHERE e.tier < 2 AND (w.value = -1 OR (e.wk_mask & (1 << w.value)) != 0)
    GROUP BY c.value, w.value`);
}

describe('listing_counts when a place changes city', () => {
  /**
   * listing_counts_au (template ONLY_AT_PLACE in scripts/listing-series-triggers.mjs): "is another listed
   * unit at this place in scope" must look at that unit's city. When a place with two listed units moves to
   * another city, the units' city_slug changes one at a time; without `o.city_slug = c.value` each saw the
   * other still "at the place", so the old city kept the place and the new one never got it.
   */
  it('a place with two listed units moves to another city: the place counts follow it', async () => {
    const one = knownCity('Aneby');
    const two = knownCity('Vetlanda');
    const owner = await createUser({ now: new Date(at(MONDAY)) });
    const a = await place(one.city, { owner: owner.id });
    await series(a.location.id, every(MONDAY, 7, 3));
    await series(a.location.id, every('2030-01-09', 7, 3));
    await expectListing(one.slug, MONDAY);
    try {
      const placeBody = { name: a.location.name, address: 'Nya gatan 3', city: two.city, phone: '', website: '' };
      const res = await callJson(`/api/owner/locations/${a.location.id}`, { method: 'PATCH', cookie: owner.cookie, clock: at(MONDAY), body: placeBody });
      expect(res.status).toBe(200);
      await expectListing(two.slug, MONDAY);
    } finally {
      await recount();
    }
  });
});

describe('a single quiz moved to another business', () => {
  /**
   * The refresh trigger takes a unit's tier from the business of listing_series.location_id, but a single
   * quiz's unit keeps its key when the quiz moves to another place, and the rank trigger (bumping `touch`)
   * runs before the 0015 trigger that writes the new location_id: the tier must come from the next
   * occurrence's own place (through next_qid), not from listing_series.location_id, or a quiz moved from a
   * hidden business to a public one stayed unlisted.
   */
  it('moved from a hidden business to a public one, it is listed', async () => {
    const { slug, city } = newCity();
    const hidden = await place(city, { isPublic: false });
    const shown = await place(city);
    const quiz = await createQuiz(hidden.location.id, { date: '2030-01-09' });
    await createQuiz(shown.location.id, { date: '2030-01-10' });
    await expectListing(slug, MONDAY);
    try {
      await testDb().run(sql`UPDATE quizzes SET location_id = ${shown.location.id} WHERE id = ${quiz.id}`);
      expect((await expectListing(slug, MONDAY)).get(quiz.id)!.tier).toBe(0);
    } finally {
      await testDb().run(sql`UPDATE listing_series SET touch = touch + 1 WHERE key = ${quiz.id}`);
    }
  });
});

describe('the listing day never moves back in production', () => {
  it('a request whose clock reads a day before the stored one serves the stored day; only a pinned clock (tests) moves it back', async () => {
    const { ensureListingDay } = await import('../../worker/features/listing/listing-day');
    const db = testDb();
    const house = 'house@test.local';
    await ensureListingDay(db, { today: '2031-03-10', houseEmail: house, rewind: true });
    // Read the clock just before midnight, find the day already moved on: nothing is undone.
    await ensureListingDay(db, { today: '2031-03-09', houseEmail: house });
    expect((await db.all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`))[0]!.today).toBe('2031-03-10');
    await ensureListingDay(db, { today: '2031-03-09', houseEmail: house, rewind: true });
    expect((await db.all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`))[0]!.today).toBe('2031-03-09');
  });
});
