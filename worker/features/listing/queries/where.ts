/**
 * SQL of the public listing (worker/features/listing/queries/): this file holds the SQL every read of
 * listing_series shares — the listing's filter (SeriesFilter → WHERE), visibility, the ranking order and
 * the columns of a unit; the reads are beside it, one job a file: walk.ts (a page of the ordinary
 * ranking), search.ts (how free text is matched), cards.ts (units and their cards by key), promotions.ts,
 * near.ts (near mode's candidates), listing-day.ts (listing_state and the day's advance), places.ts
 * (cities, venue pages, sitemaps).
 *
 * The listing is chosen from listing_series (one row per series at a place
 * or single quiz, kept by triggers: migrations 0005–0018). Each row carries what the listing shows
 * today (migration 0018): its tier (0 listed, 1 listed house account, 2 not listed), its weekday mask,
 * its next occurrence and that occurrence's card as JSON, all kept as of listing_state.today by the
 * refresh trigger. A page walks listing_series_rank_idx / listing_series_city_rank_idx in ranking order
 * (tier, then the day's rotation of `shuffle`) with every filter checked inside the index, stops after
 * the page, and reads one row per card; the totals come from listing_counts. Free text uses the trigram
 * FTS5 index. Join order is fixed with CROSS JOIN (SQLite keeps the written order). No query in queries/ scans
 * quizzes, locations, venues or listing_series in full (test/integration/listing-plan.test.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { WEEKDAY_BITS } from '../../../db/schema';
import { addDays, isoWeekday } from '../../../lib/clock';
import { PRICE_MAX_FILTER_SEK, languageExcluded, timeRange, type QuizFilters } from '../../../lib/quiz-filters';
import { SEARCH_ID_MASK, searchPlan, searchTable } from './search';

/** The listing's filters as the SQL sees them (already resolved by filters.ts resolveFilters). */
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
  /** Per-day seed of the shuffle (rank.ts daySeed). */
  seed: number;
  /** Near mode: the bounding box of the circle (geo.boundingBox); the city filter is not applied then. */
  box?: { minLat: number; maxLat: number; minLng: number; maxLng: number } | undefined;
  /** The quiz filters (issue 20): checked on the unit's columns inside the covering index (migration 0015). */
  quiz?: QuizFilters | undefined;
}

/** The quiz filters on listing_series e (its price, team_max, topic, start_min and lang columns, all in the covering indexes). */
export function quizFilterSql(f: QuizFilters | undefined): SQL[] {
  if (!f) return [];
  const out: SQL[] = [];
  // e.price is -1 when the price is unknown (the trigger template's PRICE_UNKNOWN): in neither filter.
  if (f.price === 'gratis') out.push(sql`e.price = 0`);
  else if (f.price === 'max50') out.push(sql`e.price BETWEEN 0 AND ${PRICE_MAX_FILTER_SEK}`);
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

/**
 * Which occurrence of a unit the listing shows (spec 01 §4): the next one on or after today; in
 * weekday mode the next one on that weekday (a biweekly series only when that is within 7 days); in
 * date mode the one on that date. `q` is a quizzes row; `pattern` the unit's recurrence pattern. The
 * stored card (listing_series.card) is the next occurrence; this is read only when that is not it.
 */
export function occurrenceSql(f: SeriesFilter, pattern: SQL): SQL {
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
export function filterSql(f: SeriesFilter): SQL[] {
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
export function seriesWhere(f: SeriesFilter): SQL {
  return sql.join([visibleSql(f), ...filterSql(f)], sql` AND `);
}

/**
 * The ordinary ranking (spec 01 §4 tiers 3–4): real accounts before the house account, each in the day's
 * order — a rotation of the units' fixed random `shuffle` starting at the day's seed (units with
 * shuffle ≥ seed by shuffle, then the rest), so every unit is equally likely to come first on a given
 * day and an index on (tier, shuffle) yields the order without sorting. A signed-in owner's own units
 * that are not public (tier 2) rank with the real accounts. Its twin for rows sorted in the Worker is rank.ts
 * (rotationKey, byRank).
 */
export const rankOrderSql = (seed: number) => sql`CASE e.tier WHEN 1 THEN 1 ELSE 0 END, (e.shuffle < ${seed}), e.shuffle, e.id`;

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

export const UNIT_COLUMNS = sql`e.id AS unitId, e.key AS key, e.recurrence_id AS rid, e.shuffle AS shuffle, e.tier AS tier, e.lat AS unitLat, e.lng AS unitLng,
  e.place_text AS placeText, e.location_id AS lid, e.pattern AS pattern, e.next_date AS nextDate, e.card AS card`;

export const excludeSql = (exclude: number[]) => (exclude.length ? [sql`e.id NOT IN (SELECT value FROM json_each(${JSON.stringify(exclude)}))`] : []);
