/**
 * Jobs are observable (ARCHITECTURE.md "Wave 2": "Every cron run, queue batch and workflow writes a
 * row (start, end, counts, error) that the superadmin can read; a job never fails silently").
 * `recordJob` wraps one task in a job_runs row: `running` at the start, then `done` with the counts the
 * task returned, or `failed` with the error message (and the error is thrown on). Read at
 * GET /api/admin/jobs and by the "Drift" tab (features/ops).
 *
 * A run killed mid-way (the isolate ended, a Workflow gave up without its last step) never writes its end:
 * its row stays `running`. Past its job's RUN_LIMIT_MINUTES such a row is read as failed ("interrupted")
 * everywhere it is shown or judged (`interrupted`).
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

/**
 * How long a run may stay `running` before it counts as killed. A cron invocation and a queue consumer get
 * at most 15 minutes of wall time, so 30 minutes is twice the most a live one can take. The backup Workflow
 * (features/backup: a step per few pages, each step ≤ 5 minutes with up to 5 retries) and the CSV import
 * Workflow run many steps; they get hours. Keyed by job name (`backup` is features/backup's BACKUP_JOB,
 * checked by test/integration/ops.test.ts).
 */
export const DEFAULT_RUN_LIMIT_MINUTES = 30;
export const RUN_LIMIT_MINUTES: Readonly<Record<string, number>> = { backup: 6 * 60, import: 24 * 60 };

export function runLimitMinutes(job: string): number {
  return Object.hasOwn(RUN_LIMIT_MINUTES, job) ? RUN_LIMIT_MINUTES[job]! : DEFAULT_RUN_LIMIT_MINUTES;
}

/**
 * A `running` row older than its job's limit whose task never wrote its end. A chunked run stopped on
 * purpose (`leaveOpen`) has written its counts (`result`) and is waiting for the next run to resume it:
 * not interrupted.
 */
export function interrupted(run: { job: string; status: string; startedAt: string; result: string | null }, now: Date): boolean {
  return run.status === 'running' && run.result === null && now.getTime() - Date.parse(run.startedAt) > runLimitMinutes(run.job) * 60_000;
}

/** The Swedish error shown for an interrupted run. */
export function interruptedError(job: string): string {
  return `Avbröts: körningen avslutades inte inom ${runLimitMinutes(job)} minuter`;
}

/** One run as the superadmin reads it (GET /api/admin/jobs): `result` parsed (counts or `{ error }`). */
export interface JobRunView {
  id: string;
  job: string;
  /** `failed` for an interrupted run (see `interrupted`). */
  status: JobRunRow['status'];
  /** Still `running` in its row, but past its job's limit: killed mid-way. */
  interrupted: boolean;
  startedAt: string;
  finishedAt: string | null;
  cursor: string | null;
  result: unknown;
}

/** The latest runs of every job, newest first; `now` tells an interrupted run from a live one. */
export async function latestJobRuns(db: Db, now: Date, limit = 50): Promise<JobRunView[]> {
  const rows = await db.select().from(jobRuns).orderBy(desc(jobRuns.startedAt), desc(sql`rowid`)).limit(limit);
  return rows.map((r) => {
    const killed = interrupted(r, now);
    return {
      id: r.id,
      job: r.job,
      status: killed ? 'failed' : r.status,
      interrupted: killed,
      startedAt: r.startedAt,
      finishedAt: r.finishedAt,
      cursor: r.cursor,
      result: killed ? { error: interruptedError(r.job) } : parseResult(r.result),
    };
  });
}

function parseResult(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
