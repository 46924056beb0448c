import { and, asc, count, desc, eq, getTableColumns, inArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunks, IN_LIST_CHUNK, readInChunks } from '../../lib/chunks';
import { feedback, importJobs, importRows, jobRuns, locations, profiles, quizzes, userRoles, users, venues, type IMPORT_ROW_RESULTS } from '../../db/schema';
import { newId } from '../../lib/ids';
import { DEFAULT_QUIZ_LANGUAGE, type QuizLanguage } from '../../lib/quiz-filters';

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
  const ids = sql.join(
    venueIds.map((id) => sql`${id}`),
    sql`, `,
  );
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
  const ids = sql.join(
    venueIds.map((id) => sql`${id}`),
    sql`, `,
  );
  return db.all<{
    id: string;
    venue_id: string;
    date: string;
    start_time: string | null;
    category: string | null;
    theme: string | null;
    place_name: string;
    rn: number;
    total: number;
  }>(sql`
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

/** A user's id and e-mail, or undefined. */
export async function userEmailById(db: Db, userId: string): Promise<{ id: string; email: string } | undefined> {
  const [user] = await db.select({ id: users.id, email: users.email }).from(users).where(eq(users.id, userId)).limit(1);
  return user;
}

export async function countFeedback(db: Db, onlyOpen = false): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(feedback)
    .where(onlyOpen ? sql`${feedback.handledAt} IS NULL` : undefined);
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
    for (const r of rows) taken.add(r.slug);
  }
  return taken;
}

// ------------------------------------------------------------------ import jobs (issue 21; reads out of the job modules, 28.6)

type ImportJobRow = typeof importJobs.$inferSelect;
type ImportRowResult = (typeof IMPORT_ROW_RESULTS)[number];

export async function importJobById(db: Db, id: string): Promise<ImportJobRow | undefined> {
  const [j] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  return j;
}

/** The latest jobs, newest first. */
export const newestImportJobs = (db: Db, limit: number) =>
  db.select().from(importJobs).orderBy(sql`${importJobs.createdAt} DESC`, sql`${importJobs.id} DESC`).limit(limit);

export const insertImportJob = (db: Db, values: typeof importJobs.$inferInsert) => db.insert(importJobs).values(values);

/** The report: every import_rows row of a job in file order. */
export const importReportRows = (db: Db, jobId: string) =>
  db
    .select({ rowNo: importRows.rowNo, result: importRows.result, message: importRows.message, venueId: importRows.venueId, resolvedAt: importRows.resolvedAt })
    .from(importRows)
    .where(eq(importRows.jobId, jobId))
    .orderBy(asc(importRows.rowNo));

/** Review rows (with their data) and the business each resembles. */
const reviewRows = (db: Db) =>
  db
    .select({
      rowNo: importRows.rowNo,
      result: importRows.result,
      message: importRows.message,
      data: importRows.data,
      venueId: importRows.venueId,
      resolvedAt: importRows.resolvedAt,
      mName: venues.name,
      mAddress: venues.address,
      mCity: venues.city,
    })
    .from(importRows)
    .leftJoin(venues, eq(venues.id, importRows.venueId));

/** The rows kept for review of a job, in file order; at most 500. */
export const importReviewRows = (db: Db, jobId: string) =>
  reviewRows(db)
    .where(and(eq(importRows.jobId, jobId), sql`${importRows.data} IS NOT NULL`))
    .orderBy(asc(importRows.rowNo))
    .limit(500);

/** One row kept for review, by its number (an answer's reply: never looked up in the list, which holds 500). */
export async function importReviewRowAt(db: Db, jobId: string, rowNo: number) {
  const [row] = await reviewRows(db).where(and(eq(importRows.jobId, jobId), eq(importRows.rowNo, rowNo), sql`${importRows.data} IS NOT NULL`));
  return row;
}

/** Moves a job from `from` to running (one conditional write); false when it was not in `from`. */
export async function claimImportJob(db: Db, id: string, from: ImportJobRow['status'], claim: Partial<typeof importJobs.$inferInsert>): Promise<boolean> {
  const claimed = await db
    .update(importJobs)
    .set({ ...claim, status: 'running' })
    .where(and(eq(importJobs.id, id), eq(importJobs.status, from)))
    .returning({ id: importJobs.id });
  return claimed.length > 0;
}

/** Puts a claimed (running) job back exactly as it was read before the claim. */
export const restoreImportJob = (db: Db, before: ImportJobRow) =>
  db
    .update(importJobs)
    .set({
      status: before.status,
      today: before.today,
      startedAt: before.startedAt,
      finishedAt: before.finishedAt,
      error: before.error,
      updatedAt: before.updatedAt,
    })
    .where(and(eq(importJobs.id, before.id), eq(importJobs.status, 'running')));

/** A run's first step: the job says running, and its one job_runs row (id `import:{job}`) too. */
export const beginRunStatements = (db: Db, id: string, nowIso: string) => [
  db
    .update(importJobs)
    .set({ status: 'running', startedAt: sql`coalesce(${importJobs.startedAt}, ${nowIso})`, updatedAt: nowIso })
    .where(eq(importJobs.id, id)),
  db
    .insert(jobRuns)
    .values({ id: `import:${id}`, job: 'import', status: 'running', startedAt: nowIso })
    .onConflictDoUpdate({ target: jobRuns.id, set: { status: 'running', finishedAt: null } }),
];

/** A run's last step: the job and its job_runs row done or failed, with the result. */
export const finishRunStatements = (db: Db, id: string, o: { status: 'done' | 'failed'; error: string | null; result: string; nowIso: string }) => [
  db.update(importJobs).set({ status: o.status, finishedAt: o.nowIso, updatedAt: o.nowIso, error: o.error }).where(eq(importJobs.id, id)),
  db
    .update(jobRuns)
    .set({ status: o.status, finishedAt: o.nowIso, result: o.result })
    .where(eq(jobRuns.id, `import:${id}`)),
];

/** The file lines of a job (between two line numbers) that already have their import_rows row. */
export async function importedRowNos(db: Db, jobId: string, fromLine: number, toLine: number): Promise<Set<number>> {
  const rows = await db
    .select({ rowNo: importRows.rowNo })
    .from(importRows)
    .where(and(eq(importRows.jobId, jobId), sql`${importRows.rowNo} BETWEEN ${fromLine} AND ${toLine}`));
  return new Set(rows.map((r) => r.rowNo));
}

/** A record's one import_rows row (its primary key makes each line exactly-once). */
export const importRowStatement = (
  db: Db,
  row: { jobId: string; rowNo: number; result: ImportRowResult; message: string; venueId: string | null; data: string | null },
) => db.insert(importRows).values(row);

/** Adds one batch's outcome to the job's progress counters. */
export const progressStatement = (
  db: Db,
  id: string,
  n: { processed: number; created: number; duplicate: number; invalid: number; review: number },
  nowIso: string,
) =>
  db
    .update(importJobs)
    .set({
      processedRows: sql`${importJobs.processedRows} + ${n.processed}`,
      createdCount: sql`${importJobs.createdCount} + ${n.created}`,
      duplicateCount: sql`${importJobs.duplicateCount} + ${n.duplicate}`,
      invalidCount: sql`${importJobs.invalidCount} + ${n.invalid}`,
      reviewCount: sql`${importJobs.reviewCount} + ${n.review}`,
      updatedAt: nowIso,
    })
    .where(eq(importJobs.id, id));

export async function importRowAt(db: Db, jobId: string, rowNo: number) {
  const [r] = await db
    .select()
    .from(importRows)
    .where(and(eq(importRows.jobId, jobId), eq(importRows.rowNo, rowNo)));
  return r;
}

export async function businessIdIfExists(db: Db, venueId: string): Promise<{ id: string } | undefined> {
  const [v] = await db.select({ id: venues.id }).from(venues).where(eq(venues.id, venueId));
  return v;
}

/** Answers a review row once: only while it is still 'review' (RETURNING says whether this answer won). */
export const reviewClaimStatement = (db: Db, o: { jobId: string; rowNo: number; result: 'merged' | 'created'; venueId: string; nowIso: string }) =>
  db
    .update(importRows)
    .set({
      result: o.result,
      venueId: o.venueId,
      resolvedAt: o.nowIso,
      message: o.result === 'merged' ? `Sammanslagen med befintlig verksamhet` : 'Skapad som ny verksamhet efter granskning',
    })
    .where(and(eq(importRows.jobId, o.jobId), eq(importRows.rowNo, o.rowNo), eq(importRows.result, 'review')))
    .returning({ rowNo: importRows.rowNo });

/** The job's counters after a review: one review fewer (and one created more for "Skapa ny"). */
export const reviewCounterStatement = (db: Db, id: string, col: 'created' | 'merged') =>
  db
    .update(importJobs)
    .set(
      col === 'created'
        ? { reviewCount: sql`${importJobs.reviewCount} - 1`, createdCount: sql`${importJobs.createdCount} + 1` }
        : { reviewCount: sql`${importJobs.reviewCount} - 1` },
    )
    .where(eq(importJobs.id, id));

// ------------------------------------------------------------------ the import's reads and raw SQL (import.ts)

/** Every business place in these towns (the near-duplicate candidates); chunked. */
export const placesInTowns = (db: Db, citySlugs: string[]) =>
  readInChunks(citySlugs, (part) =>
    db
      .select({ venueId: venues.id, name: venues.name, address: locations.address, citySlug: locations.citySlug })
      .from(locations)
      .innerJoin(venues, eq(venues.id, locations.venueId))
      .where(inArray(locations.citySlug, part)),
  );

/** The house account (no password, cannot log in): user, profile and admin role, each only when missing. */
export const houseUserStatements = (db: Db, id: string, houseEmail: string) => [
  db
    .insert(users)
    .values({ id, email: houseEmail.toLowerCase(), emailVerifiedAt: new Date(0).toISOString() })
    .onConflictDoNothing(),
  db.insert(profiles).values({ userId: id }).onConflictDoNothing(),
  db.insert(userRoles).values({ userId: id, role: 'admin' }).onConflictDoNothing(),
];

/**
 * One INSERT … SELECT per series: only (id, date) vary per occurrence, the rest is bound once, so a
 * weekly series of 26 occurrences needs 2 × 26 + 17 = 69 parameters (D1 allows 100). Columns follow
 * the table definition (drizzle inserts into every insertable column in schema order).
 */
export function seriesInsert(
  db: Db,
  s: {
    locationId: string;
    dates: string[];
    startTime: string | null;
    category: string | null;
    theme: string | null;
    quizmaster: string | null;
    price: number | null;
    language?: QuizLanguage | undefined;
    recurrenceId: string;
    pattern: string;
    days: string;
    nowIso: string;
  },
) {
  const value: Record<string, SQL> = {
    id: sql`column1`,
    locationId: sql`${s.locationId}`,
    date: sql`column2`,
    startTime: sql`${s.startTime}`,
    category: sql`${s.category}`,
    theme: sql`${s.theme}`,
    quizmaster: sql`${s.quizmaster}`,
    price: sql`${s.price}`,
    isRecurring: sql`1`,
    recurrenceId: sql`${s.recurrenceId}`,
    recurrencePattern: sql`${s.pattern}`,
    recurrenceDays: sql`${s.days}`,
    recurrenceUntil: sql`NULL`,
    isCancelled: sql`0`,
    // Every column without a value here is inserted as NULL: language is NOT NULL (its default does not apply).
    language: sql`${s.language ?? DEFAULT_QUIZ_LANGUAGE}`,
    createdAt: sql`${s.nowIso}`,
    updatedAt: sql`${s.nowIso}`,
  };
  const columns = Object.entries(getTableColumns(quizzes)).filter(([, col]) => !(col as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert());
  const select = sql.join(
    columns.map(([key]) => value[key] ?? sql`NULL`),
    sql`, `,
  );
  const rows = sql.join(
    s.dates.map((d) => sql`(${newId()}, ${d})`),
    sql`, `,
  );
  return db.insert(quizzes).select(sql`SELECT ${select} FROM (VALUES ${rows})`);
}
