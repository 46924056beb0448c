/**
 * Units and their cards by key: the card's row types (DetailRow: what listing_series.card stores), units
 * by id, the quiz of a listed occurrence (by id, or the one a unit shows under the filters), and units'
 * names for the near-mode map. Key lookups go out as one batch of statements.
 */
import { sql } from 'drizzle-orm';
import { BATCH_LOOKUPS_MAX, batchAll } from '../../../db/batch';
import type { Db } from '../../../db/client';
import type { QuizRow } from '../../../db/schema';
import type { QuizPlaceRow, QuizShownColumns } from '../../../db/shapes';
import { occurrenceSql, seriesWhere, UNIT_COLUMNS, type SeriesFilter, type UnitRow } from './where';

/**
 * A listed occurrence's card: the quiz, its place (l…) and its business (v…); listing_series.card stores it as JSON.
 * `language` (sv | en | both, issue 31.3) is absent only in a card stored before the quiz-language migration.
 */
export interface DetailRow
  extends QuizPlaceRow<
    QuizShownColumns | 'isRecurring' | 'recurrencePattern',
    'id' | 'name' | 'address' | 'city' | 'citySlug' | 'phone' | 'website' | 'lat' | 'lng',
    'id' | 'name' | 'slug' | 'description' | 'website'
  > {
  language?: QuizRow['language'] | null | undefined;
  house: number;
}

/** The quiz columns of a card (DetailRow without the place and the business, which the caller has). */
export type QuizCardRow = Pick<DetailRow, QuizShownColumns | 'isRecurring' | 'recurrencePattern' | 'language'> & { locationId: string };

export const CARD_QUIZ_COLUMNS = sql`q.id AS id, q.date AS date, q.start_time AS startTime, q.title AS title, q.description AS description,
  q.category AS category, q.theme AS theme, q.quizmaster AS quizmaster, q.team_size AS teamSize, q.price AS price,
  q.is_recurring AS isRecurring, q.recurrence_pattern AS recurrencePattern, q.is_cancelled AS isCancelled, q.language AS language, q.location_id AS locationId`;

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
export async function occurrenceQuizzes(
  db: Db,
  f: SeriesFilter,
  units: Array<{ unitId: number; key: string; rid: string | null; lid: string; pattern: string | null }>,
): Promise<OccurrenceRow[]> {
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

/** Quiz rows by id (a listed date's quiz, listing_dates.qid): one key lookup each in one round trip. */
export async function quizzesById(db: Db, ids: string[]): Promise<QuizCardRow[]> {
  if (ids.length > BATCH_LOOKUPS_MAX) {
    return db.all<QuizCardRow>(sql`SELECT ${CARD_QUIZ_COLUMNS} FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN quizzes q ON q.id = j.value`);
  }
  const found = await batchAll<QuizCardRow>(
    db,
    ids.map((id) => sql`SELECT ${CARD_QUIZ_COLUMNS} FROM quizzes q WHERE q.id = ${id}`),
  );
  return found.flat();
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
  const found = await batchAll<UnitRow>(
    db,
    ids.map((id) => sql`SELECT ${UNIT_COLUMNS} FROM listing_series e WHERE e.id = ${id}${where}`),
  );
  return found.flat();
}

/** Units by their listing key (a series at a place: `rid@location`; a single quiz: its id), one read. */
export async function unitsByKeys(db: Db, keys: string[]): Promise<UnitRow[]> {
  if (!keys.length) return [];
  return db.all<UnitRow>(sql`SELECT ${UNIT_COLUMNS} FROM json_each(${JSON.stringify(keys)}) j CROSS JOIN listing_series e ON e.key = j.value`);
}

/** Names of some units by id (the near-mode map: its order comes from the candidates). */
export async function unitLabels(db: Db, ids: number[]): Promise<Array<{ uid: number; placeText: string }>> {
  if (!ids.length) return [];
  return db.all(sql`
    SELECT e.id AS uid, e.place_text AS placeText FROM json_each(${JSON.stringify(ids)}) j CROSS JOIN listing_series e ON e.id = j.value`);
}
