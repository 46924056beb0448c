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
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { importJobs, importRows, jobRuns, locations, venues } from '../../db/schema';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, invalidInput, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';

/** The import's deps: the database, the clock (today, and the instant stamped on rows) and the config (house account). */
export type ImportDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
import { slugify } from '../../lib/slug';
import { swedishSortKey } from './contract';
import { decodeCsvBytes, parseCsv, toCsv } from './csv';
import { addressKey, ensureHouseUser, mapColumns, nameAddressKey, planSlugs, rawRow, seriesDates, seriesInsert } from './import';
import { ImportRowSchema, REQUIRED_COLUMNS, type ImportColumn, type ImportRow } from './import-contract';
import { JOB_MAX_BYTES, JOB_MAX_ROWS, type ImportJobPreviewRow, type ImportJobView, type ImportReviewItem, type ReviewAction } from './import-job-contract';
import { existingNameAddress } from './queries';
import { NEAR_DUPLICATE_SIMILARITY, trigramSimilarity } from './similarity';

/** Records per Workflow step: 4 statements each → ≤ 400 D1 statements + a few reads per step. */
export const STEP_ROWS = 100;
/** Records per db.batch inside a step (4 statements each + the progress update + version bump). */
export const BATCH_ROWS = 20;
const PREVIEW_ROWS = 20;

/** One record as stored in R2 (`rows_key`): its line in the file and its raw column values. */
interface StoredRecord {
  line: number;
  raw: Record<ImportColumn, string>;
}

const rowsKeyOf = (id: string) => `imports/${id}/rows.json`;
const fileKeyOf = (id: string) => `imports/${id}/original.csv`;

function issuesOf(raw: Record<ImportColumn, string>): { row: ImportRow | null; message: string } {
  const r = ImportRowSchema.safeParse(raw);
  if (r.success) return { row: r.data, message: '' };
  return { row: null, message: r.error.issues.map((i) => `${String(i.path[0] ?? 'rad')}: ${i.message}`).join('; ') };
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
  const table = parseCsv(text);
  const colIndex = mapColumns(table.header);
  const missing = REQUIRED_COLUMNS.filter((c) => !colIndex.has(c));
  const fileErrors: string[] = [];
  if (!table.header.length) fileErrors.push('Filen saknar rubrikrad.');
  else if (missing.length) fileErrors.push(`Kolumner saknas: ${missing.join(', ')}`);
  if (!table.records.length) fileErrors.push('Filen innehåller inga rader.');
  for (const e of table.errors) fileErrors.push(`Rad ${e.line}: ${e.message}`);
  if (table.records.length > JOB_MAX_ROWS) fileErrors.push(`Högst ${JOB_MAX_ROWS.toLocaleString('sv-SE')} rader per fil (filen har ${table.records.length}).`);
  if (fileErrors.length) throw invalidInput(fileErrors.join(' '), fileErrors.map((message) => ({ path: 'csv', message })));

  const records: StoredRecord[] = table.records.map(({ line, cells }) => ({ line, raw: rawRow(cells, colIndex) }));
  // Preview counts: invalid by the contract, duplicate = same name + address earlier in the file or in
  // the catalogue (what the job will skip). Near-duplicates are found by the job itself.
  const existing = await existingNameAddress(db, records.map((r) => swedishSortKey(r.raw.name)));
  const dbKeys = new Set(existing.map((e) => `${e.nameKey}\u0000${addressKey(e.address)}`));
  const seen = new Set<string>();
  const counts = { new: 0, duplicate: 0, invalid: 0 };
  const rows: ImportJobPreviewRow[] = [];
  for (const r of records) {
    const { row, message } = issuesOf(r.raw);
    const key = nameAddressKey(r.raw.name, r.raw.address);
    let result: ImportJobPreviewRow['result'] = 'new';
    let msg = message;
    if (!row) result = 'invalid';
    else if (dbKeys.has(key)) (result = 'duplicate'), (msg = 'Finns redan i katalogen');
    else if (seen.has(key)) (result = 'duplicate'), (msg = 'Samma namn och adress finns tidigare i filen');
    if (row) seen.add(key);
    counts[result]++;
    if (rows.length < PREVIEW_ROWS) rows.push({ line: r.line, name: r.raw.name, address: r.raw.address, city: r.raw.city, weekday: row?.weekday.name ?? r.raw.weekday, result, message: msg });
  }
  const columns = table.header.map((header, i) => ({ header, column: [...colIndex].find(([, idx]) => idx === i)?.[0] ?? null }));
  const id = newId();
  await bucket.put(fileKeyOf(id), input.bytes, { httpMetadata: { contentType: 'text/csv' }, customMetadata: { fileName: input.fileName } });
  await bucket.put(rowsKeyOf(id), JSON.stringify(records), { httpMetadata: { contentType: 'application/json' } });
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

interface Candidate {
  venueId: string;
  name: string;
  nameKey: string;
  addressKey: string;
  citySlug: string;
}

/** Businesses with a place in these towns (the near-duplicate candidates), chunked. */
async function candidatesIn(db: Db, citySlugs: string[]): Promise<Candidate[]> {
  const out: Candidate[] = [];
  const unique = [...new Set(citySlugs)];
  for (let i = 0; i < unique.length; i += 90) {
    const rows = await db
      .select({ venueId: venues.id, name: venues.name, address: locations.address, citySlug: locations.citySlug })
      .from(locations)
      .innerJoin(venues, eq(venues.id, locations.venueId))
      .where(inArray(locations.citySlug, unique.slice(i, i + 90)));
    for (const r of rows) out.push({ venueId: r.venueId, name: r.name, nameKey: swedishSortKey(r.name), addressKey: addressKey(r.address), citySlug: r.citySlug });
  }
  return out;
}

export interface ChunkResult {
  chunk: number;
  skipped: number;
  created: number;
  duplicate: number;
  invalid: number;
  review: number;
}

type Stmt = Parameters<Db['batch']>[0][number];

/**
 * One Workflow step: records [chunk × STEP_ROWS, +STEP_ROWS). Safe to run any number of times, also
 * concurrently: records that already have their import_rows row are skipped, and each batch inserts
 * the import_rows rows of its records, so a batch racing another run fails as a whole on the key.
 */
export async function processImportChunk(deps: ImportDeps, input: { bucket: R2Bucket; id: string; chunk: number }): Promise<ChunkResult> {
  const { db } = deps;
  const { bucket, id, chunk } = input;
  const ctx = { houseEmail: deps.config.houseAccountEmail, nowIso: deps.clock.now().toISOString() };
  const [job] = await db.select().from(importJobs).where(eq(importJobs.id, id));
  if (!job) throw new Error(`import job ${id} not found`);
  const res: ChunkResult = { chunk, skipped: 0, created: 0, duplicate: 0, invalid: 0, review: 0 };
  const obj = await bucket.get(job.rowsKey);
  if (!obj) throw new Error(`import file ${job.rowsKey} missing`);
  const all = (await obj.json()) as StoredRecord[];
  const slice = all.slice(chunk * STEP_ROWS, (chunk + 1) * STEP_ROWS);
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

  const today = job.today ?? ctx.nowIso.slice(0, 10);
  const houseId = await ensureHouseUser(db, ctx.houseEmail);
  const parsed = todo.map((r) => ({ rec: r, ...issuesOf(r.raw) }));
  const valid = parsed.filter((p) => p.row);
  const existing = await existingNameAddress(db, valid.map((p) => swedishSortKey(p.row!.name)));
  const exact = new Set(existing.map((e) => `${e.nameKey}\u0000${addressKey(e.address)}`));
  const candidates = await candidatesIn(db, valid.map((p) => slugify(p.row!.city)));
  const toCreate = valid.filter((p) => p.row);
  const slugs = await planSlugs(db, toCreate.map((p) => p.row!));
  const slugOf = new Map(toCreate.map((p, i) => [p.rec.line, slugs[i]!]));

  type Planned = { line: number; kind: 'created' | 'duplicate' | 'invalid' | 'review'; stmts: Stmt[] };
  const planned: Planned[] = [];
  for (const p of parsed) {
    const line = p.rec.line;
    const rowOf = (result: Planned['kind'], message: string, venueId: string | null = null, data: string | null = null) =>
      db.insert(importRows).values({ jobId: id, rowNo: line, result, message, venueId, data }) as unknown as Stmt;
    if (!p.row) {
      planned.push({ line, kind: 'invalid', stmts: [rowOf('invalid', p.message)] });
      continue;
    }
    const row = p.row;
    const key = nameAddressKey(row.name, row.address);
    if (exact.has(key)) {
      planned.push({ line, kind: 'duplicate', stmts: [rowOf('duplicate', 'Samma namn och adress finns redan')] });
      continue;
    }
    const citySlug = slugify(row.city);
    const aKey = addressKey(row.address);
    const nKey = swedishSortKey(row.name);
    const near = candidates.find((c) => c.citySlug === citySlug && (c.addressKey === aKey || trigramSimilarity(c.name, row.name) >= NEAR_DUPLICATE_SIMILARITY));
    if (near) {
      const why = near.addressKey === aKey ? `Samma adress som ${near.name}` : `Liknar ${near.name} i samma ort (${trigramSimilarity(near.name, row.name).toFixed(2).replace('.', ',')})`;
      planned.push({ line, kind: 'review', stmts: [rowOf('review', why, near.venueId, JSON.stringify(p.rec.raw))] });
      continue;
    }
    const venueId = newId();
    const stmts = createStatements(db, row, { venueId, slug: slugOf.get(line)!, houseId, today, nowIso: ctx.nowIso });
    planned.push({ line, kind: 'created', stmts: [...stmts, rowOf('created', '', venueId)] });
    exact.add(key);
    candidates.push({ venueId, name: row.name, nameKey: nKey, addressKey: aKey, citySlug });
  }

  for (let i = 0; i < planned.length; i += BATCH_ROWS) {
    const part = planned.slice(i, i + BATCH_ROWS);
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
    const stmts: Stmt[] = [...part.flatMap((p) => p.stmts), progress as unknown as Stmt];
    if (counts.created) stmts.push(bumpDataVersion(db) as unknown as Stmt);
    await db.batch(stmts as [Stmt, ...Stmt[]]);
    res.created += counts.created;
    res.duplicate += counts.duplicate;
    res.invalid += counts.invalid;
    res.review += counts.review;
  }
  return res;
}

/** A row's business (house account), its one place and its open-ended series: 3 statements. */
function createStatements(db: Db, row: ImportRow, o: { venueId: string; slug: string; houseId: string; today: string; nowIso: string; locationOnly?: boolean }): Stmt[] {
  const locationId = newId();
  const dates = seriesDates(o.today, row.weekday.iso, row.pattern);
  const out: Stmt[] = [];
  if (!o.locationOnly) {
    out.push(
      db.insert(venues).values({
        id: o.venueId, userId: o.houseId, name: row.name, slug: o.slug, address: row.address, city: row.city,
        phone: row.phone || null, website: row.website || null, isPublic: true, createdAt: o.nowIso, updatedAt: o.nowIso,
      }) as unknown as Stmt,
    );
  }
  out.push(
    db.insert(locations).values({
      id: locationId, venueId: o.venueId, name: row.name, address: row.address, city: row.city, citySlug: slugify(row.city),
      phone: row.phone || null, website: row.website || null, latitude: row.lat, longitude: row.lng, createdAt: o.nowIso, updatedAt: o.nowIso,
    }) as unknown as Stmt,
    seriesInsert(db, {
      locationId, dates, startTime: row.start_time, category: row.category, theme: row.category === 'tema' ? row.theme : null,
      quizmaster: row.quizmaster || null, price: row.price, recurrenceId: newId(), pattern: row.pattern, days: JSON.stringify([row.weekday.name]), nowIso: o.nowIso,
    }) as unknown as Stmt,
  );
  return out;
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
  let stmts: Stmt[];
  if (action === 'merge') {
    const target = r.venueId ? (await db.select({ id: venues.id }).from(venues).where(eq(venues.id, r.venueId)))[0] : undefined;
    if (!target) throw conflict('Den befintliga verksamheten finns inte längre – välj Skapa ny');
    const claimStmt = claim('merged', target.id);
    const houseId = await ensureHouseUser(db, ctx.houseEmail);
    stmts = [...createStatements(db, row, { venueId: target.id, slug: '', houseId, today: ctx.today, nowIso: ctx.nowIso, locationOnly: true })];
    stmts = [claimStmt as unknown as Stmt, ...stmts, counter('merged') as unknown as Stmt, bumpDataVersion(db) as unknown as Stmt];
  } else {
    const venueId = newId();
    const [slug] = await planSlugs(db, [row]);
    const houseId = await ensureHouseUser(db, ctx.houseEmail);
    const claimStmt = claim('created', venueId);
    stmts = [claimStmt as unknown as Stmt, ...createStatements(db, row, { venueId, slug: slug!, houseId, today: ctx.today, nowIso: ctx.nowIso }), counter('created') as unknown as Stmt, bumpDataVersion(db) as unknown as Stmt];
  }
  // The claim runs first; if another answer won, it changes no row and the rest must not run. A batch
  // cannot branch, so this insert of a NULL into a NOT NULL column fails the whole batch in that case
  // (changes() counts the claim: import_rows has no triggers).
  stmts.splice(1, 0, db.insert(importRows).select(sql`SELECT ${id}, -1, NULL, '', NULL, NULL, NULL WHERE changes() = 0`) as unknown as Stmt);
  await db.batch(stmts as [Stmt, ...Stmt[]]).catch((err) => {
    throw /NOT NULL constraint failed: import_rows/i.test(String((err as Error)?.cause ?? err)) || /NOT NULL constraint failed: import_rows/i.test(String(err)) ? conflict('Raden är redan granskad') : err;
  });
  const items = await listReviews({ db }, { id });
  return items.find((i) => i.rowNo === rowNo)!;
}
