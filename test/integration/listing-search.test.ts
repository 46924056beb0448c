/**
 * Free text (listing service searchPage): every match is read once from the FTS index, ranked like every
 * other listing — real accounts first, the house account last, each in the day's rotation of `shuffle` —
 * and counted exactly. Paging through every page gives each match exactly once, in that order; a page
 * reads about two rows per match plus its cards.
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { rotationKey } from '../../worker/features/listing/queries';
import { daySeed } from '../../worker/features/listing/service';
import { call, createLocation, createQuiz, createUser, createVenue, testDb, unique } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z';
const HOUSE = 'house@test.local';
// A word of seven letters, like a real search (the trigram index reads each of its trigrams' lists).
const tag = `zq${Array.from({ length: 5 }, () => 'bcdfghjklmnpqrstvwx'[Math.floor(Math.random() * 19)]).join('')}`;
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
    const place = await createLocation(venue.id, { city: `Sökstad ${tag}` });
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

describe('free text: every match, ranked and counted', () => {
  it('every match once, real accounts before the house account, each in the day\'s rotation of shuffle; an exact total', async () => {
    const pages: Page[] = [];
    let rowsReadPage1 = 0;
    for (let page = 1; page <= 10; page++) {
      const res = await call(`/api/listing?search=${tag}&page=${page}&_b=${unique('b')}`, { clock: CLOCK });
      expect(res.status).toBe(200);
      if (page === 1) rowsReadPage1 = Number(res.headers.get('x-d1-rows-read'));
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
    // Counted exactly from page 1 on.
    for (const p of pages) {
      expect(p.totalAtLeast).toBeUndefined();
      expect(p.total).toBe(REAL + HIDDEN_HOUSE);
    }
    // Within each tier: the day's rotation of the units' shuffle (as every other listing mode).
    const shuffleOf = new Map(
      (await testDb().all<{ key: string; shuffle: number }>(sql`SELECT key, shuffle FROM listing_series WHERE place_text LIKE ${`%${tag}%`}`)).map((r) => [r.key, r.shuffle]),
    );
    const seed = daySeed('2030-01-07');
    for (const tier of [items.slice(0, REAL), items.slice(REAL)]) {
      const keys = tier.map((i) => rotationKey(shuffleOf.get(i.id)!, seed));
      expect(keys).toEqual([...keys].sort((a, b) => a - b));
    }
    // Two rows per match (index and unit), the page's cards, and a few for the day and the promotions.
    console.log(`free text page 1 (${REAL + HIDDEN_HOUSE + 2} matches): ${rowsReadPage1} rows read`);
    expect(rowsReadPage1).toBeGreaterThan(0);
    expect(rowsReadPage1).toBeLessThanOrEqual(2 * (REAL + HIDDEN_HOUSE + 2) + 12 + 10);
  });

  it('the same order on every request of a day', async () => {
    const ids = async () => ((await (await call(`/api/listing?search=${tag}&_b=${unique('b')}`, { clock: CLOCK })).json()) as Page).items.map((i) => i.id);
    expect(await ids()).toEqual(await ids());
  });
});
