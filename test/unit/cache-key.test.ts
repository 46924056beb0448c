import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../worker/lib/cache';

describe('edge cache key', () => {
  it('changes with the build, the data version and the Stockholm date, not with query order', () => {
    const base = cacheKey('https://q.se/quiz/goteborg?b=2&a=1', 7, '2026-11-21', '/assets/public-abc.js');
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 7, '2026-11-21', '/assets/public-abc.js')).toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 7, '2026-11-21', '/assets/public-def.js')).not.toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 8, '2026-11-21', '/assets/public-abc.js')).not.toBe(base);
    expect(cacheKey('https://q.se/quiz/goteborg?a=1&b=2', 7, '2026-11-22', '/assets/public-abc.js')).not.toBe(base);
  });
});
