/**
 * The nightly owner-mail tasks of issue 20, kept apart from nightly.ts's list (one spread there):
 * "Kör ni quiz på {helgdag}?" 14 days ahead, and the freshness steps (30-day mail, 60-day warning,
 * 90-day hide). Both claim each step in the database before mailing, so a second run sends nothing.
 */
import type { JobCounts } from '../lib/jobs';
import type { Deps } from '../ports/deps';
import { runFreshnessJob } from '../features/freshness/service';
import { runHolidayAskJob } from '../features/holidays/service';

export function ownerMailTasks(deps: Deps): Array<[string, () => Promise<JobCounts>]> {
  return [
    ['holiday-ask', async () => ({ ...(await runHolidayAskJob(deps)) })],
    ['freshness', async () => ({ ...(await runFreshnessJob(deps)) })],
  ];
}
