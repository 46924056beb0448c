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
export const GROUP_COUNT = 4;

/** A file missing from WEIGHT_S (new or small) counts this many seconds. */
export const DEFAULT_WEIGHT_S = 3;

/**
 * Seconds of test time per file (vitest's per-file figure, setup excluded), idle 2-core machine, 2026-11-27.
 * Keys are paths under test/integration. Only the order matters; refresh it when a file grows a lot.
 */
export const WEIGHT_S: Readonly<Record<string, number>> = {};

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
