/**
 * Lighthouse (mobile preset, /usr/bin/chromium, offline against the e2e server) on the four kinds of
 * public page (issue 8 §5, issue 19 §1), each beside its no-JavaScript floor — the same HTML with every
 * stylesheet inlined and every script and modulepreload removed (test/bench/floor.ts), audited in the
 * same round: LCP ≤ 1.3 × the floor's LCP (a ratio within one round), accessibility, best practices and SEO
 * 100. A page that misses is audited again (with its floor), at most 3 rounds, and keeps its best round; a
 * real regression misses in all three. ~10 s an audit.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { compareWithFloor, floorMarkdown, floorMisses, FLOOR_LCP_RATIO_TARGET, type FloorComparison } from '../bench/lighthouse';
import { baseURL, venuePathIn } from './support/browser';

/**
 * The performance score is not asserted here: it is Lighthouse's simulated timing, dominated by Total Blocking
 * Time, which follows the machine — on 2026-11-27 the same commit scored 86–98 from one run to the next on an
 * all but idle 2-core machine, so `npm test` failed on the machine rather than on the code. Speed targets are
 * the bench's (the project's rule: `npm run bench`, ratios in one run): PERFORMANCE_TARGET 100 and TBT there
 * (issue 29.13). Here the score is printed with the table below; the LCP ratio and the other categories are
 * asserted.
 */
const THRESHOLDS = { accessibility: 100, 'best-practices': 100, seo: 100 } as const;

/** Demo data: Stockholm has several venues; the first demo venue is there too. */
const PAGES = {
  home: '/',
  city: '/quiz/stockholm',
  combined: '/quiz/stockholm/tisdag',
  venue: '' as string,
};

let results: Map<string, FloorComparison>;
const misses = (c: FloorComparison) => [
  ...floorMisses(c).filter((m) => !m.startsWith('performance')),
  ...Object.entries(THRESHOLDS)
    .filter(([cat, min]) => c.page.scores[cat as keyof typeof THRESHOLDS] < min)
    .map(([cat, min]) => `${cat} ${c.page.scores[cat as keyof typeof THRESHOLDS]} < ${min}`),
];

beforeAll(async () => {
  // A venue page of the demo data: follow the first venue link on the city page.
  const html = await (await fetch(`${baseURL()}${PAGES.city}`)).text();
  const venue = venuePathIn(html, 'stockholm');
  if (!venue) throw new Error('no venue link on the Stockholm page');
  PAGES.venue = venue;
  const paths = Object.values(PAGES);
  // Warm the server (first render, edge cache) so the audit measures the page, not a cold start.
  for (const p of paths) await (await fetch(`${baseURL()}${p}`)).arrayBuffer();
  const comparisons = await compareWithFloor(baseURL(), paths, misses);
  console.info(`[lighthouse] page vs floor (best of up to 3 rounds)\n${floorMarkdown(comparisons)}`);
  results = new Map(comparisons.map((c) => [c.path, c]));
}, 600_000);

describe('Lighthouse (mobile) on public pages, each beside its no-JavaScript floor', () => {
  for (const kind of ['home', 'city', 'combined', 'venue'] as const) {
    it(`${kind} page: LCP ≤ ${FLOOR_LCP_RATIO_TARGET} × the floor's; accessibility, best practices and SEO 100`, () => {
      const c = results.get(PAGES[kind])!;
      expect(c, `${PAGES[kind]}: no successful Lighthouse round`).toBeDefined();
      const missed = misses(c);
      expect(missed, `${PAGES[kind]}: ${missed.join(', ')}; failed audits: ${c.page.failedAudits.join('; ')}`).toEqual([]);
    });
  }
});
