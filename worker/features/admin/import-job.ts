/**
 * The bulk import as a durable job (issue 21): the upload and the job's views. Upload → R2 (original bytes
 * + parsed records, import-files.ts) and an `import_jobs` row with the preview; "Importera" starts the
 * ImportWorkflow (import-run.ts), which runs processImportChunk (import-step.ts) once per STEP_ROWS
 * records. Each record ends as exactly one `import_rows` row (created / duplicate / invalid / review),
 * inserted in the SAME db.batch as the record's business, place and series and the job's progress
 * counters — so a retried step, an overlapping run or a resume after a crash can never import a line
 * twice (the primary key fails that batch) and the progress bar always equals the rows really written.
 * "Granska" answers are import-review.ts.
 *
 * No Hono here: the routes and the Workflow call these with a Db, the bucket and the clock's values.
 */
import type { importJobs } from '../../db/schema';
import { invalidInput, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';
import { decodeCsvBytes, toCsv } from './csv';
import { planRecords, readImportFile } from './import';
import type { ImportColumn } from './import-contract';
import { fileKeyOf, rowsKeyOf, storeImportFiles } from './import-files';
import { JOB_MAX_BYTES, JOB_MAX_ROWS, type ImportJobPreviewRow, type ImportJobView, type ImportReviewItem } from './import-job-contract';
import * as q from './queries';

/** The import's deps: the database, the clock (today, and the instant stamped on rows) and the config (house account). */
export type ImportDeps = Pick<Deps, 'db' | 'clock' | 'config'>;

const PREVIEW_ROWS = 20;

// ------------------------------------------------------------------------------------------ upload

export async function createImportJob(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { bucket: R2Bucket; bytes: Uint8Array; fileName: string; userId: string },
): Promise<ImportJobView> {
  const { db } = deps;
  const { bucket } = input;
  const nowIso = deps.clock.now().toISOString();
  if (!input.bytes.length) throw invalidInput('Filen är tom', [{ path: 'csv', message: 'Filen är tom' }]);
  if (input.bytes.length > JOB_MAX_BYTES) {
    const m = `Filen får vara högst ${JOB_MAX_BYTES / 1_000_000} MB`;
    throw invalidInput(m, [{ path: 'csv', message: m }]);
  }
  const { text, encoding } = decodeCsvBytes(input.bytes);
  const { records, fileErrors, header, colIndex } = await readImportFile(text, JOB_MAX_ROWS);
  if (fileErrors.length)
    throw invalidInput(
      fileErrors.join(' '),
      fileErrors.map((message) => ({ path: 'csv', message })),
    );

  // Preview counts: the planner's answer without the near-duplicate check (the steps run that).
  const planned = await planRecords(db, records, { nearDuplicates: false });
  const counts = { new: 0, duplicate: 0, invalid: 0 };
  const rows: ImportJobPreviewRow[] = [];
  for (const r of planned) {
    const result = r.kind === 'review' ? 'new' : r.kind;
    counts[result]++;
    if (rows.length < PREVIEW_ROWS)
      rows.push({
        line: r.line,
        name: r.raw.name,
        address: r.raw.address,
        city: r.raw.city,
        weekday: r.row?.weekday.name ?? r.raw.weekday,
        result,
        message: r.message,
      });
  }
  const columns = header.map((h, i) => ({ header: h, column: [...colIndex].find(([, idx]) => idx === i)?.[0] ?? null }));
  const id = newId();
  await storeImportFiles(bucket, id, { bytes: input.bytes, fileName: input.fileName, records });
  await q.insertImportJob(db, {
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
  const j = await q.importJobById(db, id);
  if (!j) throw notFound('Importjobbet finns inte');
  return toView(j);
}

/** The latest jobs (the panel shows the newest running or finished one after a reload). */
export async function listImportJobs(deps: Pick<Deps, 'db'>, input: { limit?: number } = {}): Promise<ImportJobView[]> {
  const { db } = deps;
  const limit = input.limit ?? 10;
  const rows = await q.newestImportJobs(db, limit);
  return rows.map(toView);
}

/** The report: one CSV line per file record (row, result, message), formula-safe. */
export async function importReportCsv(deps: Pick<Deps, 'db'>, input: { id: string }): Promise<string> {
  const { db } = deps;
  const { id } = input;
  await getImportJob({ db }, { id });
  const rows = await q.importReportRows(db, id);
  const label: Record<string, string> = { created: 'skapad', duplicate: 'dubblett', invalid: 'ogiltig', review: 'granska', merged: 'sammanslagen' };
  return toCsv(
    ['rad', 'resultat', 'meddelande', 'verksamhet'],
    rows.map((r) => [r.rowNo, label[r.result] ?? r.result, r.message, r.venueId ?? '']),
  );
}

export async function listReviews(deps: Pick<Deps, 'db'>, input: { id: string }): Promise<ImportReviewItem[]> {
  const { db } = deps;
  const { id } = input;
  await getImportJob({ db }, { id });
  const rows = await q.importReviewRows(db, id);
  return rows.map(toReviewItem);
}

/** One review row as the list shows it, read by its number. */
export async function reviewItemAt(deps: Pick<Deps, 'db'>, input: { id: string; rowNo: number }): Promise<ImportReviewItem> {
  const row = await q.importReviewRowAt(deps.db, input.id, input.rowNo);
  if (!row) throw notFound('Raden finns inte att granska');
  return toReviewItem(row);
}

function toReviewItem(r: Awaited<ReturnType<typeof q.importReviewRows>>[number]): ImportReviewItem {
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
}
