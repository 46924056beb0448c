import { describe, expect, it } from 'vitest';
import { resolveFilters } from './filters';

const TODAY = '2030-01-07'; // Monday

describe('resolveFilters', () => {
  it('search beats date beats weekday beats all; a past date counts as today', () => {
    expect(resolveFilters({ search: ' kvarn ', date: '2030-01-09', weekday: 'onsdag' }, TODAY)).toEqual({
      mode: 'search',
      city: undefined,
      search: 'kvarn',
      quiz: {},
    });
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
