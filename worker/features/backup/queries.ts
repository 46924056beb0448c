/**
 * The backup's reads (issue 30.6, 28.6). They go through D1 itself, not drizzle: the dump is generic over every
 * table by name (sqlite_master, PRAGMA foreign_key_list / table_xinfo, rowid pages), and the SQL text is the one
 * `npm run db:backup` uses (worker/lib/backup-format.mjs), so both produce the same file.
 */
import { columnsSql, fkSql, pageSql, SKIP_TABLE, storedColumns, TABLES_SQL, type PageRow } from '../../lib/backup-format.mjs';

async function rawAll<T>(d1: D1Database, sqlText: string): Promise<T[]> {
  return (await d1.prepare(sqlText).all<T>()).results;
}

/** The tables a backup holds (D1's and SQLite's own tables skipped). */
export async function backupTableNames(d1: D1Database): Promise<string[]> {
  return (await rawAll<{ name: string }>(d1, TABLES_SQL)).map((t) => t.name).filter((n) => !SKIP_TABLE.test(n));
}

/** Per table, in one batch: the tables its foreign keys point at, and its stored columns (generated ones left out). */
export async function tableMeta(d1: D1Database, names: string[]): Promise<{ fks: Map<string, string[]>; cols: Map<string, string[]> }> {
  const meta = await d1.batch([...names.map((n) => d1.prepare(fkSql(n))), ...names.map((n) => d1.prepare(columnsSql(n)))]);
  const fks = new Map(names.map((n, i) => [n, (meta[i]!.results as Array<{ parent: string }>).map((f) => f.parent)]));
  const cols = new Map(names.map((n, i) => [n, storedColumns(meta[names.length + i]!.results as Array<{ name: string; hidden: number }>)]));
  return { fks, cols };
}

/** One page of a table in rowid order, after `last` (null: from its start). */
export function page(d1: D1Database, table: string, cols: string[], last: number | null, rows: number): Promise<PageRow[]> {
  return rawAll<PageRow>(d1, pageSql(table, cols, last, rows));
}
