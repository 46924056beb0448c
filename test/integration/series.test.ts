import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runScheduledNight } from '../jobs-queue';
import { extensionCandidatesQuery } from '../../worker/features/series/queries';
import { runSeriesExtensionJob, SERIES_JOB } from '../../worker/features/series/service';
import { addDays, isoWeekday } from '../../worker/lib/clock';
import { callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, pinnedClock, uniqueTown } from '../factories';

/**
 * Series: whole-series edits, delete, pause, summaries, extension by button, auto-extension and the
 * nightly job. Each block uses its own far-future year so the cron only ever sees this file's series.
 */
const A = '2031-03-04T09:00:00Z'; // Tuesday 2031-03-04, 10:00 in Stockholm

async function ownerAt(clock = A) {
  const user = await createUser({ now: new Date(clock) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city: uniqueTown() });
  return { user, venue, location };
}
const owner = () => ownerAt(A);

async function createSeries(user: { cookie: string }, locationId: string, over: Record<string, unknown> = {}, clock = A) {
  const res = await callJson('/api/owner/quizzes', {
    cookie: user.cookie,
    clock,
    body: {
      locationId,
      date: '2031-03-04',
      startTime: '19:00',
      category: 'allmänbildning',
      quizmaster: 'Ada',
      recurring: true,
      pattern: 'weekly',
      days: ['tisdag', 'torsdag'],
      ...over,
    },
  });
  expect(res.status).toBe(201);
  return res.body.recurrenceId as string;
}

async function rowsOf(recurrenceId: string) {
  return testDb().all<Record<string, any>>(sql`SELECT * FROM quizzes WHERE recurrence_id = ${recurrenceId} ORDER BY date`);
}

/** Rows of a series built directly (for the cron tests): weekly on the dates' weekdays, open-ended unless told. */
async function seriesRows(locationId: string, recurrenceId: string, dates: string[], over: Record<string, unknown> = {}) {
  for (const date of dates) {
    await createQuiz(locationId, { date, isRecurring: true, recurrenceId, recurrencePattern: 'weekly', recurrenceUntil: null, ...over });
  }
}
const weeklyUntil = (first: string, last: string) => {
  const out: string[] = [];
  for (let d = first; d <= last; d = addDays(d, 7)) out.push(d);
  return out;
};

const seriesEdit = { startTime: '20:30', category: 'tema', theme: 'Musik', quizmaster: 'Bo', teamSize: 4, price: 30, description: 'Ny beskrivning' };

describe('whole series: edit, delete, pause', () => {
  it('PATCH /api/owner/series/:id applies to every future occurrence and leaves past ones', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id);
    const later = '2031-03-20T09:00:00Z';
    const { status, body } = await callJson(`/api/owner/series/${rid}`, { method: 'PATCH', cookie: user.cookie, clock: later, body: seriesEdit });
    expect(status).toBe(200);
    const rows = await rowsOf(rid);
    const past = rows.filter((r) => r.date < '2031-03-20');
    const future = rows.filter((r) => r.date >= '2031-03-20');
    expect(body.updated).toBe(future.length);
    expect(past.length).toBe(5);
    expect(past.every((r) => r.start_time === '19:00:00' && r.quizmaster === 'Ada' && r.category === 'allmänbildning')).toBe(true);
    expect(
      future.every(
        (r) =>
          r.start_time === '20:30:00' &&
          r.quizmaster === 'Bo' &&
          r.theme === 'Musik' &&
          r.team_size === 4 &&
          r.price === 30 &&
          r.description === 'Ny beskrivning',
      ),
    ).toBe(true);
  });

  it('GET /api/owner/series/:id returns the series template and counts', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id, { until: '2031-03-31' });
    const { status, body } = await callJson(`/api/owner/series/${rid}`, { cookie: user.cookie, clock: A });
    expect(status).toBe(200);
    expect(body.series).toMatchObject({
      recurrenceId: rid,
      pattern: 'weekly',
      days: ['tisdag', 'torsdag'],
      until: '2031-03-31',
      count: 8,
      latest: '2031-03-27',
      needsExtension: false,
      locationId: location.id,
    });
  });

  it('DELETE /api/owner/series/:id deletes every occurrence and reports the count', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id, { until: '2031-04-30' });
    const n = (await rowsOf(rid)).length;
    const { body } = await callJson(`/api/owner/series/${rid}`, { method: 'DELETE', cookie: user.cookie, clock: A });
    expect(body).toEqual({ deleted: n });
    expect(await rowsOf(rid)).toHaveLength(0);
    expect((await callJson(`/api/owner/series/${rid}`, { method: 'DELETE', cookie: user.cookie, clock: A })).status).toBe(404);
  });

  it('pause marks a range cancelled (generating it first when it reaches past the latest date); resume undoes it', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id, { days: ['tisdag'] });
    const latest = (await rowsOf(rid)).at(-1)!.date;
    expect(latest).toBe('2031-08-26');
    const pause = await callJson(`/api/owner/series/${rid}/pause`, { cookie: user.cookie, clock: A, body: { from: '2031-06-01', to: '2031-09-30' } });
    expect(pause.status).toBe(200);
    let rows = await rowsOf(rid);
    const inRange = rows.filter((r) => r.date >= '2031-06-01' && r.date <= '2031-09-30');
    expect(inRange.map((r) => r.date).at(-1)).toBe('2031-09-30');
    expect(pause.body.cancelled).toBe(inRange.length);
    expect(inRange.every((r) => r.is_cancelled === 1)).toBe(true);
    expect(rows.filter((r) => r.date < '2031-06-01').every((r) => r.is_cancelled === 0)).toBe(true);
    // The nightly extension continues after the break, not inside it.
    const job = await runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(new Date('2031-09-10T01:15:00Z')) });
    expect(job.complete).toBe(true);
    rows = await rowsOf(rid);
    expect(rows.filter((r) => r.date > '2031-09-30').every((r) => r.is_cancelled === 0)).toBe(true);
    expect(rows.filter((r) => r.date >= '2031-06-01' && r.date <= '2031-09-30').every((r) => r.is_cancelled === 1)).toBe(true);
    const resume = await callJson(`/api/owner/series/${rid}/resume`, { cookie: user.cookie, clock: A, body: { from: '2031-06-01', to: '2031-09-30' } });
    expect(resume.body.restored).toBe(inRange.length);
    expect((await rowsOf(rid)).every((r) => r.is_cancelled === 0)).toBe(true);
  });

  it('pause refuses a range in the past or reversed, storing nothing', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id, { until: '2031-05-01' });
    const before = await snapshot(['quizzes']);
    expect((await callJson(`/api/owner/series/${rid}/pause`, { cookie: user.cookie, clock: A, body: { from: '2031-03-01', to: '2031-03-20' } })).status).toBe(
      400,
    );
    expect((await callJson(`/api/owner/series/${rid}/pause`, { cookie: user.cookie, clock: A, body: { from: '2031-04-01', to: '2031-03-20' } })).status).toBe(
      400,
    );
    expect((await callJson(`/api/owner/series/${rid}`, { method: 'PATCH', cookie: user.cookie, clock: A, body: { ...seriesEdit, teamSize: 9 } })).status).toBe(
      400,
    );
    expect(await snapshot(['quizzes'])).toEqual(before);
  });

  it("every series endpoint with another owner's series answers 403 and changes nothing; missing 404; signed out 401", async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id, { until: '2031-04-30' });
    const other = await ownerAt('2031-08-10T09:00:00Z');
    const before = await snapshot(['quizzes', 'public_data_version']);
    const attempts: Array<[string, string, unknown?]> = [
      ['GET', `/api/owner/series/${rid}`],
      ['PATCH', `/api/owner/series/${rid}`, seriesEdit],
      ['DELETE', `/api/owner/series/${rid}`],
      ['POST', `/api/owner/series/${rid}/extend`],
      ['POST', `/api/owner/series/${rid}/pause`, { from: '2031-04-01', to: '2031-04-10' }],
      ['POST', `/api/owner/series/${rid}/resume`, { from: '2031-04-01', to: '2031-04-10' }],
    ];
    for (const [method, path, body] of attempts) {
      expect((await callJson(path, { method, cookie: other.user.cookie, clock: A, body })).status, `${method} ${path}`).toBe(403);
      expect((await callJson(path, { method, clock: A, body })).status).toBe(401);
      expect((await callJson(path.replace(rid, 'no-such-series'), { method, cookie: other.user.cookie, clock: A, body })).status).toBe(404);
    }
    const list = await callJson('/api/owner/series', { cookie: other.user.cookie, clock: A });
    expect(list.body.series.some((s: any) => s.recurrenceId === rid)).toBe(false);
    expect(
      (await callJson('/api/owner/series/auto-extend', { method: 'POST', cookie: other.user.cookie, clock: '2031-08-10T09:00:00Z' })).body.extendedCount,
    ).toBe(0);
    expect(await snapshot(['quizzes', 'public_data_version'])).toEqual(before);
  });

  it('a superadmin may edit any series and sees all series', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id, { until: '2031-04-30' });
    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(A) });
    expect((await callJson(`/api/owner/series/${rid}`, { method: 'PATCH', cookie: admin.cookie, clock: A, body: seriesEdit })).status).toBe(200);
    const list = await callJson('/api/owner/series', { cookie: admin.cookie, clock: A });
    expect(list.body.series.some((s: any) => s.recurrenceId === rid)).toBe(true);
  });
});

describe('series summaries and extension by the owner', () => {
  const NEAR_END = '2031-08-10T09:00:00Z'; // latest occurrence 2031-08-28 is 18 days away
  // Sessions are checked against the pinned clock: created at NEAR_END they are valid at A and NEAR_END.
  const owner = () => ownerAt(NEAR_END);

  it('GET /api/owner/series: pattern, start time, category, count, latest, days left, needs extension', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id);
    const fresh = await callJson('/api/owner/series', { cookie: user.cookie, clock: A });
    const s = fresh.body.series.find((x: any) => x.recurrenceId === rid);
    expect(s).toMatchObject({
      pattern: 'weekly',
      startTime: '19:00:00',
      category: 'allmänbildning',
      count: 52,
      latest: '2031-08-28',
      needsExtension: false,
      locationName: location.name,
    });
    expect(s.daysLeft).toBe(177);
    const near = await callJson('/api/owner/series', { cookie: user.cookie, clock: NEAR_END });
    expect(near.body.series.find((x: any) => x.recurrenceId === rid)).toMatchObject({ daysLeft: 18, needsExtension: true });
  });

  it('POST /extend adds occurrences up to 180 days ahead; a second press adds nothing', async () => {
    const { user, location } = await owner();
    const rid = await createSeries(user, location.id);
    const first = await callJson(`/api/owner/series/${rid}/extend`, { method: 'POST', cookie: user.cookie, clock: NEAR_END });
    expect(first.status).toBe(200);
    expect(first.body.added).toBeGreaterThan(0);
    const rows = await rowsOf(rid);
    expect(rows.at(-1)!.date <= addDays('2031-08-10', 180)).toBe(true);
    expect(rows.at(-1)!.date > addDays('2031-08-10', 170)).toBe(true);
    expect(new Set(rows.map((r) => r.date)).size).toBe(rows.length);
    expect(rows.every((r) => [2, 4].includes(isoWeekday(r.date)) && r.quizmaster === 'Ada')).toBe(true);
    const second = await callJson(`/api/owner/series/${rid}/extend`, { method: 'POST', cookie: user.cookie, clock: NEAR_END });
    expect(second.body).toEqual({ added: 0, count: rows.length });
  });

  it('POST /auto-extend extends only the own series that need it and returns extendedCount', async () => {
    const { user, location } = await owner();
    const r1 = await createSeries(user, location.id);
    const r2 = await createSeries(user, location.id, { days: ['onsdag'], date: '2031-03-05' });
    const r3 = await createSeries(user, location.id, { until: '2031-04-01' }); // ended: not extended
    const other = await owner();
    const r4 = await createSeries(other.user, other.location.id);
    const before4 = (await rowsOf(r4)).length;
    const res = await callJson('/api/owner/series/auto-extend', { method: 'POST', cookie: user.cookie, clock: NEAR_END });
    expect(res.status).toBe(200);
    expect(res.body.extendedCount).toBe(2);
    expect((await rowsOf(r1)).at(-1)!.date > '2031-09-01').toBe(true);
    expect((await rowsOf(r2)).at(-1)!.date > '2031-09-01').toBe(true);
    expect((await rowsOf(r3)).at(-1)!.date).toBe('2031-04-01');
    expect((await rowsOf(r4)).length).toBe(before4);
    expect((await callJson('/api/owner/series/auto-extend', { method: 'POST', cookie: user.cookie, clock: NEAR_END })).body.extendedCount).toBe(0);
    expect((await callJson('/api/owner/series/auto-extend', { method: 'POST', clock: NEAR_END })).status).toBe(401);
  });
});

describe('nightly series extension (cron)', () => {
  async function place() {
    const user = await createUser();
    const venue = await createVenue(user.id);
    return createLocation(venue.id, { city: uniqueTown() });
  }
  const jobRun = async (id: string) => (await testDb().all<Record<string, any>>(sql`SELECT * FROM job_runs WHERE id = ${id}`))[0]!;

  it('extends open-ended series within 30 days of their end to the 180-day horizon, is idempotent and recorded', async () => {
    const loc = await place();
    const now = new Date('2033-05-01T01:15:00Z');
    const open1 = unique('cron-a');
    const open2 = unique('cron-b');
    const until = unique('cron-c');
    const ended = unique('cron-d');
    const far = unique('cron-e');
    await seriesRows(loc.id, open1, weeklyUntil('2033-04-05', '2033-05-24')); // Tuesdays
    await seriesRows(loc.id, open2, ['2033-04-28', '2033-05-01', '2033-05-05', '2033-05-08', '2033-05-12', '2033-05-15'], {
      recurrenceDays: '["torsdag","söndag"]',
    });
    await seriesRows(loc.id, until, weeklyUntil('2033-04-06', '2033-05-25'), { recurrenceUntil: '2033-06-15' });
    await seriesRows(loc.id, ended, weeklyUntil('2033-03-01', '2033-04-12')); // latest long past: ended
    await seriesRows(loc.id, far, weeklyUntil('2033-05-03', '2033-07-26')); // 86 days left: not yet
    const before = { ended: (await rowsOf(ended)).length, far: (await rowsOf(far)).length };

    const run = await runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(now) }, { pageSize: 2 });
    expect(run).toMatchObject({ complete: true, extendedCount: 3, resumedFrom: null });
    const horizon = addDays('2033-05-01', 180);
    const a = await rowsOf(open1);
    expect(a.at(-1)!.date).toBe('2033-10-25');
    expect(a.at(-1)!.date <= horizon).toBe(true);
    expect(a.every((r) => isoWeekday(r.date) === 2 && r.is_recurring === 1 && r.recurrence_id === open1)).toBe(true);
    const b = await rowsOf(open2);
    expect(b.filter((r) => r.date > '2033-05-15').every((r) => [4, 7].includes(isoWeekday(r.date)))).toBe(true);
    expect(b.at(-1)!.date > addDays(horizon, -7)).toBe(true);
    expect((await rowsOf(until)).at(-1)!.date).toBe('2033-06-15');
    expect((await rowsOf(ended)).length).toBe(before.ended);
    expect((await rowsOf(far)).length).toBe(before.far);
    const rec = await jobRun(run.runId);
    expect(rec).toMatchObject({ job: SERIES_JOB, status: 'done' });
    expect(JSON.parse(rec.result)).toMatchObject({ extendedCount: 3, added: run.added });

    const snap = await snapshot(['quizzes']);
    const again = await runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(new Date('2033-05-01T03:00:00Z')) });
    expect(again).toMatchObject({ complete: true, extendedCount: 0, added: 0 });
    expect(await snapshot(['quizzes'])).toEqual(snap);
  });

  it('resumes an interrupted run from its cursor and never adds a date twice; overlapping runs add nothing', async () => {
    const loc = await place();
    const ids = ['r1', 'r2', 'r3'].map((p) => unique(`resume-${p}-`)).sort();
    for (const id of ids) await seriesRows(loc.id, id, weeklyUntil('2034-04-04', '2034-05-16'));
    const now = new Date('2034-05-01T01:15:00Z');
    const first = await runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(now) }, { pageSize: 1, stopAfterPages: 1 });
    expect(first).toMatchObject({ complete: false, extendedCount: 1, cursor: ids[0] });
    expect(await jobRun(first.runId)).toMatchObject({ status: 'running', cursor: ids[0] });
    const counts = async () => Promise.all(ids.map(async (id) => (await rowsOf(id)).length));
    const afterFirst = await counts();
    expect(afterFirst[0]).toBeGreaterThan(7);
    expect(afterFirst.slice(1)).toEqual([7, 7]);

    const second = await runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(new Date('2034-05-01T01:45:00Z')) });
    expect(second).toMatchObject({ complete: true, resumedFrom: ids[0], extendedCount: 2 });
    const afterSecond = await counts();
    expect(afterSecond[0]).toBe(afterFirst[0]);
    expect(afterSecond[1]).toBe(afterFirst[0]);
    expect(afterSecond[2]).toBe(afterFirst[0]);

    // Two runs at once (overlap): the unique (recurrence_id, date) index makes the second add nothing.
    const snap = await snapshot(['quizzes']);
    const both = await Promise.all([
      runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(now) }),
      runSeriesExtensionJob({ db: testDb(), clock: pinnedClock(now) }),
    ]);
    expect(both.map((r) => r.added)).toEqual([0, 0]);
    expect(await snapshot(['quizzes'])).toEqual(snap);
  });

  it('the candidate query walks the (recurrence_id, date) index alone: no table scan, no sort', async () => {
    const q = extensionCandidatesQuery({ cursor: 'a', oldest: '2033-01-01', threshold: '2033-02-01', limit: 25 });
    const plan = await testDb().all<{ detail: string }>(sql`EXPLAIN QUERY PLAN ${q}`);
    const text = plan.map((p) => p.detail).join('\n');
    expect(text).toMatch(/USING COVERING INDEX quizzes_recurrence_idx/);
    expect(text).not.toMatch(/TEMP B-TREE/);
  });

  // Keep last: scheduled() runs every nightly task at 2036, which also deletes this file's sessions
  // (storage is isolated per test file, so other files are unaffected).
  it('the Worker scheduled() handler runs the job (dates stay on the weekday across the spring DST switch)', async () => {
    const loc = await place();
    const rid = unique('sched');
    await seriesRows(loc.id, rid, weeklyUntil('2036-02-24', '2036-03-23')); // Sundays... 2036-02-24 is a Sunday
    expect(isoWeekday('2036-02-24')).toBe(7);
    // The cron enqueues; its queued tasks then run through the jobs consumer (test/jobs-queue.ts).
    await runScheduledNight(env as Env, '2036-03-01T01:15:00Z');
    const rows = await rowsOf(rid);
    expect(rows.map((r) => r.date)).toContain('2036-03-30'); // the day clocks go forward in 2036
    expect(rows.every((r) => isoWeekday(r.date) === 7)).toBe(true);
    expect(rows.at(-1)!.date <= addDays('2036-03-01', 180)).toBe(true);
    const runs = await testDb().all<Record<string, any>>(sql`SELECT * FROM job_runs WHERE job = ${SERIES_JOB} AND started_at LIKE '2036-03-01%'`);
    expect(runs.some((r) => r.status === 'done')).toBe(true);
  });
});
