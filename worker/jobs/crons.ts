/**
 * The Cron Triggers of wrangler.toml [triggers], each matched exactly (issue 27.4: any unknown cron string
 * used to run the whole nightly job). An unknown trigger — a cron added to wrangler.toml without a handler,
 * or a hand-fired `/cdn-cgi/handler/scheduled?cron=…` with a typo — runs nothing: it is logged and recorded
 * in job_runs as a failed run of `cron`, so the superadmin sees it.
 */
import { createDb } from '../db/client';
import { clockFrom } from '../lib/clock';
import { recordJob } from '../lib/jobs';
import { DIGEST_CRON, REMINDER_CRON, runFollowMailCron } from './follow-mail';
import { enqueueNightly, LISTING_DAY_CRON, NIGHTLY_CRON, runListingDay } from './nightly';
import { BACKUP_CRON, startBackup } from '../features/backup/service';
import { RSVP_CRON } from '../features/rsvp/service';
import { enqueueRsvpSweep } from './rsvp';

export type CronHandler = (env: Env, scheduledAt: Date) => Promise<unknown>;

export const CRON_HANDLERS: ReadonlyMap<string, CronHandler> = new Map<string, CronHandler>([
  // The nightly cron only enqueues one message per task (jobs/nightly.ts); the jobs queue runs them.
  [NIGHTLY_CRON, (env, at) => enqueueNightly(env, at)],
  [LISTING_DAY_CRON, (env, at) => runListingDay(env, at)],
  // The nightly backup only starts its Workflow (features/backup): the steps run there.
  [BACKUP_CRON, (env, at) => startBackup(env, at)],
  // The follow-mail crons only enqueue (jobs/follow-mail.ts).
  [REMINDER_CRON, (env, at) => runFollowMailCron(env, REMINDER_CRON, at)],
  [DIGEST_CRON, (env, at) => runFollowMailCron(env, DIGEST_CRON, at)],
  // "Vi kommer" (issue 47): only enqueues the RSVP sweep (jobs/rsvp.ts).
  [RSVP_CRON, (env, at) => enqueueRsvpSweep(env, at)],
]);

/** Runs the handler of `cron`, or records the unknown trigger (and runs nothing). */
export async function runCron(env: Env, cron: string, scheduledAt: Date): Promise<void> {
  const handler = CRON_HANDLERS.get(cron);
  if (handler) {
    await handler(env, scheduledAt);
    return;
  }
  console.error(`unknown cron trigger ${JSON.stringify(cron)}: nothing run`);
  await recordJob(createDb(env.DB), clockFrom(scheduledAt), 'cron', async () => {
    throw new Error(`unknown cron trigger ${JSON.stringify(cron.slice(0, 100))}`);
  }).catch(() => undefined);
}
