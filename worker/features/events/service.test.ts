import { describe, expect, it } from 'vitest';
import { EventsBatchSchema } from './contract';
import { countingClient, isBot, tallyEvents, takeEventsSlot, EVENTS_RATE_LIMIT } from './service';

describe('tallyEvents', () => {
  it('sums per (metric, quiz) and (metric, business)', () => {
    const t = tallyEvents([
      { t: 'impression', q: 'a' },
      { t: 'impression', q: 'a' },
      { t: 'detail_open', q: 'a' },
      { t: 'impression', q: 'b' },
      { t: 'venue_view', v: 'v1' },
      { t: 'venue_view', v: 'v1' },
    ]);
    expect(t.quiz).toEqual([
      { m: 'impression', id: 'a', n: 2 },
      { m: 'detail_open', id: 'a', n: 1 },
      { m: 'impression', id: 'b', n: 1 },
    ]);
    expect(t.venue).toEqual([{ m: 'venue_view', id: 'v1', n: 2 }]);
  });
});

describe('EventsBatchSchema', () => {
  it('takes 1–50 events, each a known metric with exactly one of quiz or business', () => {
    expect(EventsBatchSchema.safeParse({ events: [{ t: 'impression', q: 'abc-1' }] }).success).toBe(true);
    expect(EventsBatchSchema.safeParse({ events: Array(50).fill({ t: 'follow', v: 'x' }) }).success).toBe(true);
    for (const bad of [
      { events: [] },
      { events: Array(51).fill({ t: 'follow', v: 'x' }) },
      { events: [{ t: 'x', q: 'a' }] },
      { events: [{ t: 'impression' }] },
      { events: [{ t: 'impression', q: 'a', v: 'b' }] },
      { events: [{ t: 'impression', q: 'a b' }] },
      { events: [], extra: 1 },
    ]) {
      expect(EventsBatchSchema.safeParse(bad).success, JSON.stringify(bad).slice(0, 60)).toBe(false);
    }
  });
});

describe('isBot', () => {
  it('crawlers, previews, audits, scripts and a missing user agent', () => {
    for (const ua of ['Googlebot/2.1', 'facebookexternalhit/1.1', 'Chrome-Lighthouse', 'curl/8', 'python-requests/2', undefined, ''])
      expect(isBot(ua), String(ua)).toBe(true);
    expect(isBot('Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1')).toBe(false);
  });
});

describe('takeEventsSlot', () => {
  it('allows max requests per client per window, then refuses until the window is over', () => {
    const client = `unit-${Math.random()}`;
    for (let i = 0; i < EVENTS_RATE_LIMIT.max; i++) expect(takeEventsSlot(client, 1000)).toBe(true);
    expect(takeEventsSlot(client, 1000)).toBe(false);
    expect(takeEventsSlot(`${client}-other`, 1000)).toBe(true);
    expect(takeEventsSlot(client, 1000 + EVENTS_RATE_LIMIT.windowMs)).toBe(true);
  });
});

describe('countingClient', () => {
  it('an IPv4 address as it is; an IPv6 address as its /64, however written', () => {
    expect(countingClient('203.0.113.7')).toBe('203.0.113.7');
    expect(countingClient('2001:db8:a:b::1')).toBe('2001:db8:a:b::/64');
    expect(countingClient('2001:0DB8:000a:b:1:2:3:4')).toBe('2001:db8:a:b::/64');
    expect(countingClient('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(countingClient('::1')).toBe('0:0:0:0::/64');
    expect(countingClient('local')).toBe('local');
  });
});
