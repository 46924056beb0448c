/**
 * Owner API for businesses, places and the contact profile (spec 02 §2.1–2.5, §5, §6; issue 5 items
 * 1–4 and 10). Each endpoint: success, bad input stores nothing, visitor 401, someone else's id 403
 * with nothing changed, not found 404, superadmin may act.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { locations, profiles, quizzes, userRoles, venues } from '../../worker/db/schema';
import { getDataVersion } from '../../worker/lib/data-version';
import { HOSTILE_CITIES } from '../fixtures/hostile-cities';
import { callJson, createLocation, createOwnerWithPlace, createQuiz, createUser, createVenue, snapshot, testDb, unique } from '../factories';

const TABLES = ['venues', 'locations', 'quizzes', 'profiles', 'user_roles'];

const placeBody = (over: Record<string, unknown> = {}) => ({
  name: `Plats ${unique('p')}`,
  address: 'Storgatan 1',
  city: 'Göteborg',
  phone: '031-123 45 67',
  website: 'www.puben.se',
  ...over,
});

const venueBody = (over: Record<string, unknown> = {}) => ({
  name: `Puben ${unique('v')}`,
  description: 'Quiz varje tisdag',
  address: 'Kungsgatan 2',
  city: 'Malmö',
  phone: '040-11 22 33',
  website: 'https://example.se/puben',
  isPublic: true,
  ...over,
});

async function venueRow(id: string) {
  const [row] = await testDb().select().from(venues).where(eq(venues.id, id));
  return row;
}
async function locationRow(id: string) {
  const [row] = await testDb().select().from(locations).where(eq(locations.id, id));
  return row;
}

describe('GET /api/owner/dashboard', () => {
  it('visitor: 401', async () => {
    expect((await callJson('/api/owner/dashboard')).status).toBe(401);
  });

  it('owner without a business: venue null, no places (onboarding)', async () => {
    const user = await createUser();
    const { status, body } = await callJson('/api/owner/dashboard', { cookie: user.cookie });
    expect(status).toBe(200);
    expect(body).toEqual({ venue: null, places: [], hasQuizzes: false, ownVenues: [], viewingAsSuperadmin: false });
  });

  it('owner: own business, places in creation order with total and upcoming counts (Stockholm today)', async () => {
    // The session must be valid at the pinned instant.
    const user = await createUser({ now: new Date('2030-03-09T12:00:00Z') });
    const venue = await createVenue(user.id);
    const location = await createLocation(venue.id, { city: 'Uppsala' });
    const second = await createLocation(venue.id, { city: 'Lund', createdAt: '2999-01-01T00:00:00.000Z' });
    await createQuiz(location.id, { date: '2030-03-09' }); // yesterday
    await createQuiz(location.id, { date: '2030-03-10' }); // today counts as upcoming
    await createQuiz(location.id, { date: '2030-04-01' });
    // 23:30 UTC on the 9th is already the 10th in Stockholm (UTC+1): the quiz of the 9th is past.
    const { status, body } = await callJson('/api/owner/dashboard', { cookie: user.cookie, clock: '2030-03-09T23:30:00Z' });
    expect(status).toBe(200);
    expect(body.venue).toMatchObject({ id: venue.id, name: venue.name, userId: user.id, isPublic: true });
    expect(body.places.map((p: { id: string }) => p.id)).toEqual([location.id, second.id]);
    expect(body.places[0]).toMatchObject({ city: 'Uppsala', totalQuizzes: 3, upcomingQuizzes: 2 });
    expect(body.places[1]).toMatchObject({ city: 'Lund', totalQuizzes: 0, upcomingQuizzes: 0 });
    expect(body.hasQuizzes).toBe(true);
    expect(body.ownVenues).toEqual([{ id: venue.id, name: venue.name }]);
    expect(body.viewingAsSuperadmin).toBe(false);
  });

  it('hasQuizzes is false while no place has a quiz', async () => {
    const { user } = await createOwnerWithPlace();
    const res = await callJson('/api/owner/dashboard', { cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.body.hasQuizzes).toBe(false);
  });

  it('?venueId: own second business answers; someone else’s 403; unknown 404; bad id 400', async () => {
    const { user } = await createOwnerWithPlace();
    const mine2 = await createVenue(user.id);
    const other = await createOwnerWithPlace();
    const ok = await callJson(`/api/owner/dashboard?venueId=${mine2.id}`, { cookie: user.cookie });
    expect(ok.status).toBe(200);
    expect(ok.body.venue.id).toBe(mine2.id);
    expect(ok.body.ownVenues).toHaveLength(2);
    const res403 = await callJson(`/api/owner/dashboard?venueId=${other.venue.id}`, { cookie: user.cookie });
    expect(res403.status).toBe(403);
    expect(JSON.stringify(res403.body)).not.toContain(other.venue.name);
    expect((await callJson(`/api/owner/dashboard?venueId=${unique('nope')}`, { cookie: user.cookie })).status).toBe(404);
    expect((await callJson(`/api/owner/dashboard?venueId=${'x'.repeat(100)}`, { cookie: user.cookie })).status).toBe(400);
  });

  it('superadmin opens any business by id; unknown id 404', async () => {
    const admin = await createUser({ roles: ['superadmin'] });
    const other = await createOwnerWithPlace();
    const { status, body } = await callJson(`/api/owner/dashboard?venueId=${other.venue.id}`, { cookie: admin.cookie });
    expect(status).toBe(200);
    expect(body.venue.id).toBe(other.venue.id);
    expect(body.places).toHaveLength(1);
    expect(body.viewingAsSuperadmin).toBe(true);
    const nf = await callJson(`/api/owner/dashboard?venueId=${unique('nope')}`, { cookie: admin.cookie });
    expect(nf.status).toBe(404);
    expect(nf.body.error.code).toBe('not_found');
  });
});

describe('POST /api/owner/venues (create-business dialog)', () => {
  it('creates a business with name only, a unique slug, grants the admin role and bumps the data version', async () => {
    const user = await createUser({ roles: [] });
    const name = `Quizbaren ${unique('n')}`;
    const before = await getDataVersion(testDb());
    const a = await callJson('/api/owner/venues', { cookie: user.cookie, body: { name: `  ${name}  ` } });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ name, userId: user.id, address: null, city: null, isPublic: true });
    const row = await venueRow(a.body.id);
    expect(row?.slug).toBe(a.body.slug);
    expect(row?.slug).toMatch(/^quizbaren-/);
    expect(await getDataVersion(testDb())).toBeGreaterThan(before);
    const roles = await testDb().select().from(userRoles).where(eq(userRoles.userId, user.id));
    expect(roles.map((r) => r.role)).toEqual(['admin']);
    // Same name again: a second business with another slug.
    const b = await callJson('/api/owner/venues', { cookie: user.cookie, body: { name } });
    expect(b.status).toBe(201);
    expect(b.body.slug).toBe(`${a.body.slug}-2`);
    const dash = await callJson('/api/owner/dashboard', { cookie: user.cookie });
    expect(dash.body.venue.id).toBe(a.body.id);
  });

  it('concurrent creates with the same name all succeed with distinct slugs', async () => {
    const user = await createUser();
    const name = `Samtidigt ${unique('c')}`;
    const results = await Promise.all([1, 2, 3, 4].map(() => callJson('/api/owner/venues', { cookie: user.cookie, body: { name } })));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(results.map((r) => r.body.slug)).size).toBe(4);
  });

  it('a name without letters still gets a slug', async () => {
    const user = await createUser();
    const res = await callJson('/api/owner/venues', { cookie: user.cookie, body: { name: '!!!' } });
    expect(res.status).toBe(201);
    expect(res.body.slug).toMatch(/^verksamhet/);
  });

  it('bad input: 400 naming the field, nothing stored', async () => {
    const user = await createUser();
    const before = await snapshot(TABLES);
    for (const body of [{ name: '   ' }, {}, { name: 'x'.repeat(500) }, { name: 42 }]) {
      const res = await callJson('/api/owner/venues', { cookie: user.cookie, body });
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_input');
      expect(res.body.error.message).toContain('Namn');
    }
    expect(await snapshot(TABLES)).toEqual(before);
  });

  it('visitor: 401 with the spec text, nothing stored', async () => {
    const before = await snapshot(TABLES);
    const res = await callJson('/api/owner/venues', { body: { name: 'Smygpuben' } });
    expect(res.status).toBe(401);
    expect(res.body.error.message).toBe('Du måste vara inloggad för att skapa en verksamhet');
    expect(await snapshot(TABLES)).toEqual(before);
  });

  it('cross-site request refused, nothing stored', async () => {
    const user = await createUser();
    const before = await snapshot(TABLES);
    const res = await callJson('/api/owner/venues', { cookie: user.cookie, body: { name: 'Evil' }, headers: { origin: 'https://evil.example' } });
    expect(res.status).toBe(403);
    expect(await snapshot(TABLES)).toEqual(before);
  });
});

describe('POST /api/owner/venues/register (/admin/create-venue)', () => {
  it('creates the business and its first place in one go', async () => {
    const user = await createUser();
    const before = await getDataVersion(testDb());
    const res = await callJson('/api/owner/venues/register', {
      cookie: user.cookie,
      body: { name: 'Kvarterskrogen Örat', address: 'Ågatan 3', city: 'Västerås', phone: '', description: 'Tisdagsquiz' },
    });
    expect(res.status).toBe(201);
    expect(res.body.venue).toMatchObject({ name: 'Kvarterskrogen Örat', address: 'Ågatan 3', city: 'Västerås', phone: null, description: 'Tisdagsquiz' });
    expect(res.body.venue.slug).toMatch(/^kvarterskrogen-orat/);
    const loc = await locationRow(res.body.locationId);
    expect(loc).toMatchObject({ venueId: res.body.venue.id, name: 'Kvarterskrogen Örat', city: 'Västerås', citySlug: 'vasteras', phone: null });
    expect(await getDataVersion(testDb())).toBeGreaterThan(before);
  });

  it('bad input (name, address or city missing; bad phone): 400, nothing stored', async () => {
    const user = await createUser();
    const before = await snapshot(TABLES);
    const good = { name: 'A', address: 'B', city: 'Lund' };
    for (const [body, field] of [
      [{ ...good, name: '' }, 'Namn'],
      [{ ...good, address: '' }, 'Adress'],
      [{ name: 'A', address: 'B' }, 'Stad'],
      [{ ...good, phone: 'ring mig' }, 'Telefon'],
    ] as const) {
      const res = await callJson('/api/owner/venues/register', { cookie: user.cookie, body });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect(await snapshot(TABLES)).toEqual(before);
  });

  it('visitor: 401, nothing stored', async () => {
    const before = await snapshot(TABLES);
    const res = await callJson('/api/owner/venues/register', { body: { name: 'A', address: 'B', city: 'Lund' } });
    expect(res.status).toBe(401);
    expect(await snapshot(TABLES)).toEqual(before);
  });
});

describe('PATCH /api/owner/venues/:id (Verksamhet tab)', () => {
  it('owner updates every field; empty → null; website normalised; rename gives a new slug; version bumped', async () => {
    const { user, venue } = await createOwnerWithPlace();
    const before = await getDataVersion(testDb());
    const name = `Nya Namnet ${unique('r')}`;
    const res = await callJson(`/api/owner/venues/${venue.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      body: venueBody({ name, description: '', phone: '', website: 'www.nyanamnet.se', isPublic: false }),
    });
    expect(res.status).toBe(200);
    const row = await venueRow(venue.id);
    expect(row).toMatchObject({ name, description: null, phone: null, website: 'https://www.nyanamnet.se', isPublic: false, city: 'Malmö' });
    expect(row?.slug.startsWith('nya-namnet-')).toBe(true);
    expect(await getDataVersion(testDb())).toBeGreaterThan(before);
  });

  it('same name keeps the slug', async () => {
    const user = await createUser();
    const venue = (await callJson('/api/owner/venues', { cookie: user.cookie, body: { name: `Samma ${unique('s')}` } })).body;
    const res = await callJson(`/api/owner/venues/${venue.id}`, { method: 'PATCH', cookie: user.cookie, body: venueBody({ name: venue.name }) });
    expect(res.status).toBe(200);
    expect((await venueRow(venue.id))?.slug).toBe(venue.slug);
  });

  it('bad input: 400, nothing changed', async () => {
    const { user, venue } = await createOwnerWithPlace();
    const before = await snapshot(TABLES);
    for (const body of [venueBody({ name: '' }), venueBody({ website: 'inte en adress' }), venueBody({ isPublic: 'ja' }), venueBody({ phone: 'abc' })]) {
      const res = await callJson(`/api/owner/venues/${venue.id}`, { method: 'PATCH', cookie: user.cookie, body });
      expect(res.status).toBe(400);
    }
    expect(await snapshot(TABLES)).toEqual(before);
  });

  it('visitor 401, another owner 403, unknown 404 — nothing changed', async () => {
    const { venue } = await createOwnerWithPlace();
    const stranger = await createUser();
    const before = await snapshot(TABLES);
    expect((await callJson(`/api/owner/venues/${venue.id}`, { method: 'PATCH', body: venueBody() })).status).toBe(401);
    expect((await callJson(`/api/owner/venues/${venue.id}`, { method: 'PATCH', cookie: stranger.cookie, body: venueBody() })).status).toBe(403);
    expect((await callJson(`/api/owner/venues/${unique('nope')}`, { method: 'PATCH', cookie: stranger.cookie, body: venueBody() })).status).toBe(404);
    expect(await snapshot(TABLES)).toEqual(before);
  });

  it('superadmin may edit any business', async () => {
    const { venue } = await createOwnerWithPlace();
    const admin = await createUser({ roles: ['superadmin'] });
    const res = await callJson(`/api/owner/venues/${venue.id}`, {
      method: 'PATCH',
      cookie: admin.cookie,
      body: venueBody({ name: venue.name, description: 'Av admin' }),
    });
    expect(res.status).toBe(200);
    expect((await venueRow(venue.id))?.description).toBe('Av admin');
    expect((await venueRow(venue.id))?.userId).toBe(venue.userId);
  });
});

describe('places: POST /api/owner/venues/:id/locations, PATCH and DELETE /api/owner/locations/:id', () => {
  it('owner adds a place: city slug derived, website normalised, coordinates optional and stored', async () => {
    const { user, venue } = await createOwnerWithPlace();
    const before = await getDataVersion(testDb());
    const a = await callJson(`/api/owner/venues/${venue.id}/locations`, { cookie: user.cookie, body: placeBody({ phone: '', website: '' }) });
    expect(a.status).toBe(201);
    expect(await locationRow(a.body.id)).toMatchObject({
      venueId: venue.id,
      city: 'Göteborg',
      citySlug: 'goteborg',
      phone: null,
      website: null,
      latitude: null,
      longitude: null,
    });
    const b = await callJson(`/api/owner/venues/${venue.id}/locations`, { cookie: user.cookie, body: placeBody({ latitude: '57,7089', longitude: 11.9746 }) });
    expect(b.status).toBe(201);
    expect(await locationRow(b.body.id)).toMatchObject({ latitude: 57.7089, longitude: 11.9746, website: 'https://www.puben.se', phone: '031-123 45 67' });
    expect(await getDataVersion(testDb())).toBeGreaterThan(before);
  });

  it('bad input (required fields, half a coordinate, out of range): 400, nothing stored', async () => {
    const { user, venue } = await createOwnerWithPlace();
    const before = await snapshot(TABLES);
    for (const [body, field] of [
      [placeBody({ name: '' }), 'Namn'],
      [placeBody({ address: ' ' }), 'Adress'],
      [placeBody({ city: undefined }), 'Stad'],
      [placeBody({ latitude: 59.3 }), 'Longitud'],
      [placeBody({ latitude: 120, longitude: 18 }), 'Latitud'],
      [placeBody({ latitude: 'norr', longitude: 18 }), 'Latitud'],
      [placeBody({ longitude: 18 }), 'Latitud'],
      [placeBody({ latitude: 40.4168, longitude: 18 }), 'Latitud ligger utanför Sverige'],
      [placeBody({ latitude: 59.3, longitude: -3.7 }), 'Longitud ligger utanför Sverige'],
      [placeBody({ latitude: 59.3, longitude: 181 }), 'Longitud'],
      [placeBody({ website: 'nej' }), 'Webbplats'],
    ] as const) {
      const res = await callJson(`/api/owner/venues/${venue.id}/locations`, { cookie: user.cookie, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    expect(await snapshot(TABLES)).toEqual(before);
  });

  it('add: visitor 401, another owner’s business 403, unknown business 404 — nothing stored; superadmin may', async () => {
    const { venue } = await createOwnerWithPlace();
    const stranger = await createUser();
    const before = await snapshot(TABLES);
    expect((await callJson(`/api/owner/venues/${venue.id}/locations`, { body: placeBody() })).status).toBe(401);
    expect((await callJson(`/api/owner/venues/${venue.id}/locations`, { cookie: stranger.cookie, body: placeBody() })).status).toBe(403);
    expect((await callJson(`/api/owner/venues/${unique('nope')}/locations`, { cookie: stranger.cookie, body: placeBody() })).status).toBe(404);
    expect(await snapshot(TABLES)).toEqual(before);
    const admin = await createUser({ roles: ['superadmin'] });
    const res = await callJson(`/api/owner/venues/${venue.id}/locations`, { cookie: admin.cookie, body: placeBody() });
    expect(res.status).toBe(201);
    expect((await locationRow(res.body.id))?.venueId).toBe(venue.id);
  });

  it('edit: owner changes every field and clears coordinates; version bumped', async () => {
    const { user, location } = await createOwnerWithPlace();
    await testDb().update(locations).set({ latitude: 1, longitude: 2 }).where(eq(locations.id, location.id));
    const before = await getDataVersion(testDb());
    const res = await callJson(`/api/owner/locations/${location.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      body: placeBody({ name: 'Omdöpt', city: 'Örebro', latitude: '', longitude: null }),
    });
    expect(res.status).toBe(200);
    expect(await locationRow(location.id)).toMatchObject({ name: 'Omdöpt', city: 'Örebro', citySlug: 'orebro', latitude: null, longitude: null });
    expect(await getDataVersion(testDb())).toBeGreaterThan(before);
  });

  it('edit: bad input 400, visitor 401, another owner 403, unknown 404 — nothing changed; superadmin may', async () => {
    const { user, location } = await createOwnerWithPlace();
    const stranger = await createUser();
    const before = await snapshot(TABLES);
    expect((await callJson(`/api/owner/locations/${location.id}`, { method: 'PATCH', cookie: user.cookie, body: placeBody({ city: '' }) })).status).toBe(400);
    expect((await callJson(`/api/owner/locations/${location.id}`, { method: 'PATCH', body: placeBody() })).status).toBe(401);
    expect((await callJson(`/api/owner/locations/${location.id}`, { method: 'PATCH', cookie: stranger.cookie, body: placeBody() })).status).toBe(403);
    expect((await callJson(`/api/owner/locations/${unique('nope')}`, { method: 'PATCH', cookie: user.cookie, body: placeBody() })).status).toBe(404);
    expect(await snapshot(TABLES)).toEqual(before);
    const admin = await createUser({ roles: ['superadmin'] });
    expect(
      (await callJson(`/api/owner/locations/${location.id}`, { method: 'PATCH', cookie: admin.cookie, body: placeBody({ name: 'Admin-namn' }) })).status,
    ).toBe(200);
    expect((await locationRow(location.id))?.name).toBe('Admin-namn');
  });

  it('delete: removes the place and its quizzes, reports the count, bumps the version', async () => {
    const { user, venue, location } = await createOwnerWithPlace();
    const keep = await createLocation(venue.id);
    await createQuiz(location.id);
    await createQuiz(location.id, { date: '2030-01-08' });
    const kept = await createQuiz(keep.id);
    const before = await getDataVersion(testDb());
    const res = await callJson(`/api/owner/locations/${location.id}`, { method: 'DELETE', cookie: user.cookie });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ deletedQuizzes: 2 });
    expect(await locationRow(location.id)).toBeUndefined();
    expect(await testDb().select().from(quizzes).where(eq(quizzes.locationId, location.id))).toEqual([]);
    expect((await testDb().select().from(quizzes).where(eq(quizzes.id, kept.id))).length).toBe(1);
    expect(await getDataVersion(testDb())).toBeGreaterThan(before);
  });

  it('delete: visitor 401, another owner 403, unknown 404 — nothing changed; superadmin may', async () => {
    const { location } = await createOwnerWithPlace();
    await createQuiz(location.id);
    const stranger = await createUser();
    const before = await snapshot(TABLES);
    expect((await callJson(`/api/owner/locations/${location.id}`, { method: 'DELETE' })).status).toBe(401);
    expect((await callJson(`/api/owner/locations/${location.id}`, { method: 'DELETE', cookie: stranger.cookie })).status).toBe(403);
    expect((await callJson(`/api/owner/locations/${unique('nope')}`, { method: 'DELETE', cookie: stranger.cookie })).status).toBe(404);
    expect(await snapshot(TABLES)).toEqual(before);
    const admin = await createUser({ roles: ['superadmin'] });
    expect((await callJson(`/api/owner/locations/${location.id}`, { method: 'DELETE', cookie: admin.cookie })).status).toBe(200);
    expect(await locationRow(location.id)).toBeUndefined();
  });
});

describe('GET/PUT /api/owner/profile (Kontakt tab)', () => {
  it('reads nulls at first, saves, and stores empty fields as null', async () => {
    const user = await createUser();
    expect((await callJson('/api/owner/profile', { cookie: user.cookie })).body).toEqual({ firstName: null, lastName: null, phone: null });
    const put = await callJson('/api/owner/profile', {
      method: 'PUT',
      cookie: user.cookie,
      body: { firstName: ' Anna ', lastName: 'Svensson', phone: '070-123 45 67' },
    });
    expect(put.status).toBe(200);
    expect((await callJson('/api/owner/profile', { cookie: user.cookie })).body).toEqual({ firstName: 'Anna', lastName: 'Svensson', phone: '070-123 45 67' });
    await callJson('/api/owner/profile', { method: 'PUT', cookie: user.cookie, body: { firstName: '', lastName: '  ', phone: '' } });
    const [row] = await testDb().select().from(profiles).where(eq(profiles.userId, user.id));
    expect(row).toMatchObject({ firstName: null, lastName: null, phone: null });
  });

  it('creates the profile row when missing', async () => {
    const user = await createUser();
    await testDb().delete(profiles).where(eq(profiles.userId, user.id));
    expect((await callJson('/api/owner/profile', { method: 'PUT', cookie: user.cookie, body: { firstName: 'Bo' } })).status).toBe(200);
    const [row] = await testDb().select().from(profiles).where(eq(profiles.userId, user.id));
    expect(row?.firstName).toBe('Bo');
  });

  it('bad input 400 and visitor 401, nothing stored; one user cannot touch another’s profile', async () => {
    const user = await createUser();
    const other = await createUser();
    await callJson('/api/owner/profile', { method: 'PUT', cookie: other.cookie, body: { firstName: 'Orörd' } });
    const before = await snapshot(TABLES);
    const bad = await callJson('/api/owner/profile', { method: 'PUT', cookie: user.cookie, body: { phone: 'inget nummer' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Telefon');
    expect((await callJson('/api/owner/profile', { method: 'PUT', body: { firstName: 'X' } })).status).toBe(401);
    expect((await callJson('/api/owner/profile')).status).toBe(401);
    expect(await snapshot(TABLES)).toEqual(before);
    // The endpoint has no user id: a PUT only ever writes the caller's row.
    await callJson('/api/owner/profile', { method: 'PUT', cookie: user.cookie, body: { firstName: 'Jag' } });
    const [row] = await testDb().select().from(profiles).where(eq(profiles.userId, other.id));
    expect(row?.firstName).toBe('Orörd');
  });
});

describe('the city of every owner write: a known Swedish town in its spelling (issue 43.6)', () => {
  /** Each path that writes a city: its request, and where the stored city is read back. */
  const PATHS = {
    register: async (user: { cookie: string }, city: unknown) => {
      const res = await callJson('/api/owner/venues/register', { cookie: user.cookie, body: { name: `Reg ${unique('r')}`, address: 'Storgatan 1', city } });
      return { res, stored: res.status === 201 ? (await locationRow(res.body.locationId))! : null };
    },
    'add place': async (user: { cookie: string }, city: unknown, ids: { venue: string }) => {
      const res = await callJson(`/api/owner/venues/${ids.venue}/locations`, { cookie: user.cookie, body: placeBody({ city }) });
      return { res, stored: res.status === 201 ? (await locationRow(res.body.id))! : null };
    },
    'edit place': async (user: { cookie: string }, city: unknown, ids: { location: string }) => {
      const res = await callJson(`/api/owner/locations/${ids.location}`, { method: 'PATCH', cookie: user.cookie, body: placeBody({ city }) });
      return { res, stored: res.status === 200 ? (await locationRow(ids.location))! : null };
    },
    'edit business': async (user: { cookie: string }, city: unknown, ids: { venue: string }) => {
      const res = await callJson(`/api/owner/venues/${ids.venue}`, { method: 'PATCH', cookie: user.cookie, body: venueBody({ city }) });
      return { res, stored: res.status === 200 ? { city: (await venueRow(ids.venue))!.city } : null };
    },
  };

  for (const [path, write] of Object.entries(PATHS)) {
    it(`${path}: "göteborg", " GOTEBORG " and "Goteborg" are stored as Göteborg`, async () => {
      const { user, venue, location } = await createOwnerWithPlace();
      for (const typed of ['göteborg', ' GOTEBORG ', 'Goteborg']) {
        const { res, stored } = await write(user, typed, { venue: venue.id, location: location.id });
        expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
        // A place stores its town's slug too; the business keeps only the town.
        expect(stored).toMatchObject(path === 'edit business' ? { city: 'Göteborg' } : { city: 'Göteborg', citySlug: 'goteborg' });
      }
    });

    it(`${path}: every hostile city → 400 with a Swedish message naming Stad, nothing stored`, async () => {
      const { user, venue, location } = await createOwnerWithPlace();
      const before = await snapshot(TABLES);
      // The business's town is optional: empty there means "no town" (stored as null), tested above.
      for (const [what, city, message] of HOSTILE_CITIES.filter(([, , m]) => path !== 'edit business' || m !== 'Ange stad')) {
        const { res } = await write(user, city, { venue: venue.id, location: location.id });
        expect(res.status, what).toBe(400);
        expect(res.body.error.message, what).toBe(`Stad: ${message}`);
      }
      expect(await snapshot(TABLES)).toEqual(before);
    });
  }
});
