/** Reads of the "Drift" tab and the alert check (issue 30 §4–5). Each is bounded by an index or a LIMIT. */
import { sql } from 'drizzle-orm';
import { batchableRun } from '../../db/batch';
import type { Db } from '../../db/client';
import { VERIFY_EVENT_TYPE } from '../payments/contract';

export interface JobRunLite {
  id: string;
  job: string;
  status: 'running' | 'done' | 'failed';
  started_at: string;
  finished_at: string | null;
  result: string | null;
}

/** Per job, the start before which a `running` row counts as killed; `otherwise` for the jobs not listed. */
export interface RunningCutoffs {
  byJob: ReadonlyArray<readonly [job: string, before: string]>;
  otherwise: string;
}

/**
 * Per job that ran since `since`: its two newest runs (any status; the job_runs_job_started_idx index walks
 * each job's runs newest first; two, so its cadence can be told from the gap) and its newest *settled* run —
 * finished, or still `running` without counts and started before `runningBefore(job)` (killed; see
 * lib/jobs.ts `interrupted`, which the caller applies to each row). `settled` marks the latter.
 */
export async function recentRunsPerJob(db: Db, since: string, cutoffs: RunningCutoffs): Promise<Array<JobRunLite & { n: number; settled: 0 | 1 }>> {
  const cases = cutoffs.byJob.map(([job, at]) => sql`WHEN ${job} THEN ${at}`);
  const runningBefore = cases.length ? sql`CASE job ${sql.join(cases, sql` `)} ELSE ${cutoffs.otherwise} END` : sql`${cutoffs.otherwise}`;
  return db.all(sql`
    SELECT id, job, status, started_at, finished_at, result, n, settled FROM (
      SELECT *, row_number() OVER (PARTITION BY job ORDER BY started_at DESC, rid DESC) AS n,
                row_number() OVER (PARTITION BY job, settled ORDER BY started_at DESC, rid DESC) AS m
      FROM (
        SELECT rowid AS rid, id, job, status, started_at, finished_at, result,
               (status <> 'running' OR (result IS NULL AND started_at < ${runningBefore})) AS settled
        FROM job_runs WHERE started_at >= ${since}
      )
    ) WHERE n <= 2 OR (settled AND m = 1) ORDER BY job, started_at DESC, n`);
}

/** The newest successful run of the backup job (by the job_runs_job_started_idx index). */
export async function newestBackupRun(db: Db, job: string): Promise<JobRunLite | null> {
  const [row] = await db.all<JobRunLite>(sql`
    SELECT id, job, status, started_at, finished_at, result FROM job_runs
    WHERE job = ${job} AND status = 'done'
    ORDER BY started_at DESC LIMIT 1`);
  return row ?? null;
}

/**
 * The first deployment's instant, as the operations check reads it: the earliest job_runs row. Every cron
 * invocation writes one (the alert check records itself before it judges), rows are never deleted, and a
 * restore brings the history along. Null before the first cron.
 */
export async function firstRunAt(db: Db): Promise<string | null> {
  const [row] = await db.all<{ at: string | null }>(sql`SELECT min(started_at) AS at FROM job_runs`);
  return row?.at ?? null;
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

/** The newest Stripe webhook event (not the buyer's own return checks, VERIFY_EVENT_TYPE). */
export async function lastWebhook(db: Db): Promise<{ receivedAt: string; type: string } | null> {
  const [row] = await db.all<{ receivedAt: string; type: string }>(
    sql`SELECT received_at AS receivedAt, type FROM payment_events WHERE type <> ${VERIFY_EVENT_TYPE} ORDER BY received_at DESC LIMIT 1`,
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

/** Opens an incident (a batch statement); OR IGNORE: the partial unique index (one open incident per key) makes a concurrent second check a no-op. */
export function openIncident(db: Db, i: { id: string; key: string; summary: string; openedAt: string }) {
  return batchableRun(db, sql`INSERT OR IGNORE INTO ops_incidents (id, key, summary, opened_at) VALUES (${i.id}, ${i.key}, ${i.summary}, ${i.openedAt})`);
}

/** Resolves an open incident (a batch statement: one change when this statement did it). */
export function resolveIncident(db: Db, id: string, resolvedAt: string) {
  return batchableRun(db, sql`UPDATE ops_incidents SET resolved_at = ${resolvedAt} WHERE id = ${id} AND resolved_at IS NULL`);
}

/** Mailer.outbox conditions: the incident is open / was resolved at this instant (by this batch). */
export const incidentOpen = (id: string) => sql`EXISTS (SELECT 1 FROM ops_incidents WHERE id = ${id} AND resolved_at IS NULL)`;
export const incidentResolvedAt = (id: string, at: string) => sql`EXISTS (SELECT 1 FROM ops_incidents WHERE id = ${id} AND resolved_at = ${at})`;

export function deleteIncidentsResolvedBefore(db: Db, before: string) {
  return db.run(sql`DELETE FROM ops_incidents WHERE resolved_at < ${before}`);
}
