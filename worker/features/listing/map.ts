/**
 * The map of the current results (issue 15; GET /api/listing/map, GET /api/listing/card): the points of the
 * units matching the listing's filters, and one marker's card.
 */
import type { Db } from '../../db/client';
import type { ListingContext } from '../../lib/listing-context';
import { formatDistance } from '../../lib/geo';
import { MAP_POINTS_MAX, type ListingMapQuery, type ListingMapResponse, type ListingQuiz } from './contract';
import { cardsOf, toListingQuiz } from './cards';
import { readPlan, seriesFilterOf } from './filters';
import { readListingDay } from './listing-day';
import { nearestUnits, withinRadius } from './near';
import { tierOf } from './rank';
import { unitLabels, unitsById, unitsByKeys } from './queries/cards';
import { listingKeyOf, quizmasterCard, quizmasterPicks } from './quizmaster';
import { activePromotions } from './queries/promotions';
import { countUnits, orderedPage, walkedPage } from './queries/walk';

/** "Business, Place" from a unit's place text ("business | place"), once when they are the same. */
function unitName(placeText: string): string {
  const [business = '', place = ''] = placeText.split(' | ');
  return !place || place === business ? business : `${business}, ${place}`;
}

/**
 * The map's points: up to MAP_POINTS_MAX units matching the listing's filters, with a position — in
 * near mode the nearest (nearestUnits, so a dense city reads about MAP_POINTS_MAX candidates), else
 * the first of the ordinary ranking (a covering-index page, then those rows by key). The count is the
 * listing's.
 */
export async function mapPoints(db: Db, query: ListingMapQuery, ctx: ListingContext): Promise<ListingMapResponse> {
  if (query.quizmaster) return quizmasterMapPoints(db, { ...query, quizmaster: query.quizmaster }, ctx);
  const { f, filter } = seriesFilterOf(query, ctx);
  const plan = await readPlan(db, f, filter, ctx);
  const state = await readListingDay(db, ctx, plan.scope);
  if (f.near) {
    const { ordinary, complete } = await nearestUnits(db, filter, f.near, MAP_POINTS_MAX, new Set());
    const shown = ordinary.slice(0, MAP_POINTS_MAX);
    const names = new Map(
      (
        await unitLabels(
          db,
          shown.map((o) => o.id),
        )
      ).map((r) => [r.uid, unitName(r.placeText)]),
    );
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
  const points = shown.flatMap((r) =>
    r.unitLat != null && r.unitLng != null ? [{ unit: r.unitId, name: unitName(r.placeText), lat: r.unitLat, lng: r.unitLng }] : [],
  );
  const exact = counts ? counts.total : plan.counted ? (state.units ?? 0) : null;
  if (exact === null) {
    const more = rows.length > MAP_POINTS_MAX;
    return { points, total: shown.length + (more ? 1 : 0), withoutPosition: shown.length - points.length, ...(more ? { totalAtLeast: true as const } : {}) };
  }
  return { points, total: exact, withoutPosition: shown.length - points.length };
}

/**
 * The map of one quizmaster's quizzes (`?quizmaster=`, issue 48): the listing's picks (quizmaster.ts, the same
 * filters, near mode's position not applied), placed by their listing units (read by key).
 */
async function quizmasterMapPoints(db: Db, query: ListingMapQuery & { quizmaster: string }, ctx: ListingContext): Promise<ListingMapResponse> {
  const { picked } = await quizmasterPicks(db, query, ctx);
  const shown = picked.slice(0, MAP_POINTS_MAX);
  const units = new Map((await unitsByKeys(db, shown.map(listingKeyOf))).map((u) => [u.key, u]));
  const points = shown.flatMap((r) => {
    const u = units.get(listingKeyOf(r));
    return u && u.unitLat != null && u.unitLng != null ? [{ unit: u.unitId, name: unitName(u.placeText), lat: u.unitLat, lng: u.unitLng }] : [];
  });
  return { points, total: picked.length, withoutPosition: shown.length - points.length };
}

/**
 * One marker's card: the unit's listed occurrence under the same filters (its tier from the active
 * promotions; in near mode with its distance), or null when the unit is not among the results
 * (another filter, hidden, gone, outside the radius).
 */
export async function mapCard(db: Db, unit: number, query: ListingMapQuery, ctx: ListingContext): Promise<ListingQuiz | null> {
  if (query.quizmaster) {
    const { picked } = await quizmasterPicks(db, { ...query, quizmaster: query.quizmaster }, ctx);
    const [hit] = await unitsById(db, [unit]);
    const row = hit && picked.find((r) => listingKeyOf(r) === hit.key);
    return row ? quizmasterCard(row) : null;
  }
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
