/**
 * An import job's run (issue 21): "Importera" and "Fortsätt" claim the job and start an ImportWorkflow
 * instance; the Workflow's first and last steps mark the run (import_jobs + one job_runs row). The steps in
 * between are import-step.ts.
 */
import { runBatch } from '../../db/batch';
import type { Db } from '../../db/client';
import type { importJobs } from '../../db/schema';
import { conflict, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';
import { STEP_ROWS } from './import-files';
import { getImportJob } from './import-job';
import type { ImportJobView } from './import-job-contract';
import * as q from './queries';

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
  const before = await q.importJobById(db, id);
  if (!before) throw notFound('Importjobbet finns inte');
  if (!(await q.claimImportJob(db, id, input.from, input.claim))) throw conflict(input.busy);
  try {
    await workflow.create({ id: input.instanceId, params: { jobId: id } });
  } catch (err) {
    await q.restoreImportJob(db, before);
    throw err;
  }
}

/** "Importera": uploaded → running, then the Workflow instance (id = job id). */
export async function startImportJob(deps: Pick<Deps, 'db' | 'clock'>, input: { workflow: Workflow; id: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { workflow, id } = input;
  const ctx = { today: deps.clock.today(), nowIso: deps.clock.now().toISOString() };
  await claimAndLaunch(db, {
    workflow,
    id,
    instanceId: id,
    from: 'uploaded',
    busy: 'Importen är redan startad',
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
    workflow,
    id,
    instanceId: `${id}-${newId().slice(0, 8)}`,
    from: 'failed',
    busy: 'Bara ett avbrutet importjobb kan fortsätta',
    claim: { error: null, finishedAt: null, updatedAt: nowIso },
  });
  return getImportJob({ db }, { id });
}

/** First step of a run: the job row says running; one job_runs row per job (id = job id). */
export async function beginImportRun(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string }): Promise<{ chunks: number; totalRows: number }> {
  const { db } = deps;
  const { id } = input;
  const nowIso = deps.clock.now().toISOString();
  const j = await q.importJobById(db, id);
  if (!j) throw new Error(`import job ${id} not found`);
  await runBatch(db, q.beginRunStatements(db, id, nowIso));
  return { chunks: Math.ceil(j.totalRows / STEP_ROWS), totalRows: j.totalRows };
}

export async function finishImportRun(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string; error?: string }): Promise<ImportJobView> {
  const { db } = deps;
  const { id, error } = input;
  const nowIso = deps.clock.now().toISOString();
  const j = await q.importJobById(db, id);
  if (!j) throw new Error(`import job ${id} not found`);
  const status = error ? 'failed' : 'done';
  const result = JSON.stringify({
    total: j.totalRows,
    processed: j.processedRows,
    created: j.createdCount,
    duplicate: j.duplicateCount,
    invalid: j.invalidCount,
    review: j.reviewCount,
    ...(error ? { error } : {}),
  });
  await runBatch(db, q.finishRunStatements(db, id, { status, error: error ?? null, result, nowIso }));
  return getImportJob({ db }, { id });
}
