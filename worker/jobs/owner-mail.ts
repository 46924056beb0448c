/**
 * The nightly owner-mail tasks of issue 20, kept apart from nightly.ts's list (one spread there):
 * "Kör ni quiz på {helgdag}?" 14 days ahead, and the freshness steps (30-day mail, 60-day warning,
 * 90-day hide). Both claim each step in the database and write its mail to the outbox in the same batch
 * (issue 27.3), so a second run sends nothing and a claimed step never loses its mail; the mail queue
 * delivers with retries, and `mail-redeliver` sweeps what the queue did not take.
 */
import type { JobCounts } from '../lib/jobs';
import type { Deps } from '../ports/deps';
import { redeliverOutbox, type OutboxQueue } from '../ports/mailer';
import { FRESHNESS_MAIL_KEY, runFreshnessJob } from '../features/freshness/service';
import { HOLIDAY_MAIL_KEY, runHolidayAskJob } from '../features/holidays/service';
import { REPORT_MAIL_KEY } from '../features/feedback/contract';
import { TAKEOVER_MAIL_KEYS } from '../features/takeover/service';

/** Send-key prefixes of the mail written with a claim (Mailer.outbox): the ones `mail-redeliver` sweeps. */
export const CLAIMED_MAIL_KEYS = [FRESHNESS_MAIL_KEY, HOLIDAY_MAIL_KEY, REPORT_MAIL_KEY, ...TAKEOVER_MAIL_KEYS] as const;

export function ownerMailTasks(deps: Deps, queue: OutboxQueue): Array<[string, () => Promise<JobCounts>]> {
  return [
    // First: what an earlier run (or request) wrote but the queue did not deliver goes out again.
    ['mail-redeliver', async () => ({ enqueued: await redeliverOutbox(deps.db, queue, CLAIMED_MAIL_KEYS) })],
    ['holiday-ask', async () => ({ ...(await runHolidayAskJob(deps, { queue })) })],
    ['freshness', async () => ({ ...(await runFreshnessJob(deps, { queue })) })],
  ];
}
