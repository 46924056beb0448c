/**
 * GET /api/listing?near=LAT,LNG&radius=KM (issue 15): distance order, radius, each filter, promoted
 * tiers, visibility, paging, the town-centre fallback, and every bad parameter. Each test works around
 * its own centre, hundreds of km from the others' (places made by other tests have no coordinates).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { promotions, users } from '../../worker/db/schema';
import { townCentre } from '../../worker/lib/gazetteer';
import { newId } from '../../worker/lib/ids';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, VERIFIED_AT, uniqueTown } from '../factories';

// Monday 2030-01-07, 11:00 in Stockholm.
const MONDAY = '2030-01-07T10:00:00Z';
const HOUSE = 'house@test.local';

interface Item {
  id: string;
  tier: string;
  date: string;
  distance?: string;
  distanceKm?: number;
  unclaimed: boolean;
  position?: { lat: number; lng: number };
}
interface Body {
  items: Item[];
  total: number;
  hasMore: boolean;
  mode: string;
  venueCount: number | null;
  near?: { lat: number; lng: number; radiusKm: number };
}

/** A point `north` km north and `east` km east of `c` (small distances). */
const offset = (c: { lat: number; lng: number }, north: number, east: number) => ({
  lat: +(c.lat + north / 111.2).toFixed(6),
  lng: +(c.lng + east / (111.32 * Math.cos((c.lat * Math.PI) / 180))).toFixed(6),
});

async function placeAt(at: { lat: number; lng: number } | null, opts: { owner?: string; isPublic?: boolean; city?: string } = {}) {
  const owner = opts.owner ?? (await createUser()).id;
  const venue = await createVenue(owner, { isPublic: opts.isPublic ?? true });
  const location = await createLocation(venue.id, { city: opts.city ?? uniqueTown(), latitude: at?.lat ?? null, longitude: at?.lng ?? null });
  return { venue, location, owner };
}

async function near(c: { lat: number; lng: number }, extra = '', cookie?: string): Promise<Body> {
  const res = await callJson(`/api/listing?near=${c.lat},${c.lng}${extra}`, { clock: MONDAY, cookie });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Body;
}

const ids = (b: Body) => b.items.map((i) => i.id);

async function houseUserId(): Promise<string> {
  await testDb().insert(users).values({ id: newId(), email: HOUSE, emailVerifiedAt: VERIFIED_AT }).onConflictDoNothing();
  return (await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`))[0]!.id;
}

describe('near mode', () => {
  it('nearest first with Swedish distances, within the radius (default 10 km); a place without coordinates sits at its town centre; the city filter does not apply', async () => {
    const kiruna = townCentre('Kiruna')!;
    const fallback = await placeAt(null, { city: 'Kiruna' });
    const a = await placeAt(offset(kiruna, 0.5, 0));
    const b = await placeAt(offset(kiruna, 0, 2));
    const c = await placeAt(offset(kiruna, -8, 0));
    const d = await placeAt(offset(kiruna, 0, -15));
    // Own coordinates win over the town: this Kiruna place is 40 km away.
    const pinned = await placeAt(offset(kiruna, 40, 0), { city: 'Kiruna' });
    const q = await Promise.all([fallback, a, b, c, d, pinned].map((p) => createQuiz(p.location.id, { date: '2030-01-08' })));
    const body = await near(kiruna);
    expect(ids(body)).toEqual([q[0]!.id, q[1]!.id, q[2]!.id, q[3]!.id]);
    expect(body.items.map((i) => i.distance)).toEqual(['10 m', '500 m', '2,0 km', '8,0 km']);
    expect(body.items[2]!.distanceKm).toBeCloseTo(2, 1);
    expect(body.items[0]!.position).toEqual({ lat: kiruna.lat, lng: kiruna.lng });
    expect(body).toMatchObject({ total: 4, hasMore: false, mode: 'all', venueCount: 4, near: { lat: kiruna.lat, lng: kiruna.lng, radiusKm: 10 } });
    expect(ids(await near(kiruna, '&radius=20'))).toEqual([...q.slice(0, 5).map((x) => x.id)]);
    expect(ids(await near(kiruna, '&radius=50'))).toEqual(q.map((x) => x.id));
    expect(ids(await near(kiruna, '&radius=1'))).toEqual([q[0]!.id, q[1]!.id]);
    expect(ids(await near(kiruna, '&city=goteborg'))).toEqual(ids(body));
  });

  it('combines with weekday, date and search (their selection rules unchanged)', async () => {
    const centre = { lat: 65.0, lng: 17.0 };
    const p1 = await placeAt(offset(centre, 1, 0));
    const p2 = await placeAt(offset(centre, 3, 0));
    const rid = newId();
    const tue1 = await createQuiz(p1.location.id, {
      date: '2030-01-08',
      isRecurring: true,
      recurrenceId: rid,
      recurrencePattern: 'weekly',
      title: 'Tisdagsquiz',
    });
    const tue2 = await createQuiz(p1.location.id, {
      date: '2030-01-15',
      isRecurring: true,
      recurrenceId: rid,
      recurrencePattern: 'weekly',
      title: 'Tisdagsquiz',
    });
    const wed = await createQuiz(p2.location.id, { date: '2030-01-09', title: 'Musikquiz i fjällen' });
    const far = await createQuiz((await placeAt(offset(centre, 30, 0))).location.id, { date: '2030-01-09', title: 'Musikquiz långt bort' });
    expect(ids(await near(centre))).toEqual([tue1.id, wed.id]);
    expect(ids(await near(centre, '&weekday=tisdag'))).toEqual([tue1.id]);
    expect(ids(await near(centre, '&weekday=onsdag'))).toEqual([wed.id]);
    expect(ids(await near(centre, '&date=2030-01-15'))).toEqual([tue2.id]);
    expect(ids(await near(centre, '&date=2030-01-10'))).toEqual([]);
    expect(ids(await near(centre, '&date=2030-01-09'))).toEqual([wed.id]);
    expect((await near(centre, '&date=2030-01-09')).mode).toBe('date');
    expect(ids(await near(centre, '&search=musikquiz'))).toEqual([wed.id]);
    expect(ids(await near(centre, '&search=mu'))).toEqual([wed.id]);
    expect(ids(await near(centre, '&search=musikquiz&radius=50'))).toEqual([wed.id, far.id]);
    expect(ids(await near(centre, '&search=tisdag&weekday=onsdag'))).toEqual([tue1.id]);
  });

  it('promoted tiers inside the radius come first, then by distance (house account included); hidden businesses never leak', async () => {
    const centre = { lat: 62.0, lng: 15.0 };
    const house = await houseUserId();
    const owner = await createUser({ now: new Date(MONDAY) });
    const other = await createUser({ now: new Date(MONDAY) });
    const unclaimed = await placeAt(offset(centre, 0.3, 0), { owner: house });
    const real = await placeAt(offset(centre, 1, 0));
    const recP = await placeAt(offset(centre, 5, 0));
    const premP = await placeAt(offset(centre, 9, 0));
    const farPrem = await placeAt(offset(centre, 30, 0));
    const hidden = await placeAt(offset(centre, 0.1, 0), { owner: owner.id, isPublic: false });
    const qHouse = await createQuiz(unclaimed.location.id, { date: '2030-01-08' });
    const qReal = await createQuiz(real.location.id, { date: '2030-01-08' });
    const qRec = await createQuiz(recP.location.id, { date: '2030-01-08' });
    const qPrem = await createQuiz(premP.location.id, { date: '2030-01-08' });
    const qFar = await createQuiz(farPrem.location.id, { date: '2030-01-08' });
    const qHidden = await createQuiz(hidden.location.id, { date: '2030-01-08' });
    for (const [quizId, productType] of [
      [qRec.id, 'recommended'],
      [qPrem.id, 'premium'],
      [qFar.id, 'premium'],
    ] as const) {
      await testDb().insert(promotions).values({ id: newId(), quizId, productType, status: 'active', startDate: '2030-01-07', endDate: '2030-01-14' });
    }
    const body = await near(centre);
    expect(ids(body)).toEqual([qPrem.id, qRec.id, qHouse.id, qReal.id]);
    expect(body.items.map((i) => i.tier)).toEqual(['premium', 'recommended', 'standard', 'standard']);
    expect(body.items[2]!.unclaimed).toBe(true);
    expect(body.total).toBe(4);
    expect(ids(await near(centre, '', other.cookie))).toEqual(ids(body));
    expect(ids(await near(centre, '', owner.cookie))).toEqual([qPrem.id, qRec.id, qHidden.id, qHouse.id, qReal.id]);
    expect(ids(await near(centre, '&radius=40'))[0]).toBe(qPrem.id);
    expect(ids(await near(centre, '&radius=40'))).toContain(qFar.id);
  });

  it('pages of 12 by distance, without overlap', async () => {
    const centre = { lat: 58.0, lng: 14.0 };
    const made = [];
    for (let i = 0; i < 14; i++) made.push(await createQuiz((await placeAt(offset(centre, 0, 0.5 + i * 0.5))).location.id, { date: '2030-01-08' }));
    const p1 = await near(centre);
    const p2 = await near(centre, '&page=2');
    expect(p1).toMatchObject({ total: 14, hasMore: true });
    expect(p2).toMatchObject({ total: 14, hasMore: false });
    expect([...ids(p1), ...ids(p2)]).toEqual(made.map((q) => q.id));
  });

  it('every bad parameter → 400 with a Swedish message naming the field', async () => {
    const before = await snapshot();
    for (const [query, field] of [
      ['near=abc', 'Position (near)'],
      ['near=59.3', 'Position (near)'],
      ['near=59,3,18,0', 'Position (near)'],
      ['near=91,18', 'Latituden'],
      ['near=59.3,181', 'Longituden'],
      ['near=59.3,18.0&radius=0', 'Radie (km): Radien måste vara 1–100 km'],
      ['near=59.3,18.0&radius=101', 'Radie (km)'],
      ['near=59.3,18.0&radius=2.5', 'Radie (km): Ange radien i hela km'],
      ['near=59.3,18.0&radius=tio', 'Radie (km)'],
    ] as const) {
      const res = await callJson(`/api/listing?${query}`, { clock: MONDAY });
      expect(res.status, query).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.message, query).toContain(field);
    }
    expect(await snapshot()).toEqual(before);
  });
});

describe('near mode on the start page (server-rendered)', () => {
  it('/?near= renders the nearest quizzes with distances, noindex, Place.geo in the JSON-LD; a bad position is ignored', async () => {
    const centreLand = { lat: 66.0, lng: 23.0 }; // Far from every other test's centre.
    const p = await placeAt(offset(centreLand, 1.2, 0));
    const q = await createQuiz(p.location.id, { date: '2030-01-08', title: `Nära ${unique('t')}` });
    const res = await call(`/?weekday=all&near=${centreLand.lat},${centreLand.lng}`, { clock: MONDAY });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<meta name="robots" content="noindex">');
    expect(html).toContain('Quizkvällar nära dig');
    expect(html).toMatch(/1,2 km(<!-- -->)? bort/);
    expect(html).toContain(`data-quiz-id="${q.id}"`);
    expect(html).toContain('"geo":{"@type":"GeoCoordinates"');
    const bad = await call(`/?near=abc&weekday=all`, { clock: MONDAY });
    expect(bad.status).toBe(200);
    expect(await bad.text()).not.toContain('Quizkvällar nära dig');
  });
});
