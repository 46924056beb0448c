/**
 * GET /api/listing/map and GET /api/listing/card (issue 15): the map shows the current results —
 * every matching unit with a position up to MAP_POINTS_MAX, not only the cards loaded so far — with the
 * listing's filters and visibility; a marker's card comes with the same filters. Bad input → 400.
 */
import { describe, expect, it } from 'vitest';
import { townCentre } from '../../worker/lib/gazetteer';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, unique, uniqueTown } from '../factories';

// Monday 2030-01-07, 11:00 in Stockholm.
const MONDAY = '2030-01-07T10:00:00Z';

interface MapBody {
  points: Array<{ unit: number; name: string; lat: number; lng: number }>;
  total: number;
  totalAtLeast?: boolean;
  withoutPosition: number;
}

async function placeIn(city: string, at: { lat: number; lng: number } | null, opts: { isPublic?: boolean; owner?: string; name?: string } = {}) {
  const owner = opts.owner ?? (await createUser()).id;
  const venue = await createVenue(owner, { isPublic: opts.isPublic ?? true, name: opts.name ?? `Kartkrogen ${unique('v')}` });
  const location = await createLocation(venue.id, { city, latitude: at?.lat ?? null, longitude: at?.lng ?? null });
  return { venue, location, owner };
}

async function map(query: string, cookie?: string): Promise<MapBody> {
  const res = await callJson(`/api/listing/map?${query}`, { clock: MONDAY, cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as MapBody;
}

describe('GET /api/listing/map', () => {
  it('every matching unit of a city with its position — more than one listing page — with the same filters and visibility', async () => {
    const city = uniqueTown();
    const slug = city.toLowerCase().replace(/\s+/g, '-');
    const owner = await createUser({ now: new Date(MONDAY) });
    const made: string[] = [];
    for (let i = 0; i < 15; i++) {
      const p = await placeIn(city, { lat: 61 + i * 0.01, lng: 16 });
      made.push((await createQuiz(p.location.id, { date: i % 2 ? '2030-01-08' : '2030-01-09' })).id);
    }
    const hidden = await placeIn(city, { lat: 61.5, lng: 16 }, { isPublic: false, owner: owner.id });
    await createQuiz(hidden.location.id, { date: '2030-01-08' });
    const listing = await callJson(`/api/listing?city=${slug}&weekday=all`, { clock: MONDAY });
    expect(listing.body.items).toHaveLength(12);
    const all = await map(`city=${slug}&weekday=all`);
    expect(all.points).toHaveLength(15);
    expect(all.total).toBe(15);
    expect(all.withoutPosition).toBe(0);
    expect(all.points.every((p) => p.name.startsWith('Kartkrogen'))).toBe(true);
    expect(new Set(all.points.map((p) => p.lat)).size).toBe(15);
    // Filters as in the listing: a weekday; the owner also sees their own hidden business.
    expect((await map(`city=${slug}&weekday=tisdag`)).points).toHaveLength(7);
    expect((await map(`city=${slug}&weekday=all`, owner.cookie)).points).toHaveLength(16);
    expect((await map(`city=${slug}&weekday=all`, (await createUser()).cookie)).points).toHaveLength(15);
    // A place without coordinates is at its town's centre (every stored city is a known town since issue 43.6).
    const centre = await placeIn(city, null);
    await createQuiz(centre.location.id, { date: '2030-01-08' });
    const after = await map(`city=${slug}&weekday=all&_b=1`);
    expect(after).toMatchObject({ total: 16, withoutPosition: 0 });
    expect(after.points).toHaveLength(16);
    const town = townCentre(city)!;
    expect(after.points.filter((p) => Math.abs(p.lat - town.lat) < 0.01 && Math.abs(p.lng - town.lng) < 0.01)).toHaveLength(1);
  });

  it('near mode: nearest first within the radius', async () => {
    const centre = { lat: 60.2, lng: 24.5 }; // east of Sweden's towns: only this test's places
    const a = await placeIn(`Närkarta ${unique('a')}`, { lat: centre.lat + 0.02, lng: centre.lng });
    const b = await placeIn(`Närkarta ${unique('b')}`, { lat: centre.lat + 0.005, lng: centre.lng });
    const far = await placeIn(`Närkarta ${unique('f')}`, { lat: centre.lat + 0.5, lng: centre.lng });
    for (const p of [a, b, far]) await createQuiz(p.location.id, { date: '2030-01-08' });
    const body = await map(`near=${centre.lat},${centre.lng}&weekday=all`);
    expect(body.points.map((p) => p.lat)).toEqual([centre.lat + 0.005, centre.lat + 0.02]);
    expect(body.total).toBe(2);
    expect((await map(`near=${centre.lat},${centre.lng}&weekday=all&radius=100`)).points).toHaveLength(3);
  });

  it('a marker opens its card: GET /api/listing/card?unit= with the same filters answers the listed occurrence; another filter or a hidden unit → 404', async () => {
    const city = uniqueTown();
    const slug = city.toLowerCase().replace(/\s+/g, '-');
    const p = await placeIn(city, { lat: 62.3, lng: 17.3 });
    const tue = await createQuiz(p.location.id, { date: '2030-01-08' });
    const hiddenOwner = await createUser({ now: new Date(MONDAY) });
    const hidden = await placeIn(city, { lat: 62.31, lng: 17.3 }, { isPublic: false, owner: hiddenOwner.id });
    await createQuiz(hidden.location.id, { date: '2030-01-08' });
    const [point] = (await map(`city=${slug}&weekday=all`)).points;
    const card = await callJson(`/api/listing/card?unit=${point!.unit}&city=${slug}&weekday=all`, { clock: MONDAY });
    expect(card.status).toBe(200);
    expect(card.body.item).toMatchObject({ id: tue.id, tier: 'standard', venue: { id: p.venue.id } });
    const near = await callJson(`/api/listing/card?unit=${point!.unit}&near=62.3,17.3&weekday=all`, { clock: MONDAY });
    expect(near.body.item).toMatchObject({ id: tue.id, distance: '10 m' });
    const other = await callJson(`/api/listing/card?unit=${point!.unit}&city=${slug}&weekday=onsdag`, { clock: MONDAY });
    expect(other.status).toBe(404);
    expect(other.body.error.message).toBe('Quizet finns inte bland resultaten.');
    const hiddenPoint = (await map(`city=${slug}&weekday=all`, hiddenOwner.cookie)).points.find((x) => x.unit !== point!.unit)!;
    expect((await callJson(`/api/listing/card?unit=${hiddenPoint.unit}&city=${slug}&weekday=all`, { clock: MONDAY })).status).toBe(404);
    expect((await callJson(`/api/listing/card?unit=${hiddenPoint.unit}&city=${slug}&weekday=all`, { clock: MONDAY, cookie: hiddenOwner.cookie })).status).toBe(
      200,
    );
    expect((await callJson('/api/listing/card?unit=999999999&weekday=all', { clock: MONDAY })).status).toBe(404);
  });

  it('bad input → 400 with a Swedish message naming the field, nothing stored', async () => {
    const before = await snapshot();
    for (const [path, field] of [
      ['/api/listing/map?near=91,18', 'Latituden'],
      ['/api/listing/map?near=59.3,18&radius=0', 'Radie (km)'],
      ['/api/listing/map?date=2030-02-30', 'Datum'],
      ['/api/listing/map?weekday=fredagar', 'Veckodag'],
      ['/api/listing/card?unit=abc', 'Quiz'],
      ['/api/listing/card?unit=0', 'Quiz'],
      ['/api/listing/card', 'Quiz'],
      ['/api/listing/card?unit=1&radius=2.5&near=59,18', 'Radie (km)'],
    ] as const) {
      const res = await callJson(path, { clock: MONDAY });
      expect(res.status, path).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.message, path).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
    // Anonymous answers are cacheable like the listing's.
    const res = await call('/api/listing/map?weekday=all', { clock: MONDAY });
    expect(res.headers.get('cache-control')).toContain('public');
  });
});
