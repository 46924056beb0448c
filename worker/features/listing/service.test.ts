import { describe, expect, it } from 'vitest';
import { storedCard } from './cards';
import { resolveFilters } from './filters';
import { daySeed, pagePlan, rankPromoted, rotationKey, tierOf } from './rank';
import { ftsPhrase, searchPlan } from './queries/search';
import type { ListedRow } from './queries/cards';
import type { ActivePromotionRow } from './queries/promotions';

const TODAY = '2030-01-07'; // Monday

const row = (id: string, date: string, over: Partial<ListedRow> = {}): ListedRow =>
  ({ id, unitId: 0, key: over.rid ?? id, date, startTime: '19:00:00', rid: null, shuffle: 1000, house: 0, ...over }) as ListedRow;

describe('resolveFilters', () => {
  it('search beats date beats weekday beats all; a past date counts as today', () => {
    expect(resolveFilters({ search: ' kvarn ', date: '2030-01-09', weekday: 'onsdag' }, TODAY)).toEqual({ mode: 'search', city: undefined, search: 'kvarn', quiz: {} });
    expect(resolveFilters({ date: '2030-01-09', weekday: 'onsdag' }, TODAY).mode).toBe('date');
    expect(resolveFilters({ date: '2029-12-01' }, TODAY).date).toBe(TODAY);
    expect(resolveFilters({ weekday: 'lördag' }, TODAY)).toMatchObject({ mode: 'weekday', weekdayIso: 6 });
    expect(resolveFilters({ weekday: 'all' }, TODAY).mode).toBe('all');
    expect(resolveFilters({}, TODAY).mode).toBe('all');
  });
  it('the quiz filters ride along with every mode (and near), without undefined keys', () => {
    const quiz = { price: 'gratis' as const, category: 'musik' as const };
    expect(resolveFilters({ search: 'kvarn', ...quiz }, TODAY).quiz).toEqual(quiz);
    expect(resolveFilters({ date: '2030-01-09', team: 4, time: 'efter20' }, TODAY)).toMatchObject({ mode: 'date', quiz: { team: 4, time: 'efter20' } });
    expect(resolveFilters({ weekday: 'tisdag', ...quiz, near: { lat: 59, lng: 18 } }, TODAY)).toMatchObject({ mode: 'weekday', city: undefined, quiz });
    expect(resolveFilters({ price: undefined }, TODAY).quiz).toEqual({});
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
  it('premium by date and time, then recommended; a promotion outside the listed date drops out', () => {
    const promos2: ActivePromotionRow[] = [
      ...promos,
      { quizId: 'p2', rid: null, productType: 'premium', startDate: '2030-01-08', endDate: '2030-01-08' },
      { quizId: 'p3', rid: null, productType: 'premium', startDate: '2030-01-08', endDate: '2030-01-08' },
      { quizId: 'late', rid: null, productType: 'premium', startDate: '2030-01-07', endDate: '2030-01-08' },
    ];
    const rows = [row('r', '2030-01-10', { rid: 'R' }), row('p', '2030-01-12'), row('p3', '2030-01-08', { startTime: '20:00:00' }), row('p2', '2030-01-08', { startTime: '18:00:00' }), row('late', '2030-01-09')];
    const ranked = rankPromoted(rows, promos2, daySeed(TODAY));
    expect(ranked.map((r) => [r.row.id, r.tier])).toEqual([['p2', 'premium'], ['p3', 'premium'], ['p', 'premium'], ['r', 'recommended']]);
  });
  it('the day\'s order is a rotation of the fixed shuffle: stable for a day, starting elsewhere the next day, each unit once', () => {
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

describe('storedCard', () => {
  const card = JSON.stringify({ id: 'q1', date: '2030-01-09' });
  it('is the next occurrence: used for every mode it fits, else null (read instead)', () => {
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY })).toMatchObject({ id: 'q1' });
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, weekdayW: 3 })).toMatchObject({ id: 'q1' });
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, weekdayW: 4 })).toBeNull();
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, date: '2030-01-09' })).toMatchObject({ id: 'q1' });
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, date: '2030-01-16' })).toBeNull();
    // Stored before a day it no longer fits (read before the day's refresh), or missing.
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: '2030-01-10' })).toBeNull();
    expect(storedCard({ card: null, nextDate: null }, { today: TODAY })).toBeNull();
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

describe('searchPlan', () => {
  it('three characters or more: substring; one or two: word prefix; no letter or digit: scan', () => {
    expect(searchPlan('kvarn')).toEqual({ kind: 'substring', match: '"kvarn"' });
    expect(searchPlan('åre')).toEqual({ kind: 'substring', match: '"åre"' });
    expect(searchPlan('kv')).toEqual({ kind: 'word-prefix', match: '"kv"*' });
    expect(searchPlan('Ö')).toEqual({ kind: 'word-prefix', match: '"Ö"*' });
    expect(searchPlan('7')).toEqual({ kind: 'word-prefix', match: '"7"*' });
    expect(searchPlan('&')).toEqual({ kind: 'scan', text: '&' });
    expect(searchPlan('"*')).toEqual({ kind: 'scan', text: '"*' });
  });
});

describe('ftsPhrase', () => {
  it('quotes the whole text as one phrase, doubling quotes, so no FTS syntax survives', () => {
    expect(ftsPhrase('kvarnen')).toBe('"kvarnen"');
    expect(ftsPhrase('a" OR b*')).toBe('"a"" OR b*"');
  });
});
