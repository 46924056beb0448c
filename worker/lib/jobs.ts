/**
 * Jobs are observable (ARCHITECTURE.md "Wave 2": "Every cron run, queue batch and workflow writes a
 * row (start, end, counts, error) that the superadmin can read; a job never fails silently").
 * `recordJob` wraps one task in a job_runs row: `running` at the start, then `done` with the counts the
 * task returned, or `failed` with the error message (and the error is thrown on). Read at
 * GET /api/admin/jobs.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobRuns, type JobRunRow } from '../db/schema';
import type { Clock } from './clock';
import { newId } from './ids';
import { errorText as logErrorText, logLine } from './log';

/** What a task sees of its own run. */
export interface JobRun {
  readonly id: string;
  /** The latest earlier run of the same job (any status), read before this run's row was written. */
  readonly previous: JobRunRow | null;
  /** Stores the resume point of a chunked job after each chunk. */
  setCursor(cursor: string | null): Promise<void>;
  /**
   * Ends the run without marking it done (a chunked job stopped on purpose before the end): the row
   * keeps status `running`, its cursor and the counts, so the next run can resume from it.
   */
  leaveOpen(): void;
}

/** Counts (any JSON) a task reports; stored as the row's `result`. */
export type JobCounts = Record<string, unknown>;

/**
 * Thrown by a task that went through all its items but some failed (each logged, the others done): the
 * run is recorded as `failed` with its counts AND the first error, so the superadmin sees both.
 */
export class JobPartlyFailed extends Error {
  constructor(
    readonly counts: object,
    readonly first: unknown,
  ) {
    super(errorText(first));
    this.name = 'JobPartlyFailed';
  }
}

export async function recordJob<T extends JobCounts>(db: Db, clock: Clock, name: string, fn: (run: JobRun) => Promise<T>): Promise<T & { runId: string }> {
  const [previous] = await db.select().from(jobRuns).where(eq(jobRuns.job, name)).orderBy(desc(jobRuns.startedAt), desc(sql`rowid`)).limit(1);
  const id = newId();
  const started = Date.now();
  await db.insert(jobRuns).values({ id, job: name, status: 'running', startedAt: clock.now().toISOString() });
  let open = false;
  const run: JobRun = {
    id,
    previous: previous ?? null,
    setCursor: async (cursor) => {
      await db.update(jobRuns).set({ cursor }).where(eq(jobRuns.id, id));
    },
    leaveOpen: () => {
      open = true;
    },
  };
  let counts: T;
  try {
    counts = await fn(run);
  } catch (err) {
    await db
      .update(jobRuns)
      .set({
        status: 'failed',
        finishedAt: clock.now().toISOString(),
        result: JSON.stringify(err instanceof JobPartlyFailed ? { ...err.counts, error: err.message } : { error: errorText(err) }),
      })
      .where(eq(jobRuns.id, id));
    logLine({ type: 'job', job: name, runId: id, status: 'failed', ms: Date.now() - started, error: logErrorText(err) });
    throw err;
  }
  const result = JSON.stringify(counts);
  await db
    .update(jobRuns)
    .set(open ? { result } : { status: 'done', finishedAt: clock.now().toISOString(), result })
    .where(eq(jobRuns.id, id));
  // One structured line per run (worker/lib/log.ts): Workers Logs shows every cron task and workflow run.
  logLine({ type: 'job', job: name, runId: id, status: open ? 'running' : 'done', ms: Date.now() - started, result: counts });
  return { ...counts, runId: id };
}

function errorText(err: unknown): string {
  return String((err as Error | undefined)?.message ?? err).slice(0, 1000);
}

/** One run as the superadmin reads it (GET /api/admin/jobs): `result` parsed (counts or `{ error }`). */
export interface JobRunView {
  id: string;
  job: string;
  status: JobRunRow['status'];
  startedAt: string;
  finishedAt: string | null;
  cursor: string | null;
  result: unknown;
}

/** The latest runs of every job, newest first. */
export async function latestJobRuns(db: Db, limit = 50): Promise<JobRunView[]> {
  const rows = await db.select().from(jobRuns).orderBy(desc(jobRuns.startedAt), desc(sql`rowid`)).limit(limit);
  return rows.map((r) => ({
    id: r.id,
    job: r.job,
    status: r.status,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    cursor: r.cursor,
    result: parseResult(r.result),
  }));
}

function parseResult(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
