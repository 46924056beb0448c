import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { GroupDurationsReporter } from './test/integration/groups/durations-reporter';
import { tmpdirInMemory } from './test/memory-tmpdir';
// @ts-expect-error plain .mjs script without types
import { buildLazyModules } from './scripts/build-lazy-modules.mjs';
// @ts-expect-error plain .mjs script without types
import { RESTORE_FILLS } from './scripts/d1-backup.mjs';

// Throwaway databases on a tmpfs when there is one (test/memory-tmpdir.ts), before any runtime or app starts.
tmpdirInMemory();

/**
 * Integration tests: run inside workerd with the real Worker (SELF.fetch) and a real local D1 with
 * every migration applied (test/setup/apply-migrations.ts). APP_ENV=test enables the x-clock-now
 * header and the dev routes.
 *
 * The lazy modules (worker/lazy/*.bundle.js: share renderer, Stripe SDK) are generated here first, as
 * wrangler's [build] command does for `wrangler dev` / `deploy`; the Worker imports them on first use.
 */
/**
 * Without a file named on the command line, the tier runs the group files (test/integration/groups/partition.ts:
 * each loads the Worker once for its share of the test files instead of once per file; issue 27). Naming a file
 * by path runs just that file in a runtime of its own, as before:
 *   npx vitest run --config vitest.config.ts test/integration/listing.test.ts
 *   npm run test:integration -- test/integration/listing.test.ts
 */
const namedFiles = process.argv.slice(2).some((arg) => !arg.startsWith('-') && /(^|\/)test\/integration\/(?!groups\/)|\.test(\.ts)?$/.test(arg));

export default defineConfig(async () => {
  await buildLazyModules();
  const migrations = await readD1Migrations('migrations');
  return {
    plugins: [
      cloudflareTest({
        main: './worker/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          // An empty second database: test/integration/backup.test.ts restores the nightly R2 backup into it.
          d1Databases: { RESTORE_DB: 'restore-db' },
          bindings: {
            TEST_MIGRATIONS: migrations,
            // The derived-table refills of `npm run db:restore` (test/integration/backup.test.ts).
            TEST_RESTORE_FILLS: RESTORE_FILLS,
            APP_ENV: 'test',
            APP_URL: 'http://localhost',
            SUPERADMIN_EMAILS: 'super@test.local',
            HOUSE_ACCOUNT_EMAIL: 'house@test.local',
          },
        },
      }),
    ],
    test: {
      include: namedFiles ? ['test/integration/**/*.test.ts'] : ['test/integration/groups/*.group.ts'],
      // Vitest's default is one worker fewer than the cores: ONE on a 2-core machine, so the 62 files ran one after
      // another (load ≈ 1 on an idle 2-core machine, 2026-11-27). Each file's own Miniflare keeps files apart, so one
      // per core, at least two (issue 27).
      maxWorkers: Math.max(2, availableParallelism()),
      // The groups' balance comes from what each file took last time (groups/durations-reporter.ts, issue 45.7).
      reporters: ['default', new GroupDurationsReporter()],
      setupFiles: ['./test/setup/apply-migrations.ts', './test/setup/console.ts'],
      // A busy 2-core machine runs the heaviest files (the listing oracle, the authz matrix) two to three times
      // slower than an idle one; the suite must pass there too (issue 27.5). This only bounds a hung test.
      testTimeout: 60_000,
      // The same bound for hooks: the storage reset before each file of a group (groups/reset.ts) timed out at the
      // default 10 s once at load 7–8, after import-jobs.test.ts (2026-11-27).
      hookTimeout: 60_000,
      // The Worker's structured log lines (worker/lib/log.ts; one per request and job) would drown the
      // output; test/integration/logs.test.ts reads them through a console spy instead. test/setup/console.ts
      // already drops them inside the isolate (issue 27); this catches any that still get here.
      onConsoleLog: (log: string) => !log.startsWith('{"type":"'),
    },
  };
});
