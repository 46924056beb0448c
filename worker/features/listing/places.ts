/**
 * Public reads for the server-rendered pages and the sitemap: the city list and a page's city select,
 * a city by slug, a public business with its places and upcoming quizzes, and the sitemaps' slices. Other
 * features reach these through service.ts.
 */
import { quizmasterRefsByKeys } from '../../lib/quizmaster-links';
import type { Db } from '../../db/client';
import { memoPerDataVersion, memoPerDataVersionByKey } from '../../lib/data-version';
import { isTownSlug } from '../../lib/gazetteer';
import type { CityOption, ListingQuiz } from './contract';
import { toListingQuiz } from './cards';
import type { DetailRow } from './queries/cards';
import {
  findCity,
  findPublicVenue,
  listCities,
  placeDateQuizzes,
  publicDataChangedAt,
  sitemapCityMasks,
  sitemapVenueRange,
  topCitySlugs,
  venueLocations,
  venueRowidCeiling,
  venueUpcoming,
} from './queries/places';

/**
 * Only known towns are public cities (issue 43.6): a city stored before the city rule (lib/city-field.ts), or
 * written around it, lists no city page, select option or sitemap entry. The gazetteer is in memory: no D1 read.
 */
const citiesOfVersion = memoPerDataVersion(async (db) => (await listCities(db)).filter((c) => isTownSlug(c.slug)));

/**
 * The public city list (`listCities`), read from D1 once per public-data version in this isolate rather
 * than on every request: it changes only with a write that bumps the version. A fresh array each call
 * (the memoized one is shared). Used by GET /api/listing/cities, the listing pages and the sitemap.
 */
export async function publicCities(db: Db): Promise<CityOption[]> {
  return [...(await citiesOfVersion(db))];
}

/** How many cities a page's city select lists (the largest; the rest load when the select is opened). */
export const CITY_OPTIONS_ON_PAGE = 40;

const topCitiesOfVersion = memoPerDataVersion(async (db) => (await topCitySlugs(db, CITY_OPTIONS_ON_PAGE)).filter(isTownSlug));

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
 * per public-data version and slug in this isolate (findCity's bounded read), like the city list. Only a known
 * town (none read for any other slug).
 */
export async function findPublicCity(db: Db, slug: string): Promise<{ slug: string; name: string } | null> {
  if (!isTownSlug(slug)) return null;
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
  const rows = await venueUpcoming(
    db,
    places.map((p) => p.id),
    today,
    limit,
  );
  // A place cut off at `limit` rows may have more quizzes on its last date read: add them (rare: a place
  // with `limit` upcoming dates), so the order by time below chooses exactly as one sort of everything would.
  const cutOff: Array<{ placeId: string; date: string }> = [];
  for (const p of places) {
    const mine = rows.filter((r) => r.locationId === p.id);
    if (mine.length < limit) continue;
    cutOff.push({ placeId: p.id, date: mine.reduce((d, r) => (r.date > d ? r.date : d), mine[0]!.date) });
  }
  const seen = new Set(rows.map((r) => r.id));
  rows.push(...(await placeDateQuizzes(db, cutOff)).filter((r) => !seen.has(r.id)));
  rows.sort((a, b) => compareText(a.date, b.date) || compareText(a.startTime, b.startTime) || compareText(a.id, b.id));
  const shown = rows.slice(0, limit);
  // Issue 48: each quiz's quizmaster profile, resolved at read time by its series (or its own id): one bounded read.
  const profiles = await quizmasterRefsByKeys(
    db,
    shown.map((r) => r.rid ?? r.id),
  );
  return shown.flatMap((r) => {
    const l = byId.get(r.locationId);
    if (!l) return [];
    const { rid, ...quiz } = r;
    const profile = profiles.get(rid ?? r.id);
    const detail: DetailRow = {
      ...quiz,
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
    const card = toListingQuiz(detail, 'standard');
    return [profile ? { ...card, quizmasterProfile: profile } : card];
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
