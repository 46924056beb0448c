/**
 * Records what each integration test file took in the grouped tier (the sum of its tests' durations), for
 * partition.ts to balance the next run's groups (issue 45.7: derived from the runner's own record, not a table
 * measured by hand). Each group registers a file as a top-level `describe` named by its path (run-group.ts), so
 * a group module's top-level suites are the files. The record is `durations.local.json` beside this file:
 * gitignored, merged over the last one (a run of some files updates only theirs), never committed.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

export const DURATIONS_FILE = join(import.meta.dirname, 'durations.local.json');

/** Seconds per file (path under test/integration) of the group modules that ran. */
export function fileSeconds(modules: ReadonlyArray<Pick<TestModule, 'moduleId' | 'children'>>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const mod of modules) {
    if (!/[\\/]groups[\\/]\d+\.group\.ts$/.test(mod.moduleId)) continue;
    for (const file of mod.children.suites()) {
      let ms = 0;
      for (const test of file.children.allTests()) ms += test.diagnostic()?.duration ?? 0;
      out[file.name] = Math.round(ms / 100) / 10;
    }
  }
  return out;
}

export class GroupDurationsReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const seen = fileSeconds(modules);
    if (Object.keys(seen).length === 0) return;
    let before: Record<string, number> = {};
    try {
      if (existsSync(DURATIONS_FILE)) before = JSON.parse(readFileSync(DURATIONS_FILE, 'utf8')) as Record<string, number>;
    } catch {
      before = {};
    }
    const merged = Object.fromEntries(Object.entries({ ...before, ...seen }).sort(([a], [b]) => a.localeCompare(b)));
    writeFileSync(DURATIONS_FILE, `${JSON.stringify(merged, null, 2)}\n`);
  }
}
