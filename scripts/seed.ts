/**
 * npm run db:seed [-- --scale N] [--if-empty] [--persist-to DIR]
 * Builds the seed SQL (worker/db/seed.ts) and applies it to the local D1 with wrangler.
 * --scale N is a bulk load: the per-row listing trigger is off while the rows go in and the listing
 * units are rebuilt once afterwards (asBulkLoad; the rebuild fires the ranked-listing triggers of migration
 * 0018 once per unit); 1 000 000 rows took 23 s on 2 cores (2026-11-23, migrations 0000–0018).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { asBulkLoad, buildDemoSeed, buildScaleSeed, DEMO_OWNER, DEMO_SUPERADMIN, QUIZ_INSERT_TRIGGER } from '../worker/db/seed';
import { createClock } from '../worker/lib/clock';
import { hashPassword } from '../worker/lib/password';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? '') : null;
};
const persistTo = flag('--persist-to');
const scale = flag('--scale');
const ifEmpty = args.includes('--if-empty');
const persistArgs = persistTo ? ['--persist-to', persistTo] : [];
const wrangler = join(import.meta.dirname, '..', 'node_modules', '.bin', 'wrangler');
const houseEmail = process.env.HOUSE_ACCOUNT_EMAIL ?? 'katalog@quizkvall.se';

function d1(extra: string[]): string {
  return execFileSync(wrangler, ['d1', 'execute', 'DB', '--local', ...persistArgs, ...extra], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
}

if (ifEmpty) {
  const out = d1(['--json', '--command', 'SELECT COUNT(*) AS n FROM users']);
  const n = (JSON.parse(out) as Array<{ results: Array<{ n: number }> }>)[0]?.results[0]?.n ?? 0;
  if (n > 0) {
    console.log(`Databasen har redan ${n} användare – hoppar över demodata.`);
    process.exit(0);
  }
}

/** The quiz-insert trigger's CREATE statement as this database holds it (put back after a bulk load). */
function quizInsertTriggerSql(): string {
  const out = d1(['--json', '--command', `SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = '${QUIZ_INSERT_TRIGGER}'`]);
  const sql = (JSON.parse(out) as Array<{ results: Array<{ sql: string }> }>)[0]?.results[0]?.sql;
  if (!sql) throw new Error(`trigger ${QUIZ_INSERT_TRIGGER} not found: apply the migrations first (npm run db:migrate)`);
  return sql;
}

const started = performance.now();
const today = createClock(process.env.CLOCK_NOW || null).today();
const statements = scale
  ? asBulkLoad(buildScaleSeed(today, Number(scale), houseEmail), quizInsertTriggerSql())
  : buildDemoSeed(today, { superadminHash: await hashPassword(DEMO_SUPERADMIN.password), ownerHash: await hashPassword(DEMO_OWNER.password), houseEmail });
// The listing's day is the seed's day. Migration 0018 starts listing_state.today at the database's real
// date('now'), and outside APP_ENV=test the listing's day never moves back: with the clock pinned behind the
// real date (CLOCK_NOW, the e2e runs' TEST_NOW) the demo would be listed as of the real date instead.
// On a database without listing units the seed also names the house account, so its units are ranked last as
// they go in and no listing-day job has to re-key them all afterwards (issue 30.8: 24.2 s at 1 000 000 rows).
const house = houseEmail.toLowerCase().replaceAll("'", "''");
statements.unshift(
  `UPDATE listing_state SET today = '${today}' WHERE id = 1;`,
  `UPDATE listing_state SET house_email = '${house}', house_id = (SELECT id FROM users WHERE email = '${house}') WHERE id = 1 AND house_email IS NULL AND NOT EXISTS (SELECT 1 FROM listing_series);`,
);
// Beside the database it fills: apps started side by side (the e2e runs, each with its own --persist-to and
// clock) must not write and read one shared seed file.
const seedDir = persistTo ?? '.wrangler';
mkdirSync(seedDir, { recursive: true });
const file = join(seedDir, scale ? `seed-scale-${scale}.sql` : 'seed.sql');
writeFileSync(file, `${statements.join('\n')}\n`);
d1(['--file', file, '--yes']);
console.log(`Demodata inlagd (${statements.length} satser, dagens datum ${today}, ${((performance.now() - started) / 1000).toFixed(1)} s).`);
if (!scale)
  console.log(`Logga in som superadmin ${DEMO_SUPERADMIN.email} / ${DEMO_SUPERADMIN.password} eller ägare ${DEMO_OWNER.email} / ${DEMO_OWNER.password}.`);
