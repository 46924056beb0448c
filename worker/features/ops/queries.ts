/** Reads of the "Drift" tab and the alert check (issue 30 §4–5). Each is bounded by an index or a LIMIT. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

export interface JobRunLite {
  id: string;
  job: string;
  status: 'running' | 'done' | 'failed';
  started_at: string;
  finished_at: string | null;
  result: string | null;
}

/**
 * The two newest runs of every job that ran since `since` (the job_runs_job_started_idx index walks each
 * job's runs newest first). Two, so a job's cadence can be told from the gap between them.
 */
export async function latestTwoRunsPerJob(db: Db, since: string): Promise<JobRunLite[]> {
  return db.all<JobRunLite>(sql`
    SELECT id, job, status, started_at, finished_at, result FROM (
      SELECT id, job, status, started_at, finished_at, result,
             row_number() OVER (PARTITION BY job ORDER BY started_at DESC, rowid DESC) AS n
      FROM job_runs WHERE started_at >= ${since}
    ) WHERE n <= 2 ORDER BY job, started_at DESC`);
}

/** The newest run of a backup job (named 'backup…' by the nightly backup; any status). */
export async function newestBackupRun(db: Db): Promise<JobRunLite | null> {
  const [row] = await db.all<JobRunLite>(sql`
    SELECT id, job, status, started_at, finished_at, result FROM job_runs
    WHERE job >= 'backup' AND job < 'backuq' AND status = 'done'
    ORDER BY started_at DESC LIMIT 1`);
  return row ?? null;
}

export async function mailCounts(db: Db): Promise<{ pending: number; failed: number; deadLetters: number; oldestPendingAt: string | null }> {
  const [row] = await db.all<{ pending: number; failed: number; oldest: string | null }>(sql`
    SELECT coalesce(sum(status = 'pending'), 0) AS pending, coalesce(sum(status = 'failed'), 0) AS failed,
           min(CASE WHEN status = 'pending' THEN created_at END) AS oldest
    FROM mail_outbox WHERE status <> 'sent'`);
  return { pending: row?.pending ?? 0, failed: row?.failed ?? 0, deadLetters: await deadLetterCount(db), oldestPendingAt: row?.oldest ?? null };
}

export async function deadLetterCount(db: Db): Promise<number> {
  const [row] = await db.all<{ n: number }>(sql`SELECT count(*) AS n FROM dead_letters`);
  return row?.n ?? 0;
}

export async function importJobsByStatus(db: Db) {
  const running = await db.all<{ id: string; fileName: string; startedAt: string | null; processedRows: number; totalRows: number }>(sql`
    SELECT id, file_name AS fileName, started_at AS startedAt, processed_rows AS processedRows, total_rows AS totalRows
    FROM import_jobs WHERE status = 'running' ORDER BY created_at DESC LIMIT 20`);
  const failed = await db.all<{ id: string; fileName: string; finishedAt: string | null; error: string | null }>(sql`
    SELECT id, file_name AS fileName, finished_at AS finishedAt, error
    FROM import_jobs WHERE status = 'failed' ORDER BY created_at DESC LIMIT 10`);
  return { running, failed };
}

export async function lastWebhook(db: Db): Promise<{ receivedAt: string; type: string } | null> {
  const [row] = await db.all<{ receivedAt: string; type: string }>(
    sql`SELECT received_at AS receivedAt, type FROM payment_events ORDER BY received_at DESC LIMIT 1`,
  );
  return row ?? null;
}

export interface IncidentRow {
  id: string;
  key: string;
  summary: string;
  opened_at: string;
  resolved_at: string | null;
}

export async function openIncidents(db: Db): Promise<IncidentRow[]> {
  return db.all<IncidentRow>(sql`SELECT id, key, summary, opened_at, resolved_at FROM ops_incidents WHERE resolved_at IS NULL ORDER BY opened_at`);
}

export async function recentResolvedIncidents(db: Db, limit = 10): Promise<IncidentRow[]> {
  return db.all<IncidentRow>(
    sql`SELECT id, key, summary, opened_at, resolved_at FROM ops_incidents WHERE resolved_at IS NOT NULL ORDER BY opened_at DESC LIMIT ${limit}`,
  );
}

/** Opens an incident; OR IGNORE: the partial unique index (one open incident per key) makes a concurrent second check a no-op. */
export function openIncident(db: Db, i: { id: string; key: string; summary: string; openedAt: string }) {
  return db.run(sql`INSERT OR IGNORE INTO ops_incidents (id, key, summary, opened_at) VALUES (${i.id}, ${i.key}, ${i.summary}, ${i.openedAt})`);
}

/** Resolves an open incident: true when this call did it. */
export async function resolveIncident(db: Db, id: string, resolvedAt: string): Promise<boolean> {
  const r = await db.run(sql`UPDATE ops_incidents SET resolved_at = ${resolvedAt} WHERE id = ${id} AND resolved_at IS NULL`);
  return (r.meta.changes ?? 0) === 1;
}

export function deleteIncidentsResolvedBefore(db: Db, before: string) {
  return db.run(sql`DELETE FROM ops_incidents WHERE resolved_at < ${before}`);
}
