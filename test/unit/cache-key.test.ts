import { describe, expect, it } from 'vitest';
import { cacheKey, canonicalQuery, effectiveQuery } from '../../worker/lib/cache';
import { pageEffectiveQuery } from '../../worker/features/pages/service';

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

  it('effectiveQuery keys a lenient route by what it reads: junk values of known parameters make no new key (issue 43.8)', () => {
    const page = (q: string) => effectiveQuery(`https://q.se/${q}`, pageEffectiveQuery);
    expect(page('?weekday=tisdag')).toBe('weekday=tisdag');
    for (const junk of ['?weekday=x', '?date=2030-02-30', '?near=a', '?radius=5', '?city=%00', '?search=%01', '?x=1', '?weekday='])
      expect(page(junk), junk).toBe('');
    expect(page('?weekday=tisdag&weekday=x')).toBe('weekday=tisdag');
    expect(page('?near=57.7,%2011.9&radius=x')).toBe('near=57.7%2C11.9');
    // An invalid quiz filter is named in the page's notice: one marker for every invalid value.
    expect(page('?sprak=x1')).toBe(page('?sprak=x2'));
    expect(page('?sprak=x1')).not.toBe('');
    // A parameter kept as written (the development cache-bust).
    expect(effectiveQuery('https://q.se/?_b=7&weekday=x', pageEffectiveQuery, ['_b'])).toBe('_b=7');
  });
});
