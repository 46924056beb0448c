/** SQL for series: series lookups and summaries (their occurrence inserts are quizzes': quizzes/queries.ts). */
import { and, desc, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunks, IN_LIST_CHUNK } from '../../lib/chunks';
import { quizzes, type QuizRow } from '../../db/schema';

/** The series' most recent occurrences, newest first (enough to continue every weekday's rhythm). */
/** Whether a calendar feed still tracks quiz `quizId` (its series is the nightly sync's, not the extension job's). */
export async function trackedByCalendarFeed(db: Db, quizId: string): Promise<boolean> {
  const row = await db.get<{ one: number }>(sql`SELECT 1 AS one FROM calendar_sync_items WHERE quiz_id = ${quizId} LIMIT 1`);
  return !!row;
}

export async function recentOccurrences(db: Db, recurrenceId: string, limit = 60): Promise<QuizRow[]> {
  return db.select().from(quizzes).where(eq(quizzes.recurrenceId, recurrenceId)).orderBy(desc(quizzes.date)).limit(limit);
}

/** Any one occurrence id of a series (for the ownership check), or null. */
export async function anyOccurrenceId(db: Db, recurrenceId: string): Promise<string | null> {
  const [row] = await db.select({ id: quizzes.id }).from(quizzes).where(eq(quizzes.recurrenceId, recurrenceId)).limit(1);
  return row?.id ?? null;
}

/** A series' dates: how many, how many from `today`, and the first. */
export async function seriesAggregate(db: Db, recurrenceId: string, today: string) {
  const [agg] = await db
    .select({ count: sql<number>`count(*)`, upcoming: sql<number>`coalesce(sum(${quizzes.date} >= ${today}), 0)`, first: sql<string>`min(${quizzes.date})` })
    .from(quizzes)
    .where(eq(quizzes.recurrenceId, recurrenceId));
  return agg;
}

export async function countSeries(db: Db, recurrenceId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)` }).from(quizzes).where(eq(quizzes.recurrenceId, recurrenceId));
  return row?.n ?? 0;
}

export interface SeriesCandidate {
  recurrenceId: string;
  latest: string;
}

/**
 * Series that may need extension: latest occurrence between `oldest` and `threshold`, ordered by id
 * after `cursor` (resumable paging). Only recurrence_id and date are read, so SQLite walks the
 * (recurrence_id, date) index alone and stops once a page is full: all pages together are one pass
 * over that index. Until-dates are applied by the extension itself (it adds nothing past them).
 */
export function extensionCandidatesQuery(opts: { cursor: string | null; oldest: string; threshold: string; limit: number; ownerUserId?: string | null }) {
  return sql`
    SELECT q.recurrence_id AS rid, MAX(q.date) AS latest
    FROM quizzes q INDEXED BY quizzes_recurrence_idx
    WHERE q.recurrence_id IS NOT NULL
      ${opts.cursor ? sql`AND q.recurrence_id > ${opts.cursor}` : sql``}
      ${opts.ownerUserId ? sql`AND q.location_id IN (SELECT l.id FROM locations l JOIN venues v ON v.id = l.venue_id WHERE v.user_id = ${opts.ownerUserId})` : sql``}
    GROUP BY q.recurrence_id
    HAVING MAX(q.date) <= ${opts.threshold} AND MAX(q.date) >= ${opts.oldest}
    ORDER BY q.recurrence_id
    LIMIT ${opts.limit}`;
}

export async function extensionCandidates(
  db: Db,
  opts: { cursor: string | null; oldest: string; threshold: string; limit: number; ownerUserId?: string | null },
): Promise<SeriesCandidate[]> {
  const rows = await db.all<{ rid: string; latest: string }>(extensionCandidatesQuery(opts));
  return rows.map((r) => ({ recurrenceId: r.rid, latest: r.latest }));
}

export interface SeriesSummaryRow {
  recurrenceId: string;
  count: number;
  upcoming: number;
  first: string;
  latest: string;
  locationId: string;
  locationName: string;
  city: string;
  venueId: string;
  venueName: string | null;
}

/** One row per series (owner's own, or all for a superadmin), those ending soonest first. */
export async function seriesSummaryRows(db: Db, opts: { today: string; ownerUserId: string | null; limit: number }): Promise<SeriesSummaryRow[]> {
  return db.all<SeriesSummaryRow>(sql`
    SELECT q.recurrence_id AS recurrenceId, COUNT(*) AS count, SUM(q.date >= ${opts.today}) AS upcoming,
           MIN(q.date) AS first, MAX(q.date) AS latest,
           l.id AS locationId, l.name AS locationName, l.city AS city, v.id AS venueId, v.name AS venueName
    FROM quizzes q
    JOIN locations l ON l.id = q.location_id
    JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id IS NOT NULL ${opts.ownerUserId ? sql`AND v.user_id = ${opts.ownerUserId}` : sql``}
    GROUP BY q.recurrence_id
    ORDER BY latest, q.recurrence_id
    LIMIT ${opts.limit}`);
}

/** The latest occurrence of each given series (its current template), chunked under the parameter cap. */
export async function latestOccurrences(db: Db, recurrenceIds: string[]): Promise<Map<string, QuizRow>> {
  const out = new Map<string, QuizRow>();
  for (const ids of chunks(recurrenceIds, IN_LIST_CHUNK)) {
    const rows = await db
      .select(getTableColumns(quizzes))
      .from(quizzes)
      .where(
        and(
          inArray(quizzes.recurrenceId, ids),
          sql`"quizzes"."date" = (SELECT MAX(q2.date) FROM quizzes q2 WHERE q2.recurrence_id = "quizzes"."recurrence_id")`,
        ),
      );
    for (const r of rows) if (r.recurrenceId) out.set(r.recurrenceId, r);
  }
  return out;
}
