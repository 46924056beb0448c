/**
 * SQL of the public listing. The listing is chosen from listing_series (one row per series at a place
 * or single quiz, kept by triggers: migrations 0005–0018). Each row carries what the listing shows
 * today (migration 0018): its tier (0 listed, 1 listed house account, 2 not listed), its weekday mask,
 * its next occurrence and that occurrence's card as JSON, all kept as of listing_state.today by the
 * refresh trigger. A page walks listing_series_rank_idx / listing_series_city_rank_idx in ranking order
 * (tier, then the day's rotation of `shuffle`) with every filter checked inside the index, stops after
 * the page, and reads one row per card; the totals come from listing_counts. Free text uses the trigram
 * FTS5 index. Join order is fixed with CROSS JOIN (SQLite keeps the written order). No query here scans
 * quizzes, locations, venues or listing_series in full (test/integration/listing-plan.test.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { batchAll, batchableRun, runBatch, type BatchStatement } from '../../db/batch';
import type { Db } from '../../db/client';
import { WEEKDAY_BITS } from '../../db/schema';
import { addDays, isoWeekday } from '../../lib/clock';
import { PRICE_MAX_FILTER_SEK, languageExcluded, timeRange, type QuizFilters } from '../../lib/quiz-filters';

/** The listing's filters as the SQL sees them (already resolved by service.resolveFilters). */
export interface SeriesFilter {
  today: string;
  city?: string | undefined;
  /** Exact date (date mode). */
  date?: string | undefined;
  /** SQLite %w weekday 0 = Sunday … 6 = Saturday (weekday mode). */
  weekdayW?: number | undefined;
  /** Search text as typed (trimmed); matched case-insensitively as a substring. */
  search?: string | undefined;
  viewerId?: string | null | undefined;
  houseEmail: string;
  /** Per-day seed of the shuffle (service.daySeed). */
  seed: number;
  /** Near mode: the bounding box of the circle (geo.boundingBox); the city filter is not applied then. */
  box?: { minLat: number; maxLat: number; minLng: number; maxLng: number } | undefined;
  /** The quiz filters (issue 20): checked on the unit's columns inside the covering index (migration 0015). */
  quiz?: QuizFilters | undefined;
}

/** The quiz filters on listing_series e (its price, team_max, topic, start_min and lang columns, all in the covering indexes). */
function quizFilterSql(f: QuizFilters | undefined): SQL[] {
  if (!f) return [];
  const out: SQL[] = [];
  if (f.price === 'gratis') out.push(sql`e.price = 0`);
  else if (f.price === 'max50') out.push(sql`e.price <= ${PRICE_MAX_FILTER_SEK}`);
  if (f.team !== undefined) out.push(sql`(e.team_max IS NULL OR e.team_max >= ${f.team})`);
  if (f.category) out.push(sql`e.topic = ${f.category}`);
  if (f.time) {
    const { from, to } = timeRange(f.time);
    out.push(sql`e.start_min BETWEEN ${from} AND ${to}`);
  }
  // A quiz in both languages matches either choice (matchesQuizFilters in worker/lib/quiz-filters.ts).
  if (f.sprak) out.push(sql`e.lang != ${languageExcluded(f.sprak)}`);
  return out;
}

/** lower() in SQLite folds ASCII only: fold the Nordic and common accented capitals first. */
function foldSql(col: SQL): SQL {
  return sql`lower(replace(replace(replace(replace(replace(replace(replace(${col},'Å','å'),'Ä','ä'),'Ö','ö'),'É','é'),'Ü','ü'),'Æ','æ'),'Ø','ø'))`;
}

/** Shortest search the trigram index can answer; shorter ones use the word-prefix index. */
const TRIGRAM_MIN_CHARS = 3;

/** An FTS5 query matching `text` as one literal substring (quotes doubled, nothing else is syntax). */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The search indexes (migration 0020) key each unit by tier << 61 | shuffle << 30 | id, so their rowid
 * order is the listing's; `rowid & SEARCH_ID_MASK` is the unit's id (always in SQL: the key exceeds 2^53).
 */
export const SEARCH_ID_MASK = 2 ** 30 - 1;

/** The FTS5 table of a search: trigram for a substring, the word index for a word's beginning. */
function searchTable(plan: Exclude<SearchPlan, { kind: 'scan' }>): 'listing_search' | 'listing_search_words' {
  return plan.kind === 'substring' ? 'listing_search' : 'listing_search_words';
}

/**
 * How a search is answered: three characters or more as a substring (trigram index); one or two as the
 * beginning of a word (word index with 1- and 2-character prefixes: "kv" finds Kvarnen); one or two
 * characters without a letter or digit (no word to start) as a substring scan of listing_series.
 */
export type SearchPlan = { kind: 'substring'; match: string } | { kind: 'word-prefix'; match: string } | { kind: 'scan'; text: string };

export function searchPlan(text: string): SearchPlan {
  if ([...text].length >= TRIGRAM_MIN_CHARS) return { kind: 'substring', match: ftsPhrase(text) };
  if (/[\p{L}\p{N}]/u.test(text)) return { kind: 'word-prefix', match: `${ftsPhrase(text)}*` };
  return { kind: 'scan', text: text.toLowerCase() };
}

/**
 * Which occurrence of a unit the listing shows (spec 01 §4): the next one on or after today; in
 * weekday mode the next one on that weekday (a biweekly series only when that is within 7 days); in
 * date mode the one on that date. `q` is a quizzes row; `pattern` the unit's recurrence pattern. The
 * stored card (listing_series.card) is the next occurrence; this is read only when that is not it.
 */
function occurrenceSql(f: SeriesFilter, pattern: SQL): SQL {
  // The weekday equality lets quizzes_unit_weekday_date_idx answer with one seek.
  if (f.date) return sql`q.weekday = ${isoWeekday(f.date) % 7} AND q.date = ${f.date}`;
  if (f.weekdayW !== undefined) {
    return sql`q.date >= ${f.today} AND q.weekday = ${f.weekdayW} AND (${pattern} IS NOT 'biweekly' OR q.date <= ${addDays(f.today, 6)})`;
  }
  return sql`q.date >= ${f.today}`;
}

/**
 * Which units may be shown: listed today (tier 0 or 1), and for a signed-in owner also their own units
 * that are not public but still have a date ahead (spec 01 §7: own-or-public).
 */
function visibleSql(f: SeriesFilter): SQL {
  return f.viewerId ? sql`(e.tier < 2 OR (e.owner_id = ${f.viewerId} AND e.next_qid IS NOT NULL))` : sql`e.tier < 2`;
}

/**
 * Every filter of the listing but visibility, on listing_series e. All of them are columns of the rank
 * indexes (and of the geo index) except date mode's EXISTS (one seek in quizzes_unit_weekday_date_idx
 * per candidate) and free text (the FTS5 indexes, or a scan of the row for a one- or two-character search
 * without a letter). Weekday mode is exact on wk_mask, which the refresh trigger keeps under the rule.
 */
function filterSql(f: SeriesFilter): SQL[] {
  const where: SQL[] = [];
  if (f.box) where.push(sql`e.lat BETWEEN ${f.box.minLat} AND ${f.box.maxLat} AND e.lng BETWEEN ${f.box.minLng} AND ${f.box.maxLng}`);
  else if (f.city) where.push(sql`e.city_slug = ${f.city}`);
  where.push(...quizFilterSql(f.quiz));
  if (f.date) {
    // A date ahead on that weekday (up_mask: the weekday's partial index), and for most units it is
    // their next date: a seek of quizzes_unit_weekday_date_idx only for the others.
    where.push(sql.raw(`(e.up_mask & ${weekdayBit(isoWeekday(f.date) % 7)}) != 0`), sql`e.last_date >= ${f.date}`);
    where.push(sql`(e.next_date = ${f.date} OR (e.recurrence_id IS NOT NULL AND EXISTS (SELECT 1 FROM quizzes q
      WHERE q.recurrence_id = e.recurrence_id AND q.location_id = e.location_id AND ${occurrenceSql(f, sql`e.pattern`)})))`);
  } else if (f.weekdayW !== undefined) {
    // Literal bits, not parameters: the first term names the weekday's partial index (listing_series_wd{w}_idx).
    const bit = weekdayBit(f.weekdayW);
    where.push(sql.raw(`(e.up_mask & ${bit}) != 0`), sql.raw(`(e.wk_mask & ${bit}) != 0`));
  }
  if (f.search) {
    const plan = searchPlan(f.search);
    if (plan.kind !== 'scan') {
      const fts = sql.raw(searchTable(plan));
      where.push(sql`e.id IN (SELECT rowid & ${sql.raw(String(SEARCH_ID_MASK))} FROM ${fts} WHERE ${fts} MATCH ${plan.match})`);
    } else where.push(sql`instr(${foldSql(sql`e.place_text || ' | ' || e.quiz_text`)}, ${plan.text}) > 0`);
  }
  return where;
}

/** The up_mask / wk_mask bit of a %w weekday (0–6); throws on anything else (it is written into SQL as a literal). */
function weekdayBit(w: number): number {
  const bit = WEEKDAY_BITS[w];
  if (bit === undefined || !Number.isInteger(w)) throw new Error(`not a weekday: ${w}`);
  return bit;
}

/** WHERE of listing_series e: visibility and every filter of the listing. */
function seriesWhere(f: SeriesFilter): SQL {
  return sql.join([visibleSql(f), ...filterSql(f)], sql` AND `);
}

/**
 * The ordinary ranking (spec 01 §4 tiers 3–4): real accounts before the house account, each in the day's
 * order — a rotation of the units' fixed random `shuffle` starting at the day's seed (units with
 * shuffle ≥ seed by shuffle, then the rest), so every unit is equally likely to come first on a given
 * day and an index on (tier, shuffle) yields the order without sorting. A signed-in owner's own units
 * that are not public (tier 2) rank with the real accounts.
 */
const rankOrderSql = (seed: number) => sql`CASE e.tier WHEN 1 THEN 1 ELSE 0 END, (e.shuffle < ${seed}), e.shuffle, e.id`;

/** The day's position of a unit within its tier (rankOrderSql, for sorting in the Worker). */
export function rotationKey(shuffle: number, seed: number): number {
  return shuffle >= seed ? shuffle - seed : shuffle - seed + 2 ** 31;
}

/** One listed unit as a page reads it: its ranking keys, position and stored card (the JSON of a DetailRow). */
export interface UnitRow {
  unitId: number;
  key: string;
  rid: string | null;
  shuffle: number;
  tier: number;
  unitLat: number | null;
  unitLng: number | null;
  placeText: string;
  lid: string;
  pattern: string | null;
  nextDate: string | null;
  card: string | null;
  /** Date mode's walk (walkedDatePage): the unit's quiz on that date. */
  qid?: string | null;
}

const UNIT_COLUMNS = sql`e.id AS unitId, e.key AS key, e.recurrence_id AS rid, e.shuffle AS shuffle, e.tier AS tier, e.lat AS unitLat, e.lng AS unitLng,
  e.place_text AS placeText, e.location_id AS lid, e.pattern AS pattern, e.next_date AS nextDate, e.card AS card`;

const excludeSql = (exclude: number[]) => (exclude.length ? [sql`e.id NOT IN (SELECT value FROM json_each(${JSON.stringify(exclude)}))`] : []);

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
async function walkedSearchPage(db: Db, f: SeriesFilter, plan: Exclude<SearchPlan, { kind: 'scan' }>, exclude: number[], limit: number, offset: number): Promise<UnitRow[]> {
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
    const range = fromSeed ? sql`${fts}.rowid >= ${pivot} AND ${fts}.rowid < ${sql.raw(`(${tier + 1} << 61)`)}` : sql`${fts}.rowid >= ${base} AND ${fts}.rowid < ${pivot}`;
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
 * Most key lookups sent as one batch of statements: D1 counts each statement toward a Worker invocation's
 * query limit (1 000), so a longer list (a feed's or digest's big page) is one json_each join instead,
 * which reads the list as well (two rows an id instead of one).
 */
export const BATCH_LOOKUPS_MAX = 24;

/** Quiz rows by id (a listed date's quiz, listing_dates.qid): one key lookup each in one round trip. */
export async function quizzesById(db: Db, ids: string[]): Promise<QuizCardRow[]> {
  if (ids.length > BATCH_LOOKUPS_MAX) {
    return db.all<QuizCardRow>(sql`SELECT ${CARD_QUIZ_COLUMNS} FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN quizzes q ON q.id = j.value`);
  }
  const found = await batchAll<QuizCardRow>(db, ids.map((id) => sql`SELECT ${CARD_QUIZ_COLUMNS} FROM quizzes q WHERE q.id = ${id}`));
  return found.flat();
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
 * The active promotions (spec 02 §4.1: status active, end date not past) with the units they point at
 * under the listing's filters, in one read: a promotion of a series covers its series at every place, a
 * promotion of a single quiz that quiz's unit. One row per (promotion, unit); the unit columns are null
 * when none of its units matches. Without a promotion it reads the promotions index and nothing else.
 */
export async function promotionsWithUnits(db: Db, f: SeriesFilter): Promise<Array<ActivePromotionRow & { [K in keyof UnitRow]: UnitRow[K] | null }>> {
  return db.all(sql`
    SELECT p.quiz_id AS quizId, pq.recurrence_id AS rid, p.product_type AS productType, p.start_date AS startDate, p.end_date AS endDate, ${UNIT_COLUMNS}
    FROM promotions p CROSS JOIN quizzes pq ON pq.id = p.quiz_id
      LEFT JOIN listing_series e ON ((pq.recurrence_id IS NOT NULL AND e.recurrence_id = pq.recurrence_id) OR (pq.recurrence_id IS NULL AND e.key = pq.id))
        AND ${seriesWhere(f)}
    WHERE p.status = 'active' AND p.end_date >= ${f.today}`);
}

/**
 * Some units by id, one key lookup each in one round trip (an IN list or json_each would read the list as
 * well; above BATCH_LOOKUPS_MAX ids it is one json_each join): under the listing's filters when `f` is given (a marker's card must still match them), as they are
 * when the ids were chosen under those filters already (near mode's candidates, free-text matches).
 */
export async function unitsById(db: Db, ids: number[], f?: SeriesFilter): Promise<UnitRow[]> {
  const where = f ? sql` AND ${seriesWhere(f)}` : sql``;
  if (ids.length > BATCH_LOOKUPS_MAX) {
    return db.all<UnitRow>(sql`SELECT ${UNIT_COLUMNS} FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN listing_series e ON e.id = j.value WHERE 1${where}`);
  }
  const found = await batchAll<UnitRow>(db, ids.map((id) => sql`SELECT ${UNIT_COLUMNS} FROM listing_series e WHERE e.id = ${id}${where}`));
  return found.flat();
}

export interface ListedRow extends DetailRow {
  /** listing_series id and key of the unit. */
  unitId: number;
  key: string;
  rid: string | null;
  shuffle: number;
  /** The unit's effective coordinates (the place's own, else its town centre; migration 0009). */
  unitLat: number | null;
  unitLng: number | null;
}

/** The quiz columns of a listed occurrence, for one unit (its place and business come from the unit's stored card). */
export type OccurrenceRow = QuizCardRow & { unitId: number };

/**
 * The listed occurrence of units whose stored card is another date (weekday mode on a unit with more
 * than one weekday, date mode): per unit one seek of quizzes_unit_weekday_date_idx and its quiz row by
 * key. The units come as JSON (their keys), so listing_series is not read again.
 */
export async function occurrenceQuizzes(db: Db, f: SeriesFilter, units: Array<{ unitId: number; key: string; rid: string | null; lid: string; pattern: string | null }>): Promise<OccurrenceRow[]> {
  if (!units.length) return [];
  const u = (k: string) => sql.raw(`j.value ->> '${k}'`);
  return db.all<OccurrenceRow>(sql`
    SELECT ${u('unitId')} AS unitId, ${CARD_QUIZ_COLUMNS}
    FROM json_each(${JSON.stringify(units)}) j
      CROSS JOIN quizzes q ON q.id = CASE WHEN ${u('rid')} IS NULL THEN ${u('key')} ELSE
        (SELECT q.id FROM quizzes q WHERE q.recurrence_id = ${u('rid')} AND q.location_id = ${u('lid')} AND ${occurrenceSql(f, u('pattern'))}
          ORDER BY q.date LIMIT 1) END
    -- A single quiz too only when it is the occurrence to show: a stale listing (issue 30.8) may still walk a
    -- single quiz whose date has passed.
    WHERE ${u('rid')} IS NOT NULL OR (${occurrenceSql(f, u('pattern'))})`);
}

/** One candidate of near mode: a unit inside the box, and which side of the position's latitude it lies on. */
export interface NearCandidate {
  uid: number;
  lid: string;
  lat: number;
  lng: number;
  /** 1: at or north of the position (read northwards), 0: south of it (read southwards). */
  up: number;
}

/**
 * Near mode candidates, read outwards from the position: at most `limit` units matching the filters
 * inside the bounding box (`f.box`) going north from `fromLat` in latitude order, and at most `limit`
 * going south. INDEXED BY: each half is a range of listing_series_geo_idx walked in index order (no
 * sort), the rest of the box and every filter answered from that covering index, and it stops after
 * `limit` matches — so what it reads follows the page asked for and the density around the position,
 * not the radius or the catalogue (test/integration/query-plans.test.ts, d1-cost.test.ts). The caller
 * (service.listNear) knows every unit closer than the latitude it reached in both directions and asks
 * again with a larger limit when that is not yet enough for the page.
 */
export async function nearCandidates(db: Db, f: SeriesFilter, fromLat: number, limit: number): Promise<NearCandidate[]> {
  if (!f.box) throw new Error('nearCandidates needs a box');
  // One bound per side in the box itself: with two lower bounds on lat (the box's and fromLat) SQLite
  // seeks to one and filters by the other, reading the whole southern half on the way north. A unit
  // exactly at fromLat comes back from both sides; the caller keeps it once.
  const north = seriesWhere({ ...f, box: { ...f.box, minLat: Math.max(f.box.minLat, fromLat) } });
  const south = seriesWhere({ ...f, box: { ...f.box, maxLat: Math.min(f.box.maxLat, fromLat) } });
  const cols = sql`e.id AS uid, e.location_id AS lid, e.lat AS lat, e.lng AS lng`;
  return db.all<NearCandidate>(sql`
    SELECT * FROM (SELECT ${cols}, 1 AS up FROM listing_series e INDEXED BY listing_series_geo_idx
      WHERE ${north} ORDER BY e.lat LIMIT ${limit})
    UNION ALL
    SELECT * FROM (SELECT ${cols}, 0 AS up FROM listing_series e INDEXED BY listing_series_geo_idx
      WHERE ${south} ORDER BY e.lat DESC LIMIT ${limit})`);
}

/** Names of some units by id (the near-mode map: its order comes from the candidates). */
export async function unitLabels(db: Db, ids: number[]): Promise<Array<{ uid: number; placeText: string }>> {
  if (!ids.length) return [];
  return db.all(sql`
    SELECT e.id AS uid, e.place_text AS placeText FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN listing_series e ON e.id = j.value`);
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

/** The `limit` cities with the most listed units (listing_counts_top_idx, walked from the top: `limit` rows). */
export async function topCitySlugs(db: Db, limit: number): Promise<string[]> {
  const rows = await db.all<{ city: string }>(sql`
    SELECT city FROM listing_counts INDEXED BY listing_counts_top_idx
    WHERE wd = -1 AND units > 0 AND city != '' ORDER BY units DESC LIMIT ${limit}`);
  return rows.map((r) => r.city);
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

/** listing_state: the day the stored listing columns are for, and the house account they rank last. */
export interface ListingState {
  today: string;
  houseEmail: string | null;
  houseId: string | null;
}

/**
 * The listing state and the listed count of one scope (listing_counts: city '' = Sweden, wd -1 = every
 * weekday) in one read; without a scope the state alone. `units`/`places` are null when the scope has never
 * had a listed unit.
 */
export async function stateAndCount(db: Db, scope: { city: string; wd: number } | null): Promise<ListingState & { units: number | null; places: number | null }> {
  const [row] = scope
    ? await db.all<ListingState & { units: number | null; places: number | null }>(sql`
        SELECT s.today AS today, s.house_email AS houseEmail, s.house_id AS houseId, c.units AS units, c.places AS places
        FROM listing_state s LEFT JOIN listing_counts c ON c.city = ${scope.city} AND c.wd = ${scope.wd} WHERE s.id = 1`)
    : await db.all<ListingState & { units: null; places: null }>(sql`
        SELECT today, house_email AS houseEmail, house_id AS houseId, NULL AS units, NULL AS places FROM listing_state WHERE id = 1`);
  if (!row) throw new Error('listing_state is missing: apply the migrations (0018)');
  return row;
}

/**
 * Bring the stored listing columns to `today` and `houseEmail` (one batch): the units whose next
 * occurrence has passed, and those with a biweekly date that enters weekday mode's 7-day window, are
 * refreshed (their tier, weekday mask, next occurrence and card; listing_counts follows by trigger); a new house
 * account refreshes the units of the old and the new one. A clock that went back (tests) refreshes every
 * unit. Idempotent: a second run the same day finds nothing to refresh.
 */
export async function advanceListingDay(db: Db, state: ListingState, today: string, houseEmail: string): Promise<void> {
  const statements: BatchStatement[] = [];
  if (state.houseEmail !== houseEmail) {
    statements.push(batchableRun(db, sql`UPDATE listing_state SET house_email = ${houseEmail}, house_id = (SELECT id FROM users WHERE email = ${houseEmail}) WHERE id = 1`));
    statements.push(batchableRun(db, sql`UPDATE listing_series SET touch = touch + 1
      WHERE venue_id IN (SELECT id FROM venues WHERE user_id IN (${state.houseId ?? ''}, (SELECT house_id FROM listing_state WHERE id = 1)))`));
  }
  if (state.today !== today) {
    statements.push(batchableRun(db, sql`UPDATE listing_state SET today = ${today} WHERE id = 1`));
    if (today > state.today) {
      statements.push(batchableRun(db, sql`UPDATE listing_series SET touch = touch + 1 WHERE next_date < ${today}`));
      // Every biweekly date that enters weekday mode's 7-day window — not only a unit's next date: a
      // biweekly series on two weekdays has its second date enter on a later day (quizzes_date_idx range).
      statements.push(batchableRun(db, sql`UPDATE listing_series SET touch = touch + 1
        WHERE key IN (SELECT q.recurrence_id || '@' || q.location_id FROM quizzes q
          WHERE q.date > ${addDays(state.today, 6)} AND q.date <= ${addDays(today, 6)} AND q.recurrence_pattern = 'biweekly')`));
    } else {
      statements.push(batchableRun(db, sql`UPDATE listing_series SET touch = touch + 1`));
    }
  }
  await runBatch(db, statements);
}

export interface ActivePromotionRow {
  quizId: string;
  rid: string | null;
  productType: 'recommended' | 'premium';
  startDate: string;
  endDate: string;
}

/** Promotions that count (spec 02 §4.1): status active and end_date not before today. */
export async function activePromotions(db: Db, today: string): Promise<ActivePromotionRow[]> {
  return db.all<ActivePromotionRow>(sql`
    SELECT p.quiz_id AS quizId, pq.recurrence_id AS rid, p.product_type AS productType,
           p.start_date AS startDate, p.end_date AS endDate
    FROM promotions p CROSS JOIN quizzes pq ON pq.id = p.quiz_id
    WHERE p.status = 'active' AND p.end_date >= ${today}`);
}

export interface DetailRow {
  id: string;
  date: string;
  startTime: string | null;
  title: string | null;
  description: string | null;
  category: string | null;
  theme: string | null;
  quizmaster: string | null;
  teamSize: number | null;
  price: number | null;
  isRecurring: number;
  recurrencePattern: 'weekly' | 'biweekly' | null;
  isCancelled: number;
  /** sv | en | both (issue 31.3); absent only in a card stored before the quiz-language migration. */
  language?: string | null | undefined;
  lId: string;
  lName: string;
  lAddress: string;
  lCity: string;
  lCitySlug: string;
  lPhone: string | null;
  lWebsite: string | null;
  lLat: number | null;
  lLng: number | null;
  vId: string;
  vName: string;
  vSlug: string;
  vDescription: string | null;
  vWebsite: string | null;
  house: number;
}

/**
 * Distinct cities with a public business: slug plus the display name as written in the data. Walks
 * the distinct slugs of locations_city_name_idx (city_slug, city, venue_id) with a recursive skip-scan
 * (one index seek per city); each name is the first public place in that index's name order, so about
 * three rows are read per city and none per other place: the cost follows the cities returned.
 */
export async function listCities(db: Db): Promise<Array<{ slug: string; name: string }>> {
  const rows = await db.all<{ slug: string; name: string | null }>(sql`
    WITH RECURSIVE c(slug) AS (
      SELECT (SELECT MIN(city_slug) FROM locations)
      UNION ALL
      SELECT (SELECT MIN(city_slug) FROM locations WHERE city_slug > c.slug) FROM c WHERE c.slug IS NOT NULL
    )
    SELECT c.slug AS slug,
      (SELECT l.city FROM locations l CROSS JOIN venues v ON v.id = l.venue_id
        WHERE l.city_slug = c.slug AND v.is_public = 1 ORDER BY l.city LIMIT 1) AS name
    FROM c WHERE c.slug IS NOT NULL`);
  return rows.filter((r): r is { slug: string; name: string } => r.name !== null);
}

/** How many public places of one spelling findCity counts at most (the cost of a city's name is bounded). */
export const CITY_NAME_SAMPLE = 8;
/** How many spellings of one city slug findCity compares at most ("Göteborg", "Goteborg" …). */
export const CITY_SPELLINGS_MAX = 4;

/**
 * Display name of a city slug, or null when no public business is there: the spelling with the most
 * public places, alphabetical on a tie. Each spelling's places are counted up to CITY_NAME_SAMPLE only
 * (a skip-scan of the slug's spellings in locations_city_name_idx, then per spelling at most that many
 * index entries and business rows), so the read is bounded whatever the size of the city — the answer
 * differs from a full count only when two spellings both have CITY_NAME_SAMPLE public places or more.
 */
export async function findCity(db: Db, slug: string): Promise<{ slug: string; name: string } | null> {
  const rows = await db.all<{ name: string; n: number }>(sql`
    WITH RECURSIVE s(name) AS (
      SELECT (SELECT MIN(city) FROM locations WHERE city_slug = ${slug})
      UNION ALL
      SELECT (SELECT MIN(city) FROM locations WHERE city_slug = ${slug} AND city > s.name) FROM s WHERE s.name IS NOT NULL
      LIMIT ${CITY_SPELLINGS_MAX}
    ),
    counted AS MATERIALIZED (
      SELECT s.name AS name, (SELECT COUNT(*) FROM (SELECT 1 FROM locations l CROSS JOIN venues v ON v.id = l.venue_id
          WHERE l.city_slug = ${slug} AND l.city = s.name AND v.is_public = 1 LIMIT ${CITY_NAME_SAMPLE})) AS n
      FROM s WHERE s.name IS NOT NULL)
    SELECT name, n FROM counted WHERE n > 0 ORDER BY n DESC, name LIMIT 1`);
  return rows[0] ? { slug, name: rows[0].name } : null;
}

export interface VenueHeadRow {
  id: string;
  name: string;
  slug: string;
  description: string | null;
  address: string | null;
  city: string | null;
  phone: string | null;
  website: string | null;
  house: number;
  /** Freshness (issue 20): "Senast bekräftad" counts from confirmed_at, else created_at — read with the row, no extra query. */
  confirmedAt: string | null;
  createdAt: string;
}

export async function findPublicVenue(db: Db, slug: string, houseEmail: string): Promise<VenueHeadRow | null> {
  const rows = await db.all<VenueHeadRow>(sql`
    SELECT v.id AS id, v.name AS name, v.slug AS slug, v.description AS description, v.address AS address, v.city AS city,
           v.phone AS phone, v.website AS website, (u.email = ${houseEmail}) AS house,
           v.confirmed_at AS confirmedAt, v.created_at AS createdAt
    FROM venues v CROSS JOIN users u ON u.id = v.user_id
    WHERE v.slug = ${slug} AND v.is_public = 1 LIMIT 1`);
  return rows[0] ?? null;
}

export interface VenuePlaceRow {
  id: string;
  name: string;
  address: string;
  city: string;
  citySlug: string;
  phone: string | null;
  website: string | null;
  latitude: number | null;
  longitude: number | null;
  createdAt: string;
}

/** A business's places in locations_venue_idx order (the caller orders them: no temporary b-tree, whose rows D1 counts too). */
export async function venueLocations(db: Db, venueId: string): Promise<VenuePlaceRow[]> {
  return db.all<VenuePlaceRow>(sql`
    SELECT id, name, address, city, city_slug AS citySlug, phone, website, latitude, longitude, created_at AS createdAt
    FROM locations WHERE venue_id = ${venueId}`);
}

/** The quiz columns of a card (DetailRow without the place and the business, which the caller has). */
export type QuizCardRow = Pick<DetailRow, 'id' | 'date' | 'startTime' | 'title' | 'description' | 'category' | 'theme' | 'quizmaster' | 'teamSize' | 'price' | 'isRecurring' | 'recurrencePattern' | 'isCancelled' | 'language'> & { locationId: string };

/**
 * Upcoming occurrences at the given places (one business's), for the public venue page: per place its
 * first `limit` dates from today in quizzes_location_date_idx order (date, then insertion), read from that
 * index with a LIMIT: about one row read per row returned, no join (the caller has the place and the
 * business) and no sort in SQL (the caller orders by date, time and id and keeps `limit`; a place that
 * filled its `limit` may have more quizzes on its last date: placeDateQuizzes reads them).
 */
export async function venueUpcoming(db: Db, placeIds: string[], today: string, limit: number): Promise<QuizCardRow[]> {
  if (placeIds.length === 0) return [];
  const perPlace = placeIds.map((id) => sql`SELECT * FROM (SELECT ${CARD_QUIZ_COLUMNS} FROM quizzes q WHERE q.location_id = ${id} AND q.date >= ${today} ORDER BY q.date LIMIT ${limit})`);
  return db.all<QuizCardRow>(sql.join(perPlace, sql` UNION ALL `));
}

/** Every occurrence at one place on one date (venueUpcoming's caller completes a place cut off at its limit-th date). */
export async function placeDateQuizzes(db: Db, placeId: string, date: string): Promise<QuizCardRow[]> {
  return db.all<QuizCardRow>(sql`SELECT ${CARD_QUIZ_COLUMNS} FROM quizzes q WHERE q.location_id = ${placeId} AND q.date = ${date}`);
}

const CARD_QUIZ_COLUMNS = sql`q.id AS id, q.date AS date, q.start_time AS startTime, q.title AS title, q.description AS description,
  q.category AS category, q.theme AS theme, q.quizmaster AS quizmaster, q.team_size AS teamSize, q.price AS price,
  q.is_recurring AS isRecurring, q.recurrence_pattern AS recurrencePattern, q.is_cancelled AS isCancelled, q.language AS language, q.location_id AS locationId`;

// ---- Sitemaps at scale (issue 19 §4): each child sitemap reads a bounded, index-backed slice. ----

/**
 * Weekday masks of the live public units of the cities from `fromCity` to `toCity` (slugs, inclusive):
 * a range of listing_series_city_rank_idx (covering), so the rows read are the listed units of those cities only.
 * `m` is the unit's wk_mask (bit 1 << %w for every weekday it is listed under in weekday mode today).
 */
export async function sitemapCityMasks(db: Db, fromCity: string, toCity: string): Promise<Array<{ city: string; m: number }>> {
  return db.all<{ city: string; m: number }>(sql`
    SELECT DISTINCT city_slug AS city, wk_mask AS m
    FROM listing_series INDEXED BY listing_series_city_rank_idx
    WHERE city_slug >= ${fromCity} AND city_slug <= ${toCity} AND tier < 2`);
}

/** The highest rowid of venues (an O(1) read of the table's b-tree end): how many venue children there are. */
export async function venueRowidCeiling(db: Db): Promise<number> {
  const [row] = await db.all<{ n: number | null }>(sql`SELECT MAX(rowid) AS n FROM venues`);
  return row?.n ?? 0;
}

/**
 * Public venue pages among the venues with rowid in [fromRowid, toRowid]: a primary-key range, so a
 * child sitemap reads at most that many venues (and their places, by locations_venue_idx). `lastmod`
 * is the latest updated_at of the business and its places.
 */
export async function sitemapVenueRange(db: Db, fromRowid: number, toRowid: number): Promise<Array<{ slug: string; city: string; lastmod: string }>> {
  return db.all<{ slug: string; city: string; lastmod: string }>(sql`
    SELECT v.slug AS slug, MIN(l.city_slug) AS city, MAX(v.updated_at, MAX(l.updated_at)) AS lastmod
    FROM venues v CROSS JOIN locations l ON l.venue_id = v.id
    WHERE v.rowid BETWEEN ${fromRowid} AND ${toRowid} AND v.is_public = 1
    GROUP BY v.rowid ORDER BY v.rowid`);
}

/** When public data last changed (the public-data version's bump time). */
export async function publicDataChangedAt(db: Db): Promise<string | null> {
  const [row] = await db.all<{ at: string }>(sql`SELECT updated_at AS at FROM public_data_version WHERE id = 1`);
  return row?.at ?? null;
}

