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
 * Seconds of test time per file (the sum of its tests' durations in the grouped tier, load 2–4 on 2 cores,
 * 2026-11-27 18:37 UTC, after the security files' speed-ups of issue 27; hooks add little). Keys are paths under test/integration. Only the proportions matter; refresh it
 * when a file grows a lot (python-free: sum `duration` per first `ancestorTitles` in vitest's JSON report).
 */
export const WEIGHT_S: Readonly<Record<string, number>> = {
  'listing-rank.test.ts': 82,
  'security/fuzz.test.ts': 69,
  'security/authz-matrix.test.ts': 68,
  'import-jobs.test.ts': 58,
  'security/batch-faults.test.ts': 21,
  'follows.test.ts': 20,
  'share.test.ts': 18,
  'security/auth-throttle.test.ts': 16,
  'foundation.test.ts': 14,
  'listing-series.test.ts': 12,
  'admin.test.ts': 11,
  'analytics.test.ts': 10,
  'accounts.test.ts': 8,
  'security/headers.test.ts': 6,
  'calendar-sync.test.ts': 5,
  'freshness.test.ts': 5,
  'promotion.test.ts': 5,
  'auth.test.ts': 5,
  'security/payments-faults.test.ts': 4,
  'payments.test.ts': 4,
  'pages.test.ts': 4,
  'security/cron-faults.test.ts': 4,
  'listing-filters.test.ts': 4,
  'd1-cost.test.ts': 3,
  'holidays.test.ts': 3,
  'listing.test.ts': 3,
  'http-cache.test.ts': 3,
  'listing-near.test.ts': 3,
  'quizzes.test.ts': 3,
  'calendar.test.ts': 3,
  'query-plans.test.ts': 3,
  'series.test.ts': 3,
  'venues.test.ts': 2,
  'ops.test.ts': 2,
  'quiz-language.test.ts': 2,
  'takeover.test.ts': 2,
  'security/payments-change-open-order.test.ts': 2,
  'auth-flows.test.ts': 2,
  'promotion-holds.test.ts': 2,
  'backup.test.ts': 2,
  'security/payments-delete-open-order.test.ts': 2,
  'follows-push.test.ts': 2,
  'listing-map.test.ts': 1,
  'city-options.test.ts': 1,
  'tips.test.ts': 1,
  'embed.test.ts': 1,
  'scale-seed.test.ts': 1,
  'jobs.test.ts': 1,
  'security/payments-refunds.test.ts': 1,
  'security/escaping.test.ts': 1,
  'security/input-faults.test.ts': 1,
  'spa-routes.test.ts': 1,
  'exports.test.ts': 1,
  'listing-plan.test.ts': 1,
  'reports.test.ts': 1,
  'promotion-discount.test.ts': 1,
  'auth-google.test.ts': 1,
  'listing-day.test.ts': 1,
  'd1-sessions.test.ts': 1,
  'listing-search.test.ts': 1,
  'feedback.test.ts': 1,
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
