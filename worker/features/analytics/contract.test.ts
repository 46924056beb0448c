import { describe, expect, it } from 'vitest';
import { compareDays, slotStatus, type AnalyticsDay } from './contract';

const day = (date: string, n: number, promoted: AnalyticsDay['promoted'] = null): AnalyticsDay => ({ date, counts: { detail_open: n }, promoted });

describe('compareDays', () => {
  it('compares the daily average on promoted days with ordinary days, one decimal, Swedish comma', () => {
    const days = [
      day('a', 2),
      day('b', 4),
      day('c', 3),
      day('d', 10, 'premium'),
      day('e', 9, 'premium'),
      day('f', 9.9, 'premium'),
      day('g', 100, 'recommended'),
    ];
    expect(compareDays(days, 'premium')).toEqual({
      tier: 'premium',
      metric: 'detail_open',
      factor: 3.2,
      promotedDays: 3,
      ordinaryDays: 3,
      text: 'Dagar med Premium Utvald: 3,2 × fler detaljvisningar än dina vanliga dagar',
    });
  });
  it('says "så många … som" when promoted days did worse', () => {
    const days = [day('a', 10), day('b', 10), day('c', 10), day('d', 5, 'recommended'), day('e', 5, 'recommended'), day('f', 5, 'recommended')];
    expect(compareDays(days, 'recommended')?.text).toBe('Dagar med Rekommenderat: 0,5 × så många detaljvisningar som dina vanliga dagar');
  });
  it('stays silent with fewer than 3 days on either side, or nothing on ordinary days', () => {
    expect(compareDays([day('a', 1), day('b', 1), day('c', 1), day('d', 5, 'premium'), day('e', 5, 'premium')], 'premium')).toBeNull();
    expect(compareDays([day('a', 1), day('b', 1), day('d', 5, 'premium'), day('e', 5, 'premium'), day('f', 5, 'premium')], 'premium')).toBeNull();
    expect(compareDays([day('a', 0), day('b', 0), day('c', 0), day('d', 5, 'premium'), day('e', 5, 'premium'), day('f', 5, 'premium')], 'premium')).toBeNull();
  });
});

describe('slotStatus', () => {
  it('free, limited, sold out: limited only when the last of several slots is left (issue 29.2)', () => {
    expect([slotStatus(0, 3), slotStatus(1, 3), slotStatus(2, 3), slotStatus(3, 3), slotStatus(0, 1), slotStatus(1, 1)]).toEqual([
      'free',
      'free',
      'limited',
      'soldout',
      'free',
      'soldout',
    ]);
  });
});
