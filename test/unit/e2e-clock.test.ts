/**
 * The e2e stories' date helper (test/e2e/support/clock.ts) across both DST changes, beside the
 * "Stockholm date + n × 24 h" helper three stories used before (issue 27 §6), which drifts by a day there.
 */
import { describe, expect, it } from 'vitest';
import { CI_TEST_NOWS, DEFAULT_TEST_NOW, runningPin, stockholmDatePlus, testNow } from '../e2e/support/clock';
import { createClock } from '../../worker/lib/clock';

/** The old helper: n × 24 hours later, then Stockholm's date of that instant. */
const byHours = (days: number, now: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Stockholm', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(now.getTime() + days * 86_400_000),
  );

describe('stockholmDatePlus', () => {
  it('autumn: from 00:30 CEST on Sunday 25 October 2026 (clocks go back at 03:00), +1 is Monday', () => {
    const now = new Date('2026-10-24T22:30:00Z');
    expect(stockholmDatePlus(0, now)).toBe('2026-10-25');
    expect(stockholmDatePlus(1, now)).toBe('2026-10-26');
    expect(byHours(1, now)).toBe('2026-10-25'); // 24 h later is only 23:30 CET the same Sunday
  });
  it('spring: from 23:30 CET on Saturday 28 March 2026 (clocks go forward at 02:00), +2 is Monday', () => {
    const now = new Date('2026-03-28T22:30:00Z');
    expect(stockholmDatePlus(0, now)).toBe('2026-03-28');
    expect(stockholmDatePlus(2, now)).toBe('2026-03-30');
    expect(byHours(2, now)).toBe('2026-03-31'); // 48 h later is already 00:30 CEST on Tuesday
  });
  it('counts Stockholm days, not UTC days: 23:30 UTC on Saturday 31 October is Sunday 1 November', () => {
    const now = new Date('2026-10-31T23:30:00Z');
    expect(stockholmDatePlus(0, now)).toBe('2026-11-01');
    expect(stockholmDatePlus(30, now)).toBe('2026-12-01');
    expect(stockholmDatePlus(-1, now)).toBe('2026-10-31');
  });
});

describe('TEST_NOW', () => {
  it('defaults to a fixed instant and refuses anything but an ISO instant', () => {
    expect(testNow({})).toBe(DEFAULT_TEST_NOW);
    expect(testNow({ TEST_NOW: '2026-10-25T01:30:00Z' })).toBe('2026-10-25T01:30:00Z');
    expect(() => testNow({ TEST_NOW: 'igår' })).toThrow(/TEST_NOW/);
    expect(() => testNow({ TEST_NOW: '2026-10-25T01:30:00Z@2026-11-27T05:00:00Z' })).toThrow(/TEST_NOW/);
  });
  it('becomes a running pin the app server accepts, starting at TEST_NOW', () => {
    const wall = new Date('2026-11-27T05:00:00Z');
    const pin = runningPin('2026-10-31T23:30:00Z', wall);
    expect(pin).toBe('2026-10-31T23:30:00Z@2026-11-27T05:00:00.000Z');
    expect(() => createClock(pin)).not.toThrow();
  });
  it('the CI dates are a month end, a DST change and a Sunday in Stockholm', () => {
    const [monthEnd, dst, sunday] = CI_TEST_NOWS.map((c) => createClock(c.at).today());
    expect(monthEnd).toBe('2026-11-30');
    expect(dst).toBe('2026-10-25');
    expect(sunday).toBe('2026-11-01');
    expect(new Date(`${sunday}T12:00:00Z`).getUTCDay()).toBe(0);
  });
});
