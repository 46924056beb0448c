/**
 * One group file runs several integration test files in ONE runtime (test/integration/groups/run-group.ts),
 * and the pool keeps storage per runtime, not per test or per file: D1 rows, R2 objects and the Cache API
 * written by one file are there for the next (measured: @cloudflare/vitest-plugin 1.4 has no per-test
 * storage stack; a Miniflare lives as long as its pool worker). Every file was written against a runtime of
 * its own, so before each file the group puts storage back as it was when the migrations had run:
 *
 * - D1 (`DB`, `RESTORE_DB`): every table emptied and refilled with the rows the migrations left (snapshot taken once per
 *   group, before any test ran); FTS5 indexes emptied or rebuilt from their content table; AUTOINCREMENT counters
 *   reset, so ids start where they did in a runtime of their own. Then every table's row count is checked against
 *   the snapshot: a reset that left rows fails loudly instead of letting a file count another file's rows.
 * - `public_data_version` is the exception: it moves FORWARD (one past the highest value seen), never back, because
 *   the Worker's caches live on in the isolate (the in-memory page cache and caches.default are keyed by it) and a
 *   version that went back would serve an earlier file's pages. The isolate's memoized version is forgotten.
 * - R2 (`IMPORTS`, `CARDS`, `BACKUPS`): every object deleted.
 */
import { env } from 'cloudflare:workers';
import { invalidateDataVersion } from '../../../worker/lib/data-version';

type Row = Record<string, unknown>;

interface TableSnapshot {
  name: string;
  rows: Row[];
}

interface DbSnapshot {
  tables: TableSnapshot[];
  /** FTS5 tables: external content ones are rebuilt, contentless ones emptied. */
  fts: Array<{ name: string; contentless: boolean }>;
  autoincrement: boolean;
}

const VERSION_TABLE = 'public_data_version';

/** Base tables (not FTS5 tables or their shadow tables, not D1's or SQLite's own). */
async function describeDb(db: D1Database): Promise<Omit<DbSnapshot, 'tables'> & { names: string[] }> {
  const { results } = await db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all<{ name: string; sql: string | null }>();
  const fts = results
    .filter((t) => /CREATE VIRTUAL TABLE/i.test(t.sql ?? ''))
    .map((t) => ({ name: t.name, contentless: /content\s*=\s*''/i.test(t.sql ?? '') }));
  const shadow = (name: string) => fts.some((f) => name.startsWith(`${f.name}_`));
  const names = results
    .map((t) => t.name)
    .filter(
      (name) => !name.startsWith('sqlite_') && !name.startsWith('_cf_') && name !== 'd1_migrations' && !fts.some((f) => f.name === name) && !shadow(name),
    );
  return { names, fts, autoincrement: results.some((t) => t.name === 'sqlite_sequence') };
}

export async function snapshotDb(db: D1Database): Promise<DbSnapshot> {
  const { names, fts, autoincrement } = await describeDb(db);
  const tables: TableSnapshot[] = [];
  for (const name of names) {
    const { results } = await db.prepare(`SELECT * FROM "${name}"`).all<Row>();
    tables.push({ name, rows: results });
  }
  return { tables, fts, autoincrement };
}

async function counts(db: D1Database, names: string[]): Promise<Map<string, number>> {
  const out = await db.batch(names.map((name) => db.prepare(`SELECT count(*) AS n FROM "${name}"`)));
  return new Map(names.map((name, i) => [name, Number((out[i]!.results[0] as { n: number }).n)]));
}

/** Puts `db` back to `snap` (see the file comment); throws when a table's row count then differs from it. */
export async function restoreDb(db: D1Database, snap: DbSnapshot): Promise<void> {
  const names = snap.tables.map((t) => t.name);
  if (names.length === 0) return;
  const before = await counts(db, names);
  const changed = snap.tables.filter((t) => t.rows.length > 0 || before.get(t.name) !== 0);
  const hasVersion = snap.tables.some((t) => t.name === VERSION_TABLE);
  const version = hasVersion ? ((await db.prepare(`SELECT max(version) AS v FROM ${VERSION_TABLE}`).first<{ v: number | null }>())?.v ?? 0) : 0;
  if (changed.length === 0) return;

  const stmts: D1PreparedStatement[] = [db.prepare('PRAGMA defer_foreign_keys = on')];
  // Twice: a delete trigger may write a row into a table emptied before it.
  for (let pass = 0; pass < 2; pass++) for (const t of changed) stmts.push(db.prepare(`DELETE FROM "${t.name}"`));
  for (const f of snap.fts) if (f.contentless) stmts.push(db.prepare(`INSERT INTO "${f.name}" ("${f.name}") VALUES ('delete-all')`));
  if (snap.autoincrement) stmts.push(db.prepare('DELETE FROM sqlite_sequence'));
  for (const t of changed) {
    for (const row of t.rows) {
      const cols = Object.keys(row);
      stmts.push(
        db
          .prepare(`INSERT INTO "${t.name}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`)
          .bind(...cols.map((c) => row[c])),
      );
    }
  }
  for (const f of snap.fts) if (!f.contentless) stmts.push(db.prepare(`INSERT INTO "${f.name}" ("${f.name}") VALUES ('rebuild')`));
  if (hasVersion) stmts.push(db.prepare(`UPDATE ${VERSION_TABLE} SET version = ?`).bind(version + 1));
  await db.batch(stmts);

  const after = await counts(db, names);
  const wrong = snap.tables.filter((t) => after.get(t.name) !== t.rows.length).map((t) => `${t.name}: ${after.get(t.name)} rows, migrated ${t.rows.length}`);
  if (wrong.length) throw new Error(`integration group: the database reset left rows behind (${wrong.join('; ')})`);
}

async function emptyBucket(bucket: R2Bucket): Promise<void> {
  for (;;) {
    const listed = await bucket.list({ limit: 1000 });
    if (listed.objects.length === 0) return;
    await bucket.delete(listed.objects.map((o) => o.key));
  }
}

let snapshots: Promise<{ db: DbSnapshot; restore: DbSnapshot }> | undefined;

/** Takes the migrated state once per runtime: call before any test has run (run-group.ts does, at import). */
export function snapshotStorage(): Promise<unknown> {
  snapshots ??= Promise.all([snapshotDb(env.DB), snapshotDb(env.RESTORE_DB)]).then(([db, restore]) => ({ db, restore }));
  return snapshots;
}

/** Storage as the migrations left it (see the file comment). */
export async function resetStorage(): Promise<void> {
  const snap = await (snapshots ?? Promise.reject(new Error('snapshotStorage() was not called before the first test')));
  await restoreDb(env.DB, snap.db);
  await restoreDb(env.RESTORE_DB, snap.restore);
  await Promise.all([emptyBucket(env.IMPORTS), emptyBucket(env.CARDS), emptyBucket(env.BACKUPS)]);
  invalidateDataVersion();
}
