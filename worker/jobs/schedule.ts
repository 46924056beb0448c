/**
 * When each scheduled job is expected to start (issue 42 item 4): job name → the Cron Triggers that start it.
 * The operations check (features/ops, handed this table by jobs/ops-alerts.ts and the status route) reports a
 * job that has not started within MISSED_START_GRACE of its trigger's latest firing. A job missing here
 * (follow mail, queue batches, the import) is only judged by its own cadence (features/ops/checks.ts).
 *
 * The nightly tasks are listed by the names they record in job_runs (jobs/nightly.ts, jobs/owner-mail.ts);
 * test/integration/ops.test.ts checks this list against what a nightly run records.
 */
import { BACKUP_CRON, BACKUP_JOB } from '../features/backup/service';
import { CALENDAR_SYNC_JOB } from '../features/calendar-sync/service';
import { LISTING_DAY_JOB } from '../features/listing/service';
import { SERIES_JOB } from '../features/series/service';
import { ALERT_JOB } from '../features/ops/service';
import { RSVP_CRON, RSVP_PRIVACY_JOB, RSVP_SWEEP_JOB } from '../features/rsvp/service';
import type { JobSchedule } from '../features/ops/contract';

/** The nightly run (wrangler.toml): 02:15 UTC = 03:15 (winter) / 04:15 (summer) in Stockholm. */
export const NIGHTLY_CRON = '15 2 * * *';

/**
 * Just after midnight in Stockholm (wrangler.toml: 22:05 and 23:05 UTC, one of which is 00:05 in summer or
 * winter; the other finds the listing already on its day and does nothing): the listing's day moves on
 * before the first visitor, who would otherwise be served yesterday's order until the Workflow their read
 * starts has run (listing/listing-day.ts). The nightly run does it again (a no-op then).
 */
export const LISTING_DAY_CRON = '5 22,23 * * *';

/** Names of the nightly tasks, in order: what the cron enqueues (jobs/nightly.ts) and what each records in job_runs. */
export const NIGHTLY_TASKS: readonly string[] = [
  LISTING_DAY_JOB,
  'sessions',
  'rate-limits',
  'analytics-seen',
  'email-tokens',
  'mail-outbox',
  RSVP_PRIVACY_JOB,
  'promotion-holds',
  SERIES_JOB,
  CALENDAR_SYNC_JOB,
  'mail-redeliver',
  'holiday-ask',
  'freshness',
  ALERT_JOB,
];

/**
 * The tasks judged by the nightly trigger alone: listing-day has its own crons as well (below), and the alert check
 * runs after every cron, so its own start is no sign of a missed night.
 */
export const NIGHTLY_JOBS: readonly string[] = NIGHTLY_TASKS.filter((job) => job !== LISTING_DAY_JOB && job !== ALERT_JOB);

export const JOB_SCHEDULE: JobSchedule = new Map<string, readonly string[]>([
  [BACKUP_JOB, [BACKUP_CRON]],
  // Issue 47: the RSVP sweep (offers, reminders) every 15 minutes; its cron only enqueues (jobs/rsvp.ts).
  [RSVP_SWEEP_JOB, [RSVP_CRON]],
  [LISTING_DAY_JOB, [LISTING_DAY_CRON, NIGHTLY_CRON]],
  ...NIGHTLY_JOBS.map((job): [string, readonly string[]] => [job, [NIGHTLY_CRON]]),
]);
