/**
 * Backup and restore of the D1 database that work with the FTS5 search tables (issue 21).
 *
 *   npm run db:backup [-- --remote] [--out FILE] [--persist-to DIR]
 *   npm run db:restore FILE [-- --remote] [--persist-to DIR] [--yes]
 *
 * `wrangler d1 export` refuses databases with FTS5 virtual tables (workers-sdk #6305), so the backup
 * reads every ordinary table itself (`wrangler d1 execute --json`, paged by rowid) and writes one SQL
 * file of INSERTs — without the FTS5 tables `listing_search` / `listing_search_words` (and, before
 * migration 0020, `listing_series_fts` / `listing_series_words`) and their shadow tables, which are
 * derived from `listing_series`, nor `listing_dates` (derived too, and WITHOUT ROWID: no rowid to page
 * by). Generated columns are left out (SQLite computes them). The database is never changed by a backup.
 *
 * A restore replaces the data of the target database with the file's: it applies the migrations
 * (so an empty database gets the schema, FTS5 tables and triggers), then in ONE `d1 execute --file`:
 * drops every trigger (so inserting quizzes does not recompute listing_series with new random
 * shuffles, and FTS is not written row by row), deletes the rows of every backed-up table, inserts
 * the file's rows, recreates the triggers exactly as they were, and refills both FTS5 indexes from
 * `listing_series` (SEARCH_FILL_SQL of scripts/listing-series-triggers.mjs: they are contentless, keyed
 * by each unit's search key) and `listing_dates` (DATES_FILL_SQL).
 *
 * Local by default (the same .wrangler state as `npm start`, or --persist-to); `--remote` for the
 * production database (the restore then asks for --yes).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATES_FILL_SQL, SEARCH_FILL_SQL } from './listing-series-triggers.mjs';

const root = join(import.meta.dirname, '..');
const wrangler = join(root, 'node_modules', '.bin', 'wrangler');

/** Tables never backed up: the search indexes and listing_dates (refilled on restore), SQLite/D1 internals, the migrations journal. */
export const SKIP_TABLE = /^(sqlite_|_cf_|d1_migrations$|listing_series_fts|listing_series_words|listing_search|listing_dates$)/;
const PAGE_ROWS = 4000;

function parseArgs(argv) {
  const out = { remote: false, yes: false, persistTo: null, out: null, file: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--remote') out.remote = true;
    else if (a === '--yes' || a === '-y') out.yes = true;
    else if (a === '--persist-to') out.persistTo = argv[++i];
    else if (a === '--out') out.out = argv[++i];
    else if (!a.startsWith('--') && !out.file) out.file = a;
  }
  return out;
}

function target(opts) {
  return opts.remote ? ['--remote'] : ['--local', ...(opts.persistTo ? ['--persist-to', opts.persistTo] : [])];
}

function run(args) {
  return execFileSync(wrangler, args, { cwd: root, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Runs SQL statements (joined by ';') and returns one result array per statement. */
export function query(opts, sqlText) {
  const out = run(['d1', 'execute', 'DB', ...target(opts), '--json', '--command', sqlText]);
  return JSON.parse(out).map((r) => r.results ?? []);
}

export function sqlValue(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : 'NULL';
  if (typeof v === 'boolean') return v ? '1' : '0';
  return `'${String(v).replace(/'/g, "''")}'`;
}

const q = (name) => `"${name.replace(/"/g, '""')}"`;

export function backup(opts) {
  const [tables] = query(opts, `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`);
  const all = tables.map((t) => t.name).filter((n) => !SKIP_TABLE.test(n));
  // Parents before children (foreign keys), so the restore's inserts never wait for a parent.
  const fks = query(opts, all.map((n) => `SELECT "table" AS parent FROM pragma_foreign_key_list('${n}')`).join('; '));
  const parents = new Map(all.map((n, i) => [n, new Set(fks[i].map((f) => f.parent).filter((p) => p !== n))]));
  const names = [];
  const visit = (n, path = new Set()) => {
    if (names.includes(n) || path.has(n) || !parents.has(n)) return;
    path.add(n);
    for (const p of parents.get(n)) visit(p, path);
    names.push(n);
  };
  all.forEach((n) => visit(n));
  // Ordinary (non-generated) columns and row counts, in one call.
  const info = query(opts, names.map((n) => `SELECT name, hidden FROM pragma_table_xinfo('${n}')`).join('; '));
  const counts = query(opts, names.map((n) => `SELECT COUNT(*) AS n FROM ${q(n)}`).join('; '));
  const lines = [
    `-- Quizkväll D1 backup, ${new Date().toISOString()}, ${opts.remote ? 'remote' : 'local'}.`,
    `-- Restore with: npm run db:restore <this file>. FTS5 tables are rebuilt on restore.`,
  ];
  const summary = {};
  names.forEach((name, i) => {
    const cols = info[i].filter((c) => c.hidden === 0).map((c) => c.name);
    const total = counts[i][0].n;
    summary[name] = total;
    lines.push(`-- table ${name} ${total}`);
    let last = null;
    for (let fetched = 0; fetched < total; ) {
      const where = last === null ? '' : `WHERE rowid > ${last}`;
      const [rows] = query(opts, `SELECT rowid AS "__rowid", ${cols.map(q).join(', ')} FROM ${q(name)} ${where} ORDER BY rowid LIMIT ${PAGE_ROWS}`);
      if (!rows.length) break;
      for (const r of rows) lines.push(`INSERT INTO ${q(name)} (${cols.map(q).join(', ')}) VALUES (${cols.map((c) => sqlValue(r[c])).join(', ')});`);
      last = rows[rows.length - 1].__rowid;
      fetched += rows.length;
    }
  });
  return { sql: `${lines.join('\n')}\n`, summary };
}

export function restoreSql(opts, backupSql) {
  const tables = [...backupSql.matchAll(/^-- table (\S+) (\d+)$/gm)].map((m) => m[1]);
  const [triggers] = query(opts, `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`);
  const inserts = backupSql.split('\n').filter((l) => l.startsWith('INSERT INTO '));
  return [
    'PRAGMA defer_foreign_keys = on;',
    ...triggers.map((t) => `DROP TRIGGER IF EXISTS ${q(t.name)};`),
    ...[...tables].reverse().map((t) => `DELETE FROM ${q(t)};`),
    ...inserts,
    ...triggers.map((t) => `${t.sql.trim().replace(/;?\s*$/, '')};`),
    SEARCH_FILL_SQL,
    'DELETE FROM listing_dates;',
    DATES_FILL_SQL,
  ].join('\n');
}

export function restore(opts, file) {
  run(['d1', 'migrations', 'apply', 'DB', ...target(opts)]);
  const sqlText = restoreSql(opts, readFileSync(file, 'utf8'));
  const tmp = join(root, '.wrangler', `restore-${Date.now()}.sql`);
  mkdirSync(dirname(tmp), { recursive: true });
  writeFileSync(tmp, sqlText);
  run(['d1', 'execute', 'DB', ...target(opts), '--file', tmp, '--yes']);
  return tmp;
}

const invokedAs = process.argv[1] ?? '';
if (invokedAs.endsWith('d1-backup.mjs')) {
  const [mode, ...rest] = process.argv.slice(2);
  const opts = parseArgs(rest);
  if (mode === 'backup') {
    const file = opts.out ?? join('backups', `quizkvall-${opts.remote ? 'remote' : 'local'}-${new Date().toISOString().replace(/[:.]/g, '-')}.sql`);
    const { sql, summary } = backup(opts);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, sql);
    console.log(`Säkerhetskopia sparad: ${file}`);
    console.log(Object.entries(summary).map(([t, n]) => `  ${t}: ${n}`).join('\n'));
  } else if (mode === 'restore') {
    if (!opts.file) {
      console.error('Ange filen: npm run db:restore -- FILE [--remote]');
      process.exit(2);
    }
    if (opts.remote && !opts.yes) {
      console.error('Återställning ersätter ALL data i produktionsdatabasen. Kör igen med --yes om du är säker.');
      process.exit(2);
    }
    restore(opts, opts.file);
    console.log(`Återställd från ${opts.file} (${opts.remote ? 'remote' : 'lokalt'}); sökindexen är ombyggda.`);
  } else {
    console.error('Användning: node scripts/d1-backup.mjs backup|restore …');
    process.exit(2);
  }
}
