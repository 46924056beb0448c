/** test/e2e/support/order.ts: the story files start longest first, by the run's own record or by their source. */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectedSeconds, longestFirst, type StoryFacts } from '../e2e/support/order';
import { testFilesUnder } from '../test-files';

const dir = join(import.meta.dirname, '..', 'e2e');
const stories = testFilesUnder(dir);
const fromSource = (p: string): StoryFacts => ({ ownApp: /\bstartApp\(/.test(readFileSync(join(dir, p), 'utf8')), bytes: statSync(join(dir, p)).size });

describe('the order of the story files', () => {
  it('on a clean clone (no record) starts the stories with an app of their own first, then the larger files', () => {
    const order = longestFirst([...stories].reverse(), fromSource);
    const own = stories.filter((p) => fromSource(p).ownApp);
    expect(own.length).toBeGreaterThan(0);
    // Every story with its own app (the import story took ~57 s, the follow story ~30 s) starts in the first few.
    for (const p of own) expect(order.indexOf(p), p).toBeLessThan(6);
    const seconds = order.map((p) => expectedSeconds(fromSource(p)));
    expect(seconds).toEqual([...seconds].sort((a, b) => b - a));
  });

  it('a recorded duration wins over the estimate, and an unrecorded file is estimated', () => {
    const facts: Record<string, StoryFacts> = {
      'small-but-slow.test.ts': { recordedSeconds: 90, ownApp: false, bytes: 1_000 },
      'big.test.ts': { ownApp: false, bytes: 18_000 },
      'own-app.test.ts': { ownApp: true, bytes: 4_000 },
      'quick.test.ts': { recordedSeconds: 2, ownApp: false, bytes: 20_000 },
    };
    expect(longestFirst(Object.keys(facts), (p) => facts[p]!)).toEqual(['small-but-slow.test.ts', 'own-app.test.ts', 'big.test.ts', 'quick.test.ts']);
  });
});
