/**
 * SQL of the public listing. Join order is fixed with CROSS JOIN (SQLite keeps the written order) so
 * every plan starts from an index: locations(city_slug) → quizzes(location_id, date) when a city is
 * given, otherwise quizzes(date) or quizzes(weekday, date); locations, venues and users by primary key.
 * No query here scans quizzes, locations or venues in full (test/integration/listing-plan.test.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';

export interface CandidateFilter {
  today: string;
  city?: string | undefined;
  /** Exact date (date mode). */
  date?: string | undefined;
  /** SQLite %w weekday 0 = Sunday … 6 = Saturday (weekday mode). */
  weekdayW?: number | undefined;
  /** Folded (lower-case) search text. */
  search?: string | undefined;
  viewerId?: string | null | undefined;
  houseEmail: string;
}

export interface CandidateRow {
  id: string;
  date: string;
  startTime: string | null;
  rid: string | null;
  pattern: 'weekly' | 'biweekly' | null;
  lid: string;
  house: number;
}

/** lower() in SQLite folds ASCII only: fold the Nordic and common accented capitals first. */
export function foldSql(col: SQL): SQL {
  return sql`lower(replace(replace(replace(replace(replace(replace(replace(${col},'Å','å'),'Ä','ä'),'Ö','ö'),'É','é'),'Ü','ü'),'Æ','æ'),'Ø','ø'))`;
}

export function foldText(s: string): string {
  return s.toLowerCase();
}


/**
 * The next occurrence (per series and place) that passes the filters. Small columns only; the page's
 * 12 rows are read in full by quizDetails().
 */
export async function selectCandidates(db: Db, f: CandidateFilter): Promise<CandidateRow[]> {
  const where: SQL[] = [];
  if (f.date) where.push(sql`q.date = ${f.date}`);
  else where.push(sql`q.date >= ${f.today}`);
  if (f.weekdayW !== undefined && !f.date) where.push(sql`q.weekday = ${f.weekdayW}`);
  if (f.city) where.push(sql`l.city_slug = ${f.city}`);
  where.push(f.viewerId ? sql`(v.is_public = 1 OR v.user_id = ${f.viewerId})` : sql`v.is_public = 1`);
  if (f.search) {
    // instr(), not LIKE: D1 refuses LIKE patterns over 50 bytes, and a substring test needs no escaping.
    const cols = [sql`q.description`, sql`q.title`, sql`q.theme`, sql`q.quizmaster`, sql`v.name`, sql`l.name`];
    where.push(sql`(${sql.join(cols.map((c) => sql`instr(${foldSql(sql`coalesce(${c}, '')`)}, ${f.search}) > 0`), sql` OR `)})`);
  }
  const from = f.city
    ? sql`locations l CROSS JOIN quizzes q ON q.location_id = l.id CROSS JOIN venues v ON v.id = l.venue_id CROSS JOIN users u ON u.id = v.user_id`
    : sql`quizzes q CROSS JOIN locations l ON l.id = q.location_id CROSS JOIN venues v ON v.id = l.venue_id CROSS JOIN users u ON u.id = v.user_id`;
  // One row per series and place: SQLite's bare columns with MIN() come from the row holding the
  // minimum, i.e. the next occurrence (spec 01 §4). Single quizzes group on their own id.
  return db.all<CandidateRow>(sql`
    SELECT q.id AS id, MIN(q.date) AS date, q.start_time AS startTime, q.recurrence_id AS rid,
           q.recurrence_pattern AS pattern, q.location_id AS lid, (u.email = ${f.houseEmail}) AS house
    FROM ${from}
    WHERE ${sql.join(where, sql` AND `)}
    GROUP BY coalesce(q.recurrence_id, q.id), q.location_id`);
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

const DETAIL_COLUMNS = sql`q.id AS id, q.date AS date, q.start_time AS startTime, q.title AS title, q.description AS description,
  q.category AS category, q.theme AS theme, q.quizmaster AS quizmaster, q.team_size AS teamSize, q.price AS price,
  q.is_recurring AS isRecurring, q.recurrence_pattern AS recurrencePattern, q.is_cancelled AS isCancelled,
  l.id AS lId, l.name AS lName, l.address AS lAddress, l.city AS lCity, l.city_slug AS lCitySlug, l.phone AS lPhone,
  l.website AS lWebsite, l.latitude AS lLat, l.longitude AS lLng,
  v.id AS vId, v.name AS vName, v.slug AS vSlug, v.description AS vDescription, v.website AS vWebsite`;

/** Full rows of at most one page of quizzes (≤ 12 ids, well under D1's 100 bound parameters). */
export async function quizDetails(db: Db, ids: string[], houseEmail: string): Promise<DetailRow[]> {
  if (ids.length === 0) return [];
  return db.all<DetailRow>(sql`
    SELECT ${DETAIL_COLUMNS}, (u.email = ${houseEmail}) AS house
    FROM quizzes q CROSS JOIN locations l ON l.id = q.location_id CROSS JOIN venues v ON v.id = l.venue_id
      CROSS JOIN users u ON u.id = v.user_id
    WHERE q.id IN (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`);
}

/**
 * Distinct cities with a public business: slug plus the display name as written in the data. Walks
 * the distinct slugs of locations(city_slug) with a recursive skip-scan (one index seek per city), so
 * the cost grows with the number of cities, not of places.
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

/** Display name of a city slug, or null when no public business is there. */
export async function findCity(db: Db, slug: string): Promise<{ slug: string; name: string } | null> {
  const rows = await db.all<{ name: string; n: number }>(sql`
    SELECT l.city AS name, COUNT(*) AS n
    FROM locations l CROSS JOIN venues v ON v.id = l.venue_id
    WHERE l.city_slug = ${slug} AND v.is_public = 1
    GROUP BY l.city ORDER BY n DESC, l.city LIMIT 1`);
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
}

export async function findPublicVenue(db: Db, slug: string, houseEmail: string): Promise<VenueHeadRow | null> {
  const rows = await db.all<VenueHeadRow>(sql`
    SELECT v.id AS id, v.name AS name, v.slug AS slug, v.description AS description, v.address AS address, v.city AS city,
           v.phone AS phone, v.website AS website, (u.email = ${houseEmail}) AS house
    FROM venues v CROSS JOIN users u ON u.id = v.user_id
    WHERE v.slug = ${slug} AND v.is_public = 1 LIMIT 1`);
  return rows[0] ?? null;
}

export async function venueLocations(db: Db, venueId: string) {
  return db.all<{ id: string; name: string; address: string; city: string; citySlug: string; phone: string | null; website: string | null; latitude: number | null; longitude: number | null }>(sql`
    SELECT id, name, address, city, city_slug AS citySlug, phone, website, latitude, longitude
    FROM locations WHERE venue_id = ${venueId} ORDER BY created_at, id`);
}

/** Upcoming occurrences of one business (bounded), for the public venue page. */
export async function venueUpcoming(db: Db, venueId: string, today: string, limit: number): Promise<DetailRow[]> {
  return db.all<DetailRow>(sql`
    SELECT ${DETAIL_COLUMNS}, 0 AS house
    FROM locations l CROSS JOIN quizzes q ON q.location_id = l.id CROSS JOIN venues v ON v.id = l.venue_id
    WHERE l.venue_id = ${venueId} AND q.date >= ${today}
    ORDER BY q.date, q.start_time, q.id LIMIT ${limit}`);
}

/** Sitemap: cities with public businesses, city × weekday pairs with upcoming quizzes, public venue pages. */
export async function sitemapCityWeekdays(db: Db, today: string): Promise<Array<{ city: string; w: number }>> {
  return db.all<{ city: string; w: number }>(sql`
    SELECT DISTINCT l.city_slug AS city, q.weekday AS w
    FROM quizzes q CROSS JOIN locations l ON l.id = q.location_id CROSS JOIN venues v ON v.id = l.venue_id
    WHERE q.date >= ${today} AND v.is_public = 1`);
}

export async function sitemapVenues(db: Db): Promise<Array<{ slug: string; city: string }>> {
  return db.all<{ slug: string; city: string }>(sql`
    SELECT v.slug AS slug, MIN(l.city_slug) AS city
    FROM venues v CROSS JOIN locations l ON l.venue_id = v.id
    WHERE v.is_public = 1
    GROUP BY v.id ORDER BY v.slug`);
}
