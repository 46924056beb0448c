import { describe, expect, it } from 'vitest';
import { isoWeekday } from '../../worker/lib/clock';
import { extensionDates, generateOccurrences, isoDaysOf, namesOf, parseRecurrenceDays, seriesEnd } from '../../worker/lib/recurrence';
import { CreateQuizSchema, storedTheme, weekdayNameOf } from '../../worker/features/quizzes/contract';

describe('generateOccurrences', () => {
  it('weekly on the start weekday, forever = start + 180 days', () => {
    // 2026-11-24 is a Tuesday.
    const dates = generateOccurrences({ start: '2026-11-24', pattern: 'weekly', weekdays: [], end: seriesEnd('2026-11-24', null) });
    expect(dates[0]).toBe('2026-11-24');
    expect(dates.at(-1)).toBe('2027-05-18'); // last Tuesday on or before 2027-05-23
    expect(dates).toHaveLength(26);
    expect(dates.every((d) => isoWeekday(d) === 2)).toBe(true);
  });

  it('biweekly steps 14 days', () => {
    const dates = generateOccurrences({ start: '2026-11-24', pattern: 'biweekly', weekdays: [2], end: '2027-01-05' });
    expect(dates).toEqual(['2026-11-24', '2026-12-08', '2026-12-22', '2027-01-05']);
  });

  it('several weekdays, each from its first date on or after the start, sorted', () => {
    const dates = generateOccurrences({ start: '2026-11-25', pattern: 'weekly', weekdays: [2, 4], end: '2026-12-10' });
    expect(dates).toEqual(['2026-11-26', '2026-12-01', '2026-12-03', '2026-12-08', '2026-12-10']);
  });

  it('until-date is inclusive and caps the forever horizon', () => {
    expect(seriesEnd('2026-11-24', '2026-12-08')).toBe('2026-12-08');
    expect(seriesEnd('2026-11-24', '2030-01-01')).toBe('2027-05-23');
    expect(generateOccurrences({ start: '2026-11-24', pattern: 'weekly', weekdays: [2], end: '2026-12-08' })).toEqual([
      '2026-11-24',
      '2026-12-01',
      '2026-12-08',
    ]);
  });

  it('keeps the weekday across both daylight-saving switches (2026-03-29, 2026-10-25)', () => {
    const spring = generateOccurrences({ start: '2026-03-22', pattern: 'weekly', weekdays: [7], end: '2026-04-05' });
    expect(spring).toEqual(['2026-03-22', '2026-03-29', '2026-04-05']);
    const autumn = generateOccurrences({ start: '2026-10-18', pattern: 'biweekly', weekdays: [7, 1], end: '2026-11-02' });
    expect(autumn).toEqual(['2026-10-18', '2026-10-19', '2026-11-01', '2026-11-02']);
  });
});

describe('extensionDates', () => {
  it('continues each weekday from its own latest date, only after the latest and from today', () => {
    const existing = ['2026-12-01', '2026-12-03', '2026-12-08', '2026-12-10'];
    expect(extensionDates({ pattern: 'weekly', weekdays: [2, 4], existing, end: '2026-12-24', notBefore: '2026-11-30' })).toEqual([
      '2026-12-15',
      '2026-12-17',
      '2026-12-22',
      '2026-12-24',
    ]);
  });

  it('keeps the biweekly phase and never creates past dates', () => {
    const existing = ['2026-10-06', '2026-10-20'];
    // Today 2026-11-09 (a Monday): the rhythm continues on 11-17, not 11-10.
    expect(extensionDates({ pattern: 'biweekly', weekdays: [2], existing, end: '2026-12-15', notBefore: '2026-11-09' })).toEqual([
      '2026-11-17',
      '2026-12-01',
      '2026-12-15',
    ]);
  });

  it('is idempotent: extending the result again adds nothing', () => {
    const existing = ['2026-12-01'];
    const first = extensionDates({ pattern: 'weekly', weekdays: [2], existing, end: '2027-01-31', notBefore: '2026-11-30' });
    const again = extensionDates({ pattern: 'weekly', weekdays: [2], existing: [...existing, ...first], end: '2027-01-31', notBefore: '2026-11-30' });
    expect(first.length).toBeGreaterThan(0);
    expect(again).toEqual([]);
  });

  it('falls back to the weekdays of existing dates when none are stored', () => {
    expect(extensionDates({ pattern: 'weekly', weekdays: [], existing: ['2026-12-02'], end: '2026-12-16', notBefore: '2026-12-01' })).toEqual([
      '2026-12-09',
      '2026-12-16',
    ]);
  });
});

describe('weekday names and contract', () => {
  it('maps Swedish names to ISO days and back', () => {
    expect(isoDaysOf(['torsdag', 'tisdag', 'lördag', 'okänd'])).toEqual([2, 4, 6]);
    expect(namesOf([6, 2])).toEqual(['tisdag', 'lördag']);
    expect(parseRecurrenceDays('["söndag"]')).toEqual([7]);
    expect(parseRecurrenceDays('not json')).toBeNull();
    expect(weekdayNameOf('2026-11-24')).toBe('tisdag');
  });

  it('requires a theme for tema and a custom theme for Annat; until not before the date', () => {
    const base = { locationId: 'x', date: '2026-12-01', startTime: '19:00', category: 'tema' };
    expect(CreateQuizSchema.safeParse(base).success).toBe(false);
    expect(CreateQuizSchema.safeParse({ ...base, theme: 'Annat' }).success).toBe(false);
    const ok = CreateQuizSchema.parse({ ...base, theme: 'Annat', customTheme: 'Historia' });
    expect(storedTheme(ok)).toBe('Historia');
    expect(ok.recurring).toBe(true);
    expect(CreateQuizSchema.safeParse({ ...base, theme: 'Musik', until: '2026-11-30' }).success).toBe(false);
    expect(CreateQuizSchema.safeParse({ ...base, theme: 'Musik', teamSize: 7 }).success).toBe(false);
    expect(CreateQuizSchema.safeParse({ ...base, theme: 'Musik', teamSize: 8, price: 40 }).success).toBe(true);
  });
});
