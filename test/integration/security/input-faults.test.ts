/**
 * Issue 13, faults 1, 6, 8 and 10: found by attacking the running app. Each test failed on the code
 * before its fix (a 500, a 500, a 200 that stored nulls, and a quiz dated 9999-12-31).
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { profiles, quizzes, venues } from '../../../worker/db/schema';
import { call, callJson, createOwnerWithPlace, createUser, snapshot, testDb, unique } from '../../factories';

const CLOCK = '2026-11-23T10:00:00Z';
const QUIZ = { startTime: '19:00', category: 'allmänbildning' };

describe('13.1 long business names (D1 refuses LIKE patterns over 50 bytes)', () => {
  const long = 'Den gamla goda puben vid torget i centrala Stockholm city';
  const longest = `Källarkrogen på Ölandsgatan ${'å'.repeat(40)} ${unique('x')}`.padEnd(120, 'ö').slice(0, 120);

  it('creates, registers and renames businesses whose slugs are over 48 characters, twice each (collision suffix)', async () => {
    const user = await createUser();
    for (const name of [long, long, longest]) {
      const res = await callJson('/api/owner/venues', { method: 'POST', body: { name }, cookie: user.cookie, clock: CLOCK });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const reg = await callJson('/api/owner/venues/register', {
      method: 'POST',
      body: { name: longest, address: 'Storgatan 1', city: 'Västerås' },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(reg.status, JSON.stringify(reg.body)).toBe(201);
    const rows = await testDb().select({ slug: venues.slug, name: venues.name }).from(venues).where(eq(venues.userId, user.id));
    expect(rows).toHaveLength(4);
    expect(new Set(rows.map((r) => r.slug)).size).toBe(4);
    expect(
      rows
        .filter((r) => r.name === long)
        .map((r) => r.slug)
        .sort(),
    ).toEqual(['den-gamla-goda-puben-vid-torget-i-centrala-stockholm-city', 'den-gamla-goda-puben-vid-torget-i-centrala-stockholm-city-2']);

    const first = (await testDb().select({ id: venues.id }).from(venues).where(eq(venues.userId, user.id)))[0]!;
    const renamed = await callJson(`/api/owner/venues/${first.id}`, {
      method: 'PATCH',
      body: { name: `${long} och bar`, isPublic: true },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
  });
});

describe('13.6 control characters are refused with a 400 naming the field', () => {
  it('GET /api/listing?search=a%00b → 400 "Sök: …", not a 500', async () => {
    const res = await callJson('/api/listing?search=a%00b', { clock: CLOCK });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_input');
    expect(res.body.error.message).toMatch(/^Sök: .*kontrolltecken/);
  });

  it('GET /?search=quiz%00 renders the page (the bad filter is ignored), not a 500', async () => {
    const res = await call('/?search=quiz%00', { clock: CLOCK });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<html');
  });

  it('a JSON body with NUL in a text field → 400 naming it, nothing stored', async () => {
    const { user } = await createOwnerWithPlace();
    const before = await snapshot(['profiles']);
    const res = await callJson('/api/owner/profile', {
      method: 'PUT',
      body: { firstName: 'Anna\u0000', lastName: 'Berg', phone: '' },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/kontrolltecken/);
    expect(res.body.error.issues[0].path).toBe('firstName');
    expect(await snapshot(['profiles'])).toEqual(before);
  });

  it('line breaks stay allowed in multi-line text (a description)', async () => {
    const { user, venue } = await createOwnerWithPlace();
    const res = await callJson(`/api/owner/venues/${venue.id}`, {
      method: 'PATCH',
      body: { name: venue.name, isPublic: true, description: 'Rad ett\nRad två\ttab' },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
  });
});

describe('43.5 one text rule for every way in', () => {
  it('a form refuses BEL, ESC and NEL with 400 naming the field (nothing stored), and stores the text it accepts as NFC', async () => {
    const { user, venue } = await createOwnerWithPlace();
    const patch = (body: Record<string, unknown>) =>
      callJson(`/api/owner/venues/${venue.id}`, { method: 'PATCH', body: { name: venue.name, isPublic: true, ...body }, cookie: user.cookie, clock: CLOCK });
    for (const [field, value, label] of [
      ['description', 'Quiz\u0007kväll', 'Beskrivning'],
      ['description', 'Rad ett\u0085rad två', 'Beskrivning'],
      ['name', 'Puben \u001b[31mröd', 'Namn'],
    ] as const) {
      const before = await snapshot(['venues']);
      const res = await patch({ [field]: value });
      expect(res.status, value).toBe(400);
      expect(res.body.error.message).toBe(`${label}: Får inte innehålla kontrolltecken`);
      expect(res.body.error.issues[0].path).toBe(field);
      expect(await snapshot(['venues'])).toEqual(before);
    }
    const ok = await patch({ description: 'Kva\u0308llsquiz pa\u030a O\u0308land' });
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const [row] = await testDb().select({ description: venues.description }).from(venues).where(eq(venues.id, venue.id));
    expect(row!.description).toBe('Kvällsquiz på Öland');
  });
});

describe('13.8 a JSON endpoint answers 415 for another content type', () => {
  it('PUT /api/owner/profile as text/plain or a form → 415, the profile keeps its values', async () => {
    const { user } = await createOwnerWithPlace();
    const ok = await callJson('/api/owner/profile', {
      method: 'PUT',
      body: { firstName: 'Anna', lastName: 'Berg', phone: '0701234567' },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(ok.status).toBe(200);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'text/plain;charset=UTF-8']) {
      const res = await callJson('/api/owner/profile', {
        method: 'PUT',
        body: JSON.stringify({ firstName: 'Anna', lastName: 'Berg', phone: '0701234567' }),
        headers: { 'content-type': type },
        cookie: user.cookie,
        clock: CLOCK,
      });
      expect(res.status, type).toBe(415);
      expect(res.body.error.code).toBe('unsupported_media_type');
    }
    const noType = await call('/api/owner/profile', { method: 'PUT', cookie: user.cookie, clock: CLOCK });
    expect(noType.status).toBe(415);
    const [row] = await testDb().select().from(profiles).where(eq(profiles.userId, user.id));
    expect(row).toMatchObject({ firstName: 'Anna', lastName: 'Berg', phone: '0701234567' });
  });

  it('application/json with a charset still works', async () => {
    const { user } = await createOwnerWithPlace();
    const res = await callJson('/api/owner/profile', {
      method: 'PUT',
      body: JSON.stringify({ firstName: 'Bo' }),
      headers: { 'content-type': 'application/json; charset=utf-8' },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(res.status).toBe(200);
  });
});

describe('13.10 a single quiz is dated at most three years ahead, like a series end', () => {
  it('create and edit refuse 9999-12-31 with a Swedish message naming the date; three years ahead is fine', async () => {
    const { user, location } = await createOwnerWithPlace();
    const before = await snapshot(['quizzes']);
    const far = await callJson('/api/owner/quizzes', {
      method: 'POST',
      body: { ...QUIZ, locationId: location.id, date: '9999-12-31', recurring: false },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(far.status).toBe(400);
    expect(far.body.error.message).toBe('Datum: Datumet får ligga högst tre år fram');
    expect(far.body.error.issues[0].path).toBe('date');
    const series = await callJson('/api/owner/quizzes', {
      method: 'POST',
      body: { ...QUIZ, locationId: location.id, date: '2031-01-01', recurring: true },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(series.status).toBe(400);
    expect(await snapshot(['quizzes'])).toEqual(before);

    const ok = await callJson('/api/owner/quizzes', {
      method: 'POST',
      body: { ...QUIZ, locationId: location.id, date: '2029-11-20', recurring: false },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const id = ok.body.firstId as string;
    const edit = await callJson(`/api/owner/quizzes/${id}`, { method: 'PATCH', body: { ...QUIZ, date: '9999-12-31' }, cookie: user.cookie, clock: CLOCK });
    expect(edit.status).toBe(400);
    const [row] = await testDb().select({ date: quizzes.date }).from(quizzes).where(eq(quizzes.id, id));
    expect(row!.date).toBe('2029-11-20');
  });
});
