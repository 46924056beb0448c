/**
 * Which group file runs which integration test file (issue 27: suite time). Starting a runtime and loading the
 * Worker's ~700 modules costs ~12 s per FILE on an idle 2-core machine, so `npm run test:integration` runs a few
 * group files (test/integration/groups/*.group.ts), each loading the Worker once for its share of the files.
 *
 * The partition is computed, not listed, so a file cannot be left out: every `*.test.ts` under test/integration
 * goes to exactly one group (test/unit/integration-groups.test.ts checks it against the files on disk). Files are
 * placed heaviest first, each into the group with the least work so far (longest-processing-time first), using
 * the test time vitest printed per file (WEIGHT_S); a file not in the table counts DEFAULT_WEIGHT_S.
 */

/** How many group files there are (test/integration/groups/<n>.group.ts for n = 1..GROUP_COUNT). */
export const GROUP_COUNT = 2;

/** A file missing from WEIGHT_S (new or small) counts this many seconds. */
export const DEFAULT_WEIGHT_S = 3;

/**
 * Seconds of test time per file (the sum of its tests' durations in the grouped tier, load 2–12 on 2 cores,
 * 2026-11-27; hooks add little). Keys are paths under test/integration. Only the proportions matter; refresh it
 * when a file grows a lot (python-free: sum `duration` per first `ancestorTitles` in vitest's JSON report).
 */
export const WEIGHT_S: Readonly<Record<string, number>> = {
  'security/fuzz.test.ts': 196,
  'security/authz-matrix.test.ts': 88,
  'security/batch-faults.test.ts': 78,
  'import-jobs.test.ts': 43,
  'listing-rank.test.ts': 39,
  'listing-series.test.ts': 16,
  'follows.test.ts': 16,
  'admin.test.ts': 14,
  'foundation.test.ts': 12,
  'pages.test.ts': 12,
  'promotion-holds.test.ts': 12,
  'share.test.ts': 11,
  'security/payments-faults.test.ts': 11,
  'security/auth-throttle.test.ts': 11,
  'security/cron-faults.test.ts': 8,
  'analytics.test.ts': 8,
  'listing-filters.test.ts': 7,
  'calendar.test.ts': 6,
  'd1-cost.test.ts': 5,
  'embed.test.ts': 5,
  'security/headers.test.ts': 5,
  'freshness.test.ts': 5,
  'auth-flows.test.ts': 4,
  'venues.test.ts': 4,
  'promotion.test.ts': 4,
  'calendar-sync.test.ts': 4,
  'auth.test.ts': 4,
  'listing-near.test.ts': 4,
  'query-plans.test.ts': 4,
  'series.test.ts': 4,
  'payments.test.ts': 4,
  'accounts.test.ts': 3,
  'quizzes.test.ts': 3,
  'follows-push.test.ts': 3,
  'listing.test.ts': 3,
  'jobs.test.ts': 3,
  'holidays.test.ts': 3,
  'security/input-faults.test.ts': 3,
  'http-cache.test.ts': 2,
  'security/escaping.test.ts': 2,
  'city-options.test.ts': 2,
  'quiz-language.test.ts': 2,
  'security/payments-delete-open-order.test.ts': 2,
  'listing-day.test.ts': 2,
  'listing-plan.test.ts': 2,
  'takeover.test.ts': 2,
  'scale-seed.test.ts': 2,
  'promotion-discount.test.ts': 1,
  'security/payments-change-open-order.test.ts': 1,
  'listing-map.test.ts': 1,
  'security/payments-refunds.test.ts': 1,
  'backup.test.ts': 1,
  'auth-google.test.ts': 1,
  'tips.test.ts': 1,
  'ops.test.ts': 1,
  'reports.test.ts': 1,
  'exports.test.ts': 1,
  'spa-routes.test.ts': 1,
  'd1-sessions.test.ts': 1,
  'feedback.test.ts': 1,
  'listing-search.test.ts': 1,
  'logs.test.ts': 1,
};

/** `files`: paths under test/integration (e.g. `listing.test.ts`, `security/fuzz.test.ts`). Returns GROUP_COUNT lists. */
export function partition(files: readonly string[], groups = GROUP_COUNT): string[][] {
  const weight = (f: string) => WEIGHT_S[f] ?? DEFAULT_WEIGHT_S;
  const sorted = [...new Set(files)].sort((a, b) => weight(b) - weight(a) || a.localeCompare(b));
  const out: string[][] = Array.from({ length: groups }, () => []);
  const load = new Array<number>(groups).fill(0);
  for (const f of sorted) {
    let best = 0;
    for (let g = 1; g < groups; g++) if (load[g]! < load[best]!) best = g;
    out[best]!.push(f);
    load[best]! += weight(f);
  }
  return out.map((g) => g.sort());
}

/** The files of group `n` (1-based). */
export function groupFiles(files: readonly string[], n: number): string[] {
  if (!Number.isInteger(n) || n < 1 || n > GROUP_COUNT) throw new Error(`integration group ${n}: there are groups 1..${GROUP_COUNT}`);
  return partition(files)[n - 1]!;
}
