/**
 * The bulk import as a durable job (issue 21). Upload → R2 (original bytes + parsed records) and an
 * `import_jobs` row with the preview; "Importera" starts the ImportWorkflow, which calls
 * processImportChunk once per STEP_ROWS records. Each record ends as exactly one `import_rows` row
 * (created / duplicate / invalid / review), inserted in the SAME db.batch as the record's business,
 * place and series and the job's progress counters — so a retried step, an overlapping run or a
 * resume after a crash can never import a line twice (the primary key fails that batch) and the
 * progress bar always equals the rows really written.
 *
 * No Hono here: the routes and the Workflow call these with a Db, the bucket and the clock's values.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { runBatch, type BatchStatement } from '../../db/batch';
import type { Db } from '../../db/client';
import { chunks } from '../../lib/chunks';
import { importJobs, importRows, jobRuns, venues } from '../../db/schema';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, invalidInput, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';

/** The import's deps: the database, the clock (today, and the instant stamped on rows) and the config (house account). */
export type ImportDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
import { stockholmDate } from '../../lib/clock';
import { decodeCsvBytes, toCsv } from './csv';
import { createStatements, ensureHouseUser, planRecords, planSlugs, readImportFile, type ImportRecord } from './import';
import { ImportRowSchema, type ImportColumn } from './import-contract';
import { JOB_MAX_BYTES, JOB_MAX_ROWS, type ImportJobPreviewRow, type ImportJobView, type ImportReviewItem, type ReviewAction } from './import-job-contract';

/** Records per Workflow step: 4 statements each → ≤ 400 D1 statements + a few reads per step. */
export const STEP_ROWS = 100;
/** Records per db.batch inside a step (4 statements each + the progress update + version bump). */
export const BATCH_ROWS = 20;
const PREVIEW_ROWS = 20;

/**
 * The parsed records live in R2 as one object per Workflow step (`{rows_key}-{chunk}.json`, STEP_ROWS
 * records each), so a step reads its 100 records, not the whole file (issue 27.4). Jobs uploaded
 * before that kept one `rows.json` (rows_key ends in .json): read whole and sliced.
 */
const rowsKeyOf = (id: string) => `imports/${id}/rows`;
const chunkKeyOf = (rowsKey: string, chunk: number) => `${rowsKey}-${chunk}.json`;
const fileKeyOf = (id: string) => `imports/${id}/original.csv`;
/** Parallel R2 writes at upload (a Worker keeps at most 6 connections open). */
const PUT_CONCURRENCY = 6;

async function readChunk(bucket: R2Bucket, rowsKey: string, chunk: number): Promise<ImportRecord[]> {
  if (rowsKey.endsWith('.json')) {
    const whole = await bucket.get(rowsKey);
    if (!whole) throw new Error(`import file ${rowsKey} missing`);
    return ((await whole.json()) as ImportRecord[]).slice(chunk * STEP_ROWS, (chunk + 1) * STEP_ROWS);
  }
  const obj = await bucket.get(chunkKeyOf(rowsKey, chunk));
  if (!obj) throw new Error(`import rows ${chunkKeyOf(rowsKey, chunk)} missing`);
  return (await obj.json()) as ImportRecord[];
}

// ------------------------------------------------------------------------------------------ upload

export async function createImportJob(deps: Pick<Deps, 'db' | 'clock'>, input: { bucket: R2Bucket; bytes: Uint8Array; fileName: string; userId: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { bucket } = input;
  const nowIso = deps.clock.now().toISOString();
  if (!input.bytes.length) throw invalidInput('Filen är tom', [{ path: 'csv', message: 'Filen är tom' }]);
  if (input.bytes.length > JOB_MAX_BYTES) {
    const m = `Filen får vara högst ${JOB_MAX_BYTES / 1_000_000} MB`;
    throw invalidInput(m, [{ path: 'csv', message: m }]);
  }
  const { text, encoding } = decodeCsvBytes(input.bytes);
  const { records, fileErrors, header, colIndex } = readImportFile(text, JOB_MAX_ROWS);
  if (fileErrors.length) throw invalidInput(fileErrors.join(' '), fileErrors.map((message) => ({ path: 'csv', message })));

  // Preview counts: the planner's answer without the near-duplicate check (the steps run that).
  const planned = await planRecords(db, records, { nearDuplicates: false });
  const counts = { new: 0, duplicate: 0, invalid: 0 };
  const rows: ImportJobPreviewRow[] = [];
  for (const r of planned) {
    const result = r.kind === 'review' ? 'new' : r.kind;
    counts[result]++;
    if (rows.length < PREVIEW_ROWS) rows.push({ line: r.line, name: r.raw.name, address: r.raw.address, city: r.raw.city, weekday: r.row?.weekday.name ?? r.raw.weekday, result, message: r.message });
  }
  const columns = header.map((h, i) => ({ header: h, column: [...colIndex].find(([, idx]) => idx === i)?.[0] ?? null }));
  const id = newId();
  await bucket.put(fileKeyOf(id), input.bytes, { httpMetadata: { contentType: 'text/csv' }, customMetadata: { fileName: input.fileName } });
  const steps = chunks(records, STEP_ROWS).map((rows, c) => ({ rows, c }));
  for (const parallel of chunks(steps, PUT_CONCURRENCY)) {
    await Promise.all(parallel.map(({ rows, c }) => bucket.put(chunkKeyOf(rowsKeyOf(id), c), JSON.stringify(rows), { httpMetadata: { contentType: 'application/json' } })));
  }
  await db.insert(importJobs).values({
    id,
    createdBy: input.userId,
    fileName: input.fileName.slice(0, 200) || 'import.csv',
    fileKey: fileKeyOf(id),
    rowsKey: rowsKeyOf(id),
    encoding,
    totalRows: records.length,
    preview: JSON.stringify({ columns, rows, counts }),
    createdAt: nowIso,
    updatedAt: nowIso,
  });
  return getImportJob({ db }, { id });
}

// ------------------------------------------------------------------------------------------- reads

function toView(j: typeof importJobs.$inferSelect): ImportJobView {
  return {
    id: j.id,
    fileName: j.fileName,
    encoding: j.encoding,
    status: j.status,
    totalRows: j.totalRows,
    processedRows: j.processedRows,
    counts: { created: j.createdCount, duplicate: j.duplicateCount, invalid: j.invalidCount, review: j.reviewCount },
    preview: JSON.parse(j.preview) as ImportJobView['preview'],
    error: j.error,
    createdAt: j.createdAt,
    startedAt: j.startedAt,
    finishedAt: j.finishedAt,
  };
}

export async function getImportJob(deps: Pick<Deps, 'db'>, input: { id: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { id } = input;
  const [j] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!j) throw notFound('Importjobbet finns inte');
  return toView(j);
}

/** The latest jobs (the panel shows the newest running or finished one after a reload). */
export async function listImportJobs(deps: Pick<Deps, 'db'>, input: { limit?: number } = {}): Promise<ImportJobView[]> {
  const { db } = deps;
  const limit = input.limit ?? 10;
  const rows = await db.select().from(importJobs).orderBy(sql`${importJobs.createdAt} DESC`, sql`${importJobs.id} DESC`).limit(limit);
  return rows.map(toView);
}

/** The report: one CSV line per file record (row, result, message), formula-safe. */
export async function importReportCsv(deps: Pick<Deps, 'db'>, input: { id: string }): Promise<string> {
  const { db } = deps;
  const { id } = input;
  await getImportJob({ db }, { id });
  const rows = await db
    .select({ rowNo: importRows.rowNo, result: importRows.result, message: importRows.message, venueId: importRows.venueId, resolvedAt: importRows.resolvedAt })
    .from(importRows)
    .where(eq(importRows.jobId, id))
    .orderBy(asc(importRows.rowNo));
  const label: Record<string, string> = { created: 'skapad', duplicate: 'dubblett', invalid: 'ogiltig', review: 'granska', merged: 'sammanslagen' };
  return toCsv(['rad', 'resultat', 'meddelande', 'verksamhet'], rows.map((r) => [r.rowNo, label[r.result] ?? r.result, r.message, r.venueId ?? '']));
}

export async function listReviews(deps: Pick<Deps, 'db'>, input: { id: string }): Promise<ImportReviewItem[]> {
  const { db } = deps;
  const { id } = input;
  await getImportJob({ db }, { id });
  const rows = await db
    .select({ rowNo: importRows.rowNo, result: importRows.result, message: importRows.message, data: importRows.data, venueId: importRows.venueId, resolvedAt: importRows.resolvedAt, mName: venues.name, mAddress: venues.address, mCity: venues.city })
    .from(importRows)
    .leftJoin(venues, eq(venues.id, importRows.venueId))
    .where(and(eq(importRows.jobId, id), sql`${importRows.data} IS NOT NULL`))
    .orderBy(asc(importRows.rowNo))
    .limit(500);
  return rows.map((r) => {
    const raw = JSON.parse(r.data!) as Record<ImportColumn, string>;
    return {
      rowNo: r.rowNo,
      name: raw.name,
      address: raw.address,
      city: raw.city,
      message: r.message,
      match: r.venueId && r.mName ? { id: r.venueId, name: r.mName, address: r.mAddress, city: r.mCity } : null,
      resolved: r.result === 'merged' ? 'merged' : r.resolvedAt ? 'created' : null,
    };
  });
}

// --------------------------------------------------------------------------------- start and finish

/**
 * Moves the job from `from` to running (one conditional write), then creates the Workflow instance. If
 * creating it throws, the job goes back to exactly what it was, so "Importera" / "Fortsätt" can be
 * pressed again (issue 27.1: a resume that failed here left the job running for good).
 */
async function claimAndLaunch(
  db: Db,
  input: { workflow: Workflow; id: string; instanceId: string; from: 'uploaded' | 'failed'; claim: Partial<typeof importJobs.$inferInsert>; busy: string },
): Promise<void> {
  const { workflow, id } = input;
  const [before] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!before) throw notFound('Importjobbet finns inte');
  const claimed = await db
    .update(importJobs)
    .set({ ...input.claim, status: 'running' })
    .where(and(eq(importJobs.id, id), eq(importJobs.status, input.from)))
    .returning({ id: importJobs.id });
  if (!claimed.length) throw conflict(input.busy);
  try {
    await workflow.create({ id: input.instanceId, params: { jobId: id } });
  } catch (err) {
    await db
      .update(importJobs)
      .set({ status: before.status, today: before.today, startedAt: before.startedAt, finishedAt: before.finishedAt, error: before.error, updatedAt: before.updatedAt })
      .where(and(eq(importJobs.id, id), eq(importJobs.status, 'running')));
    throw err;
  }
}

/** "Importera": uploaded → running, then the Workflow instance (id = job id). */
export async function startImportJob(deps: Pick<Deps, 'db' | 'clock'>, input: { workflow: Workflow; id: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { workflow, id } = input;
  const ctx = { today: deps.clock.today(), nowIso: deps.clock.now().toISOString() };
  await claimAndLaunch(db, {
    workflow, id, instanceId: id, from: 'uploaded', busy: 'Importen är redan startad',
    claim: { today: ctx.today, startedAt: ctx.nowIso, updatedAt: ctx.nowIso, error: null },
  });
  return getImportJob({ db }, { id });
}

/**
 * "Fortsätt": a failed job (a step ran out of retries, or the instance was lost) gets a new Workflow
 * instance that continues where the rows stop — the rows already in import_rows are skipped.
 */
export async function resumeImportJob(deps: Pick<Deps, 'db' | 'clock'>, input: { workflow: Workflow; id: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { workflow, id } = input;
  const nowIso = deps.clock.now().toISOString();
  // A fresh instance id per resume (the suffix only has to be unique; it is not a time).
  await claimAndLaunch(db, {
    workflow, id, instanceId: `${id}-${newId().slice(0, 8)}`, from: 'failed', busy: 'Bara ett avbrutet importjobb kan fortsätta',
    claim: { error: null, finishedAt: null, updatedAt: nowIso },
  });
  return getImportJob({ db }, { id });
}

/** First step of a run: the job row says running; one job_runs row per job (id = job id). */
export async function beginImportRun(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string }): Promise<{ chunks: number; totalRows: number }> {
  const { db } = deps;
  const { id } = input;
  const nowIso = deps.clock.now().toISOString();
  const [j] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!j) throw new Error(`import job ${id} not found`);
  await db.batch([
    db.update(importJobs).set({ status: 'running', startedAt: sql`coalesce(${importJobs.startedAt}, ${nowIso})`, updatedAt: nowIso }).where(eq(importJobs.id, id)),
    db.insert(jobRuns).values({ id: `import:${id}`, job: 'import', status: 'running', startedAt: nowIso }).onConflictDoUpdate({ target: jobRuns.id, set: { status: 'running', finishedAt: null } }),
  ]);
  return { chunks: Math.ceil(j.totalRows / STEP_ROWS), totalRows: j.totalRows };
}

export async function finishImportRun(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string; error?: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { id, error } = input;
  const nowIso = deps.clock.now().toISOString();
  const [j] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!j) throw new Error(`import job ${id} not found`);
  const status = error ? 'failed' : 'done';
  const result = JSON.stringify({ total: j.totalRows, processed: j.processedRows, created: j.createdCount, duplicate: j.duplicateCount, invalid: j.invalidCount, review: j.reviewCount, ...(error ? { error } : {}) });
  await db.batch([
    db.update(importJobs).set({ status, finishedAt: nowIso, updatedAt: nowIso, error: error ?? null }).where(eq(importJobs.id, id)),
    db.update(jobRuns).set({ status: error ? 'failed' : 'done', finishedAt: nowIso, result }).where(eq(jobRuns.id, `import:${id}`)),
  ]);
  return getImportJob({ db }, { id });
}

// ------------------------------------------------------------------------------------- the step

export interface ChunkResult {
  chunk: number;
  skipped: number;
  created: number;
  duplicate: number;
  invalid: number;
  review: number;
}

/**
 * One Workflow step: records [chunk × STEP_ROWS, +STEP_ROWS). Safe to run any number of times, also
 * concurrently: records that already have their import_rows row are skipped, and each batch inserts
 * the import_rows rows of its records, so a batch racing another run fails as a whole on the key.
 * What happens to each record is planRecords' decision (the same planner as every preview).
 */
export async function processImportChunk(deps: ImportDeps, input: { bucket: R2Bucket; id: string; chunk: number }): Promise<ChunkResult> {
  const { db } = deps;
  const { bucket, id, chunk } = input;
  const ctx = { houseEmail: deps.config.houseAccountEmail, nowIso: deps.clock.now().toISOString() };
  const [job] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!job) throw new Error(`import job ${id} not found`);
  const res: ChunkResult = { chunk, skipped: 0, created: 0, duplicate: 0, invalid: 0, review: 0 };
  const slice = await readChunk(bucket, job.rowsKey, chunk);
  if (!slice.length) return res;
  const done = new Set(
    (
      await db
        .select({ rowNo: importRows.rowNo })
        .from(importRows)
        .where(and(eq(importRows.jobId, id), sql`${importRows.rowNo} BETWEEN ${slice[0]!.line} AND ${slice[slice.length - 1]!.line}`))
    ).map((r) => r.rowNo),
  );
  const todo = slice.filter((r) => !done.has(r.line));
  res.skipped = slice.length - todo.length;
  if (!todo.length) return res;

  // The job's date (set by "Importera"); a job without one imports from today in Stockholm.
  const today = job.today ?? stockholmDate(deps.clock.now());
  const houseId = await ensureHouseUser(db, ctx.houseEmail);
  const plan = await planRecords(db, todo, { nearDuplicates: true });
  const news = plan.flatMap((p) => (p.kind === 'new' ? [p] : []));
  const slugs = await planSlugs(db, news.map((p) => p.row));
  const slugOf = new Map(news.map((p, i) => [p.line, slugs[i]!]));

  type Planned = { kind: 'created' | 'duplicate' | 'invalid' | 'review'; stmts: BatchStatement[] };
  const planned: Planned[] = plan.map((p) => {
    const rowOf = (result: Planned['kind'], venueId: string | null = null, data: string | null = null) =>
      db.insert(importRows).values({ jobId: id, rowNo: p.line, result, message: p.message, venueId, data });
    switch (p.kind) {
      case 'invalid':
        return { kind: 'invalid', stmts: [rowOf('invalid')] };
      case 'duplicate':
        return { kind: 'duplicate', stmts: [rowOf('duplicate')] };
      case 'review':
        return { kind: 'review', stmts: [rowOf('review', p.match.venueId, JSON.stringify(p.raw))] };
      case 'new': {
        const { venueId } = p;
        const { stmts } = createStatements(db, p.row, { venueId, slug: slugOf.get(p.line)!, houseId, today, nowIso: ctx.nowIso });
        return { kind: 'created', stmts: [...stmts, rowOf('created', venueId)] };
      }
    }
  });

  for (const part of chunks(planned, BATCH_ROWS)) {
    const n = (k: Planned['kind']) => part.filter((p) => p.kind === k).length;
    const counts = { created: n('created'), duplicate: n('duplicate'), invalid: n('invalid'), review: n('review') };
    const progress = db
      .update(importJobs)
      .set({
        processedRows: sql`${importJobs.processedRows} + ${part.length}`,
        createdCount: sql`${importJobs.createdCount} + ${counts.created}`,
        duplicateCount: sql`${importJobs.duplicateCount} + ${counts.duplicate}`,
        invalidCount: sql`${importJobs.invalidCount} + ${counts.invalid}`,
        reviewCount: sql`${importJobs.reviewCount} + ${counts.review}`,
        updatedAt: ctx.nowIso,
      })
      .where(eq(importJobs.id, id));
    const stmts: BatchStatement[] = [...part.flatMap((p) => p.stmts), progress];
    if (counts.created) stmts.push(bumpDataVersion(db));
    await runBatch(db, stmts);
    res.created += counts.created;
    res.duplicate += counts.duplicate;
    res.invalid += counts.invalid;
    res.review += counts.review;
  }
  return res;
}

// ------------------------------------------------------------------------------------------ review

/**
 * "Slå ihop": the row's quiz night joins the existing business (a new place there with the row's
 * series, unless a place at that address exists — then the series goes there). "Skapa ny": the row
 * becomes its own business as any other row. Either way once: the conditional update of the review
 * row is in the same batch, and a second answer is a 409.
 */
export async function resolveReview(deps: ImportDeps, input: { id: string; rowNo: number; action: ReviewAction }): Promise<ImportReviewItem> {
  const { db } = deps;
  const { id, rowNo, action } = input;
  const ctx = { today: deps.clock.today(), nowIso: deps.clock.now().toISOString(), houseEmail: deps.config.houseAccountEmail };
  const [r] = await db.select().from(importRows).where(and(eq(importRows.jobId, id), eq(importRows.rowNo, rowNo)));
  if (!r || !r.data) throw notFound('Raden finns inte att granska');
  if (r.result !== 'review') throw conflict('Raden är redan granskad');
  const parsed = ImportRowSchema.safeParse(JSON.parse(r.data));
  if (!parsed.success) throw conflict('Raden är ogiltig');
  const row = parsed.data;
  const claim = (result: 'merged' | 'created', venueId: string) =>
    db
      .update(importRows)
      .set({ result, venueId, resolvedAt: ctx.nowIso, message: result === 'merged' ? `Sammanslagen med befintlig verksamhet` : 'Skapad som ny verksamhet efter granskning' })
      .where(and(eq(importRows.jobId, id), eq(importRows.rowNo, rowNo), eq(importRows.result, 'review')))
      .returning({ rowNo: importRows.rowNo });
  const counter = (col: 'created' | 'merged') =>
    db
      .update(importJobs)
      .set(col === 'created' ? { reviewCount: sql`${importJobs.reviewCount} - 1`, createdCount: sql`${importJobs.createdCount} + 1` } : { reviewCount: sql`${importJobs.reviewCount} - 1` })
      .where(eq(importJobs.id, id));
  let stmts: BatchStatement[];
  if (action === 'merge') {
    const target = r.venueId ? (await db.select({ id: venues.id }).from(venues).where(eq(venues.id, r.venueId)))[0] : undefined;
    if (!target) throw conflict('Den befintliga verksamheten finns inte längre – välj Skapa ny');
    const claimStmt = claim('merged', target.id);
    const houseId = await ensureHouseUser(db, ctx.houseEmail);
    stmts = [...createStatements(db, row, { venueId: target.id, slug: '', houseId, today: ctx.today, nowIso: ctx.nowIso, locationOnly: true }).stmts];
    stmts = [claimStmt, ...stmts, counter('merged'), bumpDataVersion(db)];
  } else {
    const venueId = newId();
    const [slug] = await planSlugs(db, [row]);
    const houseId = await ensureHouseUser(db, ctx.houseEmail);
    const claimStmt = claim('created', venueId);
    stmts = [claimStmt, ...createStatements(db, row, { venueId, slug: slug!, houseId, today: ctx.today, nowIso: ctx.nowIso }).stmts, counter('created'), bumpDataVersion(db)];
  }
  // The claim runs first; if another answer won, it changes no row and the rest must not run. A batch
  // cannot branch, so this insert of a NULL into a NOT NULL column fails the whole batch in that case
  // (changes() counts the claim: import_rows has no triggers).
  stmts.splice(1, 0, db.insert(importRows).select(sql`SELECT ${id}, -1, NULL, '', NULL, NULL, NULL WHERE changes() = 0`));
  await runBatch(db, stmts).catch((err) => {
    throw /NOT NULL constraint failed: import_rows/i.test(String((err as Error)?.cause ?? err)) || /NOT NULL constraint failed: import_rows/i.test(String(err)) ? conflict('Raden är redan granskad') : err;
  });
  const items = await listReviews({ db }, { id });
  return items.find((i) => i.rowNo === rowNo)!;
}
