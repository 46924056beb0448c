/// <reference types="vite/client" />
/**
 * Which group file runs which integration test file (issue 27: suite time). Starting a runtime and loading the
 * Worker's ~700 modules costs ~12 s per FILE on an idle 2-core machine, so `npm run test:integration` runs a few
 * group files (test/integration/groups/*.group.ts), each loading the Worker once for its share of the files.
 *
 * The partition is computed, not listed, so a file cannot be left out: every `*.test.ts` under test/integration
 * goes to exactly one group (test/unit/integration-groups.test.ts checks it against the files on disk). Files are
 * placed heaviest first, each into the group with the least work so far (longest-processing-time first). The
 * weights are the runner's own record of the last run (durations-reporter.ts writes `durations.local.json`, read
 * here when the group file is transformed); a file it does not know, and every file on a clean clone, counts
 * DEFAULT_WEIGHT_S, which splits the files evenly by count (issue 45.7: no table measured by hand to go stale).
 */

/** How many group files there are (test/integration/groups/<n>.group.ts for n = 1..GROUP_COUNT). */
export const GROUP_COUNT = 2;

/** A file the record does not know (new, or no run yet on this machine) counts this many seconds. */
export const DEFAULT_WEIGHT_S = 3;

/** The last run's seconds per file, when this machine has run the tier (Vite inlines the JSON; `{}` without it). */
const recorded = Object.values(import.meta.glob<Record<string, number>>('./durations.local.json', { eager: true, import: 'default' }))[0] ?? {};

/** Seconds per file (paths under test/integration): the record, else DEFAULT_WEIGHT_S. */
export type Weights = (file: string) => number;
export const recordedWeights: Weights = (f) => (typeof recorded[f] === 'number' && recorded[f] > 0 ? recorded[f] : DEFAULT_WEIGHT_S);

/** `files`: paths under test/integration (e.g. `listing.test.ts`, `security/fuzz.test.ts`). Returns GROUP_COUNT lists. */
export function partition(files: readonly string[], groups = GROUP_COUNT, weight: Weights = recordedWeights): string[][] {
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
