/**
 * Nightly backups to R2 (issues 30.6, 42.1, docs/features/backup.md). The Workflow (./backup-workflow.ts) calls
 * these in steps: `planBackup` (tables, columns; the job_runs row), `backupPages` (a bounded number of pages, each
 * written to R2 as a part), then the object — header + table lines + parts, exactly the format of
 * `npm run db:backup` — as an R2 multipart upload of equal parts (`startUpload`, `uploadParts` a few parts a
 * step, `completeUpload`), `pruneBackups` (30 daily + 12 monthly). The format itself —
 * the page query and the encoding of every value — is worker/lib/backup-format.mjs, shared with the script.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chunks, R2_DELETE_MAX_KEYS } from '../../lib/chunks';
import { jobRuns } from '../../db/schema';
import { headerLines, insertStatement, PAGE_ROWS, tableLine, tableOrder, type PageRow } from '../../lib/backup-format.mjs';
import { backupTableNames, page, tableMeta } from './queries';

export const BACKUP_JOB = 'backup';
/** 01:45 UTC every night (02:45/03:45 in Stockholm), before the nightly tasks at 02:15 UTC change data. */
export const BACKUP_CRON = '45 1 * * *';
/** Object keys: `d1/quizkvall-<UTC instant>.sql`, so key order is time order. Parts of a run live under tmp/. */
export const BACKUP_PREFIX = 'd1/';
const TMP_PREFIX = 'tmp/';
/** Pages one step reads (each ≤ PAGE_ROWS rows, one D1 query, one R2 part): bounded work per step. */
export const STEP_PAGES = 4;
export const KEEP_DAILY = 30;
export const KEEP_MONTHLY = 12;

export interface BackupTable {
  name: string;
  cols: string[];
}
export interface BackupPlan {
  runId: string;
  key: string;
  tables: BackupTable[];
}
/** Where the next step starts: table index and the last rowid written of it (null = its start). */
export interface BackupCursor {
  table: number;
  last: number | null;
}
export interface PartInfo {
  table: number;
  key: string;
  rows: number;
  bytes: number;
}

export const backupKey = (at: Date) => `${BACKUP_PREFIX}quizkvall-${at.toISOString().replace(/[:.]/g, '-')}.sql`;
/**
 * A page part's key: its table and the rowid the page starts after, so every page has its own key and a retried
 * step rewrites the same ones. (Numbering parts by a running count once gave two pages one key: a step that read an
 * empty table numbered past the parts it wrote, and the next step's first page overwrote its last.)
 */
const partKey = (runId: string, table: number, after: number | null) =>
  `${TMP_PREFIX}${runId}/${String(table).padStart(3, '0')}-${after === null ? 'start' : String(after)}.sql`;

/** Step 1: the job_runs row (status running) and the tables in restore order with their stored columns. */
export async function planBackup(d1: D1Database, db: Db, opts: { runId: string; at: Date; startedAt: string }): Promise<BackupPlan> {
  await db.insert(jobRuns).values({ id: opts.runId, job: BACKUP_JOB, status: 'running', startedAt: opts.startedAt }).onConflictDoNothing();
  const names = await backupTableNames(d1);
  const { fks, cols } = await tableMeta(d1, names);
  const order = tableOrder(names, (n) => fks.get(n));
  return { runId: opts.runId, key: backupKey(opts.at), tables: order.map((name) => ({ name, cols: cols.get(name)! })) };
}

/**
 * A page step: from `cursor`, up to STEP_PAGES pages (a table's rows in rowid order), each written to R2 as
 * one part. Retrying a step rewrites the same part keys with the same rows (idempotent).
 */
export async function backupPages(
  d1: D1Database,
  bucket: R2Bucket,
  plan: BackupPlan,
  cursor: BackupCursor,
  pageRows = PAGE_ROWS,
): Promise<{ parts: PartInfo[]; next: BackupCursor | null }> {
  const parts: PartInfo[] = [];
  let at: BackupCursor | null = cursor;
  for (let p = 0; p < STEP_PAGES && at; p++) {
    const t: BackupTable = plan.tables[at.table]!;
    const rows: PageRow[] = await page(d1, t.name, t.cols, at.last, pageRows);
    if (rows.length) {
      const text = `${rows.map((r: PageRow) => insertStatement(t.name, t.cols, r)).join('\n')}\n`;
      const body = new TextEncoder().encode(text);
      const key = partKey(plan.runId, at.table, at.last);
      await bucket.put(key, body);
      parts.push({ table: at.table, key, rows: rows.length, bytes: body.byteLength });
    }
    if (rows.length === pageRows) at = { table: at.table, last: rows[rows.length - 1]!.__rowid };
    else at = at.table + 1 < plan.tables.length ? { table: at.table + 1, last: null } : null;
  }
  return { parts, next: at };
}

/**
 * R2 multipart rules: parts of 5 MiB–5 GiB, every part but the last the SAME size, the last no larger, at most
 * 10 000 parts. So the object is cut at fixed offsets: part n is bytes [n × partBytes, (n + 1) × partBytes).
 */
export const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const R2_MIN_PART_BYTES = 5 * 1024 * 1024;
const R2_MAX_PARTS = 10_000;
/** Upload parts one `upload-<n>` step sends: ≤ 32 MiB read and written per step, one part in memory at a time. */
export const STEP_UPLOAD_PARTS = 4;

/** A piece of the object in order: literal text (the header, a `-- table` line) or a page part in R2. */
export interface Segment {
  text?: string;
  key?: string;
  bytes: number;
}
export interface BackupLayout {
  segments: Segment[];
  bytes: number;
  rows: number;
  /** Rows per table, as in the file's `-- table` lines. */
  tableRows: Record<string, number>;
}

/**
 * The object's content as a list of segments: the header, then per table its `-- table` line and its page
 * parts in order. The same inputs give the same layout, so every upload step cuts the same bytes.
 */
export function backupLayout(plan: BackupPlan, parts: readonly PartInfo[], createdAt: string): BackupLayout {
  const enc = new TextEncoder();
  const text = (t: string): Segment => ({ text: t, bytes: enc.encode(t).byteLength });
  const segments: Segment[] = [text(`${headerLines(createdAt, 'R2 nightly').join('\n')}\n`)];
  const tableRows: Record<string, number> = {};
  const byTable = new Map<number, PartInfo[]>();
  for (const p of parts) {
    const own = byTable.get(p.table);
    if (own) own.push(p);
    else byTable.set(p.table, [p]);
  }
  for (const [i, t] of plan.tables.entries()) {
    const own = byTable.get(i) ?? [];
    const rows = own.reduce((n, p) => n + p.rows, 0);
    tableRows[t.name] = rows;
    segments.push(text(`${tableLine(t.name, rows)}\n`), ...own.map((p) => ({ key: p.key, bytes: p.bytes })));
  }
  return {
    segments,
    bytes: segments.reduce((n, s) => n + s.bytes, 0),
    rows: parts.reduce((n, p) => n + p.rows, 0),
    tableRows,
  };
}

/** How many upload parts an object of `bytes` takes (at least one). */
export function uploadPartCount(bytes: number, partBytes = UPLOAD_PART_BYTES): number {
  return Math.max(1, Math.ceil(bytes / partBytes));
}

/** Starts the object's multipart upload; the header's instant is fixed here, for every later step. */
export async function startUpload(bucket: R2Bucket, plan: BackupPlan, createdAt: string): Promise<{ uploadId: string; createdAt: string }> {
  const upload = await bucket.createMultipartUpload(plan.key, { httpMetadata: { contentType: 'application/sql; charset=utf-8' } });
  return { uploadId: upload.uploadId, createdAt };
}

/** Bytes [from, from + length) of one segment (a ranged read of a page part). */
async function segmentBytes(bucket: R2Bucket, s: Segment, from: number, length: number): Promise<Uint8Array> {
  if (s.text !== undefined) return new TextEncoder().encode(s.text).subarray(from, from + length);
  const obj = await bucket.get(s.key!, { range: { offset: from, length } });
  const body = obj ? new Uint8Array(await obj.arrayBuffer()) : null;
  if (!body || body.byteLength !== length) throw new Error(`backup part ${s.key} is missing or changed`);
  return body;
}

/** Upload part n (0-based): exactly partBytes bytes of the layout from n × partBytes (the last part: the rest). */
export async function partBody(bucket: R2Bucket, layout: BackupLayout, n: number, partBytes = UPLOAD_PART_BYTES): Promise<Uint8Array> {
  const start = n * partBytes;
  const end = Math.min(layout.bytes, start + partBytes);
  if (start >= end) throw new Error(`backup upload part ${n} is past the end`);
  const body = new Uint8Array(end - start);
  let at = 0;
  for (const s of layout.segments) {
    const sEnd = at + s.bytes;
    if (s.bytes > 0 && sEnd > start && at < end) {
      const from = Math.max(start, at);
      body.set(await segmentBytes(bucket, s, from - at, Math.min(end, sEnd) - from), from - start);
    }
    if (sEnd >= end) break;
    at = sEnd;
  }
  return body;
}

/**
 * An upload step: parts first … first + count − 1, each cut from the layout at its fixed offset, so a retry
 * sends the same bytes under the same part numbers (R2 keeps the last upload of a part number).
 */
export async function uploadParts(
  bucket: R2Bucket,
  plan: BackupPlan,
  uploadId: string,
  layout: BackupLayout,
  first: number,
  count: number,
  partBytes = UPLOAD_PART_BYTES,
): Promise<R2UploadedPart[]> {
  if (partBytes < R2_MIN_PART_BYTES) throw new Error(`backup upload parts must be at least ${R2_MIN_PART_BYTES} bytes`);
  const total = uploadPartCount(layout.bytes, partBytes);
  if (total > R2_MAX_PARTS) throw new Error(`backup of ${layout.bytes} bytes needs ${total} upload parts (R2 allows ${R2_MAX_PARTS})`);
  const upload = bucket.resumeMultipartUpload(plan.key, uploadId);
  const out: R2UploadedPart[] = [];
  for (let n = first; n < Math.min(total, first + count); n++) {
    const part = await upload.uploadPart(n + 1, await partBody(bucket, layout, n, partBytes));
    out.push({ partNumber: part.partNumber, etag: part.etag });
  }
  return out;
}

/**
 * The last upload step: completes the object, deletes the page parts. A retry after a completion that went
 * through finds the object whole (same size) and goes on.
 */
export async function completeUpload(
  bucket: R2Bucket,
  plan: BackupPlan,
  uploadId: string,
  layout: BackupLayout,
  uploaded: readonly R2UploadedPart[],
  parts: readonly PartInfo[],
): Promise<{ key: string; bytes: number; rows: number; uploadParts: number; tableRows: Record<string, number> }> {
  try {
    await bucket.resumeMultipartUpload(plan.key, uploadId).complete([...uploaded]);
  } catch (err) {
    if ((await bucket.head(plan.key))?.size !== layout.bytes) throw err;
  }
  await deleteKeys(
    bucket,
    parts.map((p) => p.key),
  );
  return { key: plan.key, bytes: layout.bytes, rows: layout.rows, uploadParts: uploaded.length, tableRows: layout.tableRows };
}

/** A failed run's upload: aborted, so its parts do not wait out R2's 7 days (best effort). */
export async function abortUpload(bucket: R2Bucket, plan: BackupPlan, uploadId: string): Promise<void> {
  try {
    await bucket.resumeMultipartUpload(plan.key, uploadId).abort();
  } catch {
    /* already completed or aborted */
  }
}

async function deleteKeys(bucket: R2Bucket, keys: string[]) {
  for (const part of chunks(keys, R2_DELETE_MAX_KEYS)) await bucket.delete(part);
}

/** Every backup key, oldest first. */
export async function listBackups(bucket: R2Bucket): Promise<string[]> {
  const keys: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: BACKUP_PREFIX, cursor });
    keys.push(...page.objects.map((o) => o.key));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  return keys.sort();
}

/**
 * Which backups to keep: the KEEP_DAILY newest, and the first backup of each of the KEEP_MONTHLY newest
 * months (the month's oldest object, so a monthly backup never changes once its month has begun).
 */
export function backupsToKeep(keys: readonly string[]): Set<string> {
  const sorted = [...keys].sort();
  const keep = new Set(sorted.slice(-KEEP_DAILY));
  const firstOfMonth = new Map<string, string>();
  for (const k of sorted) {
    const month = /quizkvall-(\d{4}-\d{2})/.exec(k)?.[1];
    if (month && !firstOfMonth.has(month)) firstOfMonth.set(month, k);
  }
  for (const k of [...firstOfMonth.values()].slice(-KEEP_MONTHLY)) keep.add(k);
  return keep;
}

/** Deletes the backups outside backupsToKeep, and parts left by runs that never finished. */
export async function pruneBackups(bucket: R2Bucket, currentRun: string): Promise<{ kept: number; pruned: number }> {
  const keys = await listBackups(bucket);
  const keep = backupsToKeep(keys);
  const drop = keys.filter((k) => !keep.has(k));
  const stale: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await bucket.list({ prefix: TMP_PREFIX, cursor });
    stale.push(...page.objects.map((o) => o.key).filter((k) => !k.startsWith(`${TMP_PREFIX}${currentRun}/`)));
    cursor = page.truncated ? page.cursor : undefined;
  } while (cursor);
  await deleteKeys(bucket, [...drop, ...stale]);
  return { kept: keep.size, pruned: drop.length };
}

/** The run's job_runs row: done with its counts, or failed with the error (like lib/jobs recordJob). */
export async function finishBackupRun(db: Db, runId: string, finishedAt: string, result: Record<string, unknown>, failed = false): Promise<void> {
  await db
    .update(jobRuns)
    .set({ status: failed ? 'failed' : 'done', finishedAt, result: JSON.stringify(result) })
    .where(eq(jobRuns.id, runId));
}

/** Starts the night's backup instance (id from the scheduled instant: the same cron event never starts two). */
export async function startBackup(env: Env, scheduledAt: Date): Promise<string> {
  const id = `${BACKUP_JOB}-${scheduledAt.toISOString().replace(/[:.]/g, '-')}`;
  await env.BACKUP_WORKFLOW.create({ id, params: { at: scheduledAt.toISOString() } });
  return id;
}
