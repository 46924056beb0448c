/**
 * The listing's SQL starts from an index in every mode: EXPLAIN QUERY PLAN never shows a full scan of
 * quizzes, locations or venues (ARCHITECTURE.md "Scale"). Captures the statements the real service runs.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../worker/db/client';
import { occurrenceQuizzes } from '../../worker/features/listing/queries/cards';
import { stateAndCount } from '../../worker/features/listing/queries/listing-day';
import { findCity, findPublicVenue, listCities, placeDateQuizzes, venueUpcoming } from '../../worker/features/listing/queries/places';
import { activePromotions, promotionsWithUnits } from '../../worker/features/listing/queries/promotions';
import { countUnits, orderedPage, walkedPage } from '../../worker/features/listing/queries/walk';
import type { SeriesFilter } from '../../worker/features/listing/queries/where';
import { testDb } from '../factories';

/** A Db whose all() and batchAll() (statements prepared on `$client`) record the SQL and parameters instead of only running them. */
function recording(db: Db) {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const client = new Proxy(db.$client, {
    get(target, prop) {
      if (prop === 'prepare') {
        return (text: string) => {
          const stmt = target.prepare(text);
          return new Proxy(stmt, {
            get(s, p) {
              if (p === 'bind')
                return (...params: unknown[]) => {
                  seen.push({ sql: text, params });
                  return s.bind(...params);
                };
              const v = Reflect.get(s, p);
              return typeof v === 'function' ? v.bind(s) : v;
            },
          });
        };
      }
      const v = Reflect.get(target, prop);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
      if (prop === '$client') return client;
      if (prop === 'all') {
        return async (query: any) => {
          const q = (target as any).dialect.sqlToQuery(query);
          seen.push({ sql: q.sql, params: q.params });
          return (target as any).all(query);
        };
      }
      return Reflect.get(target, prop, receiver);
    },
  });
  return { db: proxy as Db, seen };
}

async function plan(db: Db, q: { sql: string; params: unknown[] }): Promise<string[]> {
  const stmt = (db as any).$client.prepare(`EXPLAIN QUERY PLAN ${q.sql}`).bind(...q.params);
  const { results } = await stmt.all();
  return (results as Array<{ detail: string }>).map((r) => r.detail);
}

// listing_series (e) is one row per series: still never scanned in full, it is entered by an index too.
const FULL_SCAN = /^SCAN (q|l|v|u|pq|e|quizzes|locations|venues|listing_series)\b/;

/** Every listing mode, as the service builds them (counts, promoted units, the ordinary page both ways, cards read). */
const MODES: Array<Partial<SeriesFilter>> = [
  {},
  { city: 'stockholm' },
  { date: '2030-01-09' },
  { date: '2030-01-09', city: 'stockholm' },
  { weekdayW: 2 },
  { weekdayW: 2, city: 'stockholm', viewerId: 'someone' },
  { search: 'kvarnen' },
  { search: 'kv' },
  { search: 'kvarnen', city: 'stockholm', viewerId: 'someone' },
  // The quiz filters (issue 20) alone and combined with every mode.
  { city: 'stockholm', quiz: { price: 'gratis', category: 'musik' } },
  { quiz: { price: 'max50', team: 6, category: 'sport', time: '19-20' } },
  { date: '2030-01-09', quiz: { time: 'efter20' } },
  { weekdayW: 2, city: 'stockholm', quiz: { team: 4, price: 'gratis' } },
  { search: 'kvarnen', quiz: { category: 'film-tv' } },
  { search: 'kv', city: 'stockholm', quiz: { price: 'gratis' } },
];
async function runModes(db: Db) {
  const base: SeriesFilter = { today: '2030-01-07', houseEmail: 'house@test.local', seed: 12345 };
  for (const m of MODES) {
    const f = { ...base, ...m };
    await countUnits(db, f);
    await promotionsWithUnits(db, f);
    await walkedPage(db, f, [7], 13, 12);
    await orderedPage(db, f, [7], 13, 12);
    await occurrenceQuizzes(db, f, [
      { unitId: 1, key: 'r1@l1', rid: 'r1', lid: 'l1', pattern: 'weekly' },
      { unitId: 2, key: 'q2', rid: null, lid: 'l2', pattern: null },
    ]);
  }
}
const PER_MODE = 5;

describe('query plans', () => {
  it('no full scan of quizzes, locations or venues in any listing mode', async () => {
    const { db, seen } = recording(testDb());
    const base = { today: '2030-01-07', houseEmail: 'house@test.local' };
    await runModes(db);
    await stateAndCount(db, { city: 'stockholm', wd: 2 });
    await activePromotions(db, base.today);
    await listCities(db);
    await findCity(db, 'stockholm');
    await findPublicVenue(db, 'kvarnen', base.houseEmail);
    await venueUpcoming(db, ['l1', 'l2', 'l3', 'l4', 'l5', 'l6'], base.today, 10);
    await placeDateQuizzes(db, [{ placeId: 'l1', date: base.today }]);
    expect(seen.length).toBe(MODES.length * PER_MODE + 8);
    for (const q of seen) {
      const details = await plan(testDb(), q);
      const scans = details.filter((d) => FULL_SCAN.test(d));
      expect(scans, `${q.sql}\n${details.join('\n')}`).toEqual([]);
    }
  });

  it('each mode enters listing_series by the intended index and reads quizzes by key or series only', async () => {
    const { db, seen } = recording(testDb());
    const base: SeriesFilter = { today: '2030-01-07', houseEmail: 'house@test.local', seed: 1 };
    await walkedPage(db, { ...base, city: 'stockholm' }, [], 13, 0);
    await walkedPage(db, { ...base }, [], 13, 0);
    await occurrenceQuizzes(db, { ...base, weekdayW: 2 }, [
      { unitId: 1, key: 'r1@l1', rid: 'r1', lid: 'l1', pattern: 'weekly' },
      { unitId: 2, key: 'q2', rid: null, lid: 'l2', pattern: null },
    ]);
    await countUnits(db, { ...base, search: 'kvarnen' });
    await walkedPage(db, { ...base, date: '2030-01-09' }, [], 13, 0);
    await walkedPage(db, { ...base, city: 'stockholm', weekdayW: 2, quiz: { price: 'gratis', category: 'musik', team: 4, time: 'fore19' } }, [], 13, 0);
    await walkedPage(db, { ...base, quiz: { price: 'gratis', category: 'musik' } }, [], 13, 0);
    await stateAndCount(db, { city: 'stockholm', wd: 2 });
    await walkedPage(db, { ...base, city: 'stockholm', date: '2030-01-09' }, [3], 13, 0);
    await walkedPage(db, { ...base, date: '2030-01-09', quiz: { price: 'gratis' } }, [], 13, 0);
    await walkedPage(db, { ...base, search: 'kvarnen' }, [4], 13, 0);
    await walkedPage(db, { ...base, search: 'kv', city: 'stockholm' }, [], 13, 0);
    const plans = await Promise.all(seen.map((q) => plan(testDb(), q)));
    // The walk: four ranges of the rank index in shuffle order (no sort, no row read to filter), then one row per card by key.
    expect(plans[0]!.join('\n')).toMatch(/SEARCH e USING COVERING INDEX listing_series_city_rank_idx \(city_slug=\? AND tier=\? AND shuffle>\?\)/);
    // Weekday mode: the weekday's partial index (only units listed under Tuesday), with the quiz filters inside it.
    expect(plans[5]!.join('\n')).toMatch(/SEARCH e USING COVERING INDEX listing_series_city_wd2_idx \(city_slug=\? AND tier=\? AND shuffle>\?\)/);
    for (const i of [1, 6]) expect(plans[i]!.join('\n')).toMatch(/SEARCH e USING COVERING INDEX listing_series_rank_idx \(tier=\? AND shuffle<\?\)/);
    // Date mode: listing_dates in the listing's order (migration 0019) — the date's range of its primary key, or of
    // the city index with a city; a quiz filter looks up each candidate's unit inside the arm.
    expect(plans[4]!.join('\n')).toMatch(/SEARCH d USING PRIMARY KEY \(date=\? AND tier=\? AND shuffle<\?\)/);
    expect(plans[8]!.join('\n')).toMatch(/SEARCH d USING COVERING INDEX listing_dates_city_idx \(date=\? AND city=\? AND tier=\? AND shuffle>\?\)/);
    expect(plans[9]!.join('\n')).toMatch(/SEARCH d USING PRIMARY KEY \(date=\? AND tier=\? AND shuffle>\?\)\nSEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    expect(plans[4]!.join('\n')).not.toMatch(/quizzes/);
    // Free text: each arm a MATCH with both rowid bounds of the search index (its rowid is the search key, so
    // FTS5's own order is the listing's: no sort); with a city, each match's unit is looked up inside the arm.
    expect(plans[10]!.join('\n')).toMatch(/SCAN listing_search VIRTUAL TABLE INDEX \d+:M\d*></);
    expect(plans[11]!.join('\n')).toMatch(/SCAN listing_search_words VIRTUAL TABLE INDEX \d+:M\d*><\nSEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
    for (const i of [0, 1, 4, 5, 6, 8, 9, 10, 11]) {
      expect(plans[i]!.join('\n')).toMatch(/SEARCH e USING INTEGER PRIMARY KEY \(rowid=\?\)/);
      expect(plans[i]!.join('\n')).not.toMatch(/TEMP B-TREE/);
    }
    expect(plans[2]!.join('\n')).toMatch(/quizzes_unit_weekday_date_idx \(recurrence_id=\? AND location_id=\? AND weekday=\? AND date>\?\)/);
    expect(plans[2]!.join('\n')).toMatch(/SEARCH q USING INDEX sqlite_autoindex_quizzes_1 \(id=\?\)/);
    expect(plans[3]!.join('\n')).toMatch(/VIRTUAL TABLE INDEX \d+:M/);
    // The count: one row of listing_counts by its key.
    expect(plans[7]!.join('\n')).toMatch(/SEARCH c USING INDEX sqlite_autoindex_listing_counts_1 \(city=\? AND wd=\?\)/);
  });
});
