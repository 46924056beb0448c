/**
 * The order the story files start in (issue 27: suite time). Two workers take files from one queue, so the run
 * ends when the last file started ends: a long file started late leaves one core idle while it finishes.
 *
 * Longest first, by what each file took in the last run that vitest recorded on this machine (its results cache,
 * which its own sequencer reads too). Where there is no record — a clean clone, as on CI, or a new file — the
 * estimate is by the file itself (issue 45.7: no table measured by hand to go stale): a story that starts an app of
 * its own (`startApp(`: its own build of the database and a Worker, ~20 s before its first step) first, then the
 * larger files, whose stories are longer. test/unit/e2e-order.test.ts checks the rule.
 */

/** What the order knows of one story file. */
export interface StoryFacts {
  /** Seconds it took in the last recorded run, if any. */
  recordedSeconds?: number | undefined;
  /** Its source starts an app of its own. */
  ownApp: boolean;
  /** Its source's size in bytes. */
  bytes: number;
}

/** Seconds a story file is expected to take: its record, else an estimate from its source. */
export function expectedSeconds(f: StoryFacts): number {
  if (f.recordedSeconds !== undefined) return f.recordedSeconds;
  // ~1 s per 600 bytes of story (the stories of 2026-11-28: 18 KB ≈ 30 s), plus an app's start and seed.
  return f.bytes / 600 + (f.ownApp ? 30 : 0);
}

/** `paths` longest first by expectedSeconds; equal ones keep their order. */
export function longestFirst(paths: readonly string[], facts: (path: string) => StoryFacts): string[] {
  const seconds = new Map(paths.map((p) => [p, expectedSeconds(facts(p))]));
  return [...paths].sort((a, b) => seconds.get(b)! - seconds.get(a)!);
}
