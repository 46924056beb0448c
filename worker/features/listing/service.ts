/**
 * The public listing (spec 01 §4): filters, recurring-series selection, visibility and ranking.
 * Pure rules live here; SQL in queries.ts. All dates are Stockholm dates handed in by the caller.
 */
import type { Db } from '../../db/client';
import { addDays, isoWeekday, nextWeekdayOnOrAfter } from '../../lib/clock';
import { categoryLabel, findWeekday } from '../../lib/swedish';
import { LISTING_PAGE_SIZE, type ListingMode, type ListingQuery, type ListingQuiz, type ListingResponse, type ListingTier } from './contract';
import { activePromotions, foldText, quizDetails, selectCandidates, type ActivePromotionRow, type CandidateRow, type DetailRow } from './queries';

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
}

/** Which selection rule applies (search → date → weekday → all). A past date counts as today. */
export function resolveFilters(q: Pick<ListingQuery, 'city' | 'weekday' | 'date' | 'search'>, today: string): ResolvedFilters {
  const city = q.city || undefined;
  if (q.search && q.search.trim()) return { mode: 'search', city, search: q.search.trim() };
  if (q.date) return { mode: 'date', city, date: q.date < today ? today : q.date };
  const wd = q.weekday ? findWeekday(q.weekday) : undefined;
  if (wd) return { mode: 'weekday', city, weekdayIso: wd.iso };
  return { mode: 'all', city };
}

/**
 * Series selection (spec 01 §4 "Recurring series selection on the listing"):
 *  - date: every quiz on exactly that date (at most one per series by the schema);
 *  - search / all: per series and place only the next occurrence on or after today;
 *  - weekday: per series and place the next occurrence on that weekday; a biweekly series only when
 *    that occurrence is within 7 days; non-recurring quizzes always pass.
 * Rows are already restricted to dates ≥ today (or = the date) by the query.
 */
export function selectOccurrences(rows: CandidateRow[], f: ResolvedFilters, today: string): CandidateRow[] {
  if (f.mode === 'date') return rows;
  const best = new Map<string, CandidateRow>();
  const singles: CandidateRow[] = [];
  for (const r of rows) {
    if (!r.rid) {
      singles.push(r);
      continue;
    }
    const key = `${r.rid}\u0000${r.lid}`;
    const cur = best.get(key);
    if (!cur || r.date < cur.date || (r.date === cur.date && r.id < cur.id)) best.set(key, r);
  }
  let series = [...best.values()];
  if (f.mode === 'weekday') {
    const limit = addDays(today, 6);
    series = series.filter((r) => r.pattern !== 'biweekly' || r.date <= limit);
  }
  return [...series, ...singles];
}

/** The promotion tier of one listed occurrence: the promotion's quiz or its series, on that date. */
export function tierOf(row: Pick<CandidateRow, 'id' | 'rid' | 'date'>, promos: ActivePromotionRow[]): ListingTier {
  let tier: ListingTier = 'standard';
  for (const p of promos) {
    if (row.date < p.startDate || row.date > p.endDate) continue;
    if (p.quizId !== row.id && !(row.rid && p.rid === row.rid)) continue;
    if (p.productType === 'premium') return 'premium';
    tier = 'recommended';
  }
  return tier;
}

/** FNV-1a 32-bit: the stable pseudo-random order of one Stockholm day (same on every page and cache). */
export function dayHash(seed: string, id: string): number {
  let h = 0x811c9dc5;
  const s = `${seed}:${id}`;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

interface Ranked extends CandidateRow {
  tier: ListingTier;
  rank: number;
  rnd: number;
}

/**
 * Ranking (spec 01 §4): 1 Premium by date; 2 Rekommenderat in random order; 3 ordinary quizzes of
 * real accounts in random order; 4 the house account's (unclaimed) quizzes last in random order.
 */
export function rank(rows: CandidateRow[], promos: ActivePromotionRow[], today: string): Ranked[] {
  const ranked = rows.map((r) => {
    const tier = tierOf(r, promos);
    const rankNo = tier === 'premium' ? 0 : tier === 'recommended' ? 1 : r.house ? 3 : 2;
    return { ...r, tier, rank: rankNo, rnd: dayHash(today, r.id) };
  });
  ranked.sort((a, b) => {
    if (a.rank !== b.rank) return a.rank - b.rank;
    if (a.rank === 0) {
      if (a.date !== b.date) return a.date < b.date ? -1 : 1;
      const at = a.startTime ?? '19:00:00';
      const bt = b.startTime ?? '19:00:00';
      if (at !== bt) return at < bt ? -1 : 1;
      return a.id < b.id ? -1 : 1;
    }
    if (a.rnd !== b.rnd) return a.rnd - b.rnd;
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  });
  return ranked;
}

export function toListingQuiz(d: DetailRow, tier: ListingTier): ListingQuiz {
  return {
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

/** One page (12) of the listing plus the total count. */
export async function listQuizzes(db: Db, query: ListingQuery, ctx: ListingContext): Promise<ListingResponse> {
  const f = resolveFilters(query, ctx.today);
  const page = query.page ?? 1;
  const [rows, promos] = await Promise.all([
    selectCandidates(db, {
      today: ctx.today,
      city: f.city,
      date: f.date,
      weekdayW: f.weekdayIso === undefined ? undefined : f.weekdayIso % 7,
      search: f.search ? foldText(f.search) : undefined,
      viewerId: ctx.viewerId,
      houseEmail: ctx.houseEmail,
    }),
    activePromotions(db, ctx.today),
  ]);
  const ranked = rank(selectOccurrences(rows, f, ctx.today), promos, ctx.today);
  const start = (page - 1) * LISTING_PAGE_SIZE;
  const slice = ranked.slice(start, start + LISTING_PAGE_SIZE);
  const details = await quizDetails(db, slice.map((r) => r.id), ctx.houseEmail);
  const byId = new Map(details.map((d) => [d.id, d]));
  const items = slice.flatMap((r) => {
    const d = byId.get(r.id);
    return d ? [toListingQuiz(d, r.tier)] : [];
  });
  const venueCount = new Set(ranked.map((r) => r.lid)).size;
  return {
    items,
    total: ranked.length,
    page,
    pageSize: LISTING_PAGE_SIZE,
    hasMore: start + slice.length < ranked.length,
    mode: f.mode,
    today: ctx.today,
    venueCount,
  };
}

/** The date a weekday choice moves the date picker to: today, tomorrow or its next occurrence (spec 01 §4). */
export function dateForWeekday(today: string, iso: number): string {
  return nextWeekdayOnOrAfter(today, iso);
}

export function weekdayOfDate(date: string) {
  return isoWeekday(date);
}
