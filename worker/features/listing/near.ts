/**
 * Near mode (issue 15): the listing sorted by distance from a position within a radius — the promoted
 * tiers first, then the nearest units, read outwards through the geo index until the page is certain.
 */
import { quizmasterRefsByKeys } from '../../lib/quizmaster-links';
import type { Db } from '../../db/client';
import { boundingBox, formatDistance, haversineKm, latitudeArcKm } from '../../lib/geo';
import type { ListingMode, ListingQuiz, ListingResponse } from './contract';
import { cardsOf, promotionsAndUnits, toListingQuiz } from './cards';
import type { ResolvedFilters } from './filters';
import { pagePlan, rankPromoted } from './rank';
import { unitsById } from './queries/cards';
import { nearCandidates, type NearCandidate } from './queries/near';
import type { SeriesFilter } from './queries/where';

/** Near mode reads at least this many candidates each way (north, south) before it grows the read. */
export const NEAR_SCAN_MIN = 18;

/** Distance of `p` from the position when within the radius, else null (also without coordinates). */
export function withinRadius(near: { lat: number; lng: number; radiusKm: number }, p: { lat: number | null; lng: number | null }): number | null {
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
export async function nearestUnits(
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
export async function listNear(
  db: Db,
  filter: SeriesFilter,
  near: NonNullable<ResolvedFilters['near']>,
  mode: ListingMode,
  page: number,
  today: string,
  pageSize: number,
): Promise<ListingResponse> {
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
  const { ordinary, complete } = await nearestUnits(db, box, near, plan.ordinaryOffset + plan.ordinaryLimit + 1, new Set(promoted.map((p) => p.row.unitId)), {
    limit: firstLimit,
    read: firstRead,
  });
  for (const o of ordinary) distance.set(o.id, o.km);
  const total = promoted.length + ordinary.length;
  const pageIds = ordinary.slice(plan.ordinaryOffset, plan.ordinaryOffset + plan.ordinaryLimit).map((o) => o.id);
  const rows = await cardsOf(db, box, await unitsById(db, pageIds));
  const byId = new Map(rows.map((r) => [r.unitId, r]));
  const shownPromoted = promoted.slice(plan.promotedFrom, plan.promotedTo);
  // Issue 48: the cards' quizmaster profiles, one bounded read keyed by the page's series (or quiz) ids.
  const profiles = await quizmasterRefsByKeys(db, [
    ...shownPromoted.map((p) => p.row.rid ?? p.row.id),
    ...pageIds.flatMap((id) => {
      const r = byId.get(id);
      return r ? [r.rid ?? r.id] : [];
    }),
  ]);
  const withDistance = (q: ListingQuiz, row: { unitId: number; rid: string | null; id: string }): ListingQuiz => {
    const km = distance.get(row.unitId)!;
    const profile = profiles.get(row.rid ?? row.id);
    return { ...q, distanceKm: Math.round(km * 1000) / 1000, distance: formatDistance(km), ...(profile ? { quizmasterProfile: profile } : {}) };
  };
  const items = [
    ...shownPromoted.map((p) => withDistance(toListingQuiz(p.row, p.tier), p.row)),
    ...pageIds.flatMap((id) => {
      const r = byId.get(id);
      return r ? [withDistance(toListingQuiz(r, 'standard'), r)] : [];
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
