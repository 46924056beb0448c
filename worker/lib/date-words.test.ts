import { describe, expect, it } from 'vitest';
import { dateInWords, timeInWords } from './swedish';

describe('dateInWords / timeInWords (issue 29.12)', () => {
  it('a date in words, with the year only when it is not this year', () => {
    expect(dateInWords('2026-11-26', 2026)).toBe('torsdag 26 november');
    expect(dateInWords('2027-05-27', 2026)).toBe('torsdag 27 maj 2027');
  });
  it('nothing for an empty or impossible date', () => {
    expect([dateInWords(''), dateInWords(undefined), dateInWords('2026-02-30'), dateInWords('26/11/2026')]).toEqual([null, null, null, null]);
  });
  it('a time as "kl HH:MM", whatever the browser showed', () => {
    expect(timeInWords('19:00')).toBe('kl 19:00');
    expect(timeInWords('19:30:00')).toBe('kl 19:30');
    expect(timeInWords('')).toBeNull();
  });
});
