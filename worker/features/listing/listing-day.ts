/**
 * The listing's day (issue 30.8): whether the stored listing columns are behind the day a read asks for,
 * the request path that only reads them (readListingDay), and the listing-day job that advances them
 * (ensureListingDay, runListingDayJob) with the trigger that starts its Workflow from a stale read.
 */
import type { Db } from '../../db/client';
import { bumpDataVersion } from '../../lib/data-version';
import type { Clock } from '../../lib/clock';
import type { ListingContext, ListingDayWanted } from '../../lib/listing-context';
import { recordJob } from '../../lib/jobs';
import { advanceListingDay, stateAndCount, type ListingState } from './queries/listing-day';

/**
 * The listing day a context asks for: `ctx.today`, or the stored day when the clock is behind it and may
 * not go back (production: a request that read the clock just before midnight, after the job moved on).
 */
function wantedDay(stored: string, ctx: Pick<ListingContext, 'today' | 'rewind'>): string {
  return ctx.today < stored && !ctx.rewind ? stored : ctx.today;
}

/** Whether the stored listing state is behind what `ctx` asks for (another day or house account). */
export function listingIsStale(state: Pick<ListingState, 'today' | 'houseEmail'>, ctx: Pick<ListingContext, 'today' | 'houseEmail' | 'rewind'>): boolean {
  return state.today !== wantedDay(state.today, ctx) || state.houseEmail !== ctx.houseEmail;
}

/**
 * The request path (issue 30.8): the stored listing state read together with the listed count of one scope
 * (listing_counts), never advanced here. When it is stale, `ctx.onStale` starts the listing-day job, and the
 * stored columns are served meanwhile: units keep yesterday's tier, masks and counts, while the filters,
 * the day's rotation and each card's occurrence use `ctx.today` (cardsOf reads the occurrence when the
 * stored one has passed).
 */
export async function readListingDay(
  db: Db,
  ctx: Pick<ListingContext, 'today' | 'houseEmail' | 'rewind' | 'onStale'>,
  scope: { city: string; wd: number } | null = { city: '', wd: -1 },
) {
  const state = await stateAndCount(db, scope);
  if (listingIsStale(state, ctx)) ctx.onStale?.({ today: wantedDay(state.today, ctx), houseEmail: ctx.houseEmail });
  return state;
}

/**
 * The listing-day job's work (never a request's): bring the stored listing columns to `ctx.today` and the
 * house account (listing_state; advanceListingDay when either changed — the 00:05 cron, the nightly run and
 * the Workflow a stale request starts do it), then read the state with the listed count of one scope.
 */
export async function ensureListingDay(
  db: Db,
  ctx: Pick<ListingContext, 'today' | 'houseEmail' | 'rewind'>,
  scope: { city: string; wd: number } | null = { city: '', wd: -1 },
) {
  let state = await stateAndCount(db, scope);
  if (listingIsStale(state, ctx)) {
    await advanceListingDay(db, state, wantedDay(state.today, ctx), ctx.houseEmail);
    state = await stateAndCount(db, scope);
  }
  return state;
}

// ---------------------------------------------------------------- the listing-day job (issue 30.8)
/*
 * The listing-day job (issue 30.8): bringing the stored listing columns to a new Stockholm day or house
 * account (advanceListingDay) costs about 0.8 s of D1 time a day at 1 000 000 quiz rows, and far more
 * when every unit of the house account is re-keyed (24.2 s in the first request after a seed). So no
 * request does it. It runs in the 00:05 cron and the nightly run (worker/jobs/nightly.ts), and in
 * `ListingDayWorkflow` (day-workflow.ts), which a listing read that finds the state stale starts through
 * `listingDayTrigger` — without waiting: the read serves the stored order meanwhile. Every run writes a
 * `job_runs` row of job `listing-day`.
 */

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
export function listingDayTrigger(
  env: Pick<Env, 'LISTING_DAY_WORKFLOW'>,
  executionCtx: () => Pick<ExecutionContext, 'waitUntil'>,
): NonNullable<ListingContext['onStale']> {
  return (want) => {
    const id = listingDayInstanceId(want);
    if (asked.has(id)) return;
    asked.add(id);
    executionCtx().waitUntil(
      env.LISTING_DAY_WORKFLOW.create({ id, params: { today: want.today } }).then(
        () => undefined,
        async (err: unknown) => {
          // Already started (by another isolate, or before this isolate forgot): nothing to do.
          const exists = await env.LISTING_DAY_WORKFLOW.get(id).then(
            () => true,
            () => false,
          );
          if (exists) return;
          asked.delete(id);
          console.error(`listing-day: could not start workflow ${id}`, err);
        },
      ),
    );
  };
}
