/**
 * The order the story files start in (issue 27: suite time). Two workers take files from one queue, so the run
 * ends when the last file started ends: a long file started late leaves one core idle while it finishes.
 * Vitest orders files by the durations in its cache (node_modules/.vite), and without one — a clean clone, as on
 * CI — by file size, largest first: the 61-line import story (~57 s with its own app) then started last, and the
 * run ended with a minute on one core. The stories start longest first by the seconds below (measured: the e2e
 * stories of `npm test`, idle 2-core machine, 2026-11-28 07:00 UTC); a file not listed counts DEFAULT_SECONDS.
 * test/unit/e2e-order.test.ts checks that the table names every story file and no other.
 */

/** Seconds a story file took in the main e2e run (vitest's per-file time). Keys are paths under test/e2e. */
export const STORY_SECONDS: Readonly<Record<string, number>> = {
  'promotion.test.ts': 43,
  'import-export.test.ts': 41,
  'auth.test.ts': 38,
  'follow.test.ts': 30,
  'pwa.test.ts': 30,
  'public.test.ts': 29,
  'superadmin.test.ts': 27,
  'visitor-phone.test.ts': 26,
  'owner-paths.test.ts': 23,
  'owner-quizzes.test.ts': 23,
  'owner-venues.test.ts': 18,
  'budgets.test.ts': 17,
  'analytics.test.ts': 14,
  'quiz-filters.test.ts': 14,
  'near-me.test.ts': 12,
  'shell.test.ts': 12,
  'xss.test.ts': 12,
  'holidays.test.ts': 9,
  'take-it-with-you.test.ts': 9,
  'takeover.test.ts': 9,
  'tips.test.ts': 8,
  'calendar-sync.test.ts': 5,
  'owner-place-pin.test.ts': 5,
  'superadmin-profile.test.ts': 3,
  'sitemap.test.ts': 1,
  // Runs in a step of its own (npm run test:lighthouse); listed so that the table names every story file.
  'lighthouse.test.ts': 78,
};

/** A story file the table does not know yet. */
export const DEFAULT_SECONDS = 15;

/** `paths` (under test/e2e, "/" separated) longest first; equal weights keep their order. */
export function longestFirst(paths: readonly string[]): string[] {
  const seconds = (p: string) => STORY_SECONDS[p] ?? DEFAULT_SECONDS;
  return [...paths].sort((a, b) => seconds(b) - seconds(a));
}
