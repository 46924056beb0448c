/**
 * SQL of the calendar downloads and feeds. Every read is bounded by an index: a quiz by primary key; a
 * city's units from listing_series_city_idx (the listing's covering index), each unit's dates in the
 * feed window from quizzes_recurrence_idx / quizzes_unit_weekday_date_idx; a venue's dates from
 * quizzes_location_date_idx. Only public businesses (venues.is_public) are ever read.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** Flat row; toCalendarRow() nests it. */
export interface CalendarDbRow {
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
  isCancelled: number;
  updatedAt: string;
  lName: string;
  lAddress: string;
  lCity: string;
  lCitySlug: string;
  lLat: number | null;
  lLng: number | null;
  vName: string;
  vSlug: string;
}

const COLUMNS = sql`q.id AS id, q.date AS date, q.start_time AS startTime, q.title AS title, q.description AS description,
  q.category AS category, q.theme AS theme, q.quizmaster AS quizmaster, q.team_size AS teamSize, q.price AS price,
  q.is_cancelled AS isCancelled, q.updated_at AS updatedAt,
  l.name AS lName, l.address AS lAddress, l.city AS lCity, l.city_slug AS lCitySlug, l.latitude AS lLat, l.longitude AS lLng,
  v.name AS vName, v.slug AS vSlug`;

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

/** Every public occurrence in a city (optionally on one weekday) dated from..to, by date and time. */
export async function cityOccurrences(db: Db, f: UnitFilter, limit = FEED_MAX_EVENTS): Promise<CalendarDbRow[]> {
  const wd = f.weekdayW;
  const mask = wd === undefined ? sql`` : sql`AND (e.days_mask & ${1 << wd}) != 0`;
  const onDay = wd === undefined ? sql`` : sql`AND q.weekday = ${wd}`;
  return db.all<CalendarDbRow>(sql`
    WITH units AS MATERIALIZED (
      SELECT e.recurrence_id AS rid, e.location_id AS lid, e.key AS key FROM listing_series e
      WHERE e.city_slug = ${f.city} AND e.last_date >= ${f.from} AND e.is_public = 1 ${mask}
      LIMIT ${FEED_MAX_UNITS}),
    picked AS MATERIALIZED (
      SELECT q.id AS qid FROM units CROSS JOIN quizzes q ON q.recurrence_id = units.rid AND q.location_id = units.lid
        WHERE units.rid IS NOT NULL AND q.date BETWEEN ${f.from} AND ${f.to} ${onDay}
      UNION ALL
      SELECT q.id AS qid FROM units CROSS JOIN quizzes q ON q.id = units.key
        WHERE units.rid IS NULL AND q.date BETWEEN ${f.from} AND ${f.to} ${onDay})
    SELECT ${COLUMNS} FROM picked CROSS JOIN quizzes q ON q.id = picked.qid CROSS JOIN locations l ON l.id = q.location_id
      CROSS JOIN venues v ON v.id = l.venue_id
    WHERE v.is_public = 1
    ORDER BY q.date, coalesce(q.start_time, '19:00:00'), q.id LIMIT ${limit}`);
}

/** The dates in from..to of the units the given occurrences belong to (each series at its place; a single quiz itself). */
export async function unitOccurrences(db: Db, quizIds: string[], from: string, to: string): Promise<CalendarDbRow[]> {
  if (quizIds.length === 0) return [];
  return db.all<CalendarDbRow>(sql`
    WITH seeds AS MATERIALIZED (
      SELECT s.recurrence_id AS rid, s.location_id AS lid, s.id AS sid
      FROM json_each(${JSON.stringify(quizIds)}) j CROSS JOIN quizzes s ON s.id = j.value),
    picked AS MATERIALIZED (
      SELECT q.id AS qid FROM seeds CROSS JOIN quizzes q ON q.recurrence_id = seeds.rid AND q.location_id = seeds.lid
        WHERE seeds.rid IS NOT NULL AND q.date BETWEEN ${from} AND ${to}
      UNION
      SELECT seeds.sid AS qid FROM seeds WHERE seeds.rid IS NULL)
    SELECT ${COLUMNS} FROM picked CROSS JOIN quizzes q ON q.id = picked.qid CROSS JOIN locations l ON l.id = q.location_id
      CROSS JOIN venues v ON v.id = l.venue_id
    WHERE v.is_public = 1 AND q.date BETWEEN ${from} AND ${to}
    ORDER BY q.date, coalesce(q.start_time, '19:00:00'), q.id LIMIT ${FEED_MAX_EVENTS}`);
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

/** Every occurrence of one business (all its places) dated from..to. */
export async function venueOccurrences(db: Db, venueId: string, from: string, to: string, limit = FEED_MAX_EVENTS): Promise<CalendarDbRow[]> {
  return db.all<CalendarDbRow>(sql`
    SELECT ${COLUMNS} FROM locations l CROSS JOIN quizzes q ON q.location_id = l.id CROSS JOIN venues v ON v.id = l.venue_id
    WHERE l.venue_id = ${venueId} AND v.is_public = 1 AND q.date BETWEEN ${from} AND ${to}
    ORDER BY q.date, coalesce(q.start_time, '19:00:00'), q.id LIMIT ${limit}`);
}

/** A city's display name (most common spelling among public places), or null: one seek in locations(city_slug). */
export async function publicCityName(db: Db, slug: string): Promise<string | null> {
  const rows = await db.all<{ name: string }>(sql`
    SELECT l.city AS name FROM locations l CROSS JOIN venues v ON v.id = l.venue_id
    WHERE l.city_slug = ${slug} AND v.is_public = 1 GROUP BY l.city ORDER BY COUNT(*) DESC, l.city LIMIT 1`);
  return rows[0]?.name ?? null;
}
