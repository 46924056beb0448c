/**
 * The facts both the "Drift" tab (service.ts) and the alert check (alerts.ts) judge: each job's latest run,
 * cadence and staleness, and the newest backup (issue 30 §4–5).
 */
import type { Deps } from '../../ports/deps';
import type { OpsBackupStatus, OpsJobStatus } from './contract';
import { latestTwoRunsPerJob, newestBackupRun, type JobRunLite } from './queries';

/** A job counts as daily when its last two runs are at most this many hours apart (listing-day runs twice a night). */
export const DAILY_GAP_HOURS = 30;
/** A daily job, or the newest backup, older than this is an incident (issue 30 §5: "has not run for 26 h"). */
export const STALE_HOURS = 26;
/** Jobs started by a person (the CSV import), never expected on a schedule. */
export const ON_DEMAND_JOBS: ReadonlySet<string> = new Set(['import']);
/** How far back the job list looks: a job silent for longer has been removed. */
const JOB_WINDOW_DAYS = 30;

export const HOUR = 3_600_000;

function parse(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The latest run of every job seen in the last JOB_WINDOW_DAYS, with its cadence and staleness at `now`. */
export async function jobStatuses(deps: Pick<Deps, 'db'>, now: Date): Promise<OpsJobStatus[]> {
  const rows = await latestTwoRunsPerJob(deps.db, new Date(now.getTime() - JOB_WINDOW_DAYS * 24 * HOUR).toISOString());
  const byJob = new Map<string, JobRunLite[]>();
  for (const r of rows) byJob.set(r.job, [...(byJob.get(r.job) ?? []), r]);
  return [...byJob.entries()].map(([job, [last, prev]]) => {
    const startedAt = Date.parse(last!.started_at);
    const daily = !ON_DEMAND_JOBS.has(job) && !!prev && startedAt - Date.parse(prev.started_at) <= DAILY_GAP_HOURS * HOUR;
    const error = last!.status === 'failed' ? String(parse(last!.result).error ?? 'okänt fel') : null;
    return {
      job,
      status: last!.status,
      startedAt: last!.started_at,
      finishedAt: last!.finished_at,
      ms: last!.finished_at ? Date.parse(last!.finished_at) - startedAt : null,
      error,
      daily,
      stale: daily && now.getTime() - startedAt > STALE_HOURS * HOUR,
    };
  });
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The newest finished backup, from its job_runs row (the nightly backup records one per run). Its result
 * is read leniently: `bytes` (or `size`), `tables` (a count, a list or a map of table → rows) and `key`.
 */
export async function backupStatus(deps: Pick<Deps, 'db'>, now: Date): Promise<OpsBackupStatus | null> {
  const run = await newestBackupRun(deps.db);
  if (!run) return null;
  const r = parse(run.result);
  const tables = Array.isArray(r.tables) ? r.tables.length : r.tables && typeof r.tables === 'object' ? Object.keys(r.tables).length : num(r.tables);
  const at = run.finished_at ?? run.started_at;
  return {
    job: run.job,
    status: run.status,
    at,
    ageHours: Math.round(((now.getTime() - Date.parse(at)) / HOUR) * 10) / 10,
    bytes: num(r.bytes) ?? num(r.size) ?? num(r.totalBytes),
    tables,
    key: typeof r.key === 'string' ? r.key : null,
  };
}
