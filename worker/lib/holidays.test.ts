import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script without types
import { swedishHolidaysFromLibrary } from '../../scripts/swedish-holidays.mjs';
import { HOLIDAY_TABLE_FIRST_YEAR, HOLIDAY_TABLE_LAST_YEAR, holidayDatesOf, holidayOn, holidaysBetween, swedishHolidays } from './holidays';

const pick = (year: number) => Object.fromEntries(swedishHolidays(year).map((h) => [h.date, `${h.name}/${h.kind}`]));

describe('Swedish holidays (date-holidays, SE)', () => {
  it('2026: the four eves and the public holidays, nothing else', () => {
    expect(pick(2026)).toEqual({
      '2026-01-01': 'nyårsdagen/public',
      '2026-01-06': 'trettondedag jul/public',
      '2026-04-03': 'långfredagen/public',
      '2026-04-04': 'påskafton/eve',
      '2026-04-05': 'påskdagen/public',
      '2026-04-06': 'annandag påsk/public',
      '2026-05-01': 'första maj/public',
      '2026-05-14': 'Kristi himmelsfärdsdag/public',
      '2026-05-24': 'pingstdagen/public',
      '2026-06-06': 'nationaldagen/public',
      '2026-06-19': 'midsommarafton/eve',
      '2026-06-20': 'midsommardagen/public',
      '2026-10-31': 'alla helgons dag/public',
      '2026-12-24': 'julafton/eve',
      '2026-12-25': 'juldagen/public',
      '2026-12-26': 'annandag jul/public',
      '2026-12-31': 'nyårsafton/eve',
    });
  });

  it('2027: moving feasts and the shared 6 November (alla helgons dag wins over Gustav-Adolf-dagen)', () => {
    const y = pick(2027);
    expect(y['2027-03-27']).toBe('påskafton/eve');
    expect(y['2027-03-26']).toBe('långfredagen/public');
    expect(y['2027-06-25']).toBe('midsommarafton/eve');
    expect(y['2027-11-06']).toBe('alla helgons dag/public');
    expect(y['2027-12-24']).toBe('julafton/eve');
    expect(y['2027-12-31']).toBe('nyårsafton/eve');
    // Not quiz-stopping days: observances and half days of the library.
    for (const d of ['2027-01-13', '2027-04-30', '2027-05-15', '2027-12-13', '2027-05-17']) expect(y[d]).toBeUndefined();
    expect(Object.keys(y)).toHaveLength(17);
  });

  it('a weekly Thursday series across Christmas: julafton suggested as a skip, nothing else that week', () => {
    const thursdays = ['2026-12-10', '2026-12-17', '2026-12-24', '2026-12-31', '2027-01-07'];
    expect(holidayDatesOf(thursdays)).toEqual([
      { date: '2026-12-24', name: 'julafton', kind: 'eve', suggestSkip: true },
      { date: '2026-12-31', name: 'nyårsafton', kind: 'eve', suggestSkip: true },
    ]);
    expect(holidayDatesOf(['2026-06-20', '2026-06-18'])).toEqual([{ date: '2026-06-20', name: 'midsommardagen', kind: 'public', suggestSkip: false }]);
  });

  it('holidayOn and holidaysBetween across a year boundary', () => {
    expect(holidayOn('2026-06-19')?.name).toBe('midsommarafton');
    expect(holidayOn('2026-06-18')).toBeNull();
    expect(holidaysBetween('2026-12-20', '2027-01-06').map((h) => h.date)).toEqual([
      '2026-12-24',
      '2026-12-25',
      '2026-12-26',
      '2026-12-31',
      '2027-01-01',
      '2027-01-06',
    ]);
  });

  it('the generated table equals date-holidays for every year it covers (regenerate with scripts/swedish-holidays.mjs)', () => {
    for (let y = HOLIDAY_TABLE_FIRST_YEAR; y <= HOLIDAY_TABLE_LAST_YEAR; y++) {
      expect(swedishHolidays(y).map((h) => [h.date, h.name, h.kind])).toEqual(swedishHolidaysFromLibrary(y));
    }
  }, 60_000); // date-holidays computes every year of the table: seconds of CPU on a busy 2-core machine

  it('the table reaches well beyond the longest series (three years) from now', () => {
    expect(HOLIDAY_TABLE_LAST_YEAR).toBeGreaterThanOrEqual(new Date().getUTCFullYear() + 10);
  });
});
