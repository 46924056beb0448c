/**
 * The stories' towns (test/e2e/support/towns.ts, issue 43.6): each a known town in its spelling, one story's alone,
 * none of the demo data's, and ASCII (a story writes its slug as the name in lower case).
 */
import { describe, expect, it } from 'vitest';
import { STORY_TOWNS } from '../e2e/support/towns';
import { SEED_CITIES } from '../../worker/db/seed-data';
import { findTown } from '../../worker/lib/gazetteer';
import { slugify } from '../../worker/lib/slug';

describe('the e2e stories’ towns', () => {
  const towns = Object.values(STORY_TOWNS);

  it('are known towns, in the gazetteer’s spelling, with the name in lower case as the slug', () => {
    for (const t of towns) {
      expect(findTown(t)?.name).toBe(t);
      expect(slugify(t)).toBe(t.toLowerCase());
    }
  });

  it('are one story’s each and none of the demo data’s', () => {
    expect(new Set(towns).size).toBe(towns.length);
    const seed = new Set(SEED_CITIES.map((c) => c.name));
    expect(towns.filter((t) => seed.has(t))).toEqual([]);
  });
});
