/**
 * A page of the ordinary ranking (spec 01 §4 tiers 3–4): walked in index order (walkedPage, and its date
 * and free-text forms), or every match sorted (orderedPage) and counted (countUnits); and a signed-in
 * owner's own units that are not public, which a page merges in.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { SEARCH_ID_MASK, searchPlan, searchTable, type SearchPlan } from './search';
import { excludeSql, filterSql, quizFilterSql, rankOrderSql, seriesWhere, UNIT_COLUMNS, type SeriesFilter, type UnitRow } from './where';

/**
 * One page of the ordinary ranking for a public visitor, walked in index order: four ranges of
 * listing_series_city_rank_idx (with a city) or listing_series_rank_idx — in weekday mode the weekday's
 * partial index (listing_series_[city_]wd{w}_idx) — tier 0 from the seed, tier 0
 * before it, tier 1 likewise — each in `shuffle` order with every filter checked inside the index, under
 * one LIMIT, so the walk stops after offset + limit matching entries and only those `limit` rows are read.
 * Date mode walks listing_dates instead (walkedDatePage), free text the search index (walkedSearchPage).
 * Not for a scanned search or a signed-in owner's hidden units (`orderedPage`).
 */
export async function walkedPage(db: Db, f: SeriesFilter, exclude: number[], limit: number, offset: number): Promise<UnitRow[]> {
  const search = f.search ? searchPlan(f.search) : null;
  if (search && search.kind !== 'scan') return walkedSearchPage(db, { ...f, search: undefined }, search, exclude, limit, offset);
  if (f.date !== undefined) return walkedDatePage(db, { ...f, date: f.date }, exclude, limit, offset);
  const day = f.weekdayW;
  const kind = day === undefined ? 'rank' : `wd${day}`;
  const index = sql.raw(f.city ? `listing_series_city_${kind}_idx` : `listing_series_${kind}_idx`);
  const take = offset + limit;
  const where = [...filterSql(f), ...excludeSql(exclude)];
  const arm = (tier: number, fromSeed: boolean) =>
    sql`SELECT * FROM (SELECT e.id AS uid FROM listing_series e INDEXED BY ${index}
      WHERE ${sql.join([sql`e.tier = ${tier}`, fromSeed ? sql`e.shuffle >= ${f.seed}` : sql`e.shuffle < ${f.seed}`, ...where], sql` AND `)}
      ORDER BY e.shuffle LIMIT ${take})`;
  // A co-routine, not MATERIALIZED: D1 would count every row of a materialized table once more.
  return db.all<UnitRow>(sql`
    SELECT ${UNIT_COLUMNS}
    FROM (${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)} LIMIT ${limit} OFFSET ${offset}) walk
      CROSS JOIN listing_series e ON e.id = walk.uid`);
}

/**
 * walkedPage in date mode: the same four arms over listing_dates (migration 0019: one row per listed unit
 * and date, keyed date, tier, shuffle — or date, city, tier, shuffle with a city), so a page reads one
 * index entry per unit it shows, and each row knows the quiz of that date (`qid`: its card is read by key,
 * quizzesById). Quiz filters are checked on the unit inside each arm (one lookup per candidate).
 */
async function walkedDatePage(db: Db, f: SeriesFilter & { date: string }, exclude: number[], limit: number, offset: number): Promise<UnitRow[]> {
  const take = offset + limit;
  const quiz = quizFilterSql(f.quiz);
  const where = [
    sql`d.date = ${f.date}`,
    ...(f.city ? [sql`d.city = ${f.city}`] : []),
    ...quiz,
    ...(exclude.length ? [sql`d.uid NOT IN (SELECT value FROM json_each(${JSON.stringify(exclude)}))`] : []),
  ];
  const join = quiz.length ? sql` CROSS JOIN listing_series e ON e.id = d.uid` : sql``;
  const arm = (tier: number, fromSeed: boolean) =>
    sql`SELECT * FROM (SELECT d.uid AS uid, d.qid AS qid FROM listing_dates d${f.city ? sql` INDEXED BY listing_dates_city_idx` : sql``}${join}
      WHERE ${sql.join([...where, sql`d.tier = ${tier}`, fromSeed ? sql`d.shuffle >= ${f.seed}` : sql`d.shuffle < ${f.seed}`], sql` AND `)}
      ORDER BY d.shuffle, d.uid LIMIT ${take})`;
  return db.all<UnitRow>(sql`
    SELECT ${UNIT_COLUMNS}, walk.qid AS qid
    FROM (${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)} LIMIT ${limit} OFFSET ${offset}) walk
      CROSS JOIN listing_series e ON e.id = walk.uid`);
}

/**
 * walkedPage with free text: the same four arms as rowid ranges of the search index (migration 0020: its
 * rowid is the unit's search key, tier << 61 | shuffle << 30 | id), which FTS5 returns in rowid order and
 * stops reading at the LIMIT — a page reads about one match per card however many units match. The other
 * filters (`f`, without the search) are checked on each matching unit inside the arm (one lookup each), so
 * a broad word with a selective filter reads the matches until the page is full (at most every match).
 */
async function walkedSearchPage(
  db: Db,
  f: SeriesFilter,
  plan: Exclude<SearchPlan, { kind: 'scan' }>,
  exclude: number[],
  limit: number,
  offset: number,
): Promise<UnitRow[]> {
  const take = offset + limit;
  const fts = sql.raw(searchTable(plan));
  const uid = sql`(${fts}.rowid & ${sql.raw(String(SEARCH_ID_MASK))})`;
  const rest = filterSql(f);
  const join = rest.length ? sql` CROSS JOIN listing_series e ON e.id = ${uid}` : sql``;
  const skip = exclude.length ? [sql`${uid} NOT IN (SELECT value FROM json_each(${JSON.stringify(exclude)}))`] : [];
  // Each arm's rowid range, computed in SQL from the bound seed (the keys exceed JavaScript's 2^53).
  const arm = (tier: number, fromSeed: boolean) => {
    const base = sql.raw(`(${tier} << 61)`);
    const pivot = sql`(${base} + (${f.seed} << 30))`;
    const range = fromSeed
      ? sql`${fts}.rowid >= ${pivot} AND ${fts}.rowid < ${sql.raw(`(${tier + 1} << 61)`)}`
      : sql`${fts}.rowid >= ${base} AND ${fts}.rowid < ${pivot}`;
    return sql`SELECT * FROM (SELECT ${uid} AS uid FROM ${fts}${join}
      WHERE ${sql.join([sql`${fts} MATCH ${plan.match}`, range, ...rest, ...skip], sql` AND `)}
      ORDER BY ${fts}.rowid LIMIT ${take})`;
  };
  return db.all<UnitRow>(sql`
    SELECT ${UNIT_COLUMNS}
    FROM (${arm(0, true)} UNION ALL ${arm(0, false)} UNION ALL ${arm(1, true)} UNION ALL ${arm(1, false)} LIMIT ${limit} OFFSET ${offset}) walk
      CROSS JOIN listing_series e ON e.id = walk.uid`);
}

/**
 * One page of the ordinary ranking by sorting every match: for a signed-in owner who has units that are
 * not public (they rank among the real accounts' though their tier is 2), a one- or two-character search
 * without a letter (a scan). Its cost follows the matches.
 */
export async function orderedPage(db: Db, f: SeriesFilter, exclude: number[], limit: number, offset: number): Promise<UnitRow[]> {
  return db.all<UnitRow>(sql`
    SELECT ${UNIT_COLUMNS}
    FROM (SELECT e.id AS uid FROM listing_series e WHERE ${sql.join([seriesWhere(f), ...excludeSql(exclude)], sql` AND `)}
      ORDER BY ${rankOrderSql(f.seed)} LIMIT ${limit} OFFSET ${offset}) page
      CROSS JOIN listing_series e ON e.id = page.uid`);
}

/**
 * How many units match by counting them (free text, a signed-in owner's hidden units) — and, within one
 * city only, at how many places (DISTINCT needs a temporary b-tree, so it is not done nationwide).
 */
export async function countUnits(db: Db, f: SeriesFilter): Promise<{ total: number; places: number | null }> {
  const places = f.city ? sql`COUNT(DISTINCT e.location_id)` : sql`NULL`;
  const [row] = await db.all<{ total: number; places: number | null }>(sql`
    SELECT COUNT(*) AS total, ${places} AS places FROM listing_series e WHERE ${seriesWhere(f)}`);
  return { total: row?.total ?? 0, places: row?.places ?? null };
}

/**
 * A signed-in owner's own units of businesses that are not public (tier 2) with a date ahead, under the
 * listing's filters: through venues_user_idx and listing_series_venue_idx, a handful of rows.
 */
export async function ownHiddenUnits(db: Db, f: SeriesFilter, userId: string): Promise<UnitRow[]> {
  return db.all<UnitRow>(sql`
    SELECT ${UNIT_COLUMNS} FROM venues v CROSS JOIN listing_series e ON e.venue_id = v.id
    WHERE ${sql.join([sql`v.user_id = ${userId} AND v.is_public = 0 AND e.tier = 2 AND e.next_qid IS NOT NULL`, ...filterSql(f)], sql` AND `)}`);
}

/** Whether a user has a business that is not public (their units are listed to them only: orderedPage). */
export async function ownsHiddenBusiness(db: Db, userId: string): Promise<boolean> {
  const rows = await db.all<{ x: number }>(sql`SELECT 1 AS x FROM venues WHERE user_id = ${userId} AND is_public = 0 LIMIT 1`);
  return rows.length > 0;
}
