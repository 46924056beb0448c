import { app } from './app';
import { createDb } from './db/client';
import { parseConfig } from './env';
import { MAIL_DLQ_NAME, processMailBatch, recordDeadLetters } from './features/follows/service';
import { runCron } from './jobs/crons';
import { processJobsBatch } from './jobs/jobs-queue';
import { isJobsQueue } from './jobs/nightly';
import { runAlertCheck } from './jobs/ops-alerts';
import { createClock } from './lib/clock';
import { timed } from './lib/log';
import { createDeps } from './ports/deps';

/** The durable bulk import (wrangler.toml [[workflows]] IMPORT_WORKFLOW). */
export { ImportWorkflow } from './features/admin/import-workflow';
/** The nightly backup to R2 (wrangler.toml [[workflows]] BACKUP_WORKFLOW). */
export { BackupWorkflow } from './features/backup/backup-workflow';
/** The listing's day, started by a stale listing read (wrangler.toml [[workflows]] LISTING_DAY_WORKFLOW). */
export { ListingDayWorkflow } from './features/listing/day-workflow';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    // One JSON log line per cron invocation (worker/lib/log.ts); each task also logs its own job line.
    const cronLog = { type: 'cron', cron: controller.cron } as const;
    const at = new Date(controller.scheduledTime);
    // Each trigger matched exactly (jobs/crons.ts); an unknown one is logged and recorded, never run as nightly.
    // After every cron's own work (failed or not), the operations alert check (jobs/ops-alerts.ts): it sees a
    // nightly failure minutes after it happens and runs several times a day without a trigger of its own.
    ctx.waitUntil(
      timed(cronLog, () => runCron(env, controller.cron, at))
        .catch(() => undefined)
        .then(() => timed({ ...cronLog, task: 'ops-alerts' }, () => runAlertCheck(env, at)))
        .catch((err) => console.error('ops alert check failed', err)),
    );
  },
  async queue(batch, env, _ctx) {
    await timed({ type: 'queue', queue: batch.queue, messages: batch.messages.length }, () => consume(batch, env));
  },
} satisfies ExportedHandler<Env>;

async function consume(batch: MessageBatch, env: Env): Promise<void> {
  // The jobs queue (issue 42.2): one nightly task or one calendar feed per message (jobs/jobs-queue.ts).
  if (isJobsQueue(batch.queue)) {
    await processJobsBatch(env, batch);
    return;
  }
  // One batch's deps (db, config, clock, ports), like a request's.
  const config = parseConfig(env);
  const deps = createDeps({ db: createDb(env.DB), config, clock: createClock(config.clockNow), env });
  // Every environment names its queues (staging: quizkvall-staging-mail-dlq); a dead-letter queue ends in -dlq
  // (the jobs queue's too: its dead letters are recorded the same way).
  if (batch.queue === MAIL_DLQ_NAME || batch.queue.endsWith('-dlq')) {
    await recordDeadLetters(deps, { queueName: batch.queue, messages: batch.messages });
    return;
  }
  await processMailBatch(deps, { queueName: batch.queue, messages: batch.messages });
}
