/**
 * The follow-mail Cron Triggers (wrangler.toml [triggers]): "0 6,7 * * *" (reminders) and "0 6,7 * * 1"
 * (the Monday digest). One of 06:00/07:00 UTC is 08:00 in Stockholm in either season; only that run acts,
 * so across the DST changes exactly one run a day enqueues. The cron only enqueues (one message per due
 * mail); the queue consumer sends.
 */
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { createClock, isoWeekday, stockholmParts } from '../lib/clock';
import { createDeps } from '../ports/deps';
import { cleanUpFollows, enqueueDigests, enqueueReminders, type MailQueue } from '../features/follows/service';

export const REMINDER_CRON = '0 6,7 * * *';
export const DIGEST_CRON = '0 6,7 * * 1';
export const FOLLOW_CRONS = new Set([REMINDER_CRON, DIGEST_CRON]);
/** Stockholm hour at which follow mail goes out. */
export const SEND_HOUR = '08';

/** `queue`: the run's mail-queue port unless a test hands in a fake. */
export async function runFollowMailCron(env: Env, cron: string, scheduledAt: Date, queue?: MailQueue) {
  const config = parseConfig(env);
  const clock = createClock(config.clockNow ?? scheduledAt.toISOString());
  const now = clock.now();
  const { date, time: wall } = stockholmParts(now);
  const time = wall.slice(0, 2);
  if (time !== SEND_HOUR) return { skipped: true as const, date, time };
  // The run's deps (its clock is the scheduled instant, pinned): the same shape a request has.
  const deps = createDeps({ db: createDb(env.DB), config, clock, env });
  const producer = queue ?? deps.mailQueue;
  if (cron === DIGEST_CRON) {
    if (isoWeekday(date) !== 1) return { skipped: true as const, date, time };
    return { skipped: false as const, ...(await enqueueDigests(deps, { queue: producer })) };
  }
  // Once a day (the acting reminder run): pending follows past their 48 h link, empty addresses, spent links.
  await cleanUpFollows(deps);
  return { skipped: false as const, ...(await enqueueReminders(deps, { queue: producer })) };
}
