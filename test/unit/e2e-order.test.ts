/** test/e2e/support/order.ts: the story files start longest first, and the table knows every story file. */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_SECONDS, longestFirst, STORY_SECONDS } from '../e2e/support/order';
import { testFilesUnder } from '../test-files';

const stories = testFilesUnder(join(import.meta.dirname, '..', 'e2e'));

describe('the order of the story files', () => {
  it('the table names every story file and no other', () => {
    expect(stories.length).toBeGreaterThan(20);
    expect(Object.keys(STORY_SECONDS).sort()).toEqual(stories);
  });

  it('starts the longest first, whatever order they come in; an unknown file counts DEFAULT_SECONDS', () => {
    const order = longestFirst([...stories].reverse());
    const seconds = order.map((p) => STORY_SECONDS[p]!);
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
    expect(order[0]).toBe('lighthouse.test.ts');
    expect(longestFirst(['sitemap.test.ts', 'new.test.ts', 'auth.test.ts'])).toEqual(['auth.test.ts', 'new.test.ts', 'sitemap.test.ts']);
    expect(DEFAULT_SECONDS).toBeGreaterThan(STORY_SECONDS['sitemap.test.ts']!);
  });
});
