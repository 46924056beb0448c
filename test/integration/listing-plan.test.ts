/**
 * The listing's SQL starts from an index in every mode: EXPLAIN QUERY PLAN never shows a full scan of
 * quizzes, locations or venues (ARCHITECTURE.md "Scale"). Captures the statements the real service runs.
 */
import { describe, expect, it } from 'vitest';
import type { Db } from '../../worker/db/client';
import { activePromotions, findCity, findPublicVenue, listCities, quizDetails, selectCandidates, venueUpcoming } from '../../worker/features/listing/queries';
import { testDb } from '../factories';

/** A Db whose all() records the SQL and parameters instead of only running them. */
function recording(db: Db) {
  const seen: Array<{ sql: string; params: unknown[] }> = [];
  const proxy = new Proxy(db, {
    get(target, prop, receiver) {
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

const FULL_SCAN = /^SCAN (q|l|v|u|pq|quizzes|locations|venues)\b/;

describe('query plans', () => {
  it('no full scan of quizzes, locations or venues in any listing mode', async () => {
    const { db, seen } = recording(testDb());
    const base = { today: '2030-01-07', houseEmail: 'house@test.local' };
    await selectCandidates(db, { ...base });
    await selectCandidates(db, { ...base, city: 'stockholm' });
    await selectCandidates(db, { ...base, date: '2030-01-09' });
    await selectCandidates(db, { ...base, date: '2030-01-09', city: 'stockholm' });
    await selectCandidates(db, { ...base, weekdayW: 2 });
    await selectCandidates(db, { ...base, weekdayW: 2, city: 'stockholm', viewerId: 'someone' });
    await selectCandidates(db, { ...base, search: 'kvarnen' });
    await selectCandidates(db, { ...base, search: 'kvarnen', city: 'stockholm' });
    await activePromotions(db, base.today);
    await quizDetails(db, ['a', 'b'], base.houseEmail);
    await listCities(db);
    await findCity(db, 'stockholm');
    await findPublicVenue(db, 'kvarnen', base.houseEmail);
    await venueUpcoming(db, 'v', base.today, 10);
    expect(seen.length).toBe(14);
    for (const q of seen) {
      const details = await plan(testDb(), q);
      const scans = details.filter((d) => FULL_SCAN.test(d));
      expect(scans, `${q.sql}\n${details.join('\n')}`).toEqual([]);
    }
  });

  it('the candidate query uses the intended index per mode', async () => {
    const { db, seen } = recording(testDb());
    const base = { today: '2030-01-07', houseEmail: 'house@test.local' };
    await selectCandidates(db, { ...base, city: 'stockholm' });
    await selectCandidates(db, { ...base, date: '2030-01-09' });
    await selectCandidates(db, { ...base, weekdayW: 2 });
    const plans = await Promise.all(seen.map((q) => plan(testDb(), q)));
    expect(plans[0]!.join('\n')).toMatch(/locations_city_slug_idx[\s\S]*quizzes_location_date_idx/);
    expect(plans[1]!.join('\n')).toMatch(/quizzes_date_idx \(date=\?\)/);
    expect(plans[2]!.join('\n')).toMatch(/quizzes_weekday_date_idx \(weekday=\? AND date>\?\)/);
  });
});
