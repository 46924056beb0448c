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
 * Seconds of test time per file (the sum of its tests' durations in the grouped tier, idle 2-core machine,
 * 2026-11-28 05:30 UTC; import-jobs.test.ts less the 18 s its biweekly 2 000-row import saved; hooks add little). Keys
 * are paths under test/integration. Only the proportions matter; refresh it when a file grows a lot (python-free: sum
 * `duration` per first `ancestorTitles` in vitest's JSON report). With the table before it (2026-11-27), the groups
 * ended 38 s apart (142 s and 180 s).
 */
export const WEIGHT_S: Readonly<Record<string, number>> = {
  'security/fuzz.test.ts': 47,
  'security/authz-matrix.test.ts': 46,
  'listing-rank.test.ts': 35,
  'import-jobs.test.ts': 21,
  'follows.test.ts': 14,
  'security/batch-faults.test.ts': 11,
  'share.test.ts': 11,
  'security/auth-throttle.test.ts': 8,
  'backup.test.ts': 8,
  'admin.test.ts': 5,
  'analytics.test.ts': 4,
  'accounts.test.ts': 3,
  'auth.test.ts': 3,
  'calendar-sync.test.ts': 3,
  'calendar.test.ts': 3,
  'd1-cost.test.ts': 3,
  'freshness.test.ts': 3,
  'listing-series.test.ts': 3,
  'pages.test.ts': 3,
  'payments.test.ts': 3,
  'promotion.test.ts': 3,
  'security/cron-faults.test.ts': 3,
  'security/headers.test.ts': 3,
  'security/payments-faults.test.ts': 3,
  'series.test.ts': 3,
  'auth-flows.test.ts': 2,
  'embed.test.ts': 2,
  'holidays.test.ts': 2,
  'http-cache.test.ts': 2,
  'listing-filters.test.ts': 2,
  'listing.test.ts': 2,
  'promotion-holds.test.ts': 2,
  'query-plans.test.ts': 2,
  'quizzes.test.ts': 2,
  'venues.test.ts': 2,
  'auth-google.test.ts': 1,
  'city-options.test.ts': 1,
  'd1-sessions.test.ts': 1,
  'exports.test.ts': 1,
  'feedback.test.ts': 1,
  'follows-push.test.ts': 1,
  'foundation.test.ts': 1,
  'jobs.test.ts': 1,
  'listing-day.test.ts': 1,
  'listing-map.test.ts': 1,
  'listing-near.test.ts': 1,
  'listing-plan.test.ts': 1,
  'listing-search.test.ts': 1,
  'logs.test.ts': 1,
  'ops.test.ts': 1,
  'promotion-discount.test.ts': 1,
  'quiz-language.test.ts': 1,
  'reports.test.ts': 1,
  'scale-seed.test.ts': 1,
  'security/escaping.test.ts': 1,
  'security/input-faults.test.ts': 1,
  'security/payments-change-open-order.test.ts': 1,
  'security/payments-delete-open-order.test.ts': 1,
  'security/payments-refunds.test.ts': 1,
  'spa-routes.test.ts': 1,
  'takeover.test.ts': 1,
  'tips.test.ts': 1,
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
