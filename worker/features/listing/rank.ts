/**
 * The listing's ranking rules (spec 01 §4), pure: the promotion tier of an occurrence, the day's seed and
 * rotation, the order of the promoted tiers, where a page falls in [promoted …, ordinary …], and the
 * ordinary order for rows sorted in the Worker (its SQL twin is queries/where.ts rankOrderSql).
 */
import { LISTING_PAGE_SIZE, type ListingTier } from './contract';
import type { ListedRow } from './queries/cards';
import type { ActivePromotionRow } from './queries/promotions';

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
 * order of each tier starts at the unit whose `shuffle` follows the seed (rotationKey).
 */
export function daySeed(today: string): number {
  return dayHash('quizkvall-shuffle', today) & 0x7fffffff;
}

/** The day's position of a unit within its tier (queries/where.ts rankOrderSql, for sorting in the Worker). */
export function rotationKey(shuffle: number, seed: number): number {
  return shuffle >= seed ? shuffle - seed : shuffle - seed + 2 ** 31;
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

/** The ordinary ranking's order for rows in the Worker: real accounts (and an owner's own hidden units) first, then the day's rotation. */
export function byRank(seed: number) {
  const rank = (m: { tier: number }) => (m.tier === 1 ? 1 : 0);
  return (a: { tier: number; shuffle: number; unitId: number }, b: { tier: number; shuffle: number; unitId: number }) =>
    rank(a) - rank(b) || rotationKey(a.shuffle, seed) - rotationKey(b.shuffle, seed) || a.unitId - b.unitId;
}
