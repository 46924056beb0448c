/**
 * Free text (listing queries walkedSearchPage, migration 0020): the search index's rowid is each unit's
 * search key (tier, shuffle, id), so a page is walked in the listing's order — real accounts first, the
 * house account last, each in the day's rotation of `shuffle` — and reads about one match per card, not
 * every match. Paging through every page gives each match exactly once, in that order; the total is a
 * lower bound until the last page.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { daySeed, rotationKey } from '../../worker/features/listing/rank';
import { slugify } from '../../worker/lib/slug';
import { call, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z';
const HOUSE = 'house@test.local';
// A word of seven letters, like a real search (the trigram index reads each of its trigrams' lists).
const tag = `zq${Array.from({ length: 5 }, () => 'bcdfghjklmnpqrstvwx'[Math.floor(Math.random() * 19)]).join('')}`;
/** The one town of every fixture place. */
const SEARCH_TOWN = uniqueTown();
const REAL = 30;
const HIDDEN_HOUSE = 10;

async function houseUserId(): Promise<string> {
  const [row] = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
  return row?.id ?? (await createUser({ email: HOUSE })).id;
}

beforeAll(async () => {
  const owner = await createUser();
  const house = await houseUserId();
  for (let i = 0; i < REAL + HIDDEN_HOUSE; i++) {
    const venue = await createVenue(i < REAL ? owner.id : house, { name: `Krogen ${tag} ${i}` });
    const place = await createLocation(venue.id, { city: SEARCH_TOWN });
    await createQuiz(place.id, { date: '2030-01-09' });
  }
  // One that has ended and one of a hidden business: matches of the index, never listed.
  const ended = await createLocation((await createVenue(owner.id, { name: `Krogen ${tag} slut` })).id);
  await createQuiz(ended.id, { date: '2030-01-02' });
  const hidden = await createLocation((await createVenue(owner.id, { name: `Krogen ${tag} dold`, isPublic: false })).id);
  await createQuiz(hidden.id, { date: '2030-01-09' });
  // The first listing read of the day brings the stored listing columns to it (measured apart below).
  expect((await call(`/api/listing?_b=${unique('warm')}`, { clock: CLOCK })).status).toBe(200);
});

interface Page {
  items: Array<{ id: string; unclaimed: boolean; venue: { name: string } }>;
  total: number;
  hasMore: boolean;
  totalAtLeast?: true;
}

describe("free text: walked in the listing's order", () => {
  it("every match once, real accounts before the house account, each in the day's rotation of shuffle; a page reads about one match per card", async () => {
    const pages: Page[] = [];
    const rowsRead: number[] = [];
    for (let page = 1; page <= 10; page++) {
      const res = await call(`/api/listing?search=${tag}&page=${page}&_b=${unique('b')}`, { clock: CLOCK });
      expect(res.status).toBe(200);
      rowsRead.push(Number(res.headers.get('x-d1-rows-read')));
      const body = (await res.json()) as Page;
      pages.push(body);
      if (!body.hasMore) break;
    }
    const items = pages.flatMap((p) => p.items);
    expect(items).toHaveLength(REAL + HIDDEN_HOUSE);
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
    expect(items.some((i) => /slut|dold/.test(i.venue.name))).toBe(false);
    // Real accounts first, then the house account's (unclaimed) units.
    expect(items.map((i) => i.unclaimed)).toEqual([...Array(REAL).fill(false), ...Array(HIDDEN_HOUSE).fill(true)]);
    // A lower bound while there is more ("Visar 12 quiz – det finns fler"), exact on the last page.
    expect(pages.length).toBeGreaterThan(1);
    pages.slice(0, -1).forEach((p, i) => {
      expect(p).toMatchObject({ totalAtLeast: true, total: (i + 1) * 12 + 1, hasMore: true });
    });
    expect(pages.at(-1)!.totalAtLeast).toBeUndefined();
    expect(pages.at(-1)!.total).toBe(REAL + HIDDEN_HOUSE);
    // Within each tier: the day's rotation of the units' shuffle (as every other listing mode).
    const shuffleOf = new Map(
      (await testDb().all<{ key: string; shuffle: number }>(sql`SELECT key, shuffle FROM listing_series WHERE place_text LIKE ${`%${tag}%`}`)).map((r) => [
        r.key,
        r.shuffle,
      ]),
    );
    const seed = daySeed('2030-01-07');
    for (const tier of [items.slice(0, REAL), items.slice(REAL)]) {
      const keys = tier.map((i) => rotationKey(shuffleOf.get(i.id)!, seed));
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
    }
    // Page 1 of 42 matches: its 13 index entries and 12 cards, their RSVP figures and a few rows for the day and the promotions —
    // not two rows per match (reading every match would be over 2 × 42).
    console.log(`free text (${REAL + HIDDEN_HOUSE + 2} matches), rows read per page: ${rowsRead.join(', ')}`);
    expect(rowsRead[0]).toBeGreaterThan(12);
    // Plus one row per card for its "Vi kommer" figures (issue 47: rsvp_counts, read by the page's ids).
    expect(rowsRead[0]).toBeLessThanOrEqual(13 + 12 + 5 + 12);
  });

  it('with a city or a quiz filter: only matches that pass every filter, in the same order', async () => {
    const get = async (q: string) => (await (await call(`/api/listing?search=${tag}${q}&_b=${unique('b')}`, { clock: CLOCK })).json()) as Page;
    const all = (await get('')).items;
    // The fixtures' places are all in one city, free (no price) and allmänbildning: these filters keep every match.
    expect((await get(`&city=${slugify(SEARCH_TOWN)}`)).items.map((i) => i.id)).toEqual(all.map((i) => i.id));
    expect((await get('&price=gratis&category=allmanbildning')).items.map((i) => i.id)).toEqual(all.map((i) => i.id));
    // Another city or another category: none of them, and said so exactly.
    expect(await get('&city=stockholm')).toMatchObject({ items: [], total: 0, hasMore: false });
    expect(await get('&category=musik')).toMatchObject({ items: [], total: 0, hasMore: false });
  });

  it('the same order on every request of a day', async () => {
    const ids = async () => ((await (await call(`/api/listing?search=${tag}&_b=${unique('b')}`, { clock: CLOCK })).json()) as Page).items.map((i) => i.id);
    expect(await ids()).toEqual(await ids());
  });
});
