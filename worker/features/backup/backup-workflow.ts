/**
 * The nightly backup (issues 30.6, 42.1): the cron BACKUP_CRON starts one instance (worker/index.ts); it writes the
 * database into R2 (BACKUPS, bucket quizkvall-backups) in the format of `npm run db:backup`, paged in steps
 * (each ≤ STEP_PAGES queries of ≤ PAGE_ROWS rows and as many small R2 writes), then uploads the object in
 * equal parts (≤ STEP_UPLOAD_PARTS a step), prunes to 30 daily + 12 monthly and closes its job_runs row (failed,
 * with the reason, when a step gives up; its upload aborted). Every step is safe to retry; every step's output
 * is small (≤ 4 page or upload part entries, the plan, the counts), far under Workflows' 1 MiB a step.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import { createDb } from '../../db/client';
import { parseConfig } from '../../env';
import { createClock } from '../../lib/clock';
import {
  abortUpload,
  backupLayout,
  backupPages,
  BACKUP_CRON,
  BACKUP_JOB,
  completeUpload,
  finishBackupRun,
  planBackup,
  pruneBackups,
  startBackup,
  startUpload,
  STEP_UPLOAD_PARTS,
  uploadPartCount,
  uploadParts,
  type BackupCursor,
  type BackupPlan,
  type PartInfo,
} from './service';

export interface BackupWorkflowParams {
  /** The scheduled instant (ISO): names the object. */
  at: string;
}

/** What a run returns and records in its job_runs row (the status page shows bytes, rows, tables, parts, tableRows). */
export type BackupResult = {
  key: string;
  /** Size of the object. */
  bytes: number;
  rows: number;
  /** Rows per table (the object's `-- table` lines). */
  tableRows: Record<string, number>;
  tables: number;
  /** Page parts read (tmp/ objects, one D1 page each). */
  parts: number;
  /** Parts of the multipart upload (all but the last UPLOAD_PART_BYTES). */
  uploadParts: number;
  kept: number;
  pruned: number;
};

const STEP_CONFIG = { retries: { limit: 5, delay: '5 seconds' as const, backoff: 'exponential' as const }, timeout: '5 minutes' as const };

export { BACKUP_CRON, startBackup };

export class BackupWorkflow extends WorkflowEntrypoint<Env, BackupWorkflowParams> {
  override async run(event: WorkflowEvent<BackupWorkflowParams>, step: WorkflowStep): Promise<BackupResult> {
    const config = parseConfig(this.env);
    const clock = createClock(config.clockNow);
    const db = createDb(this.env.DB);
    const runId = `${BACKUP_JOB}:${event.instanceId}`;
    let started: { plan: BackupPlan; uploadId: string } | null = null;
    try {
      const plan = await step.do('plan', STEP_CONFIG, () =>
        planBackup(this.env.DB, db, { runId, at: new Date(event.payload.at), startedAt: clock.now().toISOString() }),
      );
      const parts: PartInfo[] = [];
      let cursor: BackupCursor | null = plan.tables.length ? { table: 0, last: null } : null;
      for (let i = 0; cursor; i++) {
        const from: BackupCursor = cursor;
        const r = await step.do(`pages-${i}`, STEP_CONFIG, () => backupPages(this.env.DB, this.env.BACKUPS, plan, from));
        parts.push(...r.parts);
        cursor = r.next;
      }
      // The object: a multipart upload of equal parts cut at fixed offsets, STEP_UPLOAD_PARTS per step.
      const upload = await step.do('upload-start', STEP_CONFIG, () => startUpload(this.env.BACKUPS, plan, clock.now().toISOString()));
      started = { plan, uploadId: upload.uploadId };
      const layout = backupLayout(plan, parts, upload.createdAt);
      const count = uploadPartCount(layout.bytes);
      const uploaded: R2UploadedPart[] = [];
      for (let first = 0; first < count; first += STEP_UPLOAD_PARTS) {
        const n = first;
        uploaded.push(
          ...(await step.do(`upload-${n / STEP_UPLOAD_PARTS}`, STEP_CONFIG, () =>
            uploadParts(this.env.BACKUPS, plan, upload.uploadId, layout, n, STEP_UPLOAD_PARTS),
          )),
        );
      }
      const done = await step.do('upload-done', STEP_CONFIG, () => completeUpload(this.env.BACKUPS, plan, upload.uploadId, layout, uploaded, parts));
      started = null;
      const pruned = await step.do('prune', STEP_CONFIG, () => pruneBackups(this.env.BACKUPS, runId));
      const result: BackupResult = { ...done, tables: plan.tables.length, parts: parts.length, ...pruned };
      await step.do('finish', STEP_CONFIG, async () => {
        await finishBackupRun(db, runId, clock.now().toISOString(), result);
        return true;
      });
      return result;
    } catch (err) {
      const message = (err instanceof Error ? err.message : String(err)).slice(0, 1000);
      console.error(JSON.stringify({ job: BACKUP_JOB, runId, error: message }));
      const abort = started;
      await step.do('fail', STEP_CONFIG, async () => {
        if (abort) await abortUpload(this.env.BACKUPS, abort.plan, abort.uploadId);
        await finishBackupRun(db, runId, clock.now().toISOString(), { error: message }, true);
        return true;
      });
      throw err;
    }
  }
}
