import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { getDataVersion } from '../../worker/lib/data-version';
import { callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, uniqueTown } from '../factories';

/** Clock pinned to Tuesday 2030-01-08 10:00 Stockholm. */
const CLOCK = '2030-01-08T09:00:00Z';
const TODAY = '2030-01-08';

/** An owner whose session is valid at `clock` (sessions are checked against the pinned clock). */
async function owner(clock = CLOCK) {
  const user = await createUser({ now: new Date(clock) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city: uniqueTown() });
  return { user, venue, location };
}
const otherUser = (opts: { roles?: Array<'admin' | 'superadmin'> } = {}) => createUser({ ...opts, now: new Date(CLOCK) });

const single = (locationId: string, over: Record<string, unknown> = {}) => ({
  locationId,
  date: '2030-01-15',
  startTime: '19:30',
  category: 'allmänbildning',
  recurring: false,
  ...over,
});

async function rowsAt(locationId: string) {
  return testDb().all<Record<string, any>>(sql`SELECT * FROM quizzes WHERE location_id = ${locationId} ORDER BY date`);
}

describe('POST /api/owner/quizzes', () => {
  it('creates a single quiz and bumps the public data version', async () => {
    const { user, location } = await owner();
    const v0 = await getDataVersion(testDb());
    const { status, body } = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: single(location.id, { quizmaster: 'Kim', teamSize: 4, price: 40, description: 'Bra quiz', category: 'tema', theme: 'Film & TV' }),
    });
    expect(status).toBe(201);
    expect(body).toMatchObject({ created: 1, recurrenceId: null });
    const rows = await rowsAt(location.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      date: '2030-01-15',
      start_time: '19:30:00',
      category: 'tema',
      theme: 'Film & TV',
      quizmaster: 'Kim',
      team_size: 4,
      price: 40,
      is_recurring: 0,
      recurrence_id: null,
    });
    expect(await getDataVersion(testDb())).toBeGreaterThan(v0);
  });

  it('creates a weekly series on two weekdays in one batch with one recurrence id (forever = 180 days)', async () => {
    const { user, location } = await owner();
    const { status, body } = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: {
        ...single(location.id),
        recurring: true,
        pattern: 'weekly',
        days: ['tisdag', 'torsdag'],
        date: '2030-01-08',
        category: 'tema',
        theme: 'Annat',
        customTheme: 'Historia',
      },
    });
    expect(status).toBe(201);
    const rows = await rowsAt(location.id);
    expect(body.created).toBe(rows.length);
    expect(rows.length).toBe(52); // 26 Tuesdays + 26 Thursdays in 180 days
    expect(new Set(rows.map((r) => r.recurrence_id))).toEqual(new Set([body.recurrenceId]));
    expect(rows[0]).toMatchObject({ date: '2030-01-08', theme: 'Historia', is_recurring: 1, recurrence_pattern: 'weekly', recurrence_until: null });
    expect(JSON.parse(rows[0]!.recurrence_days)).toEqual(['tisdag', 'torsdag']);
    expect(rows.at(-1)!.date <= '2030-07-07').toBe(true);
    expect(rows.every((r) => [2, 4].includes(r.weekday))).toBe(true);
  });

  it('the largest series (every weekday, forever) is created in one batch: 181 rows, none twice', async () => {
    const { user, location } = await owner();
    const days = ['måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag'];
    const { status, body } = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: { ...single(location.id), date: TODAY, recurring: true, days },
    });
    expect(status).toBe(201);
    const rows = await rowsAt(location.id);
    expect(body.created).toBe(181);
    expect(rows).toHaveLength(181);
    expect(new Set(rows.map((r) => r.date)).size).toBe(181);
    expect(rows.at(-1)!.date).toBe('2030-07-07');
  });

  it('biweekly until a date; days default to the start weekday', async () => {
    const { user, location } = await owner();
    const { body } = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: { ...single(location.id), recurring: true, pattern: 'biweekly', date: '2030-01-10', until: '2030-02-21' },
    });
    expect(body.created).toBe(4);
    expect((await rowsAt(location.id)).map((r) => r.date)).toEqual(['2030-01-10', '2030-01-24', '2030-02-07', '2030-02-21']);
  });

  it('series dates stay on the weekday across the autumn daylight-saving switch', async () => {
    const { user, location } = await owner('2026-10-20T22:30:00Z');
    await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: '2026-10-20T22:30:00Z', // 2026-10-21 00:30 in Stockholm
      body: { ...single(location.id), recurring: true, date: '2026-10-21', until: '2026-11-04', days: ['onsdag', 'söndag'] },
    });
    expect((await rowsAt(location.id)).map((r) => r.date)).toEqual(['2026-10-21', '2026-10-25', '2026-10-28', '2026-11-01', '2026-11-04']);
  });

  it('bad input is refused with a Swedish message naming the field, and nothing is stored', async () => {
    const { user, location } = await owner();
    const before = await snapshot(['quizzes', 'public_data_version']);
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [single(location.id, { category: 'tema' }), /Tema/],
      [single(location.id, { category: 'tema', theme: 'Annat' }), /Eget tema/],
      [single(location.id, { teamSize: 7 }), /Lagstorlek/],
      [single(location.id, { startTime: '25:00' }), /Starttid/],
      [single(location.id, { date: '2030-02-30' }), /Datum/],
      [single(location.id, { date: '2030-01-07' }), /förflutna/],
      [single(location.id, { recurring: true, until: '2030-01-14' }), /Slutdatum/],
      [single(location.id, { price: -5 }), /Pris/],
      [single(location.id, { recurring: true, days: ['fredag'], until: '2030-01-16', date: '2030-01-15' }), /Veckodagar/],
    ];
    for (const [body, msg] of cases) {
      const res = await callJson('/api/owner/quizzes', { cookie: user.cookie, clock: CLOCK, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message).toMatch(msg);
    }
    expect(await snapshot(['quizzes', 'public_data_version'])).toEqual(before);
  });

  it("another owner's place: 403 'Lokal ej tillgänglig'; unknown: 404 'Ingen lokal hittad'; signed out: 401", async () => {
    const { location } = await owner();
    const other = await otherUser();
    const before = await snapshot(['quizzes']);
    const forbidden = await callJson('/api/owner/quizzes', { cookie: other.cookie, clock: CLOCK, body: single(location.id) });
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.error.message).toBe('Lokal ej tillgänglig');
    const missing = await callJson('/api/owner/quizzes', { cookie: other.cookie, clock: CLOCK, body: single('no-such-place') });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Ingen lokal hittad');
    expect((await callJson('/api/owner/quizzes', { clock: CLOCK, body: single(location.id) })).status).toBe(401);
    expect(await snapshot(['quizzes'])).toEqual(before);
  });

  it('a superadmin may create at any place', async () => {
    const { location } = await owner();
    const admin = await otherUser({ roles: ['admin', 'superadmin'] });
    expect((await callJson('/api/owner/quizzes', { cookie: admin.cookie, clock: CLOCK, body: single(location.id) })).status).toBe(201);
  });
});

describe('GET /api/owner/locations/:id/quizzes', () => {
  it('groups upcoming singles and series, with the promotion state (premium beats recommended)', async () => {
    const { user, location } = await owner();
    const db = testDb();
    const past = await createQuiz(location.id, { date: '2030-01-01' });
    const s1 = await createQuiz(location.id, { date: '2030-01-20', quizmaster: 'Ada' });
    const s2 = await createQuiz(location.id, { date: '2030-01-21' });
    const rid = unique('rid');
    const o1 = await createQuiz(location.id, {
      date: '2030-01-09',
      isRecurring: true,
      recurrenceId: rid,
      recurrencePattern: 'weekly',
      recurrenceDays: '["onsdag"]',
    });
    await createQuiz(location.id, { date: '2030-01-02', isRecurring: true, recurrenceId: rid });
    await createQuiz(location.id, { date: '2030-01-16', isRecurring: true, recurrenceId: rid });
    const promo = (quizId: string, type: string, start: string, end: string, status = 'active') =>
      db.run(
        sql`INSERT INTO promotions (id, quiz_id, product_type, status, start_date, end_date) VALUES (${unique('p')}, ${quizId}, ${type}, ${status}, ${start}, ${end})`,
      );
    await promo(s1.id, 'recommended', '2030-01-08', '2030-01-22');
    await promo(s1.id, 'premium', '2030-01-08', '2030-01-22');
    await promo(s2.id, 'premium', '2030-01-01', '2030-01-07'); // expired
    await promo(o1.id, 'recommended', '2030-01-08', '2030-01-14');
    const { status, body } = await callJson(`/api/owner/locations/${location.id}/quizzes`, { cookie: user.cookie, clock: CLOCK });
    expect(status).toBe(200);
    expect(body.today).toBe(TODAY);
    expect(body.singles.map((q: any) => [q.id, q.promotion])).toEqual([
      [s1.id, 'premium'],
      [s2.id, null],
    ]);
    expect(body.singles.some((q: any) => q.id === past.id)).toBe(false);
    expect(body.series).toHaveLength(1);
    expect(body.series[0]).toMatchObject({ recurrenceId: rid, totalCount: 3, days: ['onsdag'] });
    expect(body.series[0].occurrences.map((q: any) => [q.date, q.promotion])).toEqual([
      ['2030-01-09', 'recommended'],
      ['2030-01-16', null],
    ]);
  });

  it("another owner's place is 403, unknown 404, signed out 401", async () => {
    const { location } = await owner();
    const other = await otherUser();
    expect((await callJson(`/api/owner/locations/${location.id}/quizzes`, { cookie: other.cookie })).status).toBe(403);
    expect((await callJson(`/api/owner/locations/nope/quizzes`, { cookie: other.cookie })).status).toBe(404);
    expect((await callJson(`/api/owner/locations/${location.id}/quizzes`)).status).toBe(401);
  });
});

describe('one quiz: read, edit, convert, cancel, delete', () => {
  const edit = (over: Record<string, unknown> = {}) => ({
    date: '2030-01-15',
    startTime: '20:00',
    category: 'allmänbildning',
    quizmaster: 'Bo',
    teamSize: 6,
    price: 25,
    description: 'Ny',
    ...over,
  });

  it('GET returns the quiz, its place and the series count', async () => {
    const { user, location } = await owner();
    const rid = unique('rid');
    const q = await createQuiz(location.id, { date: '2030-01-09', isRecurring: true, recurrenceId: rid });
    await createQuiz(location.id, { date: '2030-01-16', isRecurring: true, recurrenceId: rid });
    const { status, body } = await callJson(`/api/owner/quizzes/${q.id}`, { cookie: user.cookie, clock: CLOCK });
    expect(status).toBe(200);
    expect(body).toMatchObject({ quiz: { id: q.id, recurrenceId: rid }, location: { id: location.id }, seriesCount: 2 });
  });

  it('PATCH edits only this occurrence of a series', async () => {
    const { user, location } = await owner();
    const rid = unique('rid');
    const a = await createQuiz(location.id, { date: '2030-01-15', isRecurring: true, recurrenceId: rid, quizmaster: 'Gammal' });
    const b = await createQuiz(location.id, { date: '2030-01-22', isRecurring: true, recurrenceId: rid, quizmaster: 'Gammal' });
    const { status } = await callJson(`/api/owner/quizzes/${a.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: edit({ category: 'tema', theme: 'Sport' }),
    });
    expect(status).toBe(200);
    const rows = await rowsAt(location.id);
    expect(rows.find((r) => r.id === a.id)).toMatchObject({
      start_time: '20:00:00',
      quizmaster: 'Bo',
      theme: 'Sport',
      team_size: 6,
      price: 25,
      recurrence_id: rid,
    });
    expect(rows.find((r) => r.id === b.id)).toMatchObject({ quizmaster: 'Gammal', recurrence_id: rid });
  });

  it('PATCH moving an occurrence onto a date the series already has is a 409 and changes nothing', async () => {
    const { user, location } = await owner();
    const rid = unique('rid');
    const a = await createQuiz(location.id, { date: '2030-01-15', isRecurring: true, recurrenceId: rid });
    await createQuiz(location.id, { date: '2030-01-22', isRecurring: true, recurrenceId: rid });
    const before = await snapshot(['quizzes']);
    const res = await callJson(`/api/owner/quizzes/${a.id}`, { method: 'PATCH', cookie: user.cookie, clock: CLOCK, body: edit({ date: '2030-01-22' }) });
    expect(res.status).toBe(409);
    expect(await snapshot(['quizzes'])).toEqual(before);
  });

  it('single → recurring creates a new weekly series from the quiz', async () => {
    const { user, location } = await owner();
    const q = await createQuiz(location.id, { date: '2030-01-15' });
    const { body } = await callJson(`/api/owner/quizzes/${q.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: edit({ recurring: true, until: '2030-02-05' }),
    });
    expect(body.recurrenceId).toBeTruthy();
    const rows = await rowsAt(location.id);
    expect(rows.map((r) => r.date)).toEqual(['2030-01-15', '2030-01-22', '2030-01-29', '2030-02-05']);
    expect(rows.every((r) => r.recurrence_id === body.recurrenceId && r.recurrence_pattern === 'weekly' && r.quizmaster === 'Bo')).toBe(true);
    expect(rows[0]!.id).toBe(q.id);
  });

  it('recurring → single keeps this quiz and deletes the other occurrences', async () => {
    const { user, location } = await owner();
    const rid = unique('rid');
    const a = await createQuiz(location.id, { date: '2030-01-15', isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
    await createQuiz(location.id, { date: '2030-01-22', isRecurring: true, recurrenceId: rid });
    await createQuiz(location.id, { date: '2030-01-29', isRecurring: true, recurrenceId: rid });
    const { body } = await callJson(`/api/owner/quizzes/${a.id}`, { method: 'PATCH', cookie: user.cookie, clock: CLOCK, body: edit({ recurring: false }) });
    expect(body.deleted).toBe(2);
    const rows = await rowsAt(location.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: a.id, is_recurring: 0, recurrence_id: null, recurrence_pattern: null });
  });

  it('cancel and undo one date', async () => {
    const { user, location } = await owner();
    const q = await createQuiz(location.id, { date: '2030-01-15' });
    const v0 = await getDataVersion(testDb());
    expect((await callJson(`/api/owner/quizzes/${q.id}/cancel`, { cookie: user.cookie, body: { cancelled: true } })).body).toEqual({
      id: q.id,
      isCancelled: true,
    });
    expect((await rowsAt(location.id))[0]!.is_cancelled).toBe(1);
    expect(await getDataVersion(testDb())).toBeGreaterThan(v0);
    await callJson(`/api/owner/quizzes/${q.id}/cancel`, { cookie: user.cookie, body: { cancelled: false } });
    expect((await rowsAt(location.id))[0]!.is_cancelled).toBe(0);
    expect((await callJson(`/api/owner/quizzes/${q.id}/cancel`, { cookie: user.cookie, body: { cancelled: 'ja' } })).status).toBe(400);
  });

  it('DELETE removes one quiz', async () => {
    const { user, location } = await owner();
    const q = await createQuiz(location.id, { date: '2030-01-15' });
    expect((await callJson(`/api/owner/quizzes/${q.id}`, { method: 'DELETE', cookie: user.cookie })).body).toEqual({ deleted: 1 });
    expect(await rowsAt(location.id)).toHaveLength(0);
    expect((await callJson(`/api/owner/quizzes/${q.id}`, { method: 'DELETE', cookie: user.cookie })).status).toBe(404);
  });

  it("every quiz endpoint with another owner's quiz answers 403 and changes nothing; signed out 401", async () => {
    const { location } = await owner();
    const rid = unique('rid');
    const q = await createQuiz(location.id, { date: '2030-01-15', isRecurring: true, recurrenceId: rid });
    await createQuiz(location.id, { date: '2030-01-22', isRecurring: true, recurrenceId: rid });
    const other = await otherUser();
    const otherVenue = await createVenue(other.id);
    await createLocation(otherVenue.id);
    const before = await snapshot(['quizzes', 'public_data_version']);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/owner/quizzes/${q.id}`],
      ['PATCH', `/api/owner/quizzes/${q.id}`, edit()],
      ['PATCH', `/api/owner/quizzes/${q.id}`, edit({ recurring: false })],
      ['DELETE', `/api/owner/quizzes/${q.id}`],
      ['POST', `/api/owner/quizzes/${q.id}/cancel`, { cancelled: true }],
    ];
    for (const [method, path, body] of attempts) {
      expect((await callJson(path, { method, cookie: other.cookie, clock: CLOCK, body })).status, `${method} ${path}`).toBe(403);
      expect((await callJson(path, { method, clock: CLOCK, body })).status, `${method} ${path} signed out`).toBe(401);
      expect((await callJson(path.replace(q.id, 'missing-id'), { method, cookie: other.cookie, clock: CLOCK, body })).status).toBe(404);
    }
    expect(await snapshot(['quizzes', 'public_data_version'])).toEqual(before);
  });

  it('bad edit input stores nothing', async () => {
    const { user, location } = await owner();
    const q = await createQuiz(location.id, { date: '2030-01-15' });
    const before = await snapshot(['quizzes']);
    for (const body of [edit({ category: 'sport' }), edit({ teamSize: 1 }), edit({ recurring: true, until: '2030-01-01' }), edit({ date: 'imorgon' })]) {
      expect((await callJson(`/api/owner/quizzes/${q.id}`, { method: 'PATCH', cookie: user.cookie, clock: CLOCK, body })).status).toBe(400);
    }
    expect(await snapshot(['quizzes'])).toEqual(before);
  });
});

describe('owner lists', () => {
  it('GET /api/owner/quiz-places lists only the own places; GET /api/owner/quizzes only own upcoming singles', async () => {
    const a = await owner();
    const b = await owner();
    await createQuiz(a.location.id, { date: '2030-01-15' });
    await createQuiz(b.location.id, { date: '2030-01-15' });
    const places = await callJson('/api/owner/quiz-places', { cookie: a.user.cookie });
    expect(places.body.places.map((p: any) => p.id)).toEqual([a.location.id]);
    const singles = await callJson('/api/owner/quizzes', { cookie: a.user.cookie, clock: CLOCK });
    expect(singles.body.quizzes.map((q: any) => q.locationId)).toEqual([a.location.id]);
    expect((await callJson('/api/owner/quiz-places')).status).toBe(401);
  });
});

describe('issue 26.8: dates stay within bounds', () => {
  const addDaysIso = (d: string, n: number) => new Date(Date.parse(`${d}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

  it('PATCH cannot move a quiz into the past (nothing changed); keeping a date is fine', async () => {
    const { user, location } = await owner();
    const quiz = await createQuiz(location.id, { date: '2030-01-15' });
    const before = await snapshot(['quizzes']);
    const res = await callJson(`/api/owner/quizzes/${quiz.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { date: '2030-01-01', startTime: '19:00', category: 'allmänbildning' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0]).toEqual({ path: 'date', message: 'Datumet kan inte vara i det förflutna' });
    expect(await snapshot(['quizzes'])).toEqual(before);
    const same = await callJson(`/api/owner/quizzes/${quiz.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { date: '2030-01-15', startTime: '20:00', category: 'allmänbildning' },
    });
    expect(same.status).toBe(200);
  });

  it('a series starts at most SERIES_HORIZON_DAYS (180) ahead and ends at most three years from today; nothing stored otherwise', async () => {
    const { user, location } = await owner();
    const before = await snapshot(['quizzes']);
    const far = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: single(location.id, { date: addDaysIso(TODAY, 181), recurring: true }),
    });
    expect(far.status).toBe(400);
    expect(far.body.error.issues[0]).toEqual({ path: 'date', message: 'En serie kan börja högst 180 dagar fram' });
    const long = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: single(location.id, { date: addDaysIso(TODAY, 170), recurring: true, until: addDaysIso(TODAY, 170 + 3 * 365) }),
    });
    expect(long.status).toBe(400);
    expect(long.body.error.issues[0]).toEqual({ path: 'until', message: 'Slutdatumet får ligga högst tre år fram från idag' });
    expect(await snapshot(['quizzes'])).toEqual(before);
    // Making a single quiz 200 days out a series is refused too.
    const q = await createQuiz(location.id, { date: addDaysIso(TODAY, 200) });
    const before2 = await snapshot(['quizzes']);
    const convert = await callJson(`/api/owner/quizzes/${q.id}`, {
      method: 'PATCH',
      cookie: user.cookie,
      clock: CLOCK,
      body: { date: q.date, startTime: '19:00', category: 'allmänbildning', recurring: true },
    });
    expect(convert.status).toBe(400);
    expect(await snapshot(['quizzes'])).toEqual(before2);
    const ok = await callJson('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: single(location.id, { date: addDaysIso(TODAY, 180), recurring: true, until: addDaysIso(TODAY, 3 * 365) }),
    });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
  });
});
