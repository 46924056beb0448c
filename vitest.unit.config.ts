import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { tmpdirInMemory } from './test/memory-tmpdir';

// Throwaway databases on a tmpfs when there is one (test/memory-tmpdir.ts), before any runtime or app starts.
tmpdirInMemory();

/** Pure unit tests beside the code (rules without I/O), run in Node. */
export default defineConfig({
  test: {
    include: ['worker/**/*.test.ts', 'web/**/*.test.ts', 'web/**/*.test.tsx', 'test/unit/**/*.test.ts'],
    environment: 'node',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, where the backup drill's 70 s of
    // wrangler runs then held up every other file (issue 27). One per core, at least two.
    maxWorkers: Math.max(2, availableParallelism()),
  },
});
