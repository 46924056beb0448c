/**
 * The public listing (spec 01 §4): filters, recurring-series selection, visibility and ranking.
 * Pure rules live here; SQL in queries.ts. All dates are Stockholm dates handed in by the caller.
 */
import type { Db } from '../../db/client';
import { bumpDataVersion, memoPerDataVersion, memoPerDataVersionByKey } from '../../lib/data-version';
import type { Clock } from '../../lib/clock';
import type { ListingContext, ListingDayWanted } from '../../lib/listing-context';
import { recordJob } from '../../lib/jobs';
import { boundingBox, formatDistance, haversineKm, latitudeArcKm } from '../../lib/geo';
import { hasQuizFilters, isQuizLanguage, type QuizFilters } from '../../lib/quiz-filters';
import { categoryLabel, findWeekday } from '../../lib/swedish';
import { LISTING_PAGE_SIZE, MAP_POINTS_MAX, NEAR_RADIUS_DEFAULT, type CityOption, type ListingMapQuery, type ListingMapResponse, type ListingMode, type ListingQuery, type ListingQuiz, type ListingResponse, type ListingTier } from './contract';
import { isoWeekday } from '../../lib/clock';
import { countUnits, orderedPage, ownHiddenUnits, ownsHiddenBusiness, walkedPage } from './queries/walk';
import { searchPlan } from './queries/search';
import { rotationKey, type SeriesFilter, type UnitRow } from './queries/where';
import { occurrenceQuizzes, quizzesById, unitLabels, unitsById, type DetailRow, type ListedRow, type OccurrenceRow } from './queries/cards';
import { activePromotions, promotionsWithUnits, type ActivePromotionRow } from './queries/promotions';
import { nearCandidates, type NearCandidate } from './queries/near';
import { advanceListingDay, stateAndCount, type ListingState } from './queries/listing-day';
import { findCity, findPublicVenue, listCities, placeDateQuizzes, publicDataChangedAt, sitemapCityMasks, sitemapVenueRange, topCitySlugs, venueLocations, venueRowidCeiling, venueUpcoming } from './queries/places';

/** The listing's read context has its one home in worker/lib/listing-context.ts (built with `listingContext(...)`). */
export type { ListingContext, ListingDayWanted } from '../../lib/listing-context';

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
  q: Pick<ListingQuery, 'city' | 'weekday' | 'date' | 'search'> & Partial<Pick<ListingQuery, 'near' | 'radius' | 'price' | 'team' | 'category' | 'time' | 'sprak'>>,
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

/**
 * The seed of one Stockholm day's order (31 bits): the same on every page, cache and isolate. The day's
 * order of each tier starts at the unit whose `shuffle` follows the seed (queries.rotationKey).
 */
export function daySeed(today: string): number {
  return dayHash('quizkvall-shuffle', today) & 0x7fffffff;
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
      const d = rotationKey(a.row.shuffle, seed) - rotationKey(b.row.shuffle, seed);
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
    language: isQuizLanguage(d.language) ? d.language : 'sv',
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
export async function readListingDay(db: Db, ctx: Pick<ListingContext, 'today' | 'houseEmail' | 'rewind' | 'onStale'>, scope: { city: string; wd: number } | null = { city: '', wd: -1 }) {
  const state = await stateAndCount(db, scope);
  if (listingIsStale(state, ctx)) ctx.onStale?.({ today: wantedDay(state.today, ctx), houseEmail: ctx.houseEmail });
  return state;
}

/**
 * The listing-day job's work (never a request's): bring the stored listing columns to `ctx.today` and the
 * house account (listing_state; advanceListingDay when either changed — the 00:05 cron, the nightly run and
 * the Workflow a stale request starts do it), then read the state with the listed count of one scope.
 */
export async function ensureListingDay(db: Db, ctx: Pick<ListingContext, 'today' | 'houseEmail' | 'rewind'>, scope: { city: string; wd: number } | null = { city: '', wd: -1 }) {
  let state = await stateAndCount(db, scope);
  if (listingIsStale(state, ctx)) {
    await advanceListingDay(db, state, wantedDay(state.today, ctx), ctx.houseEmail);
    state = await stateAndCount(db, scope);
  }
  return state;
}

/**
 * The stored card of a unit when it is the occurrence this listing shows — the next one; in weekday
 * mode only if it falls on that weekday, in date mode only on that date — else null (read it instead).
 */
export function storedCard(row: Pick<UnitRow, 'card' | 'nextDate'>, f: Pick<SeriesFilter, 'today' | 'date' | 'weekdayW'>): DetailRow | null {
  return row.card && storedCardFits(row, f) ? (JSON.parse(row.card) as DetailRow) : null;
}

/** Whether a unit's stored next occurrence is the one this listing shows (storedCard). */
function storedCardFits(row: Pick<UnitRow, 'nextDate'>, f: Pick<SeriesFilter, 'today' | 'date' | 'weekdayW'>): boolean {
  if (!row.nextDate || row.nextDate < f.today) return false;
  if (f.date !== undefined && row.nextDate !== f.date) return false;
  return f.weekdayW === undefined || isoWeekday(row.nextDate) % 7 === f.weekdayW;
}

/**
 * The cards of some units in their order. A stored card that is the occurrence to show is used as it is;
 * otherwise only that occurrence's quiz row is read (occurrenceQuizzes) and put with the place and
 * business of the stored card. (Every unit a listing can show has a card: the refresh trigger writes one
 * whenever the unit has a date ahead.)
 */
async function cardsOf(db: Db, f: SeriesFilter, rows: UnitRow[]): Promise<ListedRow[]> {
  const shown = rows.flatMap((r) => (r.card ? [{ r, card: JSON.parse(r.card) as DetailRow, fits: storedCardFits(r, f) }] : []));
  const other = shown.filter((c) => !c.fits);
  // Date mode's walk knows the quiz of that date (listing_dates.qid): read it by key; else find it.
  const known = other.filter(({ r }) => r.qid);
  const unitOfQuiz = new Map(known.map(({ r }) => [r.qid!, r.unitId]));
  const [byId, found] = await Promise.all([
    quizzesById(db, [...unitOfQuiz.keys()]),
    occurrenceQuizzes(db, f, other.filter(({ r }) => !r.qid).map(({ r }) => ({ unitId: r.unitId, key: r.key, rid: r.rid, lid: r.lid, pattern: r.pattern }))),
  ]);
  const occurrenceOf = new Map<number, OccurrenceRow>([
    ...found.map((o): [number, OccurrenceRow] => [Number(o.unitId), o]),
    ...byId.map((q): [number, OccurrenceRow] => {
      const unitId = unitOfQuiz.get(q.id)!;
      return [unitId, { ...q, unitId }];
    }),
  ]);
  return shown.flatMap(({ r, card, fits }): ListedRow[] => {
    const unit = { unitId: r.unitId, key: r.key, rid: r.rid, shuffle: r.shuffle, unitLat: r.unitLat, unitLng: r.unitLng };
    if (fits) return [{ ...card, ...unit }];
    const o = occurrenceOf.get(r.unitId);
    if (!o) return [];
    const { unitId: _u, locationId: _l, ...quiz } = o;
    return [{ ...card, ...quiz, ...unit }];
  });
}

/**
 * How a listing is read. `walk`: a page walked in index order (walkedPage; with free text the search
 * index in the listing's order), its total from listing_counts when the scope is one the counts keep
 * (Sweden or a city, all days or a weekday, no quiz filter, no date and no free text), else a lower bound
 * from the walk. `sorted`: a search of one or two characters without a letter — every match sorted and
 * counted in SQL. `ownHidden`: a signed-in owner who has a business that is not public — the public walk
 * merged with their own units (ownHiddenUnits, a handful).
 */
async function readPlan(db: Db, f: ResolvedFilters, filter: SeriesFilter, ctx: ListingContext) {
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

/**
 * The active promotions and the cards of the units they point at under the listing's filters (one read:
 * promotionsWithUnits), for rankPromoted.
 */
async function promotionsAndUnits(db: Db, f: SeriesFilter): Promise<{ promos: ActivePromotionRow[]; units: ListedRow[] }> {
  const rows = await promotionsWithUnits(db, f);
  const promos = new Map<string, ActivePromotionRow>();
  const units = new Map<number, UnitRow>();
  for (const r of rows) {
    promos.set(`${r.quizId}|${r.productType}|${r.startDate}|${r.endDate}`, { quizId: r.quizId, rid: r.rid, productType: r.productType, startDate: r.startDate, endDate: r.endDate });
    if (r.unitId !== null) units.set(r.unitId, r as UnitRow);
  }
  return { promos: [...promos.values()], units: await cardsOf(db, f, [...units.values()]) };
}

/** The ordinary ranking's order for rows in the Worker: real accounts (and an owner's own hidden units) first, then the day's rotation. */
function byRank(seed: number) {
  const rank = (m: { tier: number }) => (m.tier === 1 ? 1 : 0);
  return (a: { tier: number; shuffle: number; unitId: number }, b: { tier: number; shuffle: number; unitId: number }) =>
    rank(a) - rank(b) || rotationKey(a.shuffle, seed) - rotationKey(b.shuffle, seed) || a.unitId - b.unitId;
}

/**
 * One page (12; `pageSize` only for listPages) of the listing plus the total count. Ranking (spec 01 §4): 1 Premium by date;
 * 2 Rekommenderat, 3 ordinary quizzes of real accounts, 4 the house account's (unclaimed) quizzes, each
 * of 2–4 in the day's order. A page reads its index entries and one listing_series row per card, and
 * the total one row of listing_counts: the cost follows the page, not the size of the catalogue.
 */
export async function listQuizzes(db: Db, query: ListingQuery, ctx: ListingContext, pageSize = LISTING_PAGE_SIZE): Promise<ListingResponse> {
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
  const items = [
    ...promoted.slice(plan.promotedFrom, plan.promotedTo).map((p) => toListingQuiz(p.row, p.tier)),
    ...ordinary.map((r) => toListingQuiz(r, 'standard')),
  ];
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

/**
 * The items of the first `maxPages` pages of a listing, in order (a feed or a digest of a saved search): read
 * as one page of `maxPages` × 12, so the walk reads each entry once — whether or not the listing's total is
 * exact (free text, a date and a quiz filter only give a lower bound).
 */
export async function listPages(db: Db, query: Omit<ListingQuery, 'page'>, ctx: ListingContext, maxPages: number): Promise<ListingQuiz[]> {
  return (await listQuizzes(db, { ...query, page: 1 }, ctx, maxPages * LISTING_PAGE_SIZE)).items;
}

/** Near mode reads at least this many candidates each way (north, south) before it grows the read. */
export const NEAR_SCAN_MIN = 18;

/** Distance of `p` from the position when within the radius, else null (also without coordinates). */
function withinRadius(near: { lat: number; lng: number; radiusKm: number }, p: { lat: number | null; lng: number | null }): number | null {
  if (p.lat == null || p.lng == null) return null;
  const d = haversineKm(near, { lat: p.lat, lng: p.lng });
  return d <= near.radiusKm ? d : null;
}

/**
 * The `need` nearest units within the radius (besides `exclude`), nearest first (ties by id), read
 * outwards from the position through the geo index (`nearCandidates`), `limit` each way: every unit
 * closer than the latitude reached on both sides (`certainKm`) is then known, so the nearest ones up to
 * that distance are exact. While fewer than `need` are certain, the read is repeated with a limit grown
 * from the density seen so far (1.5–8×); the radius only bounds the box. `ordinary` may hold more than
 * `need` (only its first `need` are guaranteed to be the nearest); `complete`: the box was read to its
 * end, so `ordinary` is every unit within the radius.
 */
async function nearestUnits(
  db: Db,
  box: SeriesFilter,
  near: { lat: number; lng: number; radiusKm: number },
  need: number,
  exclude: Set<number>,
  /** A first read already made (in parallel with other queries) and its limit. */
  first?: { limit: number; read: NearCandidate[] },
) {
  let limit = first?.limit ?? Math.max(NEAR_SCAN_MIN, need);
  let pending: NearCandidate[] | undefined = first?.read;
  for (;;) {
    const read = pending ?? (await nearCandidates(db, box, near.lat, limit));
    pending = undefined;
    const north = read.filter((c) => c.up === 1);
    const south = read.filter((c) => c.up !== 1);
    const northDone = north.length < limit;
    const southDone = south.length < limit;
    // Units closer than this are all in `read`: each is nearer in latitude than the last one read on its side.
    const certainKm = Math.min(
      near.radiusKm,
      northDone ? Infinity : latitudeArcKm(Math.max(...north.map((c) => c.lat)) - near.lat),
      southDone ? Infinity : latitudeArcKm(near.lat - Math.min(...south.map((c) => c.lat))),
    );
    const ordinary: Array<{ id: number; km: number; lid: string; lat: number; lng: number }> = [];
    const seen = new Set<number>();
    for (const c of read) {
      if (exclude.has(c.uid) || seen.has(c.uid)) continue;
      seen.add(c.uid);
      const km = withinRadius(near, c);
      if (km !== null) ordinary.push({ id: c.uid, km, lid: c.lid, lat: c.lat, lng: c.lng });
    }
    ordinary.sort((a, b) => a.km - b.km || a.id - b.id);
    if (northDone && southDone) return { ordinary, complete: true };
    const firstUncertain = ordinary.findIndex((o) => !(o.km < certainKm));
    const certain = firstUncertain === -1 ? ordinary.length : firstUncertain;
    if (certain >= need) return { ordinary, complete: false };
    // The reach the page needs grows with √(need / certain); what a read returns grows linearly with its reach.
    limit = Math.ceil(limit * Math.min(8, Math.max(1.5, 1.25 * Math.sqrt(need / Math.max(certain, 1)))));
  }
}

/**
 * Near mode: the promoted tiers (within the radius) first, as everywhere, then every other unit by
 * distance (nearest first, ties by unit id; the house account is not put last: distance is what was
 * asked), from `nearestUnits`: the radius only bounds the box. So a dense city
 * at 100 km reads about what its first pages need, not every place within 100 km. When the read stops
 * before the box is exhausted, `total` counts the units seen within the radius and `totalAtLeast` says
 * it is a lower bound. Only the page's ≤ 12 units are read in full.
 */
async function listNear(db: Db, filter: SeriesFilter, near: NonNullable<ResolvedFilters['near']>, mode: ListingMode, page: number, today: string, pageSize: number): Promise<ListingResponse> {
  const box = { ...filter, box: boundingBox(near, near.radiusKm), city: undefined };
  // The page needs at most page × 12 ordinary units (+1 to know there is more): the first read asks for that.
  const firstLimit = Math.max(NEAR_SCAN_MIN, page * pageSize + 1);
  const [{ promos, units: promotedRows }, firstRead] = await Promise.all([promotionsAndUnits(db, box), nearCandidates(db, box, near.lat, firstLimit)]);
  const distance = new Map<number, number>();
  const promotedIn = promotedRows.filter((r) => {
    const d = withinRadius(near, { lat: r.unitLat, lng: r.unitLng });
    if (d === null) return false;
    distance.set(r.unitId, d);
    return true;
  });
  const promoted = rankPromoted(promotedIn, promos, filter.seed);
  const plan = pagePlan(page, promoted.length, pageSize);
  const { ordinary, complete } = await nearestUnits(db, box, near, plan.ordinaryOffset + plan.ordinaryLimit + 1, new Set(promoted.map((p) => p.row.unitId)), { limit: firstLimit, read: firstRead });
  for (const o of ordinary) distance.set(o.id, o.km);
  const total = promoted.length + ordinary.length;
  const pageIds = ordinary.slice(plan.ordinaryOffset, plan.ordinaryOffset + plan.ordinaryLimit).map((o) => o.id);
  const rows = await cardsOf(db, box, await unitsById(db, pageIds));
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
  const places = new Set([...promoted.map((p) => p.row.lId), ...ordinary.map((o) => o.lid)]);
  return {
    items,
    total,
    page,
    pageSize,
    hasMore: !complete || plan.start + items.length < total,
    mode,
    today,
    venueCount: complete ? places.size : null,
    near,
    ...(complete ? {} : { totalAtLeast: true as const }),
  };
}

// ---- The map of the current results (GET /api/listing/map, GET /api/listing/card). ----

/** "Business, Place" from a unit's place text ("business | place"), once when they are the same. */
function unitName(placeText: string): string {
  const [business = '', place = ''] = placeText.split(' | ');
  return !place || place === business ? business : `${business}, ${place}`;
}

/** The SQL filter of a listing query: the one place the cards, the map and a marker's card get it from. */
function seriesFilterOf(query: ListingMapQuery, ctx: ListingContext) {
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
 * The map's points: up to MAP_POINTS_MAX units matching the listing's filters, with a position — in
 * near mode the nearest (nearestUnits, so a dense city reads about MAP_POINTS_MAX candidates), else
 * the first of the ordinary ranking (a covering-index page, then those rows by key). The count is the
 * listing's.
 */
export async function mapPoints(db: Db, query: ListingMapQuery, ctx: ListingContext): Promise<ListingMapResponse> {
  const { f, filter } = seriesFilterOf(query, ctx);
  const plan = await readPlan(db, f, filter, ctx);
  const state = await readListingDay(db, ctx, plan.scope);
  if (f.near) {
    const { ordinary, complete } = await nearestUnits(db, filter, f.near, MAP_POINTS_MAX, new Set());
    const shown = ordinary.slice(0, MAP_POINTS_MAX);
    const names = new Map((await unitLabels(db, shown.map((o) => o.id))).map((r) => [r.uid, unitName(r.placeText)]));
    const points = shown.flatMap((o) => {
      const name = names.get(o.id);
      return name !== undefined ? [{ unit: o.id, name, lat: o.lat, lng: o.lng }] : [];
    });
    return { points, total: ordinary.length, withoutPosition: 0, ...(complete ? {} : { totalAtLeast: true as const }) };
  }
  const [counts, rows] = await Promise.all([
    // A scanned search or an owner's hidden units on the map: every match sorted and counted (up to MAP_POINTS_MAX
    // points). Free text walks the search index like the listing (a lower bound beyond MAP_POINTS_MAX).
    plan.sorted || plan.ownHidden ? countUnits(db, filter) : Promise.resolve(null),
    (plan.sorted || plan.ownHidden ? orderedPage : walkedPage)(db, filter, [], MAP_POINTS_MAX + 1, 0),
  ]);
  const shown = rows.slice(0, MAP_POINTS_MAX);
  const points = shown.flatMap((r) => (r.unitLat != null && r.unitLng != null ? [{ unit: r.unitId, name: unitName(r.placeText), lat: r.unitLat, lng: r.unitLng }] : []));
  const exact = counts ? counts.total : plan.counted ? (state.units ?? 0) : null;
  if (exact === null) {
    const more = rows.length > MAP_POINTS_MAX;
    return { points, total: shown.length + (more ? 1 : 0), withoutPosition: shown.length - points.length, ...(more ? { totalAtLeast: true as const } : {}) };
  }
  return { points, total: exact, withoutPosition: shown.length - points.length };
}

/**
 * One marker's card: the unit's listed occurrence under the same filters (its tier from the active
 * promotions; in near mode with its distance), or null when the unit is not among the results
 * (another filter, hidden, gone, outside the radius).
 */
export async function mapCard(db: Db, unit: number, query: ListingMapQuery, ctx: ListingContext): Promise<ListingQuiz | null> {
  const { f, filter } = seriesFilterOf(query, ctx);
  await readListingDay(db, ctx, null);
  const [rows, promos] = await Promise.all([unitsById(db, [unit], filter).then((r) => cardsOf(db, filter, r)), activePromotions(db, ctx.today)]);
  const row = rows[0];
  if (!row) return null;
  const quiz = toListingQuiz(row, tierOf({ id: row.id, rid: row.rid, date: row.date }, promos));
  if (!f.near) return quiz;
  const km = withinRadius(f.near, { lat: row.unitLat, lng: row.unitLng });
  return km === null ? null : { ...quiz, distanceKm: Math.round(km * 1000) / 1000, distance: formatDistance(km) };
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

/** How many cities a page's city select lists (the largest; the rest load when the select is opened). */
export const CITY_OPTIONS_ON_PAGE = 40;

const topCitiesOfVersion = memoPerDataVersion((db) => topCitySlugs(db, CITY_OPTIONS_ON_PAGE));

/**
 * The cities a server-rendered page puts in its city select: every city while there are at most
 * CITY_OPTIONS_ON_PAGE, else the largest ones (by listed units, listing_counts) plus `selected`, in the
 * list's order, with `complete: false` — the select then loads the whole list (GET /api/listing/cities)
 * when it is opened. So a page's weight does not grow with the number of cities (1 540 at 1 000 000 rows).
 */
export async function pageCityOptions(db: Db, selected?: string): Promise<{ cities: CityOption[]; complete: boolean }> {
  const all = await publicCities(db);
  if (all.length <= CITY_OPTIONS_ON_PAGE) return { cities: all, complete: true };
  const shown = new Set(await topCitiesOfVersion(db));
  if (selected) shown.add(selected);
  return { cities: all.filter((c) => shown.has(c.slug)), complete: false };
}

const cityOfVersion = memoPerDataVersionByKey(findCity);

/**
 * A city with a public business, by slug (its name as written in the data), or null: read from D1 once
 * per public-data version and slug in this isolate (findCity's bounded read), like the city list.
 */
export function findPublicCity(db: Db, slug: string): Promise<{ slug: string; name: string } | null> {
  return cityOfVersion(db, slug);
}

/** A public business by slug (`house` = owned by the house account) with its places (oldest first), or null. */
export async function findPublicVenueWithPlaces(db: Db, slug: string, houseEmail: string) {
  const venue = await findPublicVenue(db, slug, houseEmail);
  if (!venue) return null;
  const places = (await venueLocations(db, venue.id)).sort((a, b) => compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id));
  return { venue, places };
}

/** SQLite's default text order (binary; NULL first), for ordering rows in the Worker instead of in SQL. */
function compareText(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return -1;
  if (b === null) return 1;
  return a < b ? -1 : 1;
}

/**
 * Upcoming occurrences of one business (from findPublicVenueWithPlaces) from `today`, soonest first
 * (date, time, id), at most `limit`, as standard-tier cards. The place and business columns of each card
 * come from the rows already read, not from a join per occurrence.
 */
export async function publicVenueQuizzes(
  db: Db,
  found: NonNullable<Awaited<ReturnType<typeof findPublicVenueWithPlaces>>>,
  today: string,
  limit: number,
): Promise<ListingQuiz[]> {
  const { venue, places } = found;
  const byId = new Map(places.map((p) => [p.id, p]));
  const rows = await venueUpcoming(db, places.map((p) => p.id), today, limit);
  // A place cut off at `limit` rows may have more quizzes on its last date read: add them (rare: a place
  // with `limit` upcoming dates), so the order by time below chooses exactly as one sort of everything would.
  for (const p of places) {
    const mine = rows.filter((r) => r.locationId === p.id);
    if (mine.length < limit) continue;
    const last = mine.reduce((d, r) => (r.date > d ? r.date : d), mine[0]!.date);
    const seen = new Set(mine.map((r) => r.id));
    rows.push(...(await placeDateQuizzes(db, p.id, last)).filter((r) => !seen.has(r.id)));
  }
  rows.sort((a, b) => compareText(a.date, b.date) || compareText(a.startTime, b.startTime) || compareText(a.id, b.id));
  return rows.slice(0, limit).flatMap((r) => {
    const l = byId.get(r.locationId);
    if (!l) return [];
    const detail: DetailRow = {
      ...r,
      lId: l.id,
      lName: l.name,
      lAddress: l.address,
      lCity: l.city,
      lCitySlug: l.citySlug,
      lPhone: l.phone,
      lWebsite: l.website,
      lLat: l.latitude,
      lLng: l.longitude,
      vId: venue.id,
      vName: venue.name,
      vSlug: venue.slug,
      vDescription: venue.description,
      vWebsite: venue.website,
      house: 0,
    };
    return [toListingQuiz(detail, 'standard')];
  });
}

/**
 * Sitemaps at scale (issue 19 §4). Child sitemaps are slices the index can name without reading the
 * catalogue: pages by slices of the (memoized) city list, venues by rowid ranges of the venues table.
 */
export const sitemapSource = {
  /**
   * City × weekday pairs of the listed units in the city slug range, as (city, %w weekday), as of the
   * listing's day (listing_state.today: the listing-day job moves it: the 00:05 cron, the nightly run, or the Workflow a stale read starts).
   */
  async cityWeekdays(db: Db, fromCity: string, toCity: string): Promise<Array<{ city: string; w: number }>> {
    const seen = new Set<string>();
    const out: Array<{ city: string; w: number }> = [];
    for (const { city, m } of await sitemapCityMasks(db, fromCity, toCity)) {
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
