/**
 * SQL of the calendar downloads and feeds. Every read is bounded by an index: a quiz by primary key; a
 * city's units from listing_series_city_idx (the listing's covering index), each unit's dates in the
 * feed window from quizzes_recurrence_idx / quizzes_unit_weekday_date_idx; a venue's dates from
 * quizzes_location_date_idx. Only public businesses (venues.is_public) are ever read.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { QuizPlaceRow, QuizShownColumns } from '../../db/shapes';

/** Flat row; toCalendarRow() nests it. `language` (sv | en | both, issue 31.3): the listing feed's `sprak` filter checks it on every date. */
export type CalendarDbRow = QuizPlaceRow<
  QuizShownColumns | 'language' | 'updatedAt',
  'name' | 'address' | 'city' | 'citySlug' | 'lat' | 'lng',
  'name' | 'slug'
>;

const QUIZ_COLUMNS = sql`q.id AS id, q.date AS date, q.start_time AS startTime, q.title AS title, q.description AS description,
  q.category AS category, q.theme AS theme, q.quizmaster AS quizmaster, q.team_size AS teamSize, q.price AS price,
  q.is_cancelled AS isCancelled, q.language AS language, q.updated_at AS updatedAt`;
const PLACE_COLUMNS = sql`l.name AS lName, l.address AS lAddress, l.city AS lCity, l.city_slug AS lCitySlug, l.latitude AS lLat, l.longitude AS lLng,
  v.name AS vName, v.slug AS vSlug`;
const COLUMNS = sql`${QUIZ_COLUMNS}, ${PLACE_COLUMNS}`;
/** The place and business columns carried by a `units` row (read once per unit, not once per date). */
const UNIT_PLACE_COLUMNS = sql`units.lName AS lName, units.lAddress AS lAddress, units.lCity AS lCity, units.lCitySlug AS lCitySlug,
  units.lLat AS lLat, units.lLng AS lLng, units.vName AS vName, units.vSlug AS vSlug`;
/** Feed order (date, time — an unknown time counts as 19:00 — then id) over a subquery's output columns. */
const FEED_ORDER = sql`ORDER BY date, coalesce(startTime, '19:00:00'), id`;

const compareText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
/** FEED_ORDER in the Worker (the columns are ASCII: JavaScript's order is SQLite's binary one). */
export function feedCompare(a: Pick<CalendarDbRow, 'date' | 'startTime' | 'id'>, b: Pick<CalendarDbRow, 'date' | 'startTime' | 'id'>): number {
  return compareText(a.date, b.date) || compareText(a.startTime ?? '19:00:00', b.startTime ?? '19:00:00') || compareText(a.id, b.id);
}

/**
 * The first `limit` events of `events` (a statement yielding a window's events in any order) in feed
 * order. D1 counts the rows of SQLite's sort too (a temporary b-tree, one row per event): a window of at
 * most FEED_MAX_EVENTS events is read unsorted and ordered here; only a bigger one is sorted in SQL.
 */
export async function firstInFeedOrder(db: Db, events: SQL, limit: number, cap = FEED_MAX_EVENTS): Promise<CalendarDbRow[]> {
  const all = await db.all<CalendarDbRow>(sql`${events} LIMIT ${cap + 1}`);
  if (all.length <= cap) return all.sort(feedCompare).slice(0, limit);
  return db.all<CalendarDbRow>(sql`${events} ${FEED_ORDER} LIMIT ${limit}`);
}

/** Most events one feed holds (8 weeks of a big city's every quiz fits with room to spare). */
export const FEED_MAX_EVENTS = 2000;
/** Most units (series at a place, or single quizzes) one feed expands. */
export const FEED_MAX_UNITS = 600;

/** One occurrence of a public business, or null (unknown id or hidden business). */
export async function publicQuiz(db: Db, id: string): Promise<CalendarDbRow | null> {
  const rows = await db.all<CalendarDbRow>(sql`
    SELECT ${COLUMNS} FROM quizzes q CROSS JOIN locations l ON l.id = q.location_id CROSS JOIN venues v ON v.id = l.venue_id
    WHERE q.id = ${id} AND v.is_public = 1 LIMIT 1`);
  return rows[0] ?? null;
}

export interface UnitFilter {
  city: string;
  /** SQLite %w weekday (0 = Sunday). */
  weekdayW?: number | undefined;
  from: string;
  to: string;
}

/**
 * Every public occurrence in a city (optionally on one weekday) dated from..to, by date and time.
 *
 * The city's units come from listing_series_city_idx (at most FEED_MAX_UNITS), each with its place and
 * business read once; then each series' dates in the window are a range of quizzes_recurrence_idx
 * (recurrence_id, date) — or, for one weekday, of quizzes_unit_weekday_date_idx — so only the dates in
 * the window are read (not every date the series ever had), and the place check is on the row read
 * anyway. A single quiz is its unit's key. About one row is read per event (the index walk; the sort is
 * done in the Worker, firstInFeedOrder) plus five per unit, whatever the size of the catalogue.
 */
export async function cityOccurrences(db: Db, f: UnitFilter, limit = FEED_MAX_EVENTS): Promise<CalendarDbRow[]> {
  const wd = f.weekdayW;
  const mask = wd === undefined ? sql`` : sql`AND (e.days_mask & ${1 << wd}) != 0`;
  const series =
    wd === undefined
      ? sql`quizzes q INDEXED BY quizzes_recurrence_idx ON q.recurrence_id = units.rid AND q.date BETWEEN ${f.from} AND ${f.to} AND +q.location_id = units.lid`
      : sql`quizzes q INDEXED BY quizzes_unit_weekday_date_idx ON q.recurrence_id = units.rid AND q.location_id = units.lid AND q.weekday = ${wd} AND q.date BETWEEN ${f.from} AND ${f.to}`;
  const onDay = wd === undefined ? sql`` : sql`AND q.weekday = ${wd}`;
  const events = sql`
    WITH units AS MATERIALIZED (
      SELECT e.recurrence_id AS rid, e.location_id AS lid, e.key AS key, ${PLACE_COLUMNS}
      FROM listing_series e CROSS JOIN locations l ON l.id = e.location_id CROSS JOIN venues v ON v.id = l.venue_id
      WHERE e.city_slug = ${f.city} AND e.last_date >= ${f.from} AND e.is_public = 1 ${mask} AND v.is_public = 1
      LIMIT ${FEED_MAX_UNITS})
    SELECT * FROM (
      SELECT ${QUIZ_COLUMNS}, ${UNIT_PLACE_COLUMNS} FROM units CROSS JOIN ${series}
        WHERE units.rid IS NOT NULL
      UNION ALL
      SELECT ${QUIZ_COLUMNS}, ${UNIT_PLACE_COLUMNS} FROM units CROSS JOIN quizzes q ON q.id = units.key
        WHERE units.rid IS NULL AND q.date BETWEEN ${f.from} AND ${f.to} ${onDay})`;
  return firstInFeedOrder(db, events, limit);
}

/**
 * The dates in from..to of the units the given occurrences belong to (each series at its place; a single
 * quiz itself). Each seed's place and business are read once; each series' dates in the window are a
 * range of quizzes_recurrence_idx (recurrence_id, date), not every date the series ever had.
 */
export async function unitOccurrences(db: Db, quizIds: string[], from: string, to: string): Promise<CalendarDbRow[]> {
  if (quizIds.length === 0) return [];
  const events = sql`
    WITH units AS MATERIALIZED (
      SELECT s.recurrence_id AS rid, s.location_id AS lid, s.id AS key, ${PLACE_COLUMNS}
      FROM json_each(${JSON.stringify(quizIds)}) j CROSS JOIN quizzes s ON s.id = j.value
        CROSS JOIN locations l ON l.id = s.location_id CROSS JOIN venues v ON v.id = l.venue_id
      WHERE v.is_public = 1)
    SELECT * FROM (
      SELECT ${QUIZ_COLUMNS}, ${UNIT_PLACE_COLUMNS} FROM units
        CROSS JOIN quizzes q INDEXED BY quizzes_recurrence_idx ON q.recurrence_id = units.rid AND q.date BETWEEN ${from} AND ${to} AND +q.location_id = units.lid
        WHERE units.rid IS NOT NULL
      UNION
      SELECT ${QUIZ_COLUMNS}, ${UNIT_PLACE_COLUMNS} FROM units CROSS JOIN quizzes q ON q.id = units.key
        WHERE units.rid IS NULL AND q.date BETWEEN ${from} AND ${to})`;
  return firstInFeedOrder(db, events, FEED_MAX_EVENTS);
}

export interface PublicVenueHead {
  id: string;
  name: string;
  slug: string;
}

/** A public business with a place in that city, or null. */
export async function publicVenueInCity(db: Db, citySlug: string, venueSlug: string): Promise<PublicVenueHead | null> {
  const rows = await db.all<PublicVenueHead>(sql`
    SELECT v.id AS id, v.name AS name, v.slug AS slug FROM venues v
    WHERE v.slug = ${venueSlug} AND v.is_public = 1
      -- Unary + keeps SQLite on locations_venue_idx (this venue's places) rather than every place of the city.
      AND EXISTS (SELECT 1 FROM locations l WHERE l.venue_id = v.id AND +l.city_slug = ${citySlug}) LIMIT 1`);
  return rows[0] ?? null;
}

/**
 * Every occurrence of one business (all its places) dated from..to, the first `limit` by date and time,
 * with the business read once per place (not once per date). A feed window is short: each place's dates
 * in it are a range of quizzes_location_date_idx. An open-ended window with a small `limit` (the share
 * card and widget: the next few dates) ends each place's range at its `limit`-th date instead (found in
 * the same index; that date's other quizzes included, so the final sort by time still chooses exactly).
 */
export async function venueOccurrences(db: Db, venueId: string, from: string, to: string, limit = FEED_MAX_EVENTS): Promise<CalendarDbRow[]> {
  if (limit >= FEED_MAX_EVENTS) {
    return db.all<CalendarDbRow>(sql`
      SELECT * FROM (
        SELECT ${COLUMNS} FROM locations l CROSS JOIN venues v ON v.id = l.venue_id CROSS JOIN quizzes q ON q.location_id = l.id
        WHERE l.venue_id = ${venueId} AND v.is_public = 1 AND q.date BETWEEN ${from} AND ${to})
      ${FEED_ORDER} LIMIT ${limit}`);
  }
  return db.all<CalendarDbRow>(sql`
    WITH places AS MATERIALIZED (
      SELECT l.id AS lid, ${PLACE_COLUMNS},
        coalesce((SELECT d.date FROM quizzes d WHERE d.location_id = l.id AND d.date BETWEEN ${from} AND ${to} ORDER BY d.date LIMIT 1 OFFSET ${limit - 1}), ${to}) AS until
      FROM locations l CROSS JOIN venues v ON v.id = l.venue_id
      WHERE l.venue_id = ${venueId} AND v.is_public = 1)
    SELECT * FROM (
      SELECT ${QUIZ_COLUMNS}, places.lName AS lName, places.lAddress AS lAddress, places.lCity AS lCity, places.lCitySlug AS lCitySlug,
        places.lLat AS lLat, places.lLng AS lLng, places.vName AS vName, places.vSlug AS vSlug
      FROM places CROSS JOIN quizzes q ON q.location_id = places.lid AND q.date >= ${from} AND q.date <= places.until)
    ${FEED_ORDER} LIMIT ${limit}`);
}
