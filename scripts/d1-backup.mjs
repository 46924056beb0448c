/**
 * Backup and restore of the D1 database that work with the FTS5 search tables (issue 21).
 *
 *   npm run db:backup [-- --remote] [--out FILE] [--persist-to DIR] [--page-rows N]
 *   npm run db:restore -- FILE [--remote] [--persist-to DIR] [--yes]
 *   npm run db:restore -- --from-r2 KEY [--remote] [--persist-to DIR] [--yes]   (a nightly backup in R2)
 *
 * `wrangler d1 export` refuses databases with FTS5 virtual tables (workers-sdk #6305), so the backup
 * reads every ordinary table itself (`wrangler d1 execute --json`, paged by rowid) and writes one SQL
 * file of INSERTs — without the FTS5 tables `listing_search` / `listing_search_words` (and, before
 * migration 0020, `listing_series_fts` / `listing_series_words`) and their shadow tables, which are
 * derived from `listing_series`, nor `listing_dates` (derived too, and WITHOUT ROWID: no rowid to page
 * by). Generated columns are left out (SQLite computes them). The database is never changed by a backup.
 * The file format — one INSERT per line, every value lossless (text with line breaks, NUL or other control
 * characters as CAST(X'…' AS TEXT)) — lives in worker/lib/backup-format.mjs, shared with the nightly R2
 * backup; docs/features/backup.md describes it. A restore parses the file by statements, not by lines.
 *
 * A restore replaces the data of the target database with the file's: it applies the migrations
 * (so an empty database gets the schema, FTS5 tables and triggers), then in ONE `d1 execute --file`:
 * drops every trigger (so inserting quizzes does not recompute listing_series with new random
 * shuffles, and FTS is not written row by row), deletes the rows of every backed-up table, inserts
 * the file's rows, recreates the triggers exactly as they were, and refills both FTS5 indexes from
 * `listing_series` (SEARCH_FILL_SQL of scripts/listing-series-triggers.mjs: they are contentless, keyed
 * by each unit's search key) and `listing_dates` (DATES_FILL_SQL). Before commit it deletes the rows whose
 * foreign key points at no row (SQLite's foreign-key check; a nightly backup reads its tables minutes apart, so a
 * child can arrive without its parent) and reports them per table: the file's counts less the restored ones.
 *
 * Local by default (the same .wrangler state as `npm start`, or --persist-to); `--remote` for the
 * production database (the restore then asks for --yes).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { DATES_FILL_SQL, SEARCH_FILL_SQL } from './listing-series-triggers.mjs';
import {
  PAGE_ROWS,
  SKIP_TABLE,
  TABLES_SQL,
  columnsSql,
  countSql,
  droppedRows,
  fkSql,
  headerLines,
  insertStatement,
  pageSql,
  parseBackup,
  restoreStatements,
  storedColumns,
  tableLine,
  tableOrder,
} from '../worker/lib/backup-format.mjs';

export { SKIP_TABLE };

const root = join(import.meta.dirname, '..');
const wrangler = join(root, 'node_modules', '.bin', 'wrangler');

function parseArgs(argv) {
  const out = { remote: false, yes: false, persistTo: null, out: null, file: null, pageRows: PAGE_ROWS };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--remote') out.remote = true;
    else if (a === '--yes' || a === '-y') out.yes = true;
    else if (a === '--persist-to') out.persistTo = argv[++i];
    else if (a === '--out') out.out = argv[++i];
    else if (a === '--page-rows') out.pageRows = Number(argv[++i]);
    else if (a === '--from-r2') out.fromR2 = argv[++i];
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

/** Reads every backed-up table page by page (worker/lib/backup-format.mjs) and returns the backup's text. */
export function backup(opts) {
  const [tables] = query(opts, TABLES_SQL);
  const all = tables.map((t) => t.name).filter((n) => !SKIP_TABLE.test(n));
  // Foreign keys, ordinary (non-generated) columns and row counts of every table, in one call.
  const meta = query(opts, [...all.map(fkSql), ...all.map(columnsSql), ...all.map(countSql)].join('; '));
  const fks = meta.slice(0, all.length);
  const names = tableOrder(all, (n) => fks[all.indexOf(n)].map((f) => f.parent));
  const info = names.map((n) => meta[all.length + all.indexOf(n)]);
  const counts = names.map((n) => meta[2 * all.length + all.indexOf(n)]);
  const lines = headerLines(new Date().toISOString(), opts.remote ? 'remote' : 'local');
  // Each table's rows in rowid order, a bounded page per query; the next page of every unfinished table is
  // read in one wrangler call (one round trip per page depth, not per table and page).
  const tabs = names.map((name, i) => ({ name, cols: storedColumns(info[i]), total: counts[i][0].n, last: null, fetched: 0, lines: [] }));
  const pageRows = opts.pageRows ?? PAGE_ROWS;
  for (let open = tabs.filter((t) => t.total > 0); open.length; ) {
    const pages = query(opts, open.map((t) => pageSql(t.name, t.cols, t.last, pageRows)).join('; '));
    open = open.filter((t, i) => {
      const rows = pages[i];
      for (const r of rows) t.lines.push(insertStatement(t.name, t.cols, r));
      if (rows.length) t.last = rows[rows.length - 1].__rowid;
      t.fetched += rows.length;
      return rows.length === pageRows;
    });
  }
  const summary = {};
  for (const t of tabs) {
    summary[t.name] = t.fetched;
    lines.push(tableLine(t.name, t.fetched), ...t.lines);
  }
  return { sql: `${lines.join('\n')}\n`, summary };
}

/** The derived tables a restore refills: both search indexes (contentless FTS5) and listing_dates. */
export const RESTORE_FILLS = [SEARCH_FILL_SQL, 'DELETE FROM listing_dates;', DATES_FILL_SQL];

/** The SQL that replaces the target's data with the backup's (restoreStatements of the shared format module). */
export function restoreSql(opts, backupSql) {
  const [triggers] = query(opts, `SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`);
  return restoreStatements(backupSql, triggers, RESTORE_FILLS).statements.join('\n');
}

/**
 * Writes `text` to a file of its own under .wrangler, passes its path to `use` and removes it afterwards (a
 * restore's SQL holds every row of the database: it must not stay behind on disk).
 */
function withTempFile(prefix, text, use) {
  const dir = join(root, '.wrangler');
  mkdirSync(dir, { recursive: true });
  const tmp = mkdtempSync(join(dir, `${prefix}-`));
  const file = join(tmp, `${prefix}.sql`);
  try {
    if (text !== null) writeFileSync(file, text);
    return use(file);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Restores the backup text and compares each table's row count with the file's `-- table` lines. Returns the
 * rows dropped per table: rows without a parent (a nightly backup reads its tables minutes apart) and the
 * ON DELETE CASCADE children that went with them; any other difference is an error.
 */
export function restoreText(opts, backupSql) {
  run(['d1', 'migrations', 'apply', 'DB', ...target(opts)]);
  const sqlText = restoreSql(opts, backupSql);
  withTempFile('restore', sqlText, (file) => run(['d1', 'execute', 'DB', ...target(opts), '--file', file, '--yes']));
  const { tables } = parseBackup(backupSql);
  if (!tables.length) return { dropped: {} };
  const counts = query(opts, tables.map((t) => countSql(t.name)).join('; '));
  return {
    dropped: droppedRows(
      tables,
      counts.map((c) => c[0].n),
    ),
  };
}

export function restore(opts, file) {
  return restoreText(opts, readFileSync(file, 'utf8'));
}

/** The restore's report line about dropped rows (Swedish, for the operator). */
export function droppedReport(dropped) {
  const entries = Object.entries(dropped);
  if (!entries.length) return 'Inga rader utan förälder: varje tabell har säkerhetskopians antal rader.';
  const total = entries.reduce((n, [, c]) => n + c, 0);
  return `${total} rader utan förälder (skrivna medan säkerhetskopian lästes) togs bort: ${entries.map(([t, n]) => `${t} ${n}`).join(', ')}.`;
}

/** The nightly backups' bucket (wrangler.toml BACKUPS; worker/features/backup). */
export const BACKUP_BUCKET = 'quizkvall-backups';

/** Downloads one nightly backup (`wrangler r2 object get`, local or --remote) and restores it. */
export function restoreFromR2(opts, key) {
  return withTempFile('r2-backup', null, (file) => {
    run(['r2', 'object', 'get', `${BACKUP_BUCKET}/${key}`, ...target(opts), '--file', file]);
    return restore(opts, file);
  });
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
    console.log(
      Object.entries(summary)
        .map(([t, n]) => `  ${t}: ${n}`)
        .join('\n'),
    );
  } else if (mode === 'restore') {
    if (!opts.file && !opts.fromR2) {
      console.error('Ange filen: npm run db:restore -- FILE [--remote], eller en nattlig säkerhetskopia: npm run db:restore -- --from-r2 KEY [--remote]');
      process.exit(2);
    }
    if (opts.remote && !opts.yes) {
      console.error('Återställning ersätter ALL data i produktionsdatabasen. Kör igen med --yes om du är säker.');
      process.exit(2);
    }
    const { dropped } = opts.fromR2 ? restoreFromR2(opts, opts.fromR2) : restore(opts, opts.file);
    console.log(
      `Återställd från ${opts.fromR2 ? `R2 ${BACKUP_BUCKET}/${opts.fromR2}` : opts.file} (${opts.remote ? 'remote' : 'lokalt'}); sökindexen är ombyggda.`,
    );
    console.log(droppedReport(dropped));
  } else {
    console.error('Användning: node scripts/d1-backup.mjs backup|restore …');
    process.exit(2);
  }
}
