import { describe, expect, it } from 'vitest';
import { previousFire } from './cron';

const fire = (cron: string, at: string) => previousFire(cron, new Date(at))?.toISOString() ?? null;

describe('previousFire (UTC)', () => {
  it('finds the same day when the time has passed, else the day before, the instant itself included', () => {
    expect(fire('15 2 * * *', '2040-03-10T02:15:00.000Z')).toBe('2040-03-10T02:15:00.000Z');
    expect(fire('15 2 * * *', '2040-03-10T02:14:59.999Z')).toBe('2040-03-09T02:15:00.000Z');
    expect(fire('45 1 * * *', '2040-01-01T00:00:00.000Z')).toBe('2039-12-31T01:45:00.000Z');
  });

  it('takes lists of hours (the listing-day cron) and a weekday (the Monday digest)', () => {
    expect(fire('5 22,23 * * *', '2040-03-10T22:59:00.000Z')).toBe('2040-03-10T22:05:00.000Z');
    expect(fire('5 22,23 * * *', '2040-03-11T03:00:00.000Z')).toBe('2040-03-10T23:05:00.000Z');
    // 2040-03-12 is a Monday
    expect(fire('0 6,7 * * 1', '2040-03-14T12:00:00.000Z')).toBe('2040-03-12T07:00:00.000Z');
    expect(fire('0 6 1-2 * *', '2040-03-14T12:00:00.000Z')).toBe('2040-03-02T06:00:00.000Z');
  });

  it('refuses what it cannot read', () => {
    for (const bad of ['* * * *', '*/5 * * * *', '60 * * * *', 'a b c d e']) expect(() => previousFire(bad, new Date(0)), bad).toThrow();
  });
});
