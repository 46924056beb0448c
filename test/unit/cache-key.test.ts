import { describe, expect, it } from 'vitest';
import { cacheKey, canonicalQuery } from '../../worker/lib/cache';

const KNOWN = ['a', 'b', 'city'];

describe('edge cache key', () => {
  it('changes with the build, the data version and the Stockholm date, not with query order', () => {
    const base = cacheKey('https://q.se/quiz/goteborg?b=2&a=1', 7, '2026-11-21', '/assets/public-abc.js', KNOWN);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 7, '2026-11-21', '/assets/public-abc.js', KNOWN)).toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 7, '2026-11-21', '/assets/public-def.js', KNOWN)).not.toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 8, '2026-11-21', '/assets/public-abc.js', KNOWN)).not.toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 7, '2026-11-22', '/assets/public-abc.js', KNOWN)).not.toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=3', 7, '2026-11-21', '/assets/public-abc.js', KNOWN)).not.toBe(base);
  });

  it('holds only the parameters the route knows (issue 26.4): unknown ones and empty values make no new key', () => {
    const key = (q: string) => cacheKey(`https://q.se/og/start.png${q}`, 7, '2026-11-21', 'b', KNOWN);
    const base = key('?city=goteborg');
    for (const q of ['?city=goteborg&x=1', '?utm_source=fb&city=goteborg&fbclid=abc', '?city=goteborg&a=', '?_b=1&city=goteborg']) expect(key(q), q).toBe(base);
    // A route that knows no parameter (the default) has one key per path.
    expect(cacheKey('https://q.se/og/start.png?x=1', 7, '2026-11-21', 'b')).toBe(cacheKey('https://q.se/og/start.png', 7, '2026-11-21', 'b'));
  });

  it('canonicalQuery keeps repeated values in their order (a handler reads the first)', () => {
    expect(canonicalQuery('https://q.se/?city=b&x=1&city=a&a=1', KNOWN)).toBe('a=1&city=b&city=a');
    expect(canonicalQuery('https://q.se/?city=a&city=b', KNOWN)).not.toBe(canonicalQuery('https://q.se/?city=b&city=a', KNOWN));
    expect(canonicalQuery('https://q.se/?x=%3Cscript%3E', KNOWN)).toBe('');
  });
});
