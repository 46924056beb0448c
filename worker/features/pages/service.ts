/**
 * Builds the data of each server-rendered public page from the listing service (no Hono here).
 * Pages always render the anonymous view (public businesses only): the HTML is shared and cached.
 */
import type { Db } from '../../db/client';
import { isoWeekday, stockholmDate } from '../../lib/clock';
import { WEEKDAYS, findWeekday } from '../../lib/swedish';
import { isTownSlug } from '../../lib/gazetteer';
import type { CityOption, ListingQuiz } from '../listing/contract';
import { LISTING_PAGE_SIZE, ListingQuerySchema, QuizFilterShape } from '../listing/contract';
import { rsvpFiguresOf } from '../rsvp/service';
import type { ListingContext } from '../../lib/listing-context';
import { profileSitemap, SITEMAP_PROFILES_PER_CHILD } from '../quizmasters/service';
import { lastWinner, leaguePages, resultPagesInRange, teamSitemapChild, teamSitemapChildren } from '../results/service';
import { findPublicCity, findPublicVenueWithPlaces, listQuizzes, pageCityOptions, publicCities, publicVenueQuizzes, sitemapSource } from '../listing/service';
import { QUIZ_FILTER_KEYS, type CombinedPageData, type ListingFilters, type ListingPageData, type VenuePageData, type WeekdayRef } from './contract';

/** A page's listing context (always anonymous: the HTML is shared and cached) and its map tiles. */
export interface PageCtx extends ListingContext {
  viewerId: null;
  /** MAP_TILE_URL, handed to the pages' lazy map. */
  mapTileUrl?: string | undefined;
}

export function weekdayRef(slugOrName: string): WeekdayRef | null {
  const w = findWeekday(slugOrName);
  return w ? { slug: w.slug, name: w.name, label: w.label } : null;
}

/** Reads the filter query of a page leniently: invalid values are ignored rather than failing the page. */
export function readFilterQuery(query: Record<string, string | undefined>): Partial<ListingFilters> {
  const out: Partial<ListingFilters> = {};
  for (const key of ['city', 'weekday', 'date', 'search'] as const) {
    const raw = query[key];
    if (raw === undefined || raw.trim() === '') continue;
    const r = ListingQuerySchema.shape[key].safeParse(raw);
    if (r.success && typeof r.data === 'string') out[key] = r.data;
  }
  if (out.weekday) {
    const w = findWeekday(out.weekday);
    out.weekday = w ? w.slug : 'all';
  }
  // Near mode (issue 15): kept as written when valid ("57.708,11.974"), ignored otherwise.
  if (query.near && ListingQuerySchema.shape.near.safeParse(query.near).success) {
    out.near = query.near.replace(/\s+/g, '');
    if (query.radius && ListingQuerySchema.shape.radius.safeParse(query.radius).success) out.radius = String(Number(query.radius));
  }
  return { ...out, ...readQuizFilterQuery(query).filters };
}

/**
 * The quiz filters of a page URL (issue 20), leniently: valid values in their URL form ('alla' and empty
 * mean none), and the Swedish labels of the invalid ones, which the page ignores and names in a notice.
 */
export function readQuizFilterQuery(query: Record<string, string | undefined>): { filters: Partial<ListingFilters>; ignored: string[] } {
  const filters: Partial<ListingFilters> = {};
  const ignored: string[] = [];
  for (const key of QUIZ_FILTER_KEYS) {
    const raw = query[key];
    if (raw === undefined) continue;
    const r = QuizFilterShape[key].safeParse(raw);
    if (!r.success) ignored.push(QuizFilterShape[key].description ?? key);
    else if (r.data !== undefined) filters[key] = String(r.data);
  }
  return { filters, ignored };
}

/**
 * A page's edge-cache key (issue 43.8): what the page reads from its query (readFilterQuery), so an invalid
 * value it ignores shares the entry of the page without it; an invalid quiz filter stands as one marker
 * (`!`) for every invalid value, as the page names it in its notice.
 */
export function pageEffectiveQuery(query: Record<string, string>): Record<string, string | undefined> {
  const out: Record<string, string | undefined> = { ...readFilterQuery(query) };
  for (const key of QUIZ_FILTER_KEYS) if (query[key] !== undefined && !QuizFilterShape[key].safeParse(query[key]).success) out[key] = '!';
  return out;
}

/** The quiz filters of page filters, as the listing query takes them. */
function quizQuery(f: ListingFilters) {
  return { price: f.price, team: f.team, category: f.category, time: f.time, sprak: f.sprak, quizmaster: f.quizmaster };
}

function quizPart(q: Partial<ListingFilters>): Partial<ListingFilters> {
  const out: Partial<ListingFilters> = {};
  for (const k of QUIZ_FILTER_KEYS) if (q[k]) out[k] = q[k];
  return out;
}

/**
 * Effective filters of a listing page: the URL query over the page's defaults (spec 01 §4: the main
 * listing defaults to today; the city page to every upcoming quiz; the weekday page to its day).
 */
export function pageFilters(
  variant: ListingPageData['variant'],
  q: Partial<ListingFilters>,
  ctx: PageCtx,
  locked: { city?: string; weekday?: string },
): ListingFilters {
  // Near mode lives on the main listing only (a city or weekday page is about its city or day).
  const near = (variant === 'home' || variant === 'legacy') && q.near ? { near: q.near, ...(q.radius ? { radius: q.radius } : {}) } : {};
  return { ...pageFiltersWithoutNear(variant, q, ctx, locked), ...near, ...quizPart(q) };
}

function pageFiltersWithoutNear(
  variant: ListingPageData['variant'],
  q: Partial<ListingFilters>,
  ctx: PageCtx,
  locked: { city?: string; weekday?: string },
): ListingFilters {
  const search = q.search ?? '';
  const city = locked.city ?? q.city ?? '';
  // A past date lists today's quizzes (listing service): the page then shows today too, not the past date
  // (issue 29.6). A weekday page drops it (its own day follows).
  const past = !!q.date && q.date < ctx.today;
  if (locked.weekday) return { city, weekday: locked.weekday, date: past ? '' : (q.date ?? ''), search };
  if (q.date) {
    const date = past ? ctx.today : q.date;
    return { city, weekday: WEEKDAYS[isoWeekday(date) - 1]!.slug, date, search };
  }
  if (q.weekday) return { city, weekday: q.weekday, date: '', search };
  if (variant === 'city' || search) return { city, weekday: 'all', date: '', search };
  return { city, weekday: WEEKDAYS[isoWeekday(ctx.today) - 1]!.slug, date: ctx.today, search };
}

/**
 * Issue 47: the RSVP figures (teams, tables left) of a page's first LISTING_PAGE_SIZE occurrences, for the cards and
 * the JSON-LD as of the render: one read keyed by their ids. The dialog reads fresh figures (decision 0019).
 */
async function withRsvpFigures(db: Db, items: ListingQuiz[]): Promise<ListingQuiz[]> {
  const figures = await rsvpFiguresOf({ db }, { quizIds: items.slice(0, LISTING_PAGE_SIZE).map((i) => i.id) });
  return items.map((i) => {
    const f = figures.get(i.id);
    return f ? { ...i, ...f } : i;
  });
}

export async function buildListingPage(
  db: Db,
  variant: ListingPageData['variant'],
  query: Record<string, string | undefined>,
  ctx: PageCtx,
  locked: { city?: CityOption; weekday?: WeekdayRef } = {},
): Promise<ListingPageData> {
  const q = readFilterQuery(query);
  const filters = pageFilters(variant, q, ctx, { city: locked.city?.slug, weekday: locked.weekday?.slug });
  const [result, { cities, complete: citiesComplete }] = await Promise.all([
    listQuizzes(
      db,
      ListingQuerySchema.parse({
        city: filters.city,
        weekday: filters.weekday,
        date: filters.date,
        search: filters.search,
        near: filters.near,
        radius: filters.radius,
        ...quizQuery(filters),
        page: 1,
      }),
      ctx,
    ),
    pageCityOptions(db, filters.city || undefined),
  ]);
  const { ignored } = readQuizFilterQuery(query);
  result.items = await withRsvpFigures(db, result.items);
  return {
    kind: 'listing',
    variant,
    today: ctx.today,
    filters,
    city: locked.city,
    weekday: locked.weekday,
    cities,
    ...(citiesComplete ? {} : { citiesComplete: false }),
    result,
    mapTileUrl: ctx.mapTileUrl,
    ...(ignored.length ? { ignoredFilters: ignored } : {}),
  };
}

/** The combined page: its city and weekday, plus the quiz filters of its URL (issue 20). */
export async function buildCombinedPage(
  db: Db,
  city: CityOption,
  weekday: WeekdayRef,
  ctx: PageCtx,
  query: Record<string, string | undefined> = {},
): Promise<CombinedPageData> {
  const { filters: quiz, ignored } = readQuizFilterQuery(query);
  const filters: ListingFilters = { city: city.slug, weekday: weekday.slug, date: '', search: '', ...quiz };
  const result = await listQuizzes(db, ListingQuerySchema.parse({ city: city.slug, weekday: weekday.slug, ...quizQuery(filters), page: 1 }), ctx);
  result.items = await withRsvpFigures(db, result.items);
  return {
    kind: 'combined',
    today: ctx.today,
    city,
    weekday,
    filters,
    result,
    mapTileUrl: ctx.mapTileUrl,
    ...(ignored.length ? { ignoredFilters: ignored } : {}),
  };
}

export { findPublicCity as findCity };

/** Upcoming occurrences read for a venue page (bounded; statistics count within this window). */
export const VENUE_UPCOMING_LIMIT = 400;

export async function buildVenuePage(db: Db, citySlug: string, venueSlug: string, ctx: PageCtx): Promise<VenuePageData | null> {
  const found = await findPublicVenueWithPlaces(db, venueSlug, ctx.houseEmail);
  if (!found) return null;
  const { venue } = found;
  const here = found.places.find((l) => l.citySlug === citySlug);
  if (!here) return null;
  const cards = await publicVenueQuizzes(db, found, ctx.today, VENUE_UPCOMING_LIMIT);
  const quizzes: ListingQuiz[] = await withRsvpFigures(
    db,
    cards.map((q) => ({ ...q, unclaimed: !!venue.house })),
  );
  const recurring = quizzes.filter((q) => q.isRecurring);
  const specials = quizzes.filter((q) => !q.isRecurring);
  const quizmasters = new Set(quizzes.map((q) => q.quizmaster?.trim().toLowerCase()).filter(Boolean));
  const winner = await lastWinner({ db }, venue.id);
  return {
    kind: 'venue',
    today: ctx.today,
    city: { slug: here.citySlug, name: here.city },
    venue: {
      id: venue.id,
      name: venue.name,
      slug: venue.slug,
      description: venue.description,
      address: venue.address ?? `${here.address}, ${here.city}`,
      phone: venue.phone ?? here.phone,
      website: venue.website ?? here.website,
      unclaimed: !!venue.house,
      position: here.latitude != null && here.longitude != null ? { lat: here.latitude, lng: here.longitude } : null,
      freshness: venue.house
        ? { confirmedOn: null, publicSources: true }
        : { confirmedOn: stockholmDate(new Date(venue.confirmedAt ?? venue.createdAt)), publicSources: false },
    },
    mapTileUrl: ctx.mapTileUrl,
    lastWinner: winner,
    recurring,
    specials,
    stats: {
      upcoming: quizzes.length,
      recurring: recurring.length,
      // Only a price of 0 is free: an unknown price (null) is not (issue 44.3).
      free: quizzes.filter((q) => q.price === 0).length,
      quizmasters: quizmasters.size,
    },
  };
}

// ---- Sitemaps at scale (issue 19 §4) ----

/**
 * Cities per "sidor" child: its city pages and city × weekday pages (≤ 8 URLs a city) plus, in the
 * first, the start page, /annonsera, the 7 weekday pages and up to SITEMAP_LEAGUES league pages — at most
 * 42 009 URLs, under the protocol's 50 000.
 */
export const SITEMAP_CITIES_PER_CHILD = 5_000;
/** League pages listed (in the first "sidor" child) at most. */
export const SITEMAP_LEAGUES = 2_000;
/** Venue rowids per "stallen" child: at most this many venue pages (and venues read) per child. */
export const SITEMAP_VENUES_PER_CHILD = 10_000;

export type SitemapKind = 'sidor' | 'stallen' | 'quizmasters' | 'lag';
export interface SitemapEntry {
  loc: string;
  /** YYYY-MM-DD, from the data. */
  lastmod?: string;
}

const day = (iso: string | null | undefined) => (iso && /^\d{4}-\d{2}-\d{2}/.test(iso) ? iso.slice(0, 10) : undefined);

/**
 * The sitemap index: one "sidor" child per SITEMAP_CITIES_PER_CHILD cities (from the city list,
 * memoized per data version) and one "stallen" child per SITEMAP_VENUES_PER_CHILD venue rowids (from
 * the table's highest rowid). Reads two rows; `lastmod` is when public data last changed.
 */
export async function sitemapIndex(db: Db, origin: string): Promise<SitemapEntry[]> {
  const [cities, ceiling, changedAt, teamChildren] = await Promise.all([
    publicCities(db),
    sitemapSource.venueRowidCeiling(db),
    sitemapSource.publicDataChangedAt(db),
    teamSitemapChildren({ db }),
  ]);
  const lastmod = day(changedAt);
  const out: SitemapEntry[] = [];
  const pages = Math.max(1, Math.ceil(cities.length / SITEMAP_CITIES_PER_CHILD));
  for (let n = 1; n <= pages; n++) out.push({ loc: `${origin}/sitemaps/sidor-${n}.xml`, lastmod });
  for (let n = 1; n <= Math.ceil(ceiling / SITEMAP_VENUES_PER_CHILD); n++) out.push({ loc: `${origin}/sitemaps/stallen-${n}.xml`, lastmod });
  const profiles = await profileSitemap.ceiling(db);
  for (let n = 1; n <= Math.ceil(profiles / SITEMAP_PROFILES_PER_CHILD); n++) out.push({ loc: `${origin}/sitemaps/quizmasters-${n}.xml`, lastmod });
  for (let n = 1; n <= teamChildren; n++) out.push({ loc: `${origin}/sitemaps/lag-${n}.xml`, lastmod });
  return out;
}

/**
 * One child sitemap, or null when `n` is out of range. "sidor" n: the cities of slice n with their
 * city × weekday pages that have upcoming public quizzes (a range of listing_series_city_rank_idx); the
 * first also the start page, /annonsera and the weekday pages. "stallen" n: the public venue pages of
 * venue rowids ((n-1)·N, n·N] (a primary-key range). Hidden businesses (not public, also hidden by the
 * freshness job) are never listed.
 */
export async function sitemapChild(db: Db, origin: string, kind: SitemapKind, n: number): Promise<SitemapEntry[] | null> {
  if (!Number.isSafeInteger(n) || n < 1) return null;
  if (kind === 'quizmasters') {
    if ((n - 1) * SITEMAP_PROFILES_PER_CHILD + 1 > (await profileSitemap.ceiling(db))) return null;
    return (await profileSitemap.range(db, n)).map((p) => ({ loc: `${origin}/quizmaster/${p.slug}`, lastmod: day(p.updatedAt) }));
  }
  if (kind === 'stallen') {
    const from = (n - 1) * SITEMAP_VENUES_PER_CHILD + 1;
    if (from > (await sitemapSource.venueRowidCeiling(db))) return null;
    const [venues, results] = await Promise.all([
      sitemapSource.venueRange(db, from, n * SITEMAP_VENUES_PER_CHILD),
      resultPagesInRange({ db }, from, n * SITEMAP_VENUES_PER_CHILD),
    ]);
    // A business whose place's city is not a known town has no canonical page URL to list (issue 43.6).
    return venues
      .filter((v) => isTownSlug(v.city))
      .flatMap((v) => {
        const page = { loc: `${origin}/quiz/${v.city}/${v.slug}`, lastmod: day(v.lastmod) };
        const changed = results.get(v.slug);
        return changed === undefined ? [page] : [page, { loc: `${page.loc}/resultat`, lastmod: day(changed) }];
      });
  }
  if (kind === 'lag') {
    const teams = await teamSitemapChild({ db }, n);
    return teams?.map((t) => ({ loc: `${origin}/lag/${t.slug}`, lastmod: day(t.lastmod) })) ?? null;
  }
  const cities = (await publicCities(db)).slice((n - 1) * SITEMAP_CITIES_PER_CHILD, n * SITEMAP_CITIES_PER_CHILD);
  if (n > 1 && !cities.length) return null;
  const out: SitemapEntry[] = [];
  if (n === 1) {
    out.push({ loc: `${origin}/` }, { loc: `${origin}/annonsera` });
    for (const w of WEEKDAYS) out.push({ loc: `${origin}/quiz/${w.slug}` });
    for (const l of await leaguePages({ db }, SITEMAP_LEAGUES)) out.push({ loc: `${origin}/liga/${l.slug}`, lastmod: day(l.lastmod) });
  }
  if (!cities.length) return out;
  const pairs = await sitemapSource.cityWeekdays(db, cities[0]!.slug, cities[cities.length - 1]!.slug);
  const days = new Map<string, number[]>();
  for (const p of pairs) days.set(p.city, [...(days.get(p.city) ?? []), p.w]);
  for (const c of cities) {
    out.push({ loc: `${origin}/quiz/${c.slug}` });
    // Monday first, as the weekday pages are ordered.
    for (const w of (days.get(c.slug) ?? []).sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7)))
      out.push({ loc: `${origin}/quiz/${c.slug}/${WEEKDAYS[(w + 6) % 7]!.slug}` });
  }
  return out;
}
