/**
 * The nightly run (issue 42.2: "a cron that only enqueues"). The Cron Trigger (wrangler.toml [triggers])
 * puts one message per task on the jobs queue (JOBS_QUEUE, worker/jobs/jobs-queue.ts consumes it); each
 * task then runs in a queue invocation of its own, with its own retries, and is recorded in job_runs by
 * `recordJob` (start, end, counts or error; GET /api/admin/jobs). The calendar-sync task only enqueues one
 * message per due feed. Limits and the measured figures: docs/jobs.md. The tasks hold no rules of their
 * own: they call the same services the API uses.
 */
import * as z from 'zod';
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { clockFrom, createClock, type Clock } from '../lib/clock';
import { recordJob, type JobCounts } from '../lib/jobs';
import { chunks } from '../lib/chunks';
import { listingContext } from '../lib/listing-context';
import { releaseExpiredHolds } from '../features/promotion/service';
import { cleanUpEmailTokens } from '../features/auth/service';
import { deleteStaleRateLimits } from '../lib/rate-limit';
import { deleteEarlierSeen } from '../features/events/service';
import { deleteExpiredSessions } from '../lib/session';
import { runSeriesExtensionJob, SERIES_JOB } from '../features/series/service';
import { LISTING_DAY_JOB, runListingDayJob } from '../features/listing/service';
import type { Deps } from '../ports/deps';
import { deleteOldMail, type OutboxQueue } from '../ports/mailer';
import { ownerMailTasks } from './owner-mail';
import { forgetRsvpAddresses, RSVP_PRIVACY_JOB } from '../features/rsvp/service';
import { alertCheckTask } from './ops-alerts';
import { LISTING_DAY_CRON, NIGHTLY_CRON, NIGHTLY_TASKS } from './schedule';

// The triggers and the task list live in ./schedule.ts (the alert check reads them too); re-exported for the crons.
export { LISTING_DAY_CRON, NIGHTLY_CRON, NIGHTLY_TASKS };
import { ALERT_JOB } from '../features/ops/service';
import { CALENDAR_SYNC_JOB, enqueueCalendarSyncJob } from '../features/calendar-sync/service';
import { lazySchema } from '../lib/lazy-schema';

/** The jobs queue of each environment (wrangler.toml; staging's is quizkvall-staging-jobs). */
export const JOBS_QUEUE_NAME = 'quizkvall-jobs';
export const isJobsQueue = (name: string) => name === JOBS_QUEUE_NAME || /^quizkvall-[a-z]+-jobs$/.test(name);

/** A jobs-queue message: one nightly task by name, or one calendar feed. `at` is the night's scheduled instant. */
export const JobsMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('nightly-task'), name: z.string().min(1).max(100), at: z.iso.datetime() }),
    z.object({ type: z.literal('calendar-sync'), feedId: z.string().min(1).max(64), at: z.iso.datetime() }),
    // "Vi kommer" (issue 47): offer a freed table (a cancellation enqueues it), and the 15-minute RSVP sweep.
    z.object({ type: z.literal('rsvp-offer'), quizId: z.string().min(1).max(64), at: z.iso.datetime() }),
    z.object({ type: z.literal('rsvp-sweep'), at: z.iso.datetime() }),
  ]),
);
export type JobsMessage = z.infer<typeof JobsMessageSchema>;

/** What the nightly run needs of the jobs queue (a Cloudflare `Queue` binding has this shape; tests capture). */
export interface JobsQueuePort {
  sendBatch(messages: Iterable<{ body: JobsMessage; delaySeconds?: number }>): Promise<unknown>;
}

/** The run of one task; it writes its own job_runs row (through recordJob). */
export type NightlyTask = () => Promise<unknown>;

/**
 * The alert check is sent this long after the other tasks (issue 30 §5 and 42.2), so it judges the night's
 * runs rather than the night before. The tasks take seconds to a few minutes (docs/jobs.md).
 */
export const ALERT_DELAY_SECONDS = 15 * 60;

/**
 * Pages of 25 series the series extension handles per invocation. A series is a read and one batch of up to
 * ~6 statements (26 new weekly dates): 100 fresh series measured 711 D1 statements, so two pages stay near 360,
 * well under D1's 1 000 per invocation (docs/jobs.md).
 */
export const SERIES_PAGES_PER_UNIT = 2;

/** The nightly tasks by name, in the order they are enqueued; `deps.clock` is the night's (the message's `at`). */
export function nightlyTasks(deps: Deps, queues: { jobs: JobsQueuePort; outbox: OutboxQueue }): Map<string, NightlyTask> {
  const { db, clock } = deps;
  const now = clock.now();
  const at = now.toISOString();
  const recorded = (name: string, fn: () => Promise<JobCounts>): [string, NightlyTask] => [name, () => recordJob(db, clock, name, fn)];
  return new Map<string, NightlyTask>([
    // Issue 19 §2 / 30.8: bring the listing's stored next occurrences, tiers and counts to today (a no-op
    // when the 00:05 cron did). Requests never do it. Enqueued first, so the series extension below normally
    // inserts its dates under today's listing_state.
    [LISTING_DAY_JOB, () => runListingDayJob(db, clock, listingContext(deps))],
    recorded('sessions', async () => ({ deleted: await deleteExpiredSessions(db, now) })),
    recorded('rate-limits', async () => ({ deleted: await deleteStaleRateLimits(db, now) })),
    // Issue 26.6: the counting salts and seen-hashes of earlier days (docs/features/analytics-counting.md).
    recorded('analytics-seen', async () => ({ deleted: await deleteEarlierSeen(db, clock.today()) })),
    recorded('email-tokens', async () => ({ deleted: await cleanUpEmailTokens(deps) })),
    // Data minimisation: outbox rows (addresses, mail texts) older than MAIL_RETENTION_DAYS (30) by the
    // database's own time; see worker/ports/mailer.ts for why exactly-once still holds.
    recorded('mail-outbox', async () => ({ deleted: await deleteOldMail(db) })),
    // Issue 47: RSVP addresses 30 days after the night, and RSVPs never confirmed.
    recorded(RSVP_PRIVACY_JOB, async () => ({ ...(await forgetRsvpAddresses(deps)) })),
    // Holds of checkouts that expired unpaid (backstop for a missed checkout.session.expired event).
    recorded('promotion-holds', async () => ({ released: await releaseExpiredHolds(deps, { maxChunks: 50 }) })),
    // Open-ended series kept SERIES_HORIZON_DAYS ahead; chunked, idempotent, resumable: it calls recordJob itself
    // (its row carries the resume cursor). At most SERIES_PAGES_PER_UNIT pages per invocation: when more is
    // left, the run stays open and a continuation message resumes it from its cursor.
    [
      SERIES_JOB,
      async () => {
        const r = await runSeriesExtensionJob(deps, { stopAfterPages: SERIES_PAGES_PER_UNIT });
        if (!r.complete) await queues.jobs.sendBatch([{ body: { type: 'nightly-task', name: SERIES_JOB, at } }]);
        return r;
      },
    ],
    // Issue 31.2 / 42.2: one message per due feed (least recently attempted first); each feed is synced in
    // its own invocation (jobs-queue.ts), and a bad address is recorded on its feed for the owner.
    recorded(CALENDAR_SYNC_JOB, () =>
      enqueueCalendarSyncJob(deps, async (feedIds) => {
        for (const part of chunks(feedIds, 100)) await queues.jobs.sendBatch(part.map((feedId) => ({ body: { type: 'calendar-sync', feedId, at } })));
      }),
    ),
    // Issue 20: "Kör ni quiz på {helgdag}?" and freshness (worker/jobs/owner-mail.ts), each recorded.
    ...ownerMailTasks(deps, queues.outbox).map(([name, fn]) => recorded(name, fn)),
    // Issue 30 §5: the operations alert check, sent ALERT_DELAY_SECONDS after the others (it records itself).
    [ALERT_JOB, () => alertCheckTask(deps)],
  ]);
}

/** The job_runs name of the cron's own run (it records how many task messages it sent). */
export const NIGHTLY_ENQUEUE_JOB = 'nightly';

/** The night's clock: from its scheduled instant on, advancing in real time (so job_runs durations are true); CLOCK_NOW pins it. */
export function nightClock(env: Env, at: Date): Clock {
  const config = parseConfig(env);
  return config.clockNow ? createClock(config.clockNow) : clockFrom(at);
}

/**
 * The cron: one message per nightly task on the jobs queue (the alert check delayed), recorded as job
 * `nightly`. Nothing else runs here; `queue` is the JOBS_QUEUE binding unless a test hands in a fake.
 */
export async function enqueueNightly(env: Env, scheduledAt: Date, queue?: JobsQueuePort): Promise<{ enqueued: number }> {
  const clock = nightClock(env, scheduledAt);
  // The night every task reads is the cron's scheduled instant (or the pinned clock's), not a later reading of a
  // clock running from it: that one moves by whatever time passed since (a millisecond made the tasks' `at` differ).
  const at = (parseConfig(env).clockNow ? clock.now() : scheduledAt).toISOString();
  const jobs = queue ?? env.JOBS_QUEUE;
  return recordJob(createDb(env.DB), clock, NIGHTLY_ENQUEUE_JOB, async () => {
    if (!jobs) throw new Error('JOBS_QUEUE binding missing');
    await jobs.sendBatch(
      NIGHTLY_TASKS.map((name) => ({
        body: { type: 'nightly-task', name, at } as const,
        ...(name === ALERT_JOB ? { delaySeconds: ALERT_DELAY_SECONDS } : {}),
      })),
    );
    return { enqueued: NIGHTLY_TASKS.length };
  });
}

export async function runListingDay(env: Env, scheduledAt: Date): Promise<void> {
  const config = parseConfig(env);
  const db = createDb(env.DB);
  const clock = config.clockNow ? createClock(config.clockNow) : clockFrom(scheduledAt);
  await runListingDayJob(db, clock, listingContext({ clock, config }));
}
