/**
 * The integration tests' towns (test/fixtures/test-towns.ts, handed out by uniqueTown in test/factories.ts): known
 * towns in the gazetteer's spelling, each listed once, none a story's or the demo data's, and none named by any other
 * test file (a test that names a town of its own must not share it with one uniqueTown gave).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SEED_CITIES } from '../../worker/db/seed-data';
import { findTown } from '../../worker/lib/gazetteer';
import { slugify } from '../../worker/lib/slug';
import { STORY_TOWNS } from '../e2e/support/towns';
import { TEST_TOWNS, TEST_TOWNS_NON_ASCII } from '../fixtures/test-towns';

describe('the integration tests’ towns', () => {
  const all = [...TEST_TOWNS, ...TEST_TOWNS_NON_ASCII];

  it('are known towns in the gazetteer’s spelling, each once; the ASCII ones slug to their name in lower case', () => {
    expect(all.filter((t) => findTown(t)?.name !== t)).toEqual([]);
    expect(new Set(all).size).toBe(all.length);
    expect(TEST_TOWNS.filter((t) => slugify(t) !== t.toLowerCase())).toEqual([]);
    expect(TEST_TOWNS_NON_ASCII.filter((t) => !/[åäö]/i.test(t))).toEqual([]);
  });

  it('are no story’s, not the demo data’s, and named by no test file', () => {
    const taken = new Set([...Object.values(STORY_TOWNS), ...SEED_CITIES.map((c) => c.name)]);
    expect(all.filter((t) => taken.has(t))).toEqual([]);
    const files = execFileSync('git', ['ls-files', 'test'], { encoding: 'utf8' })
      .split('\n')
      .filter((f) => /\.tsx?$/.test(f) && f !== 'test/fixtures/test-towns.ts');
    const words = new Set(files.flatMap((f) => readFileSync(f, 'utf8').match(/[\p{L}]+/gu) ?? []));
    expect(all.filter((t) => words.has(t))).toEqual([]);
  });
});
