/**
 * From a listing query to what is read and how: the selection rule and filters (resolveFilters), their
 * SQL form (seriesFilterOf) and the way a listing is read (readPlan). All dates are Stockholm dates
 * handed in by the caller.
 */
import type { Db } from '../../db/client';
import type { ListingContext } from '../../lib/listing-context';
import { boundingBox } from '../../lib/geo';
import { hasQuizFilters, type QuizFilters } from '../../lib/quiz-filters';
import { findWeekday } from '../../lib/swedish';
import { NEAR_RADIUS_DEFAULT, type ListingMapQuery, type ListingMode, type ListingQuery } from './contract';
import { daySeed } from './rank';
import { searchPlan } from './queries/search';
import { ownsHiddenBusiness } from './queries/walk';
import type { SeriesFilter } from './queries/where';

export interface ResolvedFilters {
  mode: ListingMode;
  city?: string | undefined;
  /** ISO weekday 1–7 (weekday mode). */
  weekdayIso?: number | undefined;
  date?: string | undefined;
  search?: string | undefined;
  /** Near mode: sort by distance from this position, within radiusKm; the city is then ignored. */
  near?: { lat: number; lng: number; radiusKm: number } | undefined;
  /** The quiz filters (issue 20): combine with every mode (and near) as an extra condition on the unit. */
  quiz: QuizFilters;
}

/** The quiz filters of a query (issue 20), without the undefined ones. */
export function quizFiltersOf(q: Partial<Pick<ListingQuery, 'price' | 'team' | 'category' | 'time' | 'sprak'>>): QuizFilters {
  const out: QuizFilters = {};
  if (q.price) out.price = q.price;
  if (q.team !== undefined) out.team = q.team;
  if (q.category) out.category = q.category;
  if (q.time) out.time = q.time;
  if (q.sprak) out.sprak = q.sprak;
  return out;
}

/**
 * Which selection rule applies (search → date → weekday → all). A past date counts as today. Near mode
 * (a position) combines with each of them and replaces the city filter.
 */
export function resolveFilters(
  q: Pick<ListingQuery, 'city' | 'weekday' | 'date' | 'search'> &
    Partial<Pick<ListingQuery, 'near' | 'radius' | 'price' | 'team' | 'category' | 'time' | 'sprak'>>,
  today: string,
): ResolvedFilters {
  const near = q.near ? { lat: q.near.lat, lng: q.near.lng, radiusKm: q.radius ?? NEAR_RADIUS_DEFAULT } : undefined;
  const city = near ? undefined : q.city || undefined;
  const quiz = quizFiltersOf(q);
  const base = near ? { city, near, quiz } : { city, quiz };
  if (q.search?.trim()) return { mode: 'search', ...base, search: q.search.trim() };
  if (q.date) return { mode: 'date', ...base, date: q.date < today ? today : q.date };
  const wd = q.weekday ? findWeekday(q.weekday) : undefined;
  if (wd) return { mode: 'weekday', ...base, weekdayIso: wd.iso };
  return { mode: 'all', ...base };
}

/** The SQL filter of a listing query: the one place the cards, the map and a marker's card get it from. */
export function seriesFilterOf(query: ListingMapQuery, ctx: ListingContext) {
  const f = resolveFilters(query, ctx.today);
  const filter: SeriesFilter = {
    today: ctx.today,
    city: f.city,
    date: f.date,
    weekdayW: f.weekdayIso === undefined ? undefined : f.weekdayIso % 7,
    search: f.search,
    quiz: f.quiz,
    viewerId: ctx.viewerId,
    houseEmail: ctx.houseEmail,
    seed: daySeed(ctx.today),
    ...(f.near ? { box: boundingBox(f.near, f.near.radiusKm), city: undefined } : {}),
  };
  return { f, filter };
}

/**
 * How a listing is read. `walk`: a page walked in index order (walkedPage; with free text the search
 * index in the listing's order), its total from listing_counts when the scope is one the counts keep
 * (Sweden or a city, all days or a weekday, no quiz filter, no date and no free text), else a lower bound
 * from the walk. `sorted`: a search of one or two characters without a letter — every match sorted and
 * counted in SQL. `ownHidden`: a signed-in owner who has a business that is not public — the public walk
 * merged with their own units (ownHiddenUnits, a handful).
 */
export async function readPlan(db: Db, f: ResolvedFilters, filter: SeriesFilter, ctx: ListingContext) {
  const hiddenOwner = !!ctx.viewerId && (await ownsHiddenBusiness(db, ctx.viewerId));
  const search = !!f.search && !f.near && searchPlan(f.search).kind !== 'scan';
  // A one- or two-character search without a letter scans: sorted in SQL, with the viewer's own units.
  const sorted = !search && !!f.search;
  // A signed-in owner of a business that is not public: the public walk merged with their own units.
  const ownHidden = hiddenOwner && !sorted;
  const counted = !search && !sorted && !f.date && !hasQuizFilters(f.quiz);
  // The kept count is read with the listing's state when it answers this listing (counted), or the
  // combined page's places (a city and a weekday, quiz filters or not).
  const wantsCount = counted || (!!f.city && !f.date && !sorted && !search && !f.near);
  return { sorted, ownHidden, counted, scope: wantsCount ? { city: f.city ?? '', wd: filter.weekdayW ?? -1 } : null };
}
