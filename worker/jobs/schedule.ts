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
import type { JobSchedule } from '../features/ops/contract';
import { LISTING_DAY_CRON, NIGHTLY_CRON } from './nightly';

/** The tasks of the nightly cron, as recorded in job_runs (listing-day has its own crons as well). */
export const NIGHTLY_JOBS: readonly string[] = [
  'sessions',
  'rate-limits',
  'analytics-seen',
  'email-tokens',
  'mail-outbox',
  'promotion-holds',
  SERIES_JOB,
  CALENDAR_SYNC_JOB,
  'mail-redeliver',
  'holiday-ask',
  'freshness',
];

export const JOB_SCHEDULE: JobSchedule = new Map<string, readonly string[]>([
  [BACKUP_JOB, [BACKUP_CRON]],
  [LISTING_DAY_JOB, [LISTING_DAY_CRON, NIGHTLY_CRON]],
  ...NIGHTLY_JOBS.map((job): [string, readonly string[]] => [job, [NIGHTLY_CRON]]),
]);
