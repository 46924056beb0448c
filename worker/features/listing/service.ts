/**
 * The public listing (spec 01 §4): one page of quizzes under the listing's filters, ranked (listQuizzes),
 * and the first pages at once (listPages). The rules it composes live beside it, one job a file:
 * filters.ts (query → filters and read plan), rank.ts (tiers, the day's rotation, pages), cards.ts,
 * near.ts (near mode), map.ts (the map), listing-day.ts (the listing's day and its job), places.ts
 * (cities, venue pages, sitemaps); SQL in queries/. All dates are Stockholm dates handed in by the caller.
 *
 * This file is also the feature's surface: other features import the listing only from here (and
 * contract.ts), so what they use is re-exported below (test/unit/boundaries.test.ts).
 */
import type { Db } from '../../db/client';
import type { ListingContext } from '../../lib/listing-context';
import { quizmasterRefsByKeys } from '../../lib/quizmaster-links';
import { LISTING_PAGE_SIZE, type ListingQuery, type ListingQuiz, type ListingResponse } from './contract';
import { cardsOf, promotionsAndUnits, toListingQuiz } from './cards';
import { readPlan, seriesFilterOf } from './filters';
import { readListingDay } from './listing-day';
import { listNear } from './near';
import { listByQuizmaster } from './quizmaster';
import { byRank, pagePlan, rankPromoted } from './rank';
import { countUnits, orderedPage, ownHiddenUnits, walkedPage } from './queries/walk';
import type { UnitRow } from './queries/where';

/** The listing's read context has its one home in worker/lib/listing-context.ts (built with `listingContext(...)`). */
export type { ListingContext, ListingDayWanted } from '../../lib/listing-context';

export { quizFiltersOf, resolveFilters } from './filters';
export { toListingQuiz } from './cards';
export { LISTING_DAY_JOB, listingDayTrigger, runListingDayJob } from './listing-day';
export { findPublicCity, findPublicVenueWithPlaces, pageCityOptions, publicCities, publicVenueQuizzes, sitemapSource } from './places';

/**
 * One page (12; `pageSize` only for listPages) of the listing plus the total count. Ranking (spec 01 §4): 1 Premium by date;
 * 2 Rekommenderat, 3 ordinary quizzes of real accounts, 4 the house account's (unclaimed) quizzes, each
 * of 2–4 in the day's order. A page reads its index entries and one listing_series row per card, and
 * the total one row of listing_counts: the cost follows the page, not the size of the catalogue.
 */
export async function listQuizzes(db: Db, query: ListingQuery, ctx: ListingContext, pageSize = LISTING_PAGE_SIZE): Promise<ListingResponse> {
  // Issue 48: one quizmaster's handful of series and single quizzes, read by key (quizmaster.ts).
  if (query.quizmaster) return listByQuizmaster(db, { ...query, quizmaster: query.quizmaster }, ctx, pageSize);
  const { f, filter } = seriesFilterOf(query, ctx);
  const page = query.page ?? 1;
  const seed = filter.seed;
  const how = await readPlan(db, f, filter, ctx);
  const state = await readListingDay(db, ctx, how.scope);
  if (f.near) return listNear(db, filter, f.near, f.mode, page, ctx.today, pageSize);
  const [counts, { promos, units: promotedRows }] = await Promise.all([
    how.sorted ? countUnits(db, filter) : Promise.resolve(null),
    promotionsAndUnits(db, filter),
  ]);
  const promoted = rankPromoted(promotedRows, promos, seed);
  const plan = pagePlan(page, promoted.length, pageSize);
  const exclude = promoted.map((p) => p.row.unitId);
  let read: UnitRow[] = [];
  let exact: number | null = counts ? counts.total : how.counted ? (state.units ?? 0) : null;
  if (plan.ordinaryLimit > 0) {
    // One more than the page when no count says whether there is more.
    const extra = exact === null ? 1 : 0;
    if (how.ownHidden) {
      const mine = (await ownHiddenUnits(db, filter, ctx.viewerId!)).filter((u) => !exclude.includes(u.unitId));
      const take = plan.ordinaryOffset + plan.ordinaryLimit + extra;
      const shown = await walkedPage(db, { ...filter, viewerId: null }, exclude, take, 0);
      read = [...shown, ...mine].sort(byRank(seed)).slice(plan.ordinaryOffset, take);
      if (exact !== null) exact += mine.length;
    } else {
      read = await (how.sorted ? orderedPage : walkedPage)(db, filter, exclude, plan.ordinaryLimit + extra, plan.ordinaryOffset);
    }
  }
  const ordinary = await cardsOf(db, filter, read.slice(0, Math.max(plan.ordinaryLimit, 0)));
  const rows = [
    ...promoted.slice(plan.promotedFrom, plan.promotedTo).map((p) => ({ row: p.row, tier: p.tier })),
    ...ordinary.map((row) => ({ row, tier: 'standard' as const })),
  ];
  const profiles = await quizmasterRefsByKeys(
    db,
    rows.map(({ row }) => row.rid ?? row.id),
  );
  const items = rows.map(({ row, tier }) => withProfile(toListingQuiz(row, tier), profiles.get(row.rid ?? row.id)));
  const more = read.length > plan.ordinaryLimit || plan.promotedTo < promoted.length;
  const total = exact ?? plan.start + items.length + (more ? 1 : 0);
  return {
    items,
    total,
    page,
    pageSize,
    hasMore: exact === null ? more : plan.start + items.length < exact,
    mode: f.mode,
    today: ctx.today,
    // The places of the city (× weekday) from listing_counts — without the quiz filters: the combined page's
    // intro card describes the city's evening, whatever the visitor filters below it.
    venueCount: !f.city ? null : counts ? counts.places : how.scope ? (state.places ?? 0) : null,
    ...(exact === null && more ? { totalAtLeast: true as const } : {}),
  };
}

/** A card with its quizmaster's profile (issue 48), when it has one. */
function withProfile(q: ListingQuiz, profile: { name: string; slug: string } | undefined): ListingQuiz {
  return profile ? { ...q, quizmasterProfile: profile } : q;
}

/**
 * The items of the first `maxPages` pages of a listing, in order (a feed or a digest of a saved search): read
 * as one page of `maxPages` × 12, so the walk reads each entry once — whether or not the listing's total is
 * exact (free text, a date and a quiz filter only give a lower bound).
 */
export async function listPages(db: Db, query: Omit<ListingQuery, 'page'>, ctx: ListingContext, maxPages: number): Promise<ListingQuiz[]> {
  return (await listQuizzes(db, { ...query, page: 1 }, ctx, maxPages * LISTING_PAGE_SIZE)).items;
}
