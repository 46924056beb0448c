/**
 * The listing-day job (issue 30.8): bringing the stored listing columns to a new Stockholm day or house
 * account (advanceListingDay) costs about 0.8 s of D1 time a day at 1 000 000 quiz rows, and far more
 * when every unit of the house account is re-keyed (24.2 s in the first request after a seed). So no
 * request does it. It runs in the 00:05 cron and the nightly run (worker/jobs/nightly.ts), and in
 * `ListingDayWorkflow` (day-workflow.ts), which a listing read that finds the state stale starts through
 * `listingDayTrigger` — without waiting: the read serves the stored order meanwhile. Every run writes a
 * `job_runs` row of job `listing-day`.
 */
import type { Db } from '../../db/client';
import { bumpDataVersion } from '../../lib/data-version';
import type { Clock } from '../../lib/clock';
import { recordJob } from '../../lib/jobs';
import { stateAndCount } from './queries';
import { ensureListingDay, listingIsStale, type ListingContext, type ListingDayWanted } from './service';

/** The job_runs name of every listing-day run (cron, nightly, Workflow). */
export const LISTING_DAY_JOB = 'listing-day';

/**
 * One run: advance when stale (then bump the public-data version, so pages the edge cached from the stale
 * columns are not served again), recorded in job_runs. `advanced: false` when another run got there first.
 */
export async function runListingDayJob(db: Db, clock: Clock, ctx: Pick<ListingContext, 'today' | 'houseEmail' | 'rewind'>) {
  return recordJob(db, clock, LISTING_DAY_JOB, async () => {
    const before = await stateAndCount(db, null);
    const stale = listingIsStale(before, ctx);
    const state = await ensureListingDay(db, ctx);
    if (stale) await bumpDataVersion(db);
    return { today: state.today, from: before.today, advanced: stale, units: state.units ?? 0 };
  });
}

export interface ListingDayParams {
  /** The Stockholm day the stale read asked for (never before the stored one outside tests). */
  today: string;
}

/** FNV-1a 32-bit, base 36: the house account in an instance id (ids allow [A-Za-z0-9_-] only). */
function shortHash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(36);
}

/** One Workflow instance per asked day and house account: a second create with the same id is refused. */
export function listingDayInstanceId(want: ListingDayWanted): string {
  return `${LISTING_DAY_JOB}-${want.today}-${shortHash(want.houseEmail)}`;
}

/** Instance ids this isolate has asked for (or is asking for), so its next stale reads ask nobody. */
const asked = new Set<string>();

/**
 * `ListingContext.onStale` for a request (`executionCtx`: Hono's `() => c.executionCtx`): starts the listing-day Workflow for the asked day through
 * `waitUntil` — the response never waits for it — once per isolate; across isolates the instance id
 * de-duplicates (a refused create for an existing instance is expected). A failed start is logged and
 * forgotten, so a later stale read asks again (and the 00:05 and nightly crons advance regardless).
 */
export function listingDayTrigger(env: Pick<Env, 'LISTING_DAY_WORKFLOW'>, executionCtx: () => Pick<ExecutionContext, 'waitUntil'>): NonNullable<ListingContext['onStale']> {
  return (want) => {
    const id = listingDayInstanceId(want);
    if (asked.has(id)) return;
    asked.add(id);
    executionCtx().waitUntil(
      env.LISTING_DAY_WORKFLOW.create({ id, params: { today: want.today } }).then(
        () => undefined,
        async (err: unknown) => {
          // Already started (by another isolate, or before this isolate forgot): nothing to do.
          const exists = await env.LISTING_DAY_WORKFLOW.get(id).then(() => true, () => false);
          if (exists) return;
          asked.delete(id);
          console.error(`listing-day: could not start workflow ${id}`, err);
        },
      ),
    );
  };
}
