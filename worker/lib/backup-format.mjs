/**
 * The one backup format (issue 26.1, docs/features/backup.md), shared by `npm run db:backup` / `db:restore`
 * (scripts/d1-backup.mjs, Node) and the nightly backup Workflow (worker/features/backup, workerd). Plain
 * JavaScript with a .d.mts beside it, so Node runs it without a build step and the Worker imports it typed.
 *
 * A backup is UTF-8 SQL: `--` comment lines, and one `INSERT INTO "table" ("col", …) VALUES (…);` per row on
 * one line. Values are written losslessly:
 *   NULL · integers as SQLite prints them (read as text, so 64-bit values keep every digit) · reals in the
 *   shortest form that reads back to the same double, always with a `.` or exponent (9e999 = ±Infinity) ·
 *   text as a quoted literal ('…', quote doubled) when it has no control character, else — any of U+0000–
 *   U+001F (NUL, line feed, CR, tab …), U+007F–U+009F (NEL), U+2028/U+2029, U+FEFF, or bytes that are not
 *   valid UTF-8 — as `CAST(X'<utf-8 hex>' AS TEXT)` · blobs as X'<hex>'.
 * So no statement spans two lines and the file holds no raw NUL, yet every value reads back byte for byte.
 * The reader splits by statements (quotes, identifiers and comments respected), not by lines, so backups
 * written before this format (raw line breaks inside literals) restore too.
 */

/** Tables never backed up: the search indexes and listing_dates (refilled on restore), SQLite/D1 internals, the migrations journal. */
export const SKIP_TABLE = /^(sqlite_|_cf_|d1_migrations$|listing_series_fts|listing_series_words|listing_search|listing_dates$)/;

/** Rows per page when a table is read (the Worker's steps and the script's queries alike). */
export const PAGE_ROWS = 1000;

/** Quotes an SQL identifier. */
export const ident = (name) => `"${String(name).replace(/"/g, '""')}"`;

/** Characters that a quoted literal must not hold raw: they break lines, vanish or truncate in transit. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (written as \u escapes)
const UNSAFE_TEXT = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\ufeff]/;

/** SQL that lists the candidate tables (names); the caller drops SKIP_TABLE matches. */
export const TABLES_SQL = `SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`;

/** Per table: SQL for its foreign-key parents, its columns (pragma_table_xinfo: hidden ≠ 0 = generated) and its row count. */
export const fkSql = (name) => `SELECT "table" AS parent FROM pragma_foreign_key_list('${name.replace(/'/g, "''")}')`;
export const columnsSql = (name) => `SELECT name, hidden FROM pragma_table_xinfo('${name.replace(/'/g, "''")}')`;
export const countSql = (name) => `SELECT COUNT(*) AS n FROM ${ident(name)}`;

/** Backed-up tables, parents before children (foreign keys), so a restore's inserts never wait for a parent. */
export function tableOrder(names, parentsOf) {
  const all = names.filter((n) => !SKIP_TABLE.test(n));
  const parents = new Map(all.map((n) => [n, new Set((parentsOf(n) ?? []).filter((p) => p !== n))]));
  const out = [];
  const visit = (n, path = new Set()) => {
    if (out.includes(n) || path.has(n) || !parents.has(n)) return;
    path.add(n);
    for (const p of parents.get(n)) visit(p, path);
    out.push(n);
  };
  for (const n of all) visit(n);
  return out;
}

/** Ordinary (stored, non-generated) column names from pragma_table_xinfo rows. */
export const storedColumns = (xinfo) => xinfo.filter((c) => Number(c.hidden) === 0).map((c) => c.name);

/**
 * One page of a table, in rowid order after `afterRowid` (null = from the start). Every value is tagged so
 * that no driver can lose it: 'i' + integer text, 't' + hex of the text's bytes, 'b' + hex of a blob,
 * a real as a number ('r9e999' / 'r-9e999' for ±Infinity), NULL as null. Columns come back as c0, c1, …
 */
export function pageSql(table, cols, afterRowid, limit = PAGE_ROWS) {
  const values = cols.map((c, i) => {
    const x = ident(c);
    return `CASE typeof(${x}) WHEN 'integer' THEN 'i' || ${x} WHEN 'text' THEN 't' || hex(${x}) WHEN 'blob' THEN 'b' || hex(${x}) WHEN 'real' THEN CASE WHEN ${x} = 9e999 THEN 'r9e999' WHEN ${x} = -9e999 THEN 'r-9e999' ELSE ${x} END END AS c${i}`;
  });
  const where = afterRowid === null || afterRowid === undefined ? '' : ` WHERE rowid > ${Number(afterRowid)}`;
  return `SELECT rowid AS __rowid${values.length ? ', ' : ''}${values.join(', ')} FROM ${ident(table)}${where} ORDER BY rowid LIMIT ${Number(limit)}`;
}

const HEX = /^[0-9A-Fa-f]*$/;
const fatalUtf8 = new TextDecoder('utf-8', { fatal: true });

function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(i * 2, 2), 16);
  return out;
}

/** A real as a literal that SQLite reads back as the same REAL (never as an INTEGER). */
function realLiteral(x) {
  if (x === Infinity) return '9e999';
  if (x === -Infinity) return '-9e999';
  if (Number.isNaN(x)) return 'NULL';
  if (Object.is(x, -0)) return '-0.0';
  const s = String(x);
  return /[.eE]/.test(s) ? s : `${s}.0`;
}

/** Text as a quoted literal, or as CAST(X'…' AS TEXT) when it holds a character a literal must not hold raw. */
export function textLiteral(text) {
  if (UNSAFE_TEXT.test(text)) return `CAST(X'${bytesToHex(new TextEncoder().encode(text))}' AS TEXT)`;
  return `'${text.replace(/'/g, "''")}'`;
}

function bytesToHex(bytes) {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0').toUpperCase();
  return s;
}

/** The SQL literal of one tagged value from pageSql. */
export function literal(v) {
  if (v === null || v === undefined) return 'NULL';
  if (typeof v === 'number') return realLiteral(v);
  if (typeof v !== 'string' || v.length === 0) throw new Error(`backup: unexpected value ${JSON.stringify(v)}`);
  const tag = v[0];
  const rest = v.slice(1);
  if (tag === 'i') {
    if (!/^-?\d+$/.test(rest)) throw new Error(`backup: bad integer ${rest}`);
    return rest;
  }
  if (tag === 'r') return rest === '9e999' || rest === '-9e999' ? rest : realLiteral(Number(rest));
  if (!HEX.test(rest) || rest.length % 2) throw new Error(`backup: bad hex for ${tag}`);
  if (tag === 'b') return `X'${rest.toUpperCase()}'`;
  if (tag === 't') {
    let text;
    try {
      text = fatalUtf8.decode(hexToBytes(rest));
    } catch {
      return `CAST(X'${rest.toUpperCase()}' AS TEXT)`; // not UTF-8: keep the bytes as they are
    }
    return textLiteral(text);
  }
  throw new Error(`backup: unknown tag ${tag}`);
}

/** One row of pageSql's result as an INSERT statement (one line). */
export function insertStatement(table, cols, row) {
  return `INSERT INTO ${ident(table)} (${cols.map(ident).join(', ')}) VALUES (${cols.map((_, i) => literal(row[`c${i}`])).join(', ')});`;
}

/** The file's first lines. */
export function headerLines(createdAt, source) {
  return [
    `-- Quizkväll D1 backup, ${createdAt}, ${source}. Format: docs/features/backup.md (one INSERT per line; text with control characters as CAST(X'…' AS TEXT)).`,
    `-- Restore with: npm run db:restore -- <this file>. The search indexes and listing_dates are rebuilt on restore.`,
  ];
}

/** The line that opens a table's rows; a restore reads the table list and the expected counts from these. */
export const tableLine = (name, count) => `-- table ${name} ${count}`;
const TABLE_LINE = /^-- table (\S+) (\d+)$/;

/**
 * Splits SQL text into statements (each with its `;`), skipping comments and blank space; single quotes,
 * double quotes, [brackets] and `backticks` are respected, so a `;` or line break inside a literal is data.
 * `-- table` comment lines are returned separately as { name, count } in file order.
 */
export function parseBackup(text) {
  const statements = [];
  const tables = [];
  let i = 0;
  const n = text.length;
  let start = -1;
  while (i < n) {
    const ch = text[i];
    if (start < 0) {
      if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r') {
        i++;
        continue;
      }
      if (ch === '-' && text[i + 1] === '-') {
        let end = text.indexOf('\n', i);
        if (end < 0) end = n;
        const m = TABLE_LINE.exec(text.slice(i, end).replace(/\r$/, ''));
        if (m) tables.push({ name: m[1], count: Number(m[2]) });
        i = end + 1;
        continue;
      }
      if (ch === '/' && text[i + 1] === '*') {
        const end = text.indexOf('*/', i + 2);
        i = end < 0 ? n : end + 2;
        continue;
      }
      start = i;
    }
    if (ch === "'" || ch === '"' || ch === '`' || ch === '[') {
      const close = ch === '[' ? ']' : ch;
      let j = i + 1;
      for (;;) {
        const k = text.indexOf(close, j);
        if (k < 0) throw new Error(`backup: unterminated ${ch} at offset ${i}`);
        if (close !== ']' && text[k + 1] === close) {
          j = k + 2; // doubled quote inside the literal
          continue;
        }
        i = k + 1;
        break;
      }
      continue;
    }
    if (ch === '-' && text[i + 1] === '-') {
      const end = text.indexOf('\n', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    if (ch === ';') {
      statements.push(text.slice(start, i + 1));
      start = -1;
    }
    i++;
  }
  if (start >= 0 && text.slice(start).trim()) throw new Error('backup: the last statement has no ; (file cut short?)');
  return { tables, statements };
}

/**
 * Deletes the rows of `table` whose foreign key points at no row (SQLite's foreign-key check). A nightly backup
 * reads its tables minutes apart, parents first, so a child written after its parent's table was read arrives
 * without its parent: with foreign keys deferred the restore would fail at commit for one such row.
 */
export const orphanDeleteSql = (table) =>
  `DELETE FROM ${ident(table)} WHERE rowid IN (SELECT rowid FROM pragma_foreign_key_check('${String(table).replace(/'/g, "''")}'));`;

/**
 * The statements that replace a database's data with a backup's, in order: foreign keys deferred, every
 * trigger dropped (inserting quizzes must not recompute listing_series with new random shuffles, nor write
 * the search index row by row), the backed-up tables emptied (children first), the backup's rows, the rows
 * without a parent deleted (orphanDeleteSql, table by table parents first, so a child of a dropped row is
 * checked after it; ON DELETE CASCADE children go with it), the triggers recreated exactly as they were, then
 * `fills` (the derived tables: both search indexes and listing_dates, from scripts/listing-series-triggers.mjs).
 * `triggers` are sqlite_master's {name, sql}. What was dropped shows as the `-- table` counts less the restored
 * counts (droppedRows).
 */
export function restoreStatements(backupText, triggers, fills) {
  const { tables, statements } = parseBackup(backupText);
  const bad = statements.find((s) => !s.startsWith('INSERT INTO "'));
  if (bad) throw new Error(`En säkerhetskopia får bara innehålla INSERT-satser: ${bad.slice(0, 80)}`);
  return {
    tables,
    statements: [
      'PRAGMA defer_foreign_keys = on;',
      ...triggers.map((t) => `DROP TRIGGER IF EXISTS ${ident(t.name)};`),
      ...tables
        .map((t) => t.name)
        .reverse()
        .map((t) => `DELETE FROM ${ident(t)};`),
      ...statements,
      ...tables.map((t) => orphanDeleteSql(t.name)),
      ...triggers.map((t) => `${t.sql.trim().replace(/;?\s*$/, '')};`),
      ...fills.flatMap((f) => parseBackup(f).statements),
    ],
  };
}

/** Rows a restore dropped per table: the file's `-- table` counts less the restored counts (tables that lost none left out). */
export function droppedRows(tables, counts) {
  const out = {};
  tables.forEach((t, i) => {
    const n = t.count - Number(counts[i]);
    if (n < 0) throw new Error(`Återställningen gav fler rader än säkerhetskopian i ${t.name}`);
    if (n > 0) out[t.name] = n;
  });
  return out;
}
