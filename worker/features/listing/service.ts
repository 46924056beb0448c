/**
 * The public listing (spec 01 §4): filters, recurring-series selection, visibility and ranking.
 * Pure rules live here; SQL in queries.ts. All dates are Stockholm dates handed in by the caller.
 */
import type { Db } from '../../db/client';
import { memoPerDataVersion } from '../../lib/data-version';
import { boundingBox, formatDistance, haversineKm } from '../../lib/geo';
import type { QuizFilters } from '../../lib/quiz-filters';
import { categoryLabel, findWeekday } from '../../lib/swedish';
import { LISTING_PAGE_SIZE, NEAR_RADIUS_DEFAULT, type CityOption, type ListingMode, type ListingQuery, type ListingQuiz, type ListingResponse, type ListingTier } from './contract';
import {
  activePromotions,
  countUnits,
  findCity,
  findPublicVenue,
  listCities,
  listedUnits,
  nearCandidates,
  publicDataChangedAt,
  sitemapCityMasks,
  sitemapVenueRange,
  venueRowidCeiling,
  venueLocations,
  venueUpcoming,
  type ActivePromotionRow,
  type DetailRow,
  type ListedRow,
  type SeriesFilter,
} from './queries';

export interface ListingContext {
  today: string;
  /** Signed-in user: also sees their own non-public businesses. */
  viewerId: string | null;
  houseEmail: string;
}

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
export function quizFiltersOf(q: Partial<Pick<ListingQuery, 'price' | 'team' | 'category' | 'time'>>): QuizFilters {
  const out: QuizFilters = {};
  if (q.price) out.price = q.price;
  if (q.team !== undefined) out.team = q.team;
  if (q.category) out.category = q.category;
  if (q.time) out.time = q.time;
  return out;
}

/**
 * Which selection rule applies (search → date → weekday → all). A past date counts as today. Near mode
 * (a position) combines with each of them and replaces the city filter.
 */
export function resolveFilters(
  q: Pick<ListingQuery, 'city' | 'weekday' | 'date' | 'search'> & Partial<Pick<ListingQuery, 'near' | 'radius' | 'price' | 'team' | 'category' | 'time'>>,
  today: string,
): ResolvedFilters {
  const near = q.near ? { lat: q.near.lat, lng: q.near.lng, radiusKm: q.radius ?? NEAR_RADIUS_DEFAULT } : undefined;
  const city = near ? undefined : q.city || undefined;
  const quiz = quizFiltersOf(q);
  const base = near ? { city, near, quiz } : { city, quiz };
  if (q.search && q.search.trim()) return { mode: 'search', ...base, search: q.search.trim() };
  if (q.date) return { mode: 'date', ...base, date: q.date < today ? today : q.date };
  const wd = q.weekday ? findWeekday(q.weekday) : undefined;
  if (wd) return { mode: 'weekday', ...base, weekdayIso: wd.iso };
  return { mode: 'all', ...base };
}

/** The promotion tier of one listed occurrence: the promotion's quiz or its series, on that date. */
export function tierOf(row: { id: string; rid: string | null; date: string }, promos: ActivePromotionRow[]): ListingTier {
  let tier: ListingTier = 'standard';
  for (const p of promos) {
    if (row.date < p.startDate || row.date > p.endDate) continue;
    if (p.quizId !== row.id && !(row.rid && p.rid === row.rid)) continue;
    if (p.productType === 'premium') return 'premium';
    tier = 'recommended';
  }
  return tier;
}

/** FNV-1a 32-bit of `seed:id`. */
function dayHash(seed: string, id: string): number {
  let h = 0x811c9dc5;
  const s = `${seed}:${id}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The seed of one Stockholm day's shuffle (31 bits): the same on every page, cache and isolate. */
export function daySeed(today: string): number {
  return dayHash('quizkvall-shuffle', today) & 0x7fffffff;
}

/** The daily shuffle key of a unit: mirrors shuffleSql() in queries.ts exactly. */
export function shuffleKey(shuffle: number, seed: number): number {
  return (((shuffle ^ seed) >>> 0) * 48271) % 2147483647;
}

export interface PromotedItem {
  row: ListedRow;
  tier: Exclude<ListingTier, 'standard'>;
}

/**
 * The promotion tiers (spec 01 §4): 1 Premium by date and time; 2 Rekommenderat in the daily shuffle.
 * A unit whose promotion does not cover its listed date is not here: it ranks as an ordinary quiz.
 */
export function rankPromoted(rows: ListedRow[], promos: ActivePromotionRow[], seed: number): PromotedItem[] {
  const out: PromotedItem[] = [];
  for (const row of rows) {
    const tier = tierOf({ id: row.id, rid: row.rid, date: row.date }, promos);
    if (tier !== 'standard') out.push({ row, tier });
  }
  return out.sort((a, b) => {
    if (a.tier !== b.tier) return a.tier === 'premium' ? -1 : 1;
    if (a.tier === 'premium') {
      if (a.row.date !== b.row.date) return a.row.date < b.row.date ? -1 : 1;
      const at = a.row.startTime ?? '19:00:00';
      const bt = b.row.startTime ?? '19:00:00';
      if (at !== bt) return at < bt ? -1 : 1;
    } else {
      const d = shuffleKey(a.row.shuffle, seed) - shuffleKey(b.row.shuffle, seed);
      if (d !== 0) return d;
    }
    return a.row.unitId - b.row.unitId;
  });
}

/**
 * Where page `page` falls in the ranking [promoted tiers …, ordinary …]: which promoted items it
 * shows, and the offset and count it needs from the ordinary ranking (tiers 3 and 4, read in SQL).
 */
export function pagePlan(page: number, promotedCount: number, pageSize = LISTING_PAGE_SIZE) {
  const start = (page - 1) * pageSize;
  const promotedFrom = Math.min(start, promotedCount);
  const promotedTo = Math.min(start + pageSize, promotedCount);
  return {
    start,
    promotedFrom,
    promotedTo,
    ordinaryOffset: Math.max(0, start - promotedCount),
    ordinaryLimit: pageSize - (promotedTo - promotedFrom),
  };
}

export function toListingQuiz(d: DetailRow & { unitLat?: number | null; unitLng?: number | null }, tier: ListingTier): ListingQuiz {
  const lat = d.unitLat ?? d.lLat;
  const lng = d.unitLng ?? d.lLng;
  return {
    ...(lat != null && lng != null ? { position: { lat, lng } } : {}),
    id: d.id,
    date: d.date,
    startTime: d.startTime,
    title: d.title,
    description: d.description,
    category: d.category,
    categoryLabel: categoryLabel(d.category, d.theme),
    theme: d.theme,
    quizmaster: d.quizmaster,
    teamSize: d.teamSize,
    price: d.price,
    isRecurring: !!d.isRecurring,
    recurrencePattern: d.recurrencePattern,
    isCancelled: !!d.isCancelled,
    tier,
    unclaimed: !!d.house,
    location: {
      id: d.lId,
      name: d.lName,
      address: d.lAddress,
      city: d.lCity,
      citySlug: d.lCitySlug,
      phone: d.lPhone,
      website: d.lWebsite,
      latitude: d.lLat,
      longitude: d.lLng,
    },
    venue: { id: d.vId, name: d.vName, slug: d.vSlug, description: d.vDescription, website: d.vWebsite },
  };
}

/**
 * One page (12) of the listing plus the total count. Ranking (spec 01 §4): 1 Premium by date;
 * 2 Rekommenderat, 3 ordinary quizzes of real accounts, 4 the house account's (unclaimed) quizzes, each
 * of 2–4 in the daily shuffle. Everything is read from listing_series (one row per series or single
 * quiz) so the cost follows the page, not the size of the catalogue.
 */
export async function listQuizzes(db: Db, query: ListingQuery, ctx: ListingContext): Promise<ListingResponse> {
  const f = resolveFilters(query, ctx.today);
  const page = query.page ?? 1;
  const seed = daySeed(ctx.today);
  const filter: SeriesFilter = {
    today: ctx.today,
    city: f.city,
    date: f.date,
    weekdayW: f.weekdayIso === undefined ? undefined : f.weekdayIso % 7,
    search: f.search,
    quiz: f.quiz,
    viewerId: ctx.viewerId,
    houseEmail: ctx.houseEmail,
    seed,
  };
  if (f.near) return listNear(db, filter, f.near, f.mode, page, ctx.today);
  const [counts, promos, promotedRows] = await Promise.all([
    countUnits(db, filter),
    activePromotions(db, ctx.today),
    listedUnits(db, filter, { promoted: true }),
  ]);
  const promoted = rankPromoted(promotedRows, promos, seed);
  const plan = pagePlan(page, promoted.length);
  const ordinary =
    plan.ordinaryLimit > 0
      ? await listedUnits(db, filter, { promoted: false, exclude: promoted.map((p) => p.row.unitId), limit: plan.ordinaryLimit, offset: plan.ordinaryOffset })
      : [];
  const items = [
    ...promoted.slice(plan.promotedFrom, plan.promotedTo).map((p) => toListingQuiz(p.row, p.tier)),
    ...ordinary.map((r) => toListingQuiz(r, 'standard')),
  ];
  return {
    items,
    total: counts.total,
    page,
    pageSize: LISTING_PAGE_SIZE,
    hasMore: plan.start + items.length < counts.total,
    mode: f.mode,
    today: ctx.today,
    venueCount: counts.places,
  };
}

/**
 * Near mode: the promoted tiers (within the radius) first, as everywhere, then every other unit by
 * distance (nearest first; the house account is not put last: distance is what was asked). Candidates
 * come from the bounding box (geo index); the exact great-circle distance is computed here for those
 * candidates only, and only the page's ≤ 12 units are read in full.
 */
async function listNear(db: Db, filter: SeriesFilter, near: NonNullable<ResolvedFilters['near']>, mode: ListingMode, page: number, today: string): Promise<ListingResponse> {
  const box = { ...filter, box: boundingBox(near, near.radiusKm), city: undefined };
  const [candidates, promos, promotedRows] = await Promise.all([
    nearCandidates(db, box),
    activePromotions(db, today),
    listedUnits(db, box, { promoted: true }),
  ]);
  const distance = new Map<number, number>();
  const places = new Set<string>();
  for (const c of candidates) {
    const d = haversineKm(near, c);
    if (d > near.radiusKm) continue;
    distance.set(c.uid, d);
    places.add(c.lid);
  }
  const promoted = rankPromoted(promotedRows.filter((r) => distance.has(r.unitId)), promos, filter.seed);
  const promotedIds = new Set(promoted.map((p) => p.row.unitId));
  const ordinaryIds = [...distance.entries()]
    .filter(([id]) => !promotedIds.has(id))
    .sort((a, b) => a[1] - b[1] || a[0] - b[0])
    .map(([id]) => id);
  const plan = pagePlan(page, promoted.length);
  const pageIds = ordinaryIds.slice(plan.ordinaryOffset, plan.ordinaryOffset + plan.ordinaryLimit);
  const rows = pageIds.length ? await listedUnits(db, box, { ids: pageIds }) : [];
  const byId = new Map(rows.map((r) => [r.unitId, r]));
  const withDistance = (q: ListingQuiz, unitId: number): ListingQuiz => {
    const km = distance.get(unitId)!;
    return { ...q, distanceKm: Math.round(km * 1000) / 1000, distance: formatDistance(km) };
  };
  const items = [
    ...promoted.slice(plan.promotedFrom, plan.promotedTo).map((p) => withDistance(toListingQuiz(p.row, p.tier), p.row.unitId)),
    ...pageIds.flatMap((id) => {
      const r = byId.get(id);
      return r ? [withDistance(toListingQuiz(r, 'standard'), id)] : [];
    }),
  ];
  return {
    items,
    total: distance.size,
    page,
    pageSize: LISTING_PAGE_SIZE,
    hasMore: plan.start + items.length < distance.size,
    mode,
    today,
    venueCount: places.size,
    near,
  };
}

const citiesOfVersion = memoPerDataVersion(listCities);

/**
 * The public city list (`listCities`), read from D1 once per public-data version in this isolate rather
 * than on every request: it changes only with a write that bumps the version. A fresh array each call
 * (the memoized one is shared). Used by GET /api/listing/cities, the listing pages and the sitemap.
 */
export async function publicCities(db: Db): Promise<CityOption[]> {
  return [...(await citiesOfVersion(db))];
}

// ---- Public reads for the server-rendered pages (other features may import only this file). ----

/** A city with a public business, by slug (its name as written in the data), or null. */
export function findPublicCity(db: Db, slug: string): Promise<{ slug: string; name: string } | null> {
  return findCity(db, slug);
}

/** A public business by slug (`house` = owned by the house account) with its places, or null. */
export async function findPublicVenueWithPlaces(db: Db, slug: string, houseEmail: string) {
  const venue = await findPublicVenue(db, slug, houseEmail);
  return venue ? { venue, places: await venueLocations(db, venue.id) } : null;
}

/** Upcoming occurrences of one business from `today`, soonest first, at most `limit`, as standard-tier cards. */
export async function publicVenueQuizzes(db: Db, venueId: string, today: string, limit: number): Promise<ListingQuiz[]> {
  return (await venueUpcoming(db, venueId, today, limit)).map((r) => toListingQuiz(r, 'standard'));
}

/**
 * Sitemaps at scale (issue 19 §4). Child sitemaps are slices the index can name without reading the
 * catalogue: pages by slices of the (memoized) city list, venues by rowid ranges of the venues table.
 */
export const sitemapSource = {
  /** City × weekday pairs of live public units in the city slug range, as (city, %w weekday). */
  async cityWeekdays(db: Db, fromCity: string, toCity: string, today: string): Promise<Array<{ city: string; w: number }>> {
    const seen = new Set<string>();
    const out: Array<{ city: string; w: number }> = [];
    for (const { city, m } of await sitemapCityMasks(db, fromCity, toCity, today)) {
      for (let w = 0; w < 7; w++) {
        if (!(m & (1 << w)) || seen.has(`${city}/${w}`)) continue;
        seen.add(`${city}/${w}`);
        out.push({ city, w });
      }
    }
    return out;
  },
  venueRowidCeiling,
  venueRange: sitemapVenueRange,
  publicDataChangedAt,
};
