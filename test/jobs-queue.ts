/**
 * The nightly run in tests (issue 42.2): the cron's messages are captured instead of sent, then each is
 * handed to the jobs-queue consumer in turn — the calendar-sync task's feed messages join the end of the
 * line — until none is left. No real queue and no waiting: every unit has run when `runNightly` returns.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import worker from '../worker/index';
import { processJobsBatch, type JobOutcome } from '../worker/jobs/jobs-queue';
import { enqueueNightly, JOBS_QUEUE_NAME, NIGHTLY_CRON, type JobsMessage, type JobsQueuePort } from '../worker/jobs/nightly';
import type { PortFactories } from '../worker/ports/deps';
import type { OutboxQueue } from '../worker/ports/mailer';
import { queueMessages } from './mail-queue';

/** Captures what is sent (with its delay); `failing` makes every sendBatch throw (the queue is down). */
export function capturingJobsQueue(opts: { failing?: boolean } = {}): JobsQueuePort & { sent: Array<{ body: JobsMessage; delaySeconds?: number }> } {
  const sent: Array<{ body: JobsMessage; delaySeconds?: number }> = [];
  return {
    sent,
    async sendBatch(messages) {
      if (opts.failing) throw new Error('queue unavailable');
      for (const m of messages) sent.push({ ...m });
    },
  };
}

/** Hands every captured message (and what they enqueue in turn) to the consumer, one per invocation as in production. */
export async function drainJobs(
  env: Env,
  queue: ReturnType<typeof capturingJobsQueue>,
  opts: { ports?: PortFactories; outboxQueue?: OutboxQueue; from?: number } = {},
): Promise<JobOutcome[]> {
  const outcomes: JobOutcome[] = [];
  for (let i = opts.from ?? 0; i < queue.sent.length; i++) {
    const messages = queueMessages([queue.sent[i]!.body]);
    outcomes.push(
      ...(await processJobsBatch(env, { queue: JOBS_QUEUE_NAME, messages }, { ports: opts.ports, jobsQueue: queue, outboxQueue: opts.outboxQueue })),
    );
  }
  return outcomes;
}

/** The whole night as the queue would run it; `failed` names the units that threw (each retried by the queue). */
export async function runNightly(
  env: Env,
  scheduledAt: Date,
  ports?: PortFactories,
  outboxQueue?: OutboxQueue,
): Promise<{ failed: string[]; outcomes: JobOutcome[]; sent: JobsMessage[] }> {
  const queue = capturingJobsQueue();
  await enqueueNightly(env, scheduledAt, queue);
  const outcomes = await drainJobs(env, queue, { ports, outboxQueue });
  return { failed: outcomes.filter((o) => o.outcome === 'retried').map((o) => o.unit), outcomes, sent: queue.sent.map((m) => m.body) };
}

/**
 * The Worker's own scheduled() handler for the nightly cron (with JOBS_QUEUE captured), then every message it
 * enqueued through the consumer: what production does, minus the queue's delays.
 */
export async function runScheduledNight(env: Env, at: string | Date): Promise<JobOutcome[]> {
  const queue = capturingJobsQueue();
  const ctx = createExecutionContext();
  const withQueue = { ...env, JOBS_QUEUE: queue as unknown as Queue } as Env;
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: NIGHTLY_CRON }), withQueue, ctx);
  await waitOnExecutionContext(ctx);
  return drainJobs(withQueue, queue);
}
