/**
 * The jobs queue's consumer (issue 42.2; wrangler.toml JOBS_QUEUE, max_batch_size 1): each message is one
 * bounded unit — one nightly task (worker/jobs/nightly.ts) or one calendar feed — in an invocation of its
 * own, so one slow or hostile unit cannot starve the others of CPU, wall time, D1 queries or subrequests.
 * A unit that throws is logged and retried with back-off; after max_retries the dead-letter queue records it
 * (`dead_letters`, superadmin). A message that cannot be read is retried the same way and so ends there too.
 */
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { invalidateDataVersion } from '../lib/data-version';
import { logLine } from '../lib/log';
import { createDeps, productionPorts, type PortFactories } from '../ports/deps';
import type { OutboxQueue } from '../ports/mailer';
import { syncFeedOfNight } from '../features/calendar-sync/service';
import { JobsMessageSchema, nightClock, nightlyTasks, type JobsQueuePort } from './nightly';
import { runRsvpOfferJob, runRsvpSweepJob } from './rsvp';

/** The part of a queue message the consumer uses (Cloudflare's `Message`; tests build their own). */
export interface JobsQueueMessage {
  id: string;
  body: unknown;
  attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/** Back-off for a failed unit: 60 s, 120 s, 240 s … at most 1 h. */
export function jobRetryDelaySeconds(attempts: number): number {
  return Math.min(3600, 60 * 2 ** Math.max(0, attempts - 1));
}

export interface JobsConsumerOptions {
  /** Port factories (tests hand in fakes: the calendar fetcher, the mailer). */
  ports?: PortFactories;
  /** Where the calendar-sync task enqueues its feeds: the JOBS_QUEUE binding unless given. */
  jobsQueue?: JobsQueuePort;
  /** The owner-mail tasks' outbox deliveries: the run's mail-queue port unless given. */
  outboxQueue?: OutboxQueue;
}

/** What became of each message (for logs and tests). */
export type JobOutcome = { id: string; unit: string; outcome: string };

export async function processJobsBatch(
  env: Env,
  batch: { queue: string; messages: readonly JobsQueueMessage[] },
  opts: JobsConsumerOptions = {},
): Promise<JobOutcome[]> {
  const config = parseConfig(env);
  const db = createDb(env.DB);
  const out: JobOutcome[] = [];
  for (const m of batch.messages) {
    const parsed = JobsMessageSchema.safeParse(m.body);
    if (!parsed.success) {
      console.error(`jobs queue message ${m.id} cannot be read (attempt ${m.attempts})`);
      m.retry({ delaySeconds: jobRetryDelaySeconds(m.attempts) });
      out.push({ id: m.id, unit: 'unreadable', outcome: 'retried' });
      continue;
    }
    const msg = parsed.data;
    const unit =
      msg.type === 'nightly-task'
        ? msg.name
        : msg.type === 'calendar-sync'
          ? `calendar-sync:${msg.feedId}`
          : msg.type === 'rsvp-offer'
            ? `rsvp-offer:${msg.quizId}`
            : 'rsvp-sweep';
    // The unit runs on the night's clock (its scheduled instant, advancing in real time), as the serial run did.
    const clock = nightClock(env, new Date(msg.at));
    const deps = createDeps({ db, config, clock, env }, opts.ports ?? productionPorts);
    try {
      let outcome: string;
      if (msg.type === 'nightly-task') {
        const jobs = opts.jobsQueue ?? env.JOBS_QUEUE;
        const task = nightlyTasks(deps, { jobs, outbox: opts.outboxQueue ?? deps.mailQueue }).get(msg.name);
        if (!task) throw new Error(`unknown nightly task ${JSON.stringify(msg.name)}`);
        await task();
        outcome = 'done';
      } else if (msg.type === 'rsvp-offer') {
        outcome = `offered ${(await runRsvpOfferJob(deps, msg.quizId)).offered}`;
      } else if (msg.type === 'rsvp-sweep') {
        await runRsvpSweepJob(deps);
        outcome = 'done';
      } else {
        outcome = await syncFeedOfNight(deps, msg.feedId, msg.at);
        logLine({ type: 'job', job: 'calendar-sync-feed', feedId: msg.feedId, status: outcome });
      }
      m.ack();
      out.push({ id: m.id, unit, outcome });
    } catch (err) {
      console.error(
        `nightly ${msg.type === 'nightly-task' ? 'task' : msg.type === 'calendar-sync' ? 'feed' : 'unit'} ${unit} failed (attempt ${m.attempts})`,
        err,
      );
      m.retry({ delaySeconds: jobRetryDelaySeconds(m.attempts) });
      out.push({ id: m.id, unit, outcome: 'retried' });
    } finally {
      // A task may have changed public data: this isolate reads the version again.
      invalidateDataVersion();
    }
  }
  return out;
}
