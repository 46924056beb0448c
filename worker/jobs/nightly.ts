/**
 * The nightly Cron Trigger (wrangler.toml [triggers]). It holds no rules of its own: it calls the same
 * services the API uses, each recorded in job_runs by that service.
 */
import { createDb } from '../db/client';
import { parseConfig } from '../env';
import { createClock } from '../lib/clock';
import { releaseExpiredHolds } from '../features/payments/service';
import { deleteExpiredEmailTokens } from '../features/auth/queries';
import { deleteStaleRateLimits } from '../lib/rate-limit';
import { deleteExpiredSessions } from '../lib/session';
import { runSeriesExtensionJob } from '../features/series/service';
import { ownerMailTasks } from './owner-mail';

export async function runNightly(env: Env, scheduledAt: Date): Promise<void> {
  const config = parseConfig(env);
  const db = createDb(env.DB);
  const clock = createClock(config.clockNow ?? scheduledAt.toISOString());
  const now = clock.now();
  // Each task is independent: one failing must not stop the others.
  const tasks: Array<[string, () => Promise<unknown>]> = [
    ['sessions', () => deleteExpiredSessions(db, now)],
    ['rate-limits', () => deleteStaleRateLimits(db, now)],
    ['email-tokens', () => deleteExpiredEmailTokens(db, now)],
    // Holds of checkouts that expired unpaid (backstop for a missed checkout.session.expired event).
    ['promotion-holds', () => releaseExpiredHolds(db, now, 50)],
    // Open-ended series kept 180 days ahead; chunked, idempotent, resumable, recorded in job_runs.
    ['series-extension', () => runSeriesExtensionJob(db, now)],
    // Issue 20: "Kör ni quiz på {helgdag}?" and freshness (worker/jobs/owner-mail.ts).
    ...ownerMailTasks(db, config, clock),
  ];
  for (const [name, task] of tasks) {
    try {
      await task();
    } catch (err) {
      console.error(`nightly task ${name} failed`, err);
    }
  }
}
