/**
 * The listing-day Workflow (wrangler.toml [[workflows]] LISTING_DAY_WORKFLOW, issue 30.8): started by a
 * listing read that found the stored state stale (listing-day.ts listingDayTrigger); one step runs the job.
 */
import { WorkflowEntrypoint, type WorkflowEvent, type WorkflowStep } from 'cloudflare:workers';
import { createDb } from '../../db/client';
import { parseConfig } from '../../env';
import { createClock } from '../../lib/clock';
import { listingContext } from '../../lib/listing-context';
import { runListingDayJob, type ListingDayParams } from './listing-day';

/** One step: the job for the asked day (a no-op when a cron or another instance got there first). */
export class ListingDayWorkflow extends WorkflowEntrypoint<Env, ListingDayParams> {
  override async run(event: WorkflowEvent<ListingDayParams>, step: WorkflowStep) {
    return step.do('advance', { retries: { limit: 3, delay: '10 seconds', backoff: 'exponential' }, timeout: '10 minutes' }, async () => {
      const config = parseConfig(this.env);
      const clock = createClock(config.clockNow);
      const result = await runListingDayJob(createDb(this.env.DB), clock, listingContext({ clock, config }, { today: event.payload.today }));
      return { today: result.today, advanced: result.advanced };
    });
  }
}
