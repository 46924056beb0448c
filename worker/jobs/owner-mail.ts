/**
 * The nightly owner-mail tasks of issue 20, kept apart from nightly.ts's list (one spread there):
 * "Kör ni quiz på {helgdag}?" 14 days ahead, and the freshness steps (30-day mail, 60-day warning,
 * 90-day hide). Both claim each step in the database before mailing, so a second run sends nothing.
 */
import type { Db } from '../db/client';
import type { Config } from '../env';
import type { Clock } from '../lib/clock';
import type { JobCounts } from '../lib/jobs';
import { createMailer } from '../ports/mailer';
import { runFreshnessJob } from '../features/freshness/service';
import { runHolidayAskJob } from '../features/holidays/service';

export function ownerMailTasks(db: Db, config: Config, clock: Clock): Array<[string, () => Promise<JobCounts>]> {
  const deps = () => ({
    db,
    mailer: createMailer(db, { apiKey: config.mailApiKey, from: config.mailFrom }),
    now: clock.now(),
    today: clock.today(),
    appUrl: config.appUrl,
    linkSecret: config.linkSigningSecret,
    houseEmail: config.houseAccountEmail,
  });
  return [
    ['holiday-ask', async () => ({ ...(await runHolidayAskJob(deps())) })],
    ['freshness', async () => ({ ...(await runFreshnessJob(deps())) })],
  ];
}
