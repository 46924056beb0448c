import { describe, expect, it } from 'vitest';
import { dayHash, rank, resolveFilters, selectOccurrences, tierOf } from './service';
import type { ActivePromotionRow, CandidateRow } from './queries';

const TODAY = '2030-01-07'; // Monday

const row = (id: string, date: string, over: Partial<CandidateRow> = {}): CandidateRow => ({ id, date, startTime: '19:00:00', rid: null, pattern: null, lid: 'L1', house: 0, ...over });

describe('resolveFilters', () => {
  it('search beats date beats weekday beats all; a past date counts as today', () => {
    expect(resolveFilters({ search: ' kvarn ', date: '2030-01-09', weekday: 'onsdag' }, TODAY)).toEqual({ mode: 'search', city: undefined, search: 'kvarn' });
    expect(resolveFilters({ date: '2030-01-09', weekday: 'onsdag' }, TODAY).mode).toBe('date');
    expect(resolveFilters({ date: '2029-12-01' }, TODAY).date).toBe(TODAY);
    expect(resolveFilters({ weekday: 'lördag' }, TODAY)).toMatchObject({ mode: 'weekday', weekdayIso: 6 });
    expect(resolveFilters({ weekday: 'all' }, TODAY).mode).toBe('all');
    expect(resolveFilters({}, TODAY).mode).toBe('all');
  });
});

describe('selectOccurrences', () => {
  const rows = [
    row('w1', '2030-01-09', { rid: 'W', pattern: 'weekly' }),
    row('w2', '2030-01-16', { rid: 'W', pattern: 'weekly' }),
    row('w1b', '2030-01-10', { rid: 'W', pattern: 'weekly', lid: 'L2' }),
    row('b1', '2030-01-16', { rid: 'B', pattern: 'biweekly' }),
    row('s1', '2030-03-01'),
    row('s2', '2030-03-02'),
  ];
  it('keeps the next occurrence per series and place, and every single quiz', () => {
    expect(selectOccurrences(rows, { mode: 'all' }, TODAY).map((r) => r.id).sort()).toEqual(['b1', 's1', 's2', 'w1', 'w1b']);
  });
  it('weekday mode drops a biweekly series whose next occurrence is more than 6 days away', () => {
    expect(selectOccurrences(rows, { mode: 'weekday', weekdayIso: 3 }, TODAY).map((r) => r.id)).not.toContain('b1');
    expect(selectOccurrences([row('b0', '2030-01-13', { rid: 'B', pattern: 'biweekly' })], { mode: 'weekday', weekdayIso: 7 }, TODAY).map((r) => r.id)).toEqual(['b0']);
  });
  it('date mode keeps everything the query returned', () => {
    expect(selectOccurrences(rows, { mode: 'date', date: '2030-01-16' }, TODAY)).toHaveLength(rows.length);
  });
});

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
  it('premium by date, then recommended, then real accounts, then the house account', () => {
    const rows = [row('h', '2030-01-07', { house: 1 }), row('s', '2030-01-09'), row('r', '2030-01-10', { rid: 'R' }), row('p', '2030-01-12'), row('p2', '2030-01-08')];
    const promos2: ActivePromotionRow[] = [...promos, { quizId: 'p2', rid: null, productType: 'premium', startDate: '2030-01-08', endDate: '2030-01-08' }];
    expect(rank(rows, promos2, TODAY).map((r) => r.id)).toEqual(['p2', 'p', 'r', 's', 'h']);
  });
  it('the shuffle is stable for a day and changes between days', () => {
    const many = Array.from({ length: 30 }, (_, i) => row(`q${i}`, '2030-01-08'));
    const a = rank(many, [], TODAY).map((r) => r.id);
    expect(rank([...many].reverse(), [], TODAY).map((r) => r.id)).toEqual(a);
    expect(rank(many, [], '2030-01-08').map((r) => r.id)).not.toEqual(a);
    expect(dayHash(TODAY, 'x')).toBe(dayHash(TODAY, 'x'));
  });
});
