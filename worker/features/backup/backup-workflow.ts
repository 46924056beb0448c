/**
 * The nightly backup (issue 30.6): the cron BACKUP_CRON starts one instance (worker/index.ts); it writes the
 * database into R2 (BACKUPS, bucket quizkvall-backups) in the format of `npm run db:backup`, paged in steps
 * (each ≤ STEP_PAGES queries of ≤ PAGE_ROWS rows and as many small R2 writes), then assembles the object,
 * prunes to 30 daily + 12 monthly and closes its job_runs row. Every step is safe to retry.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import { createDb } from '../../db/client';
import { parseConfig } from '../../env';
import { createClock } from '../../lib/clock';
import {
  assembleBackup,
  backupPages,
  BACKUP_CRON,
  BACKUP_JOB,
  finishBackupRun,
  planBackup,
  pruneBackups,
  startBackup,
  type BackupCursor,
  type PartInfo,
} from './service';

export interface BackupWorkflowParams {
  /** The scheduled instant (ISO): names the object. */
  at: string;
}

const STEP_CONFIG = { retries: { limit: 5, delay: '5 seconds' as const, backoff: 'exponential' as const }, timeout: '5 minutes' as const };

export { BACKUP_CRON, startBackup };

export class BackupWorkflow extends WorkflowEntrypoint<Env, BackupWorkflowParams> {
  override async run(event: WorkflowEvent<BackupWorkflowParams>, step: WorkflowStep): Promise<{ key: string; rows: number; bytes: number; pruned: number }> {
    const config = parseConfig(this.env);
    const clock = createClock(config.clockNow);
    const db = createDb(this.env.DB);
    const runId = `${BACKUP_JOB}:${event.instanceId}`;
    try {
      const plan = await step.do('plan', STEP_CONFIG, () =>
        planBackup(this.env.DB, db, { runId, at: new Date(event.payload.at), startedAt: clock.now().toISOString() }),
      );
      const parts: PartInfo[] = [];
      let cursor: BackupCursor | null = plan.tables.length ? { table: 0, last: null } : null;
      for (let i = 0; cursor; i++) {
        const from: BackupCursor = cursor;
        const r = await step.do(`pages-${i}`, STEP_CONFIG, () => backupPages(this.env.DB, this.env.BACKUPS, plan, from, parts.length));
        parts.push(...r.parts);
        cursor = r.next;
      }
      const done = await step.do('assemble', STEP_CONFIG, () => assembleBackup(this.env.BACKUPS, plan, parts, clock.now().toISOString()));
      const pruned = await step.do('prune', STEP_CONFIG, () => pruneBackups(this.env.BACKUPS, runId));
      const result = { ...done, tables: plan.tables.length, parts: parts.length, ...pruned };
      await step.do('finish', STEP_CONFIG, async () => {
        await finishBackupRun(db, runId, clock.now().toISOString(), result);
        return true;
      });
      return result;
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      console.error(JSON.stringify({ job: BACKUP_JOB, runId, error: message }));
      await step.do('fail', STEP_CONFIG, async () => {
        await finishBackupRun(db, runId, clock.now().toISOString(), { error: message }, true);
        return true;
      });
      throw err;
    }
  }
}
