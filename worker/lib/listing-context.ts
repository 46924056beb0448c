/**
 * The one home of the listing's read context (issue 28.7): who reads, which day, and what to do when the
 * stored listing is behind. Every reader of the listing (API, pages, feeds, share cards, jobs) builds it
 * with `listingContext(...)` from its clock and config, so "today", the house account and the test rewind
 * come from one place.
 */
import type { Clock } from './clock';

/** The day and house account a stale listing should be brought to (ListingContext.onStale). */
export interface ListingDayWanted {
  today: string;
  houseEmail: string;
}

export interface ListingContext {
  today: string;
  /**
   * The clock may go back (tests pin it): then every unit is refreshed for the earlier day. Without it a
   * day behind the stored one is served from the stored columns — in production that is a request that read
   * the clock just before midnight and finds the day already moved on, which must not undo it.
   */
  rewind?: boolean | undefined;
  /** Signed-in user: also sees their own non-public businesses. */
  viewerId: string | null;
  houseEmail: string;
  /**
   * Told (at most once per read) when the stored listing is behind `today` or the house account: a request
   * passes `listingDayTrigger` (listing/listing-day.ts), which starts the listing-day Workflow without waiting
   * for it (issue 30.8). The read itself never advances the listing; it serves the stored columns.
   */
  onStale?: ((want: ListingDayWanted) => void) | undefined;
}

/** What a listing context is built from: the clock's today, the house account and whether the clock may go back (tests). */
export interface ListingContextSource {
  clock: Pick<Clock, 'today'>;
  config: { houseAccountEmail: string; isTest: boolean };
}

/** The listing context of a reader: anonymous unless `viewerId`; `today` overrides the clock's (a job for an asked day). */
export function listingContext(
  src: ListingContextSource,
  opts: { viewerId?: string | null; onStale?: ListingContext['onStale']; today?: string } = {},
): ListingContext {
  return {
    today: opts.today ?? src.clock.today(),
    viewerId: opts.viewerId ?? null,
    houseEmail: src.config.houseAccountEmail,
    rewind: src.config.isTest,
    ...(opts.onStale ? { onStale: opts.onStale } : {}),
  };
}
