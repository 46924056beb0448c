/**
 * The durable bulk import (issue 21): one Cloudflare Workflow instance per "Importera" (id = job id;
 * a resumed job gets a new instance id). Step 'begin' marks the job running, then one step per
 * STEP_ROWS records (each ≤ ~400 D1 statements, safe to retry: see processImportChunk), then
 * 'finish'. If a step runs out of retries the job is marked failed with the error (superadmin can
 * press "Fortsätt", which starts a new instance that skips the rows already imported).
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import { createDb } from '../../db/client';
import { parseConfig } from '../../env';
import { createClock } from '../../lib/clock';
import { invalidateDataVersion } from '../../lib/data-version';
import { logLine } from '../../lib/log';
import { createDeps } from '../../ports/deps';
import { beginImportRun, finishImportRun } from './import-run';
import { processImportChunk } from './import-step';

export interface ImportWorkflowParams {
  jobId: string;
}

const STEP_CONFIG = { retries: { limit: 5, delay: '2 seconds' as const, backoff: 'exponential' as const }, timeout: '5 minutes' as const };

export class ImportWorkflow extends WorkflowEntrypoint<Env, ImportWorkflowParams> {
  override async run(event: WorkflowEvent<ImportWorkflowParams>, step: WorkflowStep): Promise<{ jobId: string; status: string; processed: number }> {
    const { jobId } = event.payload;
    const config = parseConfig(this.env);
    // One run's deps, like a request's; its clock is real time unless CLOCK_NOW pins it.
    const deps = createDeps({ db: createDb(this.env.DB), config, clock: createClock(config.clockNow) });
    try {
      const { chunks } = await step.do('begin', STEP_CONFIG, () => beginImportRun(deps, { id: jobId }));
      for (let i = 0; i < chunks; i++) {
        await step.do(`rows-${i}`, STEP_CONFIG, async () => {
          const r = await processImportChunk(deps, { bucket: this.env.IMPORTS, id: jobId, chunk: i });
          return { ...r };
        });
      }
      const done = await step.do('finish', STEP_CONFIG, async () => {
        const j = await finishImportRun(deps, { id: jobId });
        // One log line per instance end (worker/lib/log.ts), written once: a finished step is not re-run.
        logLine({ type: 'workflow', workflow: 'import', instance: event.instanceId, status: j.status, processed: j.processedRows });
        return { status: j.status, processed: j.processedRows };
      });
      invalidateDataVersion();
      return { jobId, ...done };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      await step.do('fail', STEP_CONFIG, async () => {
        await finishImportRun(deps, { id: jobId, error: message.slice(0, 500) });
        logLine({ type: 'workflow', workflow: 'import', instance: event.instanceId, status: 'failed', error: message.slice(0, 500) });
        return { failed: true };
      });
      throw err;
    }
  }
}
