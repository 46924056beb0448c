import { describe, expect, it } from 'vitest';
import { tipClientKey, tipDedupKey } from './service';

describe('tipDedupKey (issue 43.7)', () => {
  const base = { venueName: 'Pubben', citySlug: 'uppsala', weekday: 3, date: null, startTime: '19:00:00' };
  it('folds case, accents, spaces and punctuation; keeps town, day and time apart', () => {
    const key = tipDedupKey(base);
    for (const venueName of ['PUBBEN', ' Pub ben ', 'Pübbén', 'pub-ben!', 'Pu\u0308bben']) {
      expect(tipDedupKey({ ...base, venueName }), venueName).toBe(key);
    }
    expect(tipDedupKey({ ...base, citySlug: 'umea' })).not.toBe(key);
    expect(tipDedupKey({ ...base, weekday: 4 })).not.toBe(key);
    expect(tipDedupKey({ ...base, startTime: '19:30:00' })).not.toBe(key);
    expect(tipDedupKey({ ...base, weekday: null, date: '2026-12-02' })).not.toBe(key);
    expect(tipDedupKey({ ...base, venueName: 'Puben' })).not.toBe(key);
  });
});

describe('tipClientKey', () => {
  it('counts an IPv6 address by its /64 and an IPv4 address by itself', () => {
    const k = tipClientKey('2001:db8:1:2:aaaa:bbbb:cccc:dddd');
    expect(k).toBe('2001:db8:1:2::/64');
    expect(tipClientKey('2001:0DB8:0001:0002::1')).toBe(k);
    expect(tipClientKey('2001:db8:1:2:ffff::')).toBe(k);
    expect(tipClientKey('2001:db8:1:3::1')).not.toBe(k);
    expect(tipClientKey('::1')).toBe('0:0:0:0::/64');
    expect(tipClientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(tipClientKey('203.0.113.8')).not.toBe(tipClientKey('203.0.113.7'));
  });
});
