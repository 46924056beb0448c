/**
 * "Vi kommer" (issue 47) on the jobs queue: the cron (RSVP_CRON, every 15 minutes) only enqueues one
 * `rsvp-sweep` message; a cancellation enqueues an `rsvp-offer` for its night. The consumer (jobs-queue.ts)
 * runs them here, each recorded in job_runs (`rsvp-sweep`, `rsvp-offer`).
 */
import { recordJob } from '../lib/jobs';
import type { Deps } from '../ports/deps';
import { offerFreeTables, RSVP_SWEEP_JOB, runRsvpSweep } from '../features/rsvp/service';
import { nightClock, type JobsQueuePort } from './nightly';

export const RSVP_OFFER_JOB = 'rsvp-offer';

/** The cron: one sweep message (the queue runs it in an invocation of its own). */
export async function enqueueRsvpSweep(env: Env, scheduledAt: Date, queue?: JobsQueuePort): Promise<void> {
  const at = nightClock(env, scheduledAt).now().toISOString();
  const jobs = queue ?? env.JOBS_QUEUE;
  if (!jobs) throw new Error('JOBS_QUEUE binding missing');
  await jobs.sendBatch([{ body: { type: 'rsvp-sweep', at } }]);
}

export function runRsvpSweepJob(deps: Deps) {
  return recordJob(deps.db, deps.clock, RSVP_SWEEP_JOB, () => runRsvpSweep(deps, { delivery: deps.mailQueue }));
}

export function runRsvpOfferJob(deps: Deps, quizId: string) {
  return recordJob(deps.db, deps.clock, RSVP_OFFER_JOB, async () => ({ offered: await offerFreeTables(deps, { quizId, delivery: deps.mailQueue }) }));
}
