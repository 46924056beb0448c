/// <reference types="vite/client" />
/**
 * The body of a group file (test/integration/groups/partition.ts says why): registers each of the group's test
 * files inside a `describe` of its own path, so a file's top-level hooks (`beforeAll`, `beforeEach`, fake timers)
 * apply to that file's tests only, as when it ran alone. Before each file, storage goes back to the migrated
 * state (reset.ts); after it, timers, spies and stubbed globals go back to real ones.
 */
import { afterAll, beforeAll, describe, vi } from 'vitest';
import { groupFiles } from './partition';
import { resetStorage, snapshotStorage } from './reset';

/** Every integration test file, lazily: Vite expands the pattern when the group file is transformed. */
const loaders = import.meta.glob('../**/*.test.ts');

/** `../security/fuzz.test.ts` → `security/fuzz.test.ts` (paths under test/integration). */
export function integrationTestFiles(): Map<string, () => Promise<unknown>> {
  return new Map(Object.entries(loaders).map(([key, load]) => [key.replace(/^\.\.\//, ''), load]));
}

export async function runGroup(n: number): Promise<void> {
  const files = integrationTestFiles();
  await snapshotStorage();
  for (const file of groupFiles([...files.keys()], n)) {
    describe(file, async () => {
      beforeAll(resetStorage);
      afterAll(() => {
        vi.useRealTimers();
        vi.restoreAllMocks();
        vi.unstubAllGlobals();
        vi.unstubAllEnvs();
      });
      await files.get(file)!();
    });
  }
}
