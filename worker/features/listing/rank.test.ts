import { describe, expect, it } from 'vitest';
import { daySeed, pagePlan, rankPromoted, rotationKey, tierOf } from './rank';
import type { ListedRow } from './queries/cards';
import type { ActivePromotionRow } from './queries/promotions';

const TODAY = '2030-01-07'; // Monday

const row = (id: string, date: string, over: Partial<ListedRow> = {}): ListedRow =>
  ({ id, unitId: 0, key: over.rid ?? id, date, startTime: '19:00:00', rid: null, shuffle: 1000, house: 0, ...over }) as ListedRow;

describe('tiers and ranking', () => {
  const promos: ActivePromotionRow[] = [
    { quizId: 'p', rid: null, productType: 'premium', startDate: '2030-01-07', endDate: '2030-01-13' },
    { quizId: 'r-first', rid: 'R', productType: 'recommended', startDate: '2030-01-07', endDate: '2030-01-20' },
  ];
  it('a promotion applies to its quiz and its series within its dates', () => {
    expect(tierOf(row('p', '2030-01-08'), promos)).toBe('premium');
    expect(tierOf(row('p', '2030-01-14'), promos)).toBe('standard');
    expect(tierOf(row('r-other', '2030-01-15', { rid: 'R' }), promos)).toBe('recommended');
    expect(tierOf(row('x', '2030-01-08'), promos)).toBe('standard');
  });
  it('premium by date and time, then recommended; a promotion outside the listed date drops out', () => {
    const promos2: ActivePromotionRow[] = [
      ...promos,
      { quizId: 'p2', rid: null, productType: 'premium', startDate: '2030-01-08', endDate: '2030-01-08' },
      { quizId: 'p3', rid: null, productType: 'premium', startDate: '2030-01-08', endDate: '2030-01-08' },
      { quizId: 'late', rid: null, productType: 'premium', startDate: '2030-01-07', endDate: '2030-01-08' },
    ];
    const rows = [
      row('r', '2030-01-10', { rid: 'R' }),
      row('p', '2030-01-12'),
      row('p3', '2030-01-08', { startTime: '20:00:00' }),
      row('p2', '2030-01-08', { startTime: '18:00:00' }),
      row('late', '2030-01-09'),
    ];
    const ranked = rankPromoted(rows, promos2, daySeed(TODAY));
    expect(ranked.map((r) => [r.row.id, r.tier])).toEqual([
      ['p2', 'premium'],
      ['p3', 'premium'],
      ['p', 'premium'],
      ['r', 'recommended'],
    ]);
  });
  it("the day's order is a rotation of the fixed shuffle: stable for a day, starting elsewhere the next day, each unit once", () => {
    // Spread over the 31-bit range, as the random shuffle values are.
    const keys = Array.from({ length: 40 }, (_, i) => (i * 53687091 + 7919) % 2147483648);
    const order = (day: string) => [...keys].sort((a, b) => rotationKey(a, daySeed(day)) - rotationKey(b, daySeed(day)));
    expect(order(TODAY)).toEqual(order(TODAY));
    expect(order('2030-01-08')[0]).not.toBe(order(TODAY)[0]);
    expect(new Set(order(TODAY))).toEqual(new Set(keys));
    expect(daySeed(TODAY)).toBeLessThan(2 ** 31);
    // The SQL order (queries/where.ts rankOrderSql): shuffle ≥ seed ascending, then the rest ascending.
    const seed = daySeed(TODAY);
    const sqlOrder = [...keys].sort((a, b) => Number(a < seed) - Number(b < seed) || a - b);
    expect(order(TODAY)).toEqual(sqlOrder);
    for (const k of keys) expect(rotationKey(k, seed)).toBeGreaterThanOrEqual(0);
  });
});

describe('pagePlan', () => {
  it('fills a page from the promoted tiers first, then from the ordinary ranking without gaps', () => {
    expect(pagePlan(1, 0)).toMatchObject({ promotedFrom: 0, promotedTo: 0, ordinaryOffset: 0, ordinaryLimit: 12 });
    expect(pagePlan(1, 3)).toMatchObject({ promotedFrom: 0, promotedTo: 3, ordinaryOffset: 0, ordinaryLimit: 9 });
    expect(pagePlan(2, 3)).toMatchObject({ promotedFrom: 3, promotedTo: 3, ordinaryOffset: 9, ordinaryLimit: 12 });
    expect(pagePlan(1, 15)).toMatchObject({ promotedFrom: 0, promotedTo: 12, ordinaryLimit: 0 });
    expect(pagePlan(2, 15)).toMatchObject({ promotedFrom: 12, promotedTo: 15, ordinaryOffset: 0, ordinaryLimit: 9 });
    expect(pagePlan(3, 15)).toMatchObject({ promotedFrom: 15, promotedTo: 15, ordinaryOffset: 9, ordinaryLimit: 12 });
  });
});
