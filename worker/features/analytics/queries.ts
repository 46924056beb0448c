/** SQL of the analytics read side. Every read of analytics_daily is a range of its primary key (venue_id, day, …) or of (day, metric). */
import { asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { venues } from '../../db/schema';

/** The owner's oldest business (the analytics screen's default). */
export async function oldestBusinessOf(db: Db, userId: string) {
  const [own] = await db.select().from(venues).where(eq(venues.userId, userId)).orderBy(asc(venues.createdAt), asc(venues.id)).limit(1);
  return own;
}

export function dailyCounts(db: Db, venueId: string, from: string, to: string) {
  return db.all<{ day: string; metric: string; n: number }>(sql`
    SELECT day, metric, SUM(count) AS n FROM analytics_daily
    WHERE venue_id = ${venueId} AND day BETWEEN ${from} AND ${to}
    GROUP BY day, metric`);
}

/** Per place ('' = the business as a whole), with the place's current name. */
export function placeCounts(db: Db, venueId: string, from: string, to: string) {
  return db.all<{ location_id: string; name: string | null; metric: string; n: number }>(sql`
    SELECT a.location_id, l.name, a.metric, SUM(a.count) AS n FROM analytics_daily a
    LEFT JOIN locations l ON l.id = a.location_id
    WHERE a.venue_id = ${venueId} AND a.day BETWEEN ${from} AND ${to}
    GROUP BY a.location_id, a.metric`);
}

/** Per series (all its occurrences) or single quiz; deleted quizzes keep their counts under their id. */
export function quizCounts(db: Db, venueId: string, from: string, to: string) {
  return db.all<{ unit: string; is_series: number; title: string | null; first_date: string | null; place: string | null; metric: string; n: number }>(sql`
    SELECT COALESCE(q.recurrence_id, a.quiz_id) AS unit, MAX(q.recurrence_id IS NOT NULL) AS is_series, MAX(q.title) AS title,
           MIN(q.date) AS first_date, MAX(l.name) AS place, a.metric, SUM(a.count) AS n
    FROM analytics_daily a
    LEFT JOIN quizzes q ON q.id = a.quiz_id
    LEFT JOIN locations l ON l.id = a.location_id
    WHERE a.venue_id = ${venueId} AND a.day BETWEEN ${from} AND ${to} AND a.quiz_id <> ''
    GROUP BY unit, a.metric`);
}

/** Active paid placements of the business's quizzes that touch [from, to]. */
export function promotedRanges(db: Db, venueId: string, from: string, to: string) {
  return db.all<{ tier: 'premium' | 'recommended'; start_date: string; end_date: string }>(sql`
    SELECT p.product_type AS tier, p.start_date, p.end_date FROM promotions p
    JOIN quizzes q ON q.id = p.quiz_id
    JOIN locations l ON l.id = q.location_id
    WHERE l.venue_id = ${venueId} AND p.status = 'active' AND p.end_date >= ${from} AND p.start_date <= ${to}`);
}

/** A claim that still holds its slot: sold, or held by a checkout that has not lapsed (see slotCounts). */
const liveClaim = (nowMs: number) => sql`NOT (c.state = 'held' AND EXISTS (SELECT 1 FROM checkout_orders o WHERE o.id = c.order_id
        AND (o.status IN ('expired', 'failed') OR (o.status = 'open' AND o.expires_at < ${nowMs}))))`;

/**
 * Taken slots of one city per date and tier. Read-only: a hold whose checkout has lapsed (open past its
 * expiry, or already expired/failed) is not counted, without releasing it here — the nightly job and the
 * checkout paths release holds (promotion/service releaseExpiredHolds).
 */
export function slotCounts(db: Db, citySlug: string, from: string, to: string, nowMs: number) {
  return db.all<{ date: string; tier: 'premium' | 'recommended'; n: number }>(sql`
    SELECT c.date, c.tier, COUNT(*) AS n FROM promotion_slot_claims c
    WHERE c.city_slug = ${citySlug} AND c.date BETWEEN ${from} AND ${to}
      AND ${liveClaim(nowMs)}
    GROUP BY c.date, c.tier`);
}

/** Taken slots of every city per date and tier (the superadmin overview), read-only as slotCounts. */
export function allSlotCounts(db: Db, from: string, to: string, nowMs: number) {
  return db.all<{ city_slug: string; date: string; tier: 'premium' | 'recommended'; n: number }>(sql`
    SELECT c.city_slug, c.date, c.tier, COUNT(*) AS n FROM promotion_slot_claims c
    WHERE c.date BETWEEN ${from} AND ${to} AND ${liveClaim(nowMs)}
    GROUP BY c.city_slug, c.date, c.tier`);
}

/** Paid orders since an instant, one row per order and city of its items (öre). */
export function paidOrderCities(db: Db, sinceIso: string) {
  return db.all<{ id: string; created_at: string; city_slug: string | null; amount: number }>(sql`
    SELECT o.id, o.created_at, json_extract(i.value, '$.citySlug') AS city_slug, SUM(json_extract(i.value, '$.amount')) AS amount
    FROM checkout_orders o, json_each(o.items) i
    WHERE o.status = 'paid' AND o.created_at >= ${sinceIso}
    GROUP BY o.id, city_slug`);
}

export function topPlaces(db: Db, from: string, to: string, limit = 10) {
  return db.all<{
    venue_id: string;
    venue_name: string;
    location_id: string;
    place_name: string | null;
    city: string | null;
    impression: number;
    detail_open: number;
    venue_view: number;
  }>(sql`
    SELECT a.venue_id, v.name AS venue_name, a.location_id, l.name AS place_name, l.city,
           SUM(CASE WHEN a.metric = 'impression' THEN a.count ELSE 0 END) AS impression,
           SUM(CASE WHEN a.metric = 'detail_open' THEN a.count ELSE 0 END) AS detail_open,
           SUM(CASE WHEN a.metric = 'venue_view' THEN a.count ELSE 0 END) AS venue_view
    FROM analytics_daily a
    JOIN venues v ON v.id = a.venue_id
    LEFT JOIN locations l ON l.id = a.location_id
    WHERE a.day BETWEEN ${from} AND ${to} AND a.metric IN ('impression', 'detail_open', 'venue_view')
    GROUP BY a.venue_id, a.location_id
    ORDER BY detail_open + venue_view DESC, impression DESC
    LIMIT ${limit}`);
}
