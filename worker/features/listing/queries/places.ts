/**
 * Reads for the public pages and sitemaps: cities (the list, the largest, one by slug), a public business
 * with its places and upcoming quizzes, and the bounded slices the child sitemaps read.
 */
import { sql } from 'drizzle-orm';
import { batchAll } from '../../../db/batch';
import type { Db } from '../../../db/client';
import type { PlaceShape } from '../../../db/shapes';
import { chunks, D1_MAX_COMPOUND_TERMS } from '../../../lib/chunks';
import { CARD_QUIZ_COLUMNS, type QuizCardRow } from './cards';

/** The `limit` cities with the most listed units (listing_counts_top_idx, walked from the top: `limit` rows). */
export async function topCitySlugs(db: Db, limit: number): Promise<string[]> {
  const rows = await db.all<{ city: string }>(sql`
    SELECT city FROM listing_counts INDEXED BY listing_counts_top_idx
    WHERE wd = -1 AND units > 0 AND city != '' ORDER BY units DESC LIMIT ${limit}`);
  return rows.map((r) => r.city);
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

/** A business's place on its public page. */
export type VenuePlaceRow = PlaceShape;

/** A business's places in locations_venue_idx order (the caller orders them: no temporary b-tree, whose rows D1 counts too). */
export async function venueLocations(db: Db, venueId: string): Promise<VenuePlaceRow[]> {
  return db.all<VenuePlaceRow>(sql`
    SELECT id, name, address, city, city_slug AS citySlug, phone, website, latitude, longitude, created_at AS createdAt
    FROM locations WHERE venue_id = ${venueId}`);
}

/**
 * Upcoming occurrences at the given places (one business's), for the public venue page: per place its
 * first `limit` dates from today in quizzes_location_date_idx order (date, then insertion), read from that
 * index with a LIMIT: about one row read per row returned, no join (the caller has the place and the
 * business) and no sort in SQL (the caller orders by date, time and id and keeps `limit`; a place that
 * filled its `limit` may have more quizzes on its last date: placeDateQuizzes reads them).
 * One `UNION ALL` arm per place, at most D1_MAX_COMPOUND_TERMS arms (3 parameters each) per statement, the
 * statements in one batch (one round trip): a chain of MAX_PLACES_PER_VENUE places is 10 statements (issue 43.1).
 */
export async function venueUpcoming(db: Db, placeIds: string[], today: string, limit: number): Promise<Array<QuizCardRow & { rid: string | null }>> {
  const perPlace = placeIds.map(
    (id) =>
      sql`SELECT * FROM (SELECT ${CARD_QUIZ_COLUMNS}, q.recurrence_id AS rid FROM quizzes q WHERE q.location_id = ${id} AND q.date >= ${today} ORDER BY q.date LIMIT ${limit})`,
  );
  const statements = chunks(perPlace, D1_MAX_COMPOUND_TERMS).map((arms) => sql.join(arms, sql` UNION ALL `));
  return (await batchAll<QuizCardRow & { rid: string | null }>(db, statements)).flat();
}

/**
 * Every occurrence at each (place, date) pair (venueUpcoming's caller completes the places cut off at their
 * limit-th date): one statement per pair, all in one batch.
 */
export async function placeDateQuizzes(db: Db, pairs: ReadonlyArray<{ placeId: string; date: string }>): Promise<Array<QuizCardRow & { rid: string | null }>> {
  const statements = pairs.map(
    (p) => sql`SELECT ${CARD_QUIZ_COLUMNS}, q.recurrence_id AS rid FROM quizzes q WHERE q.location_id = ${p.placeId} AND q.date = ${p.date}`,
  );
  return (await batchAll<QuizCardRow & { rid: string | null }>(db, statements)).flat();
}

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
