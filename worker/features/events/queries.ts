/** SQL of the owner counters (issue 26.6, 28.6, docs/features/analytics-counting.md): salts, seen hashes, daily counts. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/** The day's salt: `mine` when this statement made it, else the one a concurrent first event made. */
export async function claimDaySalt(db: Db, day: string, mine: string): Promise<string | undefined> {
  const [row] = await db.all<{ salt: string }>(sql`
    INSERT INTO analytics_salts (day, salt) VALUES (${day}, ${mine})
    ON CONFLICT (day) DO UPDATE SET salt = analytics_salts.salt
    RETURNING salt`);
  return row?.salt;
}

export function deleteSaltsBefore(db: Db, day: string) {
  return db.run(sql`DELETE FROM analytics_salts WHERE day < ${day}`);
}

export function deleteSeenBefore(db: Db, day: string) {
  return db.run(sql`DELETE FROM analytics_seen WHERE day < ${day}`);
}

/** Claims the hashes not yet seen on `day` in one statement (of concurrent requests exactly one gets a hash back). */
export function claimSeenHashes(db: Db, day: string, hashes: string[]) {
  return db.all<{ hash: string }>(sql`
    INSERT INTO analytics_seen (day, hash) SELECT ${day}, value FROM json_each(${JSON.stringify(hashes)}) WHERE true
    ON CONFLICT (day, hash) DO NOTHING
    RETURNING hash`);
}

/**
 * One upsert adds 1 per (metric, quiz) and (metric, business) of the JSON lists `[{ m, id }]`; the viewer's own
 * businesses, hidden businesses and unknown ids match no row.
 */
export function addToDailyCounters(db: Db, o: { day: string; quizzes: string; venues: string; viewer: string }) {
  return db.run(sql`
    INSERT INTO analytics_daily (day, venue_id, location_id, quiz_id, metric, count)
    SELECT ${o.day}, venue_id, location_id, quiz_id, metric, 1 FROM (
      SELECT l.venue_id AS venue_id, q.location_id AS location_id, q.id AS quiz_id, json_extract(j.value, '$.m') AS metric
      FROM json_each(${o.quizzes}) AS j
      JOIN quizzes q ON q.id = json_extract(j.value, '$.id')
      JOIN locations l ON l.id = q.location_id
      JOIN venues v ON v.id = l.venue_id
      WHERE v.user_id <> ${o.viewer} AND v.is_public = 1
      UNION ALL
      SELECT v.id, '', '', json_extract(j.value, '$.m')
      FROM json_each(${o.venues}) AS j
      JOIN venues v ON v.id = json_extract(j.value, '$.id')
      WHERE v.user_id <> ${o.viewer} AND v.is_public = 1
    ) WHERE true
    ON CONFLICT (venue_id, day, metric, location_id, quiz_id) DO UPDATE SET count = count + excluded.count`);
}
