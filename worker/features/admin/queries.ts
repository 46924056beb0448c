import { count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunks, IN_LIST_CHUNK } from '../../lib/chunks';
import { feedback, locations, users, venues } from '../../db/schema';

/**
 * Substring filter on venues.name_sort for a search key. instr(), not LIKE: no wildcards to escape, and
 * D1 refuses LIKE patterns longer than 50 bytes ("LIKE or GLOB pattern too complex").
 */
export function nameFilter(key: string): SQL | undefined {
  if (!key) return undefined;
  return sql`instr(${venues.nameSort}, ${key}) > 0`;
}

export async function countVenues(db: Db, where?: SQL): Promise<number> {
  const [row] = await db.select({ n: count() }).from(venues).where(where);
  return row?.n ?? 0;
}

/** One page in Swedish name order (index venues_name_sort_idx). */
export function venuePage(db: Db, where: SQL | undefined, offset: number, limit: number) {
  return db
    .select({
      id: venues.id,
      name: venues.name,
      description: venues.description,
      city: venues.city,
      userId: venues.userId,
      ownerEmail: users.email,
    })
    .from(venues)
    .innerJoin(users, eq(users.id, venues.userId))
    .where(where)
    .orderBy(venues.nameSort, venues.id)
    .limit(limit)
    .offset(offset);
}

/** Places count and first `n` places per business (ids ≤ 50). */
export async function placesOf(db: Db, venueIds: string[], n: number) {
  if (!venueIds.length) return [];
  const ids = sql.join(venueIds.map((id) => sql`${id}`), sql`, `);
  return db.all<{ id: string; venue_id: string; name: string; address: string; city: string; rn: number; total: number }>(sql`
    SELECT id, venue_id, name, address, city, rn, total FROM (
      SELECT id, venue_id, name, address, city,
             ROW_NUMBER() OVER (PARTITION BY venue_id ORDER BY created_at, id) AS rn,
             COUNT(*) OVER (PARTITION BY venue_id) AS total
      FROM locations WHERE venue_id IN (${ids})
    ) WHERE rn <= ${n}`);
}

/** Upcoming (date >= today) quiz count and first `n` upcoming quizzes per business. */
export async function upcomingOf(db: Db, venueIds: string[], today: string, n: number) {
  if (!venueIds.length) return [];
  const ids = sql.join(venueIds.map((id) => sql`${id}`), sql`, `);
  return db.all<{ id: string; venue_id: string; date: string; start_time: string | null; category: string | null; theme: string | null; place_name: string; rn: number; total: number }>(sql`
    SELECT id, venue_id, date, start_time, category, theme, place_name, rn, total FROM (
      SELECT q.id, l.venue_id, q.date, q.start_time, q.category, q.theme, l.name AS place_name,
             ROW_NUMBER() OVER (PARTITION BY l.venue_id ORDER BY q.date, q.start_time, q.id) AS rn,
             COUNT(*) OVER (PARTITION BY l.venue_id) AS total
      FROM quizzes q JOIN locations l ON l.id = q.location_id
      WHERE l.venue_id IN (${ids}) AND q.date >= ${today}
    ) WHERE rn <= ${n}`);
}

export function feedbackPage(db: Db, offset: number, limit: number) {
  return db.select().from(feedback).orderBy(desc(feedback.createdAt), desc(feedback.id)).limit(limit).offset(offset);
}

export async function countFeedback(db: Db, onlyOpen = false): Promise<number> {
  const [row] = await db.select({ n: count() }).from(feedback).where(onlyOpen ? sql`${feedback.handledAt} IS NULL` : undefined);
  return row?.n ?? 0;
}

/** Existing (name key, address) pairs for duplicate detection; keys chunked to ≤ 90 per statement. */
export async function existingNameAddress(db: Db, nameKeys: string[]): Promise<Array<{ nameKey: string; address: string }>> {
  const out: Array<{ nameKey: string; address: string }> = [];
  const unique = [...new Set(nameKeys)];
  for (const chunk of chunks(unique, IN_LIST_CHUNK)) {
    const rows = await db
      .select({ nameKey: venues.nameSort, vAddress: venues.address, lAddress: locations.address })
      .from(venues)
      .leftJoin(locations, eq(locations.venueId, venues.id))
      .where(inArray(venues.nameSort, chunk));
    for (const r of rows) {
      if (r.vAddress) out.push({ nameKey: r.nameKey ?? '', address: r.vAddress });
      if (r.lAddress) out.push({ nameKey: r.nameKey ?? '', address: r.lAddress });
    }
  }
  return out;
}

/** Which of `slugs` are taken (chunked). */
export async function takenSlugs(db: Db, slugs: string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  const unique = [...new Set(slugs)];
  for (const chunk of chunks(unique, IN_LIST_CHUNK)) {
    const rows = await db.select({ slug: venues.slug }).from(venues).where(inArray(venues.slug, chunk));
    rows.forEach((r) => taken.add(r.slug));
  }
  return taken;
}

