declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import('cloudflare:test').D1Migration[];
    /** Integration tests only (vitest.config.ts): the empty database a backup is restored into. */
    RESTORE_DB: D1Database;
    /** scripts/d1-backup.mjs RESTORE_FILLS: the SQL that refills the search indexes and listing_dates. */
    TEST_RESTORE_FILLS: string[];
  }
}
