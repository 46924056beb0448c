import { defineConfig } from 'vitest/config';
import { LongestStoryFirst } from './test/e2e/support/sequencer';
import { tmpdirInMemory } from './test/memory-tmpdir';

// Throwaway databases on a tmpfs when there is one (test/memory-tmpdir.ts), before any runtime or app starts.
tmpdirInMemory();

/**
 * End-to-end user stories: Playwright (playwright-core) drives Debian's Chromium headless shell (test/chromium.ts)
 * against the real app (the Worker as `wrangler deploy` builds it, on Miniflare: scripts/serve-bundle.mjs) started
 * once on a free port with a fresh local database seeded with demo data (test/e2e/support/global-setup.ts).
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./test/e2e/support/global-setup.ts'],
    // Node's fetch in every story file retries a keep-alive connection the server reset (support/network.ts).
    setupFiles: ['./test/e2e/support/network-setup.ts'],
    // A story's own waits have their own limits; this only bounds a hung story. Long stories (an owner's
    // whole series flow) take ~50 s on a 2-core machine with both cores busy, so 60 s cut them off.
    testTimeout: 180_000,
    hookTimeout: 120_000,
    // Two cores: files run two at a time, each with its own browser.
    maxWorkers: 2,
    fileParallelism: true,
    // A worker keeps its modules from one story file to the next instead of importing playwright-core, axe-core and
    // the support code again for each (~1.3 s of CPU a file: vitest's "import" 32 s → 4 s a run, the main run ~540 →
    // ~470 s of CPU, 2026-11-28). Each file still launches its own browser and contexts; the support modules keep no
    // state between files (ownApp clears its app after the file; the setup file wraps fetch once).
    isolate: false,
    // Longest file first by a measured table, also on a clean clone without vitest's duration cache (support/order.ts).
    sequence: { sequencer: LongestStoryFirst },
  },
});
