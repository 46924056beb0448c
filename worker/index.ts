import { app } from './app';
import { createDb } from './db/client';
import { parseConfig } from './env';
import { MAIL_DLQ_NAME, processMailBatch, recordDeadLetters } from './features/follows/service';
import { runCron } from './jobs/crons';
import { createClock } from './lib/clock';
import { createDeps } from './ports/deps';

/** The durable bulk import (wrangler.toml [[workflows]] IMPORT_WORKFLOW). */
export { ImportWorkflow } from './features/admin/import-workflow';
/** The nightly backup to R2 (wrangler.toml [[workflows]] BACKUP_WORKFLOW). */
export { BackupWorkflow } from './features/backup/workflow';
/** The listing's day, started by a stale listing read (wrangler.toml [[workflows]] LISTING_DAY_WORKFLOW). */
export { ListingDayWorkflow } from './features/listing/day-workflow';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    // Each trigger matched exactly (jobs/crons.ts); an unknown one is logged and recorded, never run as nightly.
    ctx.waitUntil(runCron(env, controller.cron, new Date(controller.scheduledTime)));
  },
  async queue(batch, env, _ctx) {
    // One batch's deps (db, config, clock, ports), like a request's.
    const config = parseConfig(env);
    const deps = createDeps({ db: createDb(env.DB), config, clock: createClock(config.clockNow) });
    if (batch.queue === MAIL_DLQ_NAME) {
      await recordDeadLetters(deps, { queueName: batch.queue, messages: batch.messages });
      return;
    }
    await processMailBatch(deps, { queueName: batch.queue, messages: batch.messages });
  },
} satisfies ExportedHandler<Env>;
