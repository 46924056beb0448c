/** Near mode's candidates (issue 15): units read outwards from a position through listing_series_geo_idx. */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../db/client';
import { seriesWhere, type SeriesFilter } from './where';

/** One candidate of near mode: a unit inside the box, and which side of the position's latitude it lies on. */
export interface NearCandidate {
  uid: number;
  lid: string;
  lat: number;
  lng: number;
  /** 1: at or north of the position (read northwards), 0: south of it (read southwards). */
  up: number;
}

/**
 * Near mode candidates, read outwards from the position: at most `limit` units matching the filters
 * inside the bounding box (`f.box`) going north from `fromLat` in latitude order, and at most `limit`
 * going south. INDEXED BY: each half is a range of listing_series_geo_idx walked in index order (no
 * sort), the rest of the box and every filter answered from that covering index, and it stops after
 * `limit` matches — so what it reads follows the page asked for and the density around the position,
 * not the radius or the catalogue (test/integration/query-plans.test.ts, d1-cost.test.ts). The caller
 * (near.ts listNear) knows every unit closer than the latitude it reached in both directions and asks
 * again with a larger limit when that is not yet enough for the page.
 */
export async function nearCandidates(db: Db, f: SeriesFilter, fromLat: number, limit: number): Promise<NearCandidate[]> {
  if (!f.box) throw new Error('nearCandidates needs a box');
  // One bound per side in the box itself: with two lower bounds on lat (the box's and fromLat) SQLite
  // seeks to one and filters by the other, reading the whole southern half on the way north. A unit
  // exactly at fromLat comes back from both sides; the caller keeps it once.
  const north = seriesWhere({ ...f, box: { ...f.box, minLat: Math.max(f.box.minLat, fromLat) } });
  const south = seriesWhere({ ...f, box: { ...f.box, maxLat: Math.min(f.box.maxLat, fromLat) } });
  const cols = sql`e.id AS uid, e.location_id AS lid, e.lat AS lat, e.lng AS lng`;
  return db.all<NearCandidate>(sql`
    SELECT * FROM (SELECT ${cols}, 1 AS up FROM listing_series e INDEXED BY listing_series_geo_idx
      WHERE ${north} ORDER BY e.lat LIMIT ${limit})
    UNION ALL
    SELECT * FROM (SELECT ${cols}, 0 AS up FROM listing_series e INDEXED BY listing_series_geo_idx
      WHERE ${south} ORDER BY e.lat DESC LIMIT ${limit})`);
}
