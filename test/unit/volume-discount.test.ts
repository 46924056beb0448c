/** Volume discount arithmetic in öre (spec 02 §9, issue 13.13). */
import { describe, expect, it } from 'vitest';
import {
  distinctIsoWeeks,
  formatOre,
  isoWeekKey,
  orderAmounts,
  spreadDiscount,
  VOLUME_DISCOUNT_MIN_WEEKS,
  VOLUME_DISCOUNT_PERCENT,
} from '../../worker/features/promotion/contract';

describe('ISO weeks', () => {
  it('numbers weeks the ISO way, also across new year', () => {
    expect(isoWeekKey('2030-03-11')).toBe('2030-W11'); // Monday
    expect(isoWeekKey('2030-03-17')).toBe('2030-W11'); // Sunday of the same week
    expect(isoWeekKey('2030-03-18')).toBe('2030-W12');
    expect(isoWeekKey('2026-12-31')).toBe('2026-W53'); // Thursday: 2026 has 53 weeks
    expect(isoWeekKey('2027-01-03')).toBe('2026-W53'); // Sunday belongs to the old year's last week
    expect(isoWeekKey('2027-01-04')).toBe('2027-W01');
    expect(isoWeekKey('2029-12-31')).toBe('2030-W01'); // Monday belongs to the new year's first week
  });
  it('counts distinct weeks, not dates', () => {
    expect(distinctIsoWeeks(['2030-03-11', '2030-03-14', '2030-03-17'])).toBe(1);
    expect(distinctIsoWeeks(['2030-03-11', '2030-03-18', '2030-03-25', '2030-04-01'])).toBe(4);
  });
});

describe('order amounts', () => {
  it('the rule: more than three weeks → 10 % off', () => {
    expect(VOLUME_DISCOUNT_MIN_WEEKS).toBe(4);
    expect(VOLUME_DISCOUNT_PERCENT).toBe(10);
  });
  it('no discount for up to three weeks', () => {
    expect(orderAmounts(3 * 4900, 3)).toEqual({ subtotal: 14700, discount: 0, total: 14700, weeks: 3 });
    expect(orderAmounts(9800, 1)).toEqual({ subtotal: 9800, discount: 0, total: 9800, weeks: 1 });
  });
  it('10 % off from four weeks, in whole öre', () => {
    // Four Rekommenderat dates in four weeks: 196 kr − 19,60 kr = 176,40 kr.
    expect(orderAmounts(4 * 4900, 4)).toEqual({ subtotal: 19600, discount: 1960, total: 17640, weeks: 4 });
    // Rekommenderat 4 weeks at 2.4 × 49 = 118 kr: 11 800 − 1 180 = 10 620 öre.
    expect(orderAmounts(11800, 4)).toEqual({ subtotal: 11800, discount: 1180, total: 10620, weeks: 4 });
    // Premium 4 weeks at 2.4 × 98 = 235 kr: 23 500 − 2 350 = 21 150 öre.
    expect(orderAmounts(23500, 4)).toEqual({ subtotal: 23500, discount: 2350, total: 21150, weeks: 4 });
    // Rounded half up to whole öre: 10 % of 12 345 öre is 1 234,5 → 1 235.
    expect(orderAmounts(12345, 5)).toEqual({ subtotal: 12345, discount: 1235, total: 11110, weeks: 5 });
  });
  it('spreads the discount over the items so they still add up to the total', () => {
    const list = [4900, 9800, 4900, 9800, 4900];
    const paid = spreadDiscount(list, 3430);
    expect(paid.reduce((s, a) => s + a, 0)).toBe(34300 - 3430);
    expect(paid).toEqual([4410, 8820, 4410, 8820, 4410]);
    const odd = spreadDiscount([4900, 4900, 4900], 1);
    expect(odd).toEqual([4899, 4900, 4900]);
    expect(spreadDiscount([4900], 0)).toEqual([4900]);
  });
  it('formats öre as Swedish kronor', () => {
    expect(formatOre(9800)).toBe('98 kr');
    expect(formatOre(17640)).toBe('176,40 kr');
    expect(formatOre(-1960)).toBe('−19,60 kr');
    expect(formatOre(5)).toBe('0,05 kr');
  });
});
