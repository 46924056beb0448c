/** Issue 47: the time rules of "Vi kommer" on the Stockholm clock, pinned in summer (CEST) and winter (CET). */
import { describe, expect, it } from 'vitest';
import { offerExpiry, quizStart, reminderDue } from './rules';
import { figuresLine, rsvpButtonText, tablesText, teamsText } from '../../lib/rsvp-words';

const at = (iso: string) => new Date(iso);
const LONG_AGO = at('2026-01-01T00:00:00Z');

describe('quizStart', () => {
  it('is the Stockholm wall time: 19:00 is 17:00 UTC in summer and 18:00 UTC in winter; no time shows as 19:00', () => {
    expect(quizStart('2026-07-15', '19:00:00').toISOString()).toBe('2026-07-15T17:00:00.000Z');
    expect(quizStart('2026-01-14', '19:00:00').toISOString()).toBe('2026-01-14T18:00:00.000Z');
    expect(quizStart('2026-01-14', null).toISOString()).toBe('2026-01-14T18:00:00.000Z');
  });
  it('follows the DST changes (last Sunday of March and of October)', () => {
    expect(quizStart('2026-03-29', '19:00:00').toISOString()).toBe('2026-03-29T17:00:00.000Z');
    expect(quizStart('2026-03-28', '19:00:00').toISOString()).toBe('2026-03-28T18:00:00.000Z');
    expect(quizStart('2026-10-25', '19:00:00').toISOString()).toBe('2026-10-25T18:00:00.000Z');
    expect(quizStart('2026-10-24', '19:00:00').toISOString()).toBe('2026-10-24T17:00:00.000Z');
  });
});

describe('reminderDue', () => {
  for (const [season, date, startUtc] of [
    ['summer', '2026-07-15', '2026-07-15T17:00:00Z'],
    ['winter', '2026-01-14', '2026-01-14T18:00:00Z'],
    // The night after the spring change: 24 h before is still in CET (one wall hour apart).
    ['across the spring change', '2026-03-29', '2026-03-29T17:00:00Z'],
  ] as const) {
    it(`${season}: the mail from exactly 24 h before until the push's time, the push from 2 h before until the start`, () => {
      const start = quizStart(date, '19:00:00');
      expect(start.toISOString()).toBe(new Date(startUtc).toISOString());
      const s = start.getTime();
      const h = 3600_000;
      expect(reminderDue('mail', new Date(s - 24 * h - 1), start, LONG_AGO)).toBe(false);
      expect(reminderDue('mail', new Date(s - 24 * h), start, LONG_AGO)).toBe(true);
      expect(reminderDue('mail', new Date(s - 2 * h - 1), start, LONG_AGO)).toBe(true);
      expect(reminderDue('mail', new Date(s - 2 * h), start, LONG_AGO)).toBe(false);
      expect(reminderDue('push', new Date(s - 2 * h - 1), start, LONG_AGO)).toBe(false);
      expect(reminderDue('push', new Date(s - 2 * h), start, LONG_AGO)).toBe(true);
      expect(reminderDue('push', new Date(s - 1), start, LONG_AGO)).toBe(true);
      expect(reminderDue('push', new Date(s), start, LONG_AGO)).toBe(false);
    });
  }
  it('a team that confirmed after a reminder time does not get that reminder', () => {
    const start = quizStart('2026-07-15', '19:00:00');
    const confirmed = at('2026-07-15T02:00:00Z');
    expect(reminderDue('mail', at('2026-07-15T03:00:00Z'), start, confirmed)).toBe(false);
    expect(reminderDue('push', at('2026-07-15T15:00:00Z'), start, confirmed)).toBe(true);
  });
});

describe('offerExpiry', () => {
  const start = quizStart('2026-12-10', '19:00:00'); // 18:00 UTC
  it('holds 2 h when the start is far', () => {
    expect(offerExpiry(at('2026-12-09T10:00:00Z'), start)?.toISOString()).toBe('2026-12-09T12:00:00.000Z');
  });
  it('holds until 1 h before the start when that is sooner', () => {
    expect(offerExpiry(at('2026-12-10T16:00:00Z'), start)?.toISOString()).toBe('2026-12-10T17:00:00.000Z');
    expect(offerExpiry(at('2026-12-10T15:00:00Z'), start)?.toISOString()).toBe('2026-12-10T17:00:00.000Z');
  });
  it('makes no offer within the last hour', () => {
    expect(offerExpiry(at('2026-12-10T17:00:00Z'), start)).toBeNull();
    expect(offerExpiry(at('2026-12-10T17:59:00Z'), start)).toBeNull();
  });
});

describe('words', () => {
  it('"12 lag kommer", "N bord kvar", "Fullt"', () => {
    expect(teamsText(12)).toBe('12 lag kommer');
    expect(tablesText(3)).toBe('3 bord kvar');
    expect(tablesText(0)).toBe('Fullt');
    expect(tablesText(null)).toBeNull();
    expect(rsvpButtonText(false)).toBe('Vi kommer');
    expect(rsvpButtonText(true)).toBe('Ställ dig i kö');
    expect(figuresLine({ teams: 3, tablesLeft: 2 })).toBe('3 lag kommer · 2 bord kvar');
    expect(figuresLine({ teams: 0, tablesLeft: 0 })).toBe('Fullt');
    expect(figuresLine({ teams: 0, tablesLeft: null })).toBeNull();
  });
});
