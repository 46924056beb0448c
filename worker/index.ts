import { app } from './app';
import { createDb } from './db/client';
import { parseConfig } from './env';
import { MAIL_DLQ_NAME, processMailBatch, recordDeadLetters } from './features/follows/service';
import { FOLLOW_CRONS, runFollowMailCron } from './jobs/follow-mail';
import { runNightly } from './jobs/nightly';
import { createClock } from './lib/clock';
import { invalidateDataVersion } from './lib/data-version';
import { createDeps } from './ports/deps';

/** The durable bulk import (wrangler.toml [[workflows]] IMPORT_WORKFLOW). */
export { ImportWorkflow } from './features/admin/import-workflow';

export default {
  fetch: app.fetch,
  async scheduled(controller, env, ctx) {
    // The follow-mail crons only enqueue (jobs/follow-mail.ts); everything else is the nightly run.
    if (FOLLOW_CRONS.has(controller.cron)) {
      ctx.waitUntil(runFollowMailCron(env, controller.cron, new Date(controller.scheduledTime)));
      return;
    }
    // The nightly tasks may change public data: forget the memoized data version once they are done.
    ctx.waitUntil(runNightly(env, new Date(controller.scheduledTime)).finally(invalidateDataVersion));
  },
  async queue(batch, env, _ctx) {
    const config = parseConfig(env);
    const db = createDb(env.DB);
    const clock = createClock(config.clockNow);
    if (batch.queue === MAIL_DLQ_NAME) {
      await recordDeadLetters(db, batch.queue, batch.messages, clock.now());
      return;
    }
    const { mailer } = createDeps({ db, config, clock });
    await processMailBatch(
      { db, now: clock.now(), today: clock.today(), appUrl: config.appUrl, linkSecret: config.linkSigningSecret, mailer },
      batch.queue,
      batch.messages,
    );
  },
} satisfies ExportedHandler<Env>;
