/**
 * The migrated, empty local D1 that both the e2e apps (test/e2e/support/app.ts) and the unit tier's backup drill
 * (test/unit/backup-drill.test.ts) start from.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A local D1 with every migration applied and no rows, made once per set of migrations and copied for each app
 * (issue 27: the suite starts seven apps; applying 27 migrations took ~80 s of each start at load 12, a copy takes
 * milliseconds). Kept under `.e2e/` (git-ignored) by a hash of the migration files and wrangler.toml, so a changed
 * migration makes a new one; built in a private folder and renamed into place, so two runs never see half of one.
 */
export function migratedDatabase(root: string): string {
  const hash = createHash('sha256');
  const migrations = join(root, 'migrations');
  for (const name of readdirSync(migrations)
    .filter((n) => n.endsWith('.sql'))
    .sort())
    hash.update(name).update(readFileSync(join(migrations, name)));
  hash.update(readFileSync(join(root, 'wrangler.toml')));
  const templates = join(root, '.e2e', 'db-templates');
  const ready = join(templates, hash.digest('hex').slice(0, 16));
  if (existsSync(ready)) return join(ready, 'state');
  mkdirSync(templates, { recursive: true });
  const building = mkdtempSync(join(templates, 'building-'));
  execFileSync(join(root, 'node_modules', '.bin', 'wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', join(building, 'state')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` },
  });
  try {
    renameSync(building, ready);
  } catch {
    rmSync(building, { recursive: true, force: true }); // another run made it first: the same content
  }
  return join(ready, 'state');
}
