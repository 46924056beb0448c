/**
 * Nightly backups to R2 (issue 30.6, docs/features/backup.md). The Workflow (./backup-workflow.ts) calls these in
 * steps: `planBackup` (tables, columns; the job_runs row), `backupPages` (a bounded number of pages, each
 * written to R2 as a part), `assembleBackup` (header + table lines + parts streamed into one object in
 * exactly the format of `npm run db:backup`), `pruneBackups` (30 daily + 12 monthly). The format itself —
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
const partKey = (runId: string, table: number, n: number) => `${TMP_PREFIX}${runId}/${String(table).padStart(3, '0')}-${String(n).padStart(6, '0')}.sql`;

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
  partNo: number,
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
      const key = partKey(plan.runId, at.table, partNo + p);
      await bucket.put(key, body);
      parts.push({ table: at.table, key, rows: rows.length, bytes: body.byteLength });
    }
    if (rows.length === pageRows) at = { table: at.table, last: rows[rows.length - 1]!.__rowid };
    else at = at.table + 1 < plan.tables.length ? { table: at.table + 1, last: null } : null;
  }
  return { parts, next: at };
}

/** R2 multipart parts must be ≥ 5 MiB except the last: the assembly buffers this much before each upload. */
const UPLOAD_PART_BYTES = 8 * 1024 * 1024;

/**
 * The last step: one object `plan.key` = the header, then per table its `-- table name rows` line and its
 * parts in order, uploaded as an R2 multipart upload of ~8 MiB parts, so memory stays bounded however
 * large the database. The page parts are deleted afterwards.
 */
export async function assembleBackup(
  bucket: R2Bucket,
  plan: BackupPlan,
  parts: readonly PartInfo[],
  createdAt: string,
): Promise<{ key: string; bytes: number; rows: number }> {
  const enc = new TextEncoder();
  const upload = await bucket.createMultipartUpload(plan.key, { httpMetadata: { contentType: 'application/sql; charset=utf-8' } });
  const uploaded: R2UploadedPart[] = [];
  let buffer: Uint8Array[] = [];
  let buffered = 0;
  let bytes = 0;
  const flush = async () => {
    const body = new Uint8Array(buffered);
    let at = 0;
    for (const c of buffer) {
      body.set(c, at);
      at += c.byteLength;
    }
    uploaded.push(await upload.uploadPart(uploaded.length + 1, body));
    buffer = [];
    buffered = 0;
  };
  const add = async (chunk: Uint8Array) => {
    buffer.push(chunk);
    buffered += chunk.byteLength;
    bytes += chunk.byteLength;
    if (buffered >= UPLOAD_PART_BYTES) await flush();
  };
  try {
    await add(enc.encode(`${headerLines(createdAt, 'R2 nightly').join('\n')}\n`));
    for (const [i, t] of plan.tables.entries()) {
      const own = parts.filter((p) => p.table === i);
      await add(
        enc.encode(
          `${tableLine(
            t.name,
            own.reduce((n, p) => n + p.rows, 0),
          )}\n`,
        ),
      );
      for (const p of own) {
        const obj = await bucket.get(p.key);
        if (!obj) throw new Error(`backup part ${p.key} is missing`);
        await add(new Uint8Array(await obj.arrayBuffer()));
      }
    }
    if (buffered || !uploaded.length) await flush();
    await upload.complete(uploaded);
  } catch (err) {
    await upload.abort();
    throw err;
  }
  await deleteKeys(
    bucket,
    parts.map((p) => p.key),
  );
  return { key: plan.key, bytes, rows: parts.reduce((n, p) => n + p.rows, 0) };
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
