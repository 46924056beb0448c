/**
 * The one home for D1 batch helpers. D1 has no interactive transactions: an all-or-nothing write is one
 * statement or one `db.batch([...])` (ARCHITECTURE.md "Atomicity").
 *
 * Counting changed rows: D1's `meta.changes` also counts rows changed by triggers, and every write to
 * quizzes fires the listing_series triggers (migration 0005), so counts of rows that matter come from
 * `.returning()` — an array whose length is the count. `changes()` reads either shape.
 */
import { getTableColumns, is, SQL, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { BatchItem } from 'drizzle-orm/batch';
import { rowsPerInsert } from '../lib/chunks';
import type { Db } from './client';
import { quizzes } from './schema';

/** The quiz columns a multi-row INSERT binds: every column but the generated ones (the virtual weekday). */
export const QUIZ_INSERT_COLUMNS = Object.values(getTableColumns(quizzes)).filter(
  (col) => !(col as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert(),
).length;

/**
 * Quiz rows per multi-row INSERT, from the table itself: a row binds QUIZ_INSERT_COLUMNS parameters (20 with
 * the language of issue 31.3), so 5 rows (100 parameters) stay within D1's 100 per statement.
 */
export const QUIZ_ROWS_PER_INSERT = rowsPerInsert(QUIZ_INSERT_COLUMNS);

/** One statement that may go into `db.batch([...])`. */
export type BatchStatement = BatchItem<'sqlite'>;

/**
 * Rows one statement changed: the returned rows of a `.returning()` statement, else D1's
 * `meta.changes` (inflated by triggers: use it only where no trigger fires or an upper bound is fine).
 */
export function changes(result: unknown): number {
  if (Array.isArray(result)) return result.length;
  const meta = (result as { meta?: { changes?: unknown } } | null | undefined)?.meta;
  return typeof meta?.changes === 'number' ? meta.changes : 0;
}

/** Runs statements as ONE D1 batch (all-or-nothing); returns `changes()` of each, in order. */
export async function runBatch(db: Db, items: readonly BatchStatement[]): Promise<number[]> {
  if (!items.length) return [];
  const results: unknown[] = await db.batch(items as [BatchStatement, ...BatchStatement[]]);
  return results.map(changes);
}

/**
 * `db.run(sql)` usable inside `db.batch([...])`. drizzle-orm 0.45's D1 batch reads `.stmt` of each item,
 * which a raw statement with bound parameters lacks (it would throw "reading 'bind'"), so we prepare it.
 */
export function batchableRun(db: Db, query: SQL) {
  const raw = db.run(query);
  const built = (raw as unknown as { getQuery(): { sql: string } }).getQuery();
  (raw as unknown as { stmt: D1PreparedStatement }).stmt = db.$client.prepare(built.sql);
  return raw;
}

/** The path the claim guard hands json_extract when the claim changed no row: an error only it raises. */
const CLAIM_LOST_PATH = 'claim-lost';

/**
 * Goes into a batch right after a claim (an UPDATE or INSERT that changes no row when another request won):
 * when the claim changed no row it fails, and with it the whole batch — a batch cannot branch. It is a SELECT,
 * so it needs no table: `json_extract` refuses a path without `$` with an error naming the path (SQLite's
 * "bad JSON path"), which `claimLost` recognises. `changes()` counts only the rows the claim itself changed,
 * never a trigger's. Put it directly after the claim: any statement between them resets the count.
 */
export function abortUnlessClaimed(db: Db) {
  return batchableRun(db, sql.raw(`SELECT json_extract('{}', CASE WHEN changes() = 0 THEN '${CLAIM_LOST_PATH}' ELSE '$' END)`));
}

/** Whether a batch failed because its `abortUnlessClaimed` guard found the claim lost (on the error or a cause below it). */
export function claimLost(err: unknown): boolean {
  for (let e = err, depth = 0; e != null && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (new RegExp(`JSON path[^']*'${CLAIM_LOST_PATH}'`, 'i').test(String((e as { message?: unknown }).message ?? e))) return true;
  }
  return false;
}

/**
 * Most key lookups sent as one batch of statements (batchAll): D1 counts each statement toward a Worker invocation's
 * query limit (1 000), so a longer list (a feed's or digest's big page) is one json_each join instead, which reads
 * the list as well (a row an id more, found or not).
 */
export const BATCH_LOOKUPS_MAX = 24;

/**
 * Runs SELECTs as ONE D1 batch (one round trip) and returns each one's rows, in order. For a handful of
 * key lookups this reads one row each, where `id IN (…)` reads the list's ephemeral table as well.
 */
export async function batchAll<T>(db: Db, queries: readonly SQL[]): Promise<T[][]> {
  if (!queries.length) return [];
  const dialect = (db as unknown as { dialect: { sqlToQuery(q: SQL): { sql: string; params: unknown[] } } }).dialect;
  const statements = queries.map((q) => {
    const built = dialect.sqlToQuery(q);
    return db.$client.prepare(built.sql).bind(...built.params);
  });
  const results = await db.$client.batch<T>(statements);
  return results.map((r) => r.results);
}

/**
 * `INSERT INTO table SELECT <values> WHERE <condition>`: an insert that happens only while `condition` holds,
 * decided inside the one statement (a count checked in the Worker first could be passed by parallel requests).
 * Add `.returning()`: no row back means the condition refused it. Columns missing from `values` get their
 * schema default (SQL or `$defaultFn`), else NULL; the column list is drizzle's own for INSERT … SELECT
 * (every insertable column, in schema order).
 */
export function insertWhere<T extends SQLiteTable>(db: Db, table: T, values: Partial<T['$inferInsert']>, condition: SQL) {
  const given = values as Record<string, unknown>;
  const columns = Object.entries(getTableColumns(table)).filter(([, col]) => !(col as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert());
  const select = sql.join(
    columns.map(([key, col]) => {
      if (key in given && given[key] !== undefined) {
        const v = given[key];
        return is(v, SQL) ? v : sql`${col.mapToDriverValue(v)}`;
      }
      if (col.defaultFn) return sql`${col.mapToDriverValue(col.defaultFn())}`;
      if (is(col.default, SQL)) return sql`(${col.default})`;
      if (col.default !== undefined) return sql`${col.mapToDriverValue(col.default)}`;
      return sql`NULL`;
    }),
    sql`, `,
  );
  return db.insert(table).select(sql`SELECT ${select} WHERE ${condition}`);
}
