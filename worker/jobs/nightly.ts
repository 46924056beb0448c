/**
 * The nightly Cron Trigger (wrangler.toml [triggers]). It holds no rules of its own: it calls the same
 * services the API uses. Every task is recorded in job_runs by `recordJob` (start, end, counts or
 * error; GET /api/admin/jobs), and a failing task is recorded as failed without stopping the others.
 */
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { clockFrom, createClock } from '../lib/clock';
import { recordJob, type JobCounts } from '../lib/jobs';
import { listingContext } from '../lib/listing-context';
import { releaseExpiredHolds } from '../features/payments/service';
import { cleanUpEmailTokens } from '../features/auth/service';
import { deleteStaleRateLimits } from '../lib/rate-limit';
import { deleteEarlierSeen } from '../features/events/service';
import { deleteExpiredSessions } from '../lib/session';
import { runSeriesExtensionJob, SERIES_JOB } from '../features/series/service';
import { LISTING_DAY_JOB, runListingDayJob } from '../features/listing/service';
import { createDeps, productionPorts, type Deps, type PortFactories } from '../ports/deps';
import { deleteOldMail, type OutboxQueue } from '../ports/mailer';
import { ownerMailTasks } from './owner-mail';
import { CALENDAR_SYNC_JOB, runCalendarSyncJob } from '../features/calendar-sync/service';

/** One nightly task: its job name and a run that writes its own job_runs row (through recordJob). */
export type NightlyTask = readonly [name: string, run: () => Promise<unknown>];

/** The nightly tasks, in order; `now` is the run's start (the scheduled time unless CLOCK_NOW pins it). */
function nightlyTasks(deps: Deps, queue: OutboxQueue): NightlyTask[] {
  const { db, clock } = deps;
  const now = clock.now();
  const recorded = (name: string, fn: () => Promise<JobCounts>): NightlyTask => [name, () => recordJob(db, clock, name, fn)];
  return [
    // Issue 19 §2 / 30.8: bring the listing's stored next occurrences, tiers and counts to today (a no-op
    // when the 00:05 cron did). Requests never do it. First, so the series extension below inserts its
    // dates under today's listing_state.
    [LISTING_DAY_JOB, () => runListingDayJob(db, clock, listingContext(deps))],
    recorded('sessions', async () => ({ deleted: await deleteExpiredSessions(db, now) })),
    recorded('rate-limits', async () => ({ deleted: await deleteStaleRateLimits(db, now) })),
    // Issue 26.6: the counting salts and seen-hashes of earlier days (docs/features/analytics-counting.md).
    recorded('analytics-seen', async () => ({ deleted: await deleteEarlierSeen(db, clock.today()) })),
    recorded('email-tokens', async () => ({ deleted: await cleanUpEmailTokens(deps) })),
    // Data minimisation: outbox rows (addresses, mail texts) older than MAIL_RETENTION_DAYS (30) by the
    // database's own time; see worker/ports/mailer.ts for why exactly-once still holds.
    recorded('mail-outbox', async () => ({ deleted: await deleteOldMail(db) })),
    // Holds of checkouts that expired unpaid (backstop for a missed checkout.session.expired event).
    recorded('promotion-holds', async () => ({ released: await releaseExpiredHolds(deps, { maxChunks: 50 }) })),
    // Open-ended series kept SERIES_HORIZON_DAYS ahead; chunked, idempotent, resumable: it calls recordJob itself
    // (its row carries the resume cursor).
    [SERIES_JOB, () => runSeriesExtensionJob(deps)],
    // Issue 31.2: owners' calendar addresses, least recently synced first (a bad address is recorded on
    // its feed for the owner, not as a failed run).
    recorded(CALENDAR_SYNC_JOB, () => runCalendarSyncJob(deps)),
    // Issue 20: "Kör ni quiz på {helgdag}?" and freshness (worker/jobs/owner-mail.ts), each recorded.
    ...ownerMailTasks(deps, queue).map(([name, fn]) => recorded(name, fn)),
  ];
}

/** Runs every task; one failing (recorded as failed by recordJob, and logged) does not stop the others. */
export async function runTasks(tasks: readonly NightlyTask[]): Promise<{ failed: string[] }> {
  const failed: string[] = [];
  for (const [name, task] of tasks) {
    try {
      await task();
    } catch (err) {
      failed.push(name);
      console.error(`nightly task ${name} failed`, err);
    }
  }
  return { failed };
}

/** The nightly run (wrangler.toml): 02:15 UTC = 03:15 (winter) / 04:15 (summer) in Stockholm. */
export const NIGHTLY_CRON = '15 2 * * *';

/**
 * Just after midnight in Stockholm (wrangler.toml: 22:05 and 23:05 UTC, one of which is 00:05 in summer or
 * winter; the other finds the listing already on its day and does nothing): the listing's day moves on
 * before the first visitor, who would otherwise be served yesterday's order until the Workflow their read
 * starts has run (listing/listing-day.ts). The nightly run does it again (a no-op then).
 */
export const LISTING_DAY_CRON = '5 22,23 * * *';

export async function runListingDay(env: Env, scheduledAt: Date): Promise<void> {
  const config = parseConfig(env);
  const db = createDb(env.DB);
  const clock = config.clockNow ? createClock(config.clockNow) : clockFrom(scheduledAt);
  await runListingDayJob(db, clock, listingContext({ clock, config }));
}

/** `queue` takes the outbox deliveries of the owner mail (the run's mail-queue port; a fake in tests). */
export async function runNightly(env: Env, scheduledAt: Date, ports: PortFactories = productionPorts, queue?: OutboxQueue): Promise<{ failed: string[] }> {
  const config = parseConfig(env);
  const db = createDb(env.DB);
  // From the scheduled instant on, advancing in real time, so each job_runs row has a true duration.
  const clock = config.clockNow ? createClock(config.clockNow) : clockFrom(scheduledAt);
  const deps = createDeps({ db, config, clock, env }, ports);
  return runTasks(nightlyTasks(deps, queue ?? deps.mailQueue));
}
