/**
 * SQL of the public listing. The listing is chosen from listing_series (one row per series at a place
 * or single quiz, kept by triggers: migration 0005) through its covering indexes — (city_slug,
 * last_date, …) with a city, else (last_date, …) — and its trigram FTS5 index for free text; quizzes are
 * read by series (quizzes_recurrence_idx) or primary key for the ≤ 12 units of a page only. Join order
 * is fixed with CROSS JOIN (SQLite keeps the written order). No query here scans quizzes, locations,
 * venues or listing_series in full (test/integration/listing-plan.test.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { addDays, isoWeekday } from '../../lib/clock';
import { PRICE_MAX_FILTER_SEK, timeRange, type QuizFilters } from '../../lib/quiz-filters';

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

/** The quiz filters on listing_series e (its price, team_max, topic and start_min columns, all in the covering indexes). */
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
 * date mode the one on that date. `q` is a quizzes row; `pattern` the unit's recurrence pattern.
 */
function occurrenceSql(f: SeriesFilter, pattern: SQL): SQL {
  // The weekday equality lets quizzes_unit_weekday_date_idx answer with one seek.
  if (f.date) return sql`q.weekday = ${isoWeekday(f.date) % 7} AND q.date = ${f.date}`;
  if (f.weekdayW !== undefined) {
    return sql`q.date >= ${f.today} AND q.weekday = ${f.weekdayW} AND (${pattern} IS NOT 'biweekly' OR q.date <= ${addDays(f.today, 6)})`;
  }
  return sql`q.date >= ${f.today}`;
}

/** WHERE of listing_series e: every filter of the listing, answered from the index of units. */
function seriesWhere(f: SeriesFilter): SQL {
  const where: SQL[] = [sql`e.last_date >= ${f.date ?? f.today}`];
  if (f.box) where.push(sql`e.lat BETWEEN ${f.box.minLat} AND ${f.box.maxLat} AND e.lng BETWEEN ${f.box.minLng} AND ${f.box.maxLng}`);
  else if (f.city) where.push(sql`e.city_slug = ${f.city}`);
  where.push(f.viewerId ? sql`(e.is_public = 1 OR e.owner_id = ${f.viewerId})` : sql`e.is_public = 1`);
  where.push(...quizFilterSql(f.quiz));
  const w = f.date ? isoWeekday(f.date) % 7 : f.weekdayW;
  if (w !== undefined) {
    // days_mask is a cheap prefilter; the EXISTS (one seek in quizzes_unit_weekday_date_idx) is the rule itself.
    const single = f.date ? sql`e.last_date = ${f.date}` : sql`1`;
    where.push(sql`(e.days_mask & ${1 << w}) != 0`);
    where.push(sql`((e.recurrence_id IS NULL AND ${single}) OR EXISTS (SELECT 1 FROM quizzes q WHERE q.recurrence_id = e.recurrence_id AND q.location_id = e.location_id AND ${occurrenceSql(f, sql`e.pattern`)}))`);
  }
  if (f.search) {
    const plan = searchPlan(f.search);
    if (plan.kind === 'substring') where.push(sql`e.id IN (SELECT rowid FROM listing_series_fts WHERE listing_series_fts MATCH ${plan.match})`);
    else if (plan.kind === 'word-prefix') where.push(sql`e.id IN (SELECT rowid FROM listing_series_words WHERE listing_series_words MATCH ${plan.match})`);
    else where.push(sql`instr(${foldSql(sql`e.place_text || ' | ' || e.quiz_text`)}, ${plan.text}) > 0`);
  }
  return sql.join(where, sql` AND `);
}

const houseSql = (houseEmail: string) => sql`coalesce(e.owner_id = (SELECT id FROM users WHERE email = ${houseEmail}), 0)`;

/**
 * The daily shuffle in SQL: (shuffle XOR seed) × 48271 mod (2³¹ − 1). SQLite has no XOR operator:
 * a ^ b = (a | b) − (a & b). Both operands are < 2³¹, so the product stays inside 64-bit integers.
 */
const shuffleSql = (seed: number) => sql`((((e.shuffle | ${seed}) - (e.shuffle & ${seed})) * 48271) % 2147483647)`;

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

/**
 * Units matching the filters with their listed occurrence in full (the columns of a card). Either the
 * units an active promotion points at (`promoted`, a handful, ranked by the caller), or one page of the
 * ordinary ranking: real accounts before the house account, each in the daily shuffle (spec 01 §4),
 * skipping `exclude` (ids of the units already shown in a promotion tier).
 *
 * Three steps, each materialized so SQLite cannot merge them: `page` filters and orders on a covering
 * index only (no row is read); `chosen` reads the ≤ 12 rows of the page; `listed` looks up their next
 * occurrence (quizzes_recurrence_idx), whose card columns the final join reads by primary key.
 */
export async function listedUnits(
  db: Db,
  f: SeriesFilter,
  pick: { promoted: true } | { promoted: false; exclude: number[]; limit: number; offset: number } | { ids: number[] },
): Promise<ListedRow[]> {
  const where = seriesWhere(f);
  const keys = sql`e.id AS uid, ${houseSql(f.houseEmail)} AS house_last, ${shuffleSql(f.seed)} AS ord`;
  const active = sql`p.status = 'active' AND p.end_date >= ${f.today}`;
  const page = 'ids' in pick
    ? sql`SELECT ${keys} FROM listing_series e WHERE e.id IN (SELECT value FROM json_each(${JSON.stringify(pick.ids)})) AND ${where}`
    : pick.promoted
    ? sql`SELECT ${keys} FROM listing_series e
        WHERE e.id IN (
          SELECT s.id FROM promotions p CROSS JOIN quizzes pq ON pq.id = p.quiz_id CROSS JOIN listing_series s ON s.recurrence_id = pq.recurrence_id WHERE ${active}
          UNION SELECT s.id FROM promotions p CROSS JOIN quizzes pq ON pq.id = p.quiz_id CROSS JOIN listing_series s ON s.key = pq.id
            WHERE ${active} AND pq.recurrence_id IS NULL)
        AND ${where}`
    : sql`SELECT ${keys} FROM listing_series e
        WHERE ${where} AND e.id NOT IN (SELECT value FROM json_each(${JSON.stringify(pick.exclude)}))
        ORDER BY house_last, ord, e.id LIMIT ${pick.limit} OFFSET ${pick.offset}`;
  return db.all<ListedRow>(sql`
    WITH page AS MATERIALIZED (${page}),
    chosen AS MATERIALIZED (
      SELECT page.*, e.key AS key, e.recurrence_id AS rid, e.location_id AS lid, e.pattern AS pattern, e.shuffle AS shuffle,
        e.lat AS ulat, e.lng AS ulng
      FROM page CROSS JOIN listing_series e ON e.id = page.uid),
    listed AS MATERIALIZED (
      SELECT chosen.*, CASE WHEN chosen.rid IS NULL THEN chosen.key ELSE
        (SELECT q.id FROM quizzes q WHERE q.recurrence_id = chosen.rid AND q.location_id = chosen.lid AND ${occurrenceSql(f, sql`chosen.pattern`)}
          ORDER BY q.date LIMIT 1) END AS qid
      FROM chosen)
    SELECT listed.uid AS unitId, listed.key AS key, listed.rid AS rid, listed.shuffle AS shuffle, listed.ulat AS unitLat, listed.ulng AS unitLng, ${DETAIL_COLUMNS}, (u.email = ${f.houseEmail}) AS house
    FROM listed CROSS JOIN quizzes q ON q.id = listed.qid CROSS JOIN locations l ON l.id = q.location_id
      CROSS JOIN venues v ON v.id = l.venue_id CROSS JOIN users u ON u.id = v.user_id
    ORDER BY listed.house_last, listed.ord, listed.uid`);
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

/**
 * The map (GET /api/listing/map): the first `limit` units of the ordinary ranking (house account last,
 * daily shuffle; chosen on the covering index like a listing page) with their position and names, read
 * by primary key for those units only. Promoted units are not put first: a map has no order.
 */
export async function mapUnits(db: Db, f: SeriesFilter, limit: number): Promise<Array<{ uid: number; lat: number | null; lng: number | null; placeText: string }>> {
  const keys = sql`e.id AS uid, ${houseSql(f.houseEmail)} AS house_last, ${shuffleSql(f.seed)} AS ord`;
  return db.all(sql`
    WITH page AS MATERIALIZED (SELECT ${keys} FROM listing_series e WHERE ${seriesWhere(f)} ORDER BY house_last, ord, e.id LIMIT ${limit})
    SELECT page.uid AS uid, e.lat AS lat, e.lng AS lng, e.place_text AS placeText
    FROM page CROSS JOIN listing_series e ON e.id = page.uid
    ORDER BY page.house_last, page.ord, page.uid`);
}

/** Names of some units by id (the near-mode map: its order comes from the candidates). */
export async function unitLabels(db: Db, ids: number[]): Promise<Array<{ uid: number; placeText: string }>> {
  if (!ids.length) return [];
  return db.all(sql`
    SELECT e.id AS uid, e.place_text AS placeText FROM listing_series e
    WHERE e.id IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`);
}

/**
 * How many units match (read from a covering index), and — within one city only — at how many places
 * (the combined page's "N ställen"; DISTINCT needs a temporary b-tree, so it is not done nationwide).
 */
export async function countUnits(db: Db, f: SeriesFilter): Promise<{ total: number; places: number | null }> {
  const places = f.city ? sql`COUNT(DISTINCT e.location_id)` : sql`NULL`;
  const [row] = await db.all<{ total: number; places: number | null }>(sql`
    SELECT COUNT(*) AS total, ${places} AS places FROM listing_series e WHERE ${seriesWhere(f)}`);
  return { total: row?.total ?? 0, places: row?.places ?? null };
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

// ---- Sitemaps at scale (issue 19 §4): each child sitemap reads a bounded, index-backed slice. ----

/**
 * Weekday masks of the live public units of the cities from `fromCity` to `toCity` (slugs, inclusive):
 * a range of listing_series_city_idx (covering), so the rows read are the units of those cities only.
 * `m` is the unit's days_mask (bit 1 << %w for every weekday it has had a date on).
 */
export async function sitemapCityMasks(db: Db, fromCity: string, toCity: string, today: string): Promise<Array<{ city: string; m: number }>> {
  return db.all<{ city: string; m: number }>(sql`
    SELECT DISTINCT city_slug AS city, days_mask AS m
    FROM listing_series INDEXED BY listing_series_city_idx
    WHERE city_slug >= ${fromCity} AND city_slug <= ${toCity} AND last_date >= ${today} AND is_public = 1`);
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

