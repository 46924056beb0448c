import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

/**
 * Integration tests: run inside workerd with the real Worker (SELF.fetch) and a real local D1 with
 * every migration applied (test/setup/apply-migrations.ts). APP_ENV=test enables the x-clock-now
 * header and the dev routes.
 */
export default defineConfig(async () => {
  const migrations = await readD1Migrations('migrations');
  return {
    plugins: [
      cloudflareTest({
        main: './worker/index.ts',
        wrangler: { configPath: './wrangler.toml' },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            APP_ENV: 'test',
            APP_URL: 'http://localhost',
            SUPERADMIN_EMAILS: 'super@test.local',
            HOUSE_ACCOUNT_EMAIL: 'house@test.local',
          },
        },
      }),
    ],
    test: {
      include: ['test/integration/**/*.test.ts'],
      setupFiles: ['./test/setup/apply-migrations.ts', './test/setup/console.ts'],
      testTimeout: 30_000,
    },
  };
});
