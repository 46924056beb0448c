/**
 * Results (issue 46): PUT/GET /api/owner/quizzes/{quizId}/results and GET /api/owner/locations/{id}/results.
 * Posting (paste box and rows, ties, team codes), the window (evening itself … 14 days after; corrections for
 * 7 days, audited), refusals that store nothing, "Menade du …?", and the standings read model of each preset
 * against the hand-computed fixture (test/fixtures/results-season.ts).
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { follows, pushSubscriptions, seasons } from '../../worker/db/schema';
import { postResults } from '../../worker/features/results/service';
import { processMailBatch } from '../../worker/features/follows/service';
import { DEV_LINK_SIGNING_SECRET } from '../../worker/env';
import { newId } from '../../worker/lib/ids';
import type { SeasonPreset } from '../../worker/lib/season-presets';
import { SEASON_FIXTURE, SEASON_FIXTURE_EXPECTED } from '../fixtures/results-season';
import { callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, testDeps, unique } from '../factories';

// Tuesday 2030-03-12, 21:00 in Stockholm.
const CLOCK = '2030-03-12T20:00:00Z';
const TODAY = '2030-03-12';
const RESULT_TABLES = ['teams', 'result_nights', 'results', 'result_changes', 'season_standings', 'public_data_version'];

async function ownerWithQuiz(date = TODAY, over: Record<string, unknown> = {}) {
  const user = await createUser({ now: new Date(CLOCK) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city: 'Stockholm' });
  const quiz = await createQuiz(location.id, { date, ...over });
  return { user, venue, location, quiz };
}

const put = (quizId: string, body: unknown, opts: { cookie?: string; clock?: string } = {}) =>
  callJson(`/api/owner/quizzes/${quizId}/results`, { method: 'PUT', body, clock: opts.clock ?? CLOCK, cookie: opts.cookie });

describe('posting a night', () => {
  it('ranks a pasted night with ties (1, 2, 2, 4), answers slugs and codes, and reads it back', async () => {
    const { user, location, quiz } = await ownerWithQuiz();
    const t = unique('T');
    const text = `${t} Alfa;50\n${t} Beta\t45\n\n${t} Gamma 45\n${t} Delta;30,5`;
    const { status, body } = await put(quiz.id, { text }, { cookie: user.cookie });
    expect(status).toBe(200);
    expect(body.rows.map((r: { team: string; rank: number; score: number }) => [r.team, r.rank, r.score])).toEqual([
      [`${t} Alfa`, 1, 50],
      [`${t} Beta`, 2, 45],
      [`${t} Gamma`, 2, 45],
      [`${t} Delta`, 4, 30.5],
    ]);
    for (const r of body.rows) {
      expect(r.slug).toMatch(/^[a-z0-9-]+$/);
      expect(r.code).toMatch(/^[A-Z2-9]{6}$/);
    }
    expect(body).toMatchObject({ quizId: quiz.id, date: TODAY, posted: true, corrected: false, editableUntil: '2030-03-19' });

    const back = await callJson(`/api/owner/quizzes/${quiz.id}/results`, { cookie: user.cookie, clock: CLOCK });
    expect(back.status).toBe(200);
    expect(back.body.rows).toEqual(body.rows);

    const nights = await callJson(`/api/owner/locations/${location.id}/results`, { cookie: user.cookie, clock: CLOCK });
    expect(nights.status).toBe(200);
    expect(nights.body.nights).toEqual([{ quizId: quiz.id, date: TODAY, posted: true, corrected: false }]);
  });

  it('takes rows, a team code in place of a name, and 60 teams in a bounded number of statements', async () => {
    const { user, quiz } = await ownerWithQuiz();
    const t = unique('R');
    const first = await put(quiz.id, { rows: [{ team: `${t} Quizzly Bears`, score: 12 }] }, { cookie: user.cookie });
    expect(first.status).toBe(200);
    const code = first.body.rows[0].code as string;

    const other = await ownerWithQuiz(TODAY);
    const rows = Array.from({ length: 59 }, (_, i) => ({ team: `${t} Lag ${i + 1}`, score: i }));
    const res = await callJson(`/api/owner/quizzes/${other.quiz.id}/results`, {
      method: 'PUT',
      body: { rows: [{ team: code.toLowerCase(), score: 99 }, ...rows] },
      cookie: other.user.cookie,
      clock: CLOCK,
    });
    expect(res.status).toBe(200);
    expect(res.body.rows).toHaveLength(60);
    expect(res.body.rows[0]).toMatchObject({ team: `${t} Quizzly Bears`, code, rank: 1 });
    // Reads before the batch (session, quiz, night, codes, keys) + one batch + the read-back: bounded, not per row.
    const statements = Number(res.res.headers.get('x-d1-statements'));
    console.info(`results: PUT 60 rows → ${statements} statements, ${res.res.headers.get('x-d1-rows-written')} rows written`);
    expect(statements).toBeLessThanOrEqual(20);
    const [team] = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM teams WHERE code = ${code}`);
    expect(team!.n).toBe(1);
  });

  it('lets the superadmin post for any place', async () => {
    const { quiz } = await ownerWithQuiz();
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { status } = await put(quiz.id, { text: `${unique('S')};3` }, { cookie: admin.cookie });
    expect(status).toBe(200);
  });

  it('posts on the evening itself and 14 days after, not before and not after', async () => {
    const q14 = await ownerWithQuiz('2030-02-26');
    expect((await put(q14.quiz.id, { text: `${unique('W')};1` }, { cookie: q14.user.cookie })).status).toBe(200);
    const q15 = await ownerWithQuiz('2030-02-25');
    const before = await snapshot(RESULT_TABLES);
    const old = await put(q15.quiz.id, { text: `${unique('W')};1` }, { cookie: q15.user.cookie });
    expect(old.status).toBe(400);
    expect(old.body.error.message).toBe('Kvällen: kvällen (2030-02-25) är äldre än 14 dagar; resultat kan inte längre läggas in');
    const future = await ownerWithQuiz('2030-03-13');
    const f = await put(future.quiz.id, { text: `${unique('W')};1` }, { cookie: future.user.cookie });
    expect(f.status).toBe(400);
    expect(f.body.error.message).toMatch(/^Kvällen: kvällen \(2030-03-13\) har inte varit än/);
    const cancelled = await ownerWithQuiz(TODAY, { isCancelled: true });
    const c = await put(cancelled.quiz.id, { text: `${unique('W')};1` }, { cookie: cancelled.user.cookie });
    expect(c.status).toBe(400);
    expect(c.body.error.message).toBe('Kvällen: kvällen är inställd, så den har inga resultat');
    expect(await snapshot(RESULT_TABLES)).toEqual(before);
  });
});

describe('refusals store nothing', () => {
  const cases: Array<[string, (t: string) => unknown, string]> = [
    ['a missing score', (t) => ({ text: `${t} A;3\n${t} B` }), `Rad 2: poäng saknas för ”T B”`],
    ['a negative score', (t) => ({ text: `${t} A;-3` }), `Rad 1: poängen får inte vara negativ (”T A”)`],
    ['the same team twice', (t) => ({ text: `${t} A;3\n${t} a;2` }), `Rad 2: laget ”T a” finns redan på rad 1`],
    ['61 lines', (t) => ({ text: Array.from({ length: 61 }, (_, i) => `${t} ${i};1`).join('\n') }), 'Rad 61: högst 60 lag per kväll (du angav 61)'],
    ['a missing score in the rows', (t) => ({ rows: [{ team: `${t} A`, score: null }] }), `Rad 1: poäng saknas för ”T A”`],
    ['text and rows at once', (t) => ({ text: `${t};1`, rows: [] }), 'Ange antingen text eller rader'],
    ['neither', () => ({}), 'Ange antingen text eller rader'],
  ];
  for (const [name, body, message] of cases) {
    it(`refuses ${name} with a Swedish message naming the line`, async () => {
      const { user, quiz } = await ownerWithQuiz();
      const t = unique('X');
      const before = await snapshot(RESULT_TABLES);
      const res = await put(quiz.id, body(t), { cookie: user.cookie });
      expect(res.status).toBe(400);
      expect(res.body.error.message.replaceAll(t, 'T')).toContain(message);
      expect(await snapshot(RESULT_TABLES)).toEqual(before);
    });
  }

  it('refuses an anonymous caller (401), someone else’s place (403) and an unknown quiz (404)', async () => {
    const { quiz, location } = await ownerWithQuiz();
    const stranger = await createUser({ now: new Date(CLOCK) });
    const before = await snapshot(RESULT_TABLES);
    const body = { text: `${unique('Z')};1` };
    const anon = await put(quiz.id, body);
    expect(anon.status).toBe(401);
    expect(anon.body.error.message).toBe('Du måste vara inloggad.');
    const other = await put(quiz.id, body, { cookie: stranger.cookie });
    expect(other.status).toBe(403);
    expect(other.body.error.message).toBe('Du har inte behörighet att göra detta.');
    const missing = await put(newId(), body, { cookie: stranger.cookie });
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Quizet hittades inte.');
    expect((await callJson(`/api/owner/quizzes/${quiz.id}/results`, { cookie: stranger.cookie, clock: CLOCK })).status).toBe(403);
    expect((await callJson(`/api/owner/locations/${location.id}/results`, { cookie: stranger.cookie, clock: CLOCK })).status).toBe(403);
    expect((await callJson(`/api/owner/locations/${location.id}/results`, { clock: CLOCK })).status).toBe(401);
    expect(await snapshot(RESULT_TABLES)).toEqual(before);
  });
});

describe('corrections', () => {
  it('are allowed for 7 days after the first post, audited, and mark the night "rättad"', async () => {
    const { user, quiz } = await ownerWithQuiz('2030-03-05');
    const t = unique('C');
    expect((await put(quiz.id, { text: `${t} A;10\n${t} B;8` }, { cookie: user.cookie, clock: '2030-03-05T21:00:00Z' })).status).toBe(200);
    const fixed = await put(quiz.id, { text: `${t} A;10\n${t} B;12` }, { cookie: user.cookie, clock: '2030-03-12T20:59:00Z' });
    expect(fixed.status).toBe(200);
    expect(fixed.body.corrected).toBe(true);
    expect(fixed.body.rows.map((r: { rank: number }) => r.rank)).toEqual([1, 2]);
    expect(fixed.body.rows[0].team).toBe(`${t} B`);
    const audit = await testDb().all<{ user_id: string; before: string | null; after: string }>(
      sql`SELECT user_id, before, after FROM result_changes WHERE quiz_id = ${quiz.id} ORDER BY created_at`,
    );
    expect(audit).toHaveLength(2);
    expect(audit[0]!.before).toBeNull();
    expect(JSON.parse(audit[1]!.before!)).toEqual(
      expect.arrayContaining([
        { team: `${t} A`, score: 10, rank: 1 },
        { team: `${t} B`, score: 8, rank: 2 },
      ]),
    );
    expect(JSON.parse(audit[1]!.after)).toEqual([
      { team: `${t} B`, score: 12, rank: 1 },
      { team: `${t} A`, score: 10, rank: 2 },
    ]);
    expect(audit.every((a) => a.user_id === user.id)).toBe(true);

    // A repeat of the same rows changes nothing (no audit row).
    expect((await put(quiz.id, { text: `${t} B;12\n${t} A;10` }, { cookie: user.cookie, clock: '2030-03-12T21:00:00Z' })).status).toBe(200);
    // Just past 7 days: refused, nothing stored.
    const before = await snapshot(RESULT_TABLES);
    const late = await put(quiz.id, { text: `${t} A;10\n${t} B;13` }, { cookie: user.cookie, clock: '2030-03-12T21:00:01Z' });
    expect(late.status).toBe(409);
    expect(late.body.error.message).toBe('Resultaten kan bara rättas i 7 dagar efter att de lades in (2030-03-05).');
    expect(await snapshot(RESULT_TABLES)).toEqual(before);
  });
});

describe('"Menade du …?"', () => {
  it('proposes a close name at the same venue; the owner merges by choosing it or keeps a new team', async () => {
    const { user, location, venue } = await ownerWithQuiz('2030-03-05');
    const t = unique('M');
    const first = await createQuiz(location.id, { date: '2030-03-06' });
    expect((await put(first.id, { text: `${t} Quizzly Bears;10` }, { cookie: user.cookie })).status).toBe(200);

    const second = await createQuiz(location.id, { date: '2030-03-07' });
    const before = await snapshot(RESULT_TABLES);
    const asked = await put(second.id, { text: `${t} Quizzly Bears!;11\n${t} Helt Annat Lag;3` }, { cookie: user.cookie });
    expect(asked.status).toBe(409);
    expect(asked.body.error.message).toBe(`Rad 1: Menade du ”${t} Quizzly Bears”? Välj laget eller spara ”${t} Quizzly Bears!” som ett nytt lag.`);
    expect(asked.body.error.details.suggestions).toEqual([
      { line: 1, typed: `${t} Quizzly Bears!`, team: expect.objectContaining({ name: `${t} Quizzly Bears` }), similarity: expect.any(Number) },
    ]);
    expect(asked.body.error.details.suggestions[0].similarity).toBeGreaterThanOrEqual(0.85);
    expect(await snapshot(RESULT_TABLES)).toEqual(before);

    // Confirmed: the line names the proposed team → the same team.
    const merged = await put(second.id, { text: `${t} Quizzly Bears;11\n${t} Helt Annat Lag;3` }, { cookie: user.cookie });
    expect(merged.status).toBe(200);
    const [n] = await testDb().all<{ n: number }>(sql`SELECT COUNT(DISTINCT team_id) AS n FROM results WHERE venue_id = ${venue.id}`);
    expect(n!.n).toBe(2);

    // Kept as a new team: acceptNew.
    const third = await createQuiz(location.id, { date: '2030-03-08' });
    const kept = await put(third.id, { text: `${t} Quizzly Bears!;9`, acceptNew: true }, { cookie: user.cookie });
    expect(kept.status).toBe(200);
    expect(kept.body.rows[0].team).toBe(`${t} Quizzly Bears!`);
  });
});

describe('season tables (standings read model)', () => {
  const ids = ['A', 'B', 'C', 'D', 'E'] as const;
  for (const preset of Object.keys(SEASON_FIXTURE_EXPECTED) as SeasonPreset[]) {
    it(`${preset}: two nights, three nights and a correction give the fixture's table`, async () => {
      const user = await createUser({ now: new Date(CLOCK) });
      const venue = await createVenue(user.id);
      const location = await createLocation(venue.id, { city: 'Stockholm' });
      const seriesId = newId();
      const dates = ['2030-03-03', '2030-03-05', '2030-03-07'];
      const quizzesOf = await Promise.all(
        dates.map((date) => createQuiz(location.id, { date, isRecurring: true, recurrenceId: seriesId, recurrencePattern: 'weekly' })),
      );
      // A night outside the season's range counts for nothing.
      const outside = await createQuiz(location.id, { date: '2030-03-01', isRecurring: true, recurrenceId: seriesId, recurrencePattern: 'weekly' });
      const seasonId = newId();
      const { params } = SEASON_FIXTURE_EXPECTED[preset];
      await testDb()
        .insert(seasons)
        .values({
          id: seasonId,
          seriesId,
          venueId: venue.id,
          name: 'Vår',
          startDate: '2030-03-02',
          endDate: '2030-05-31',
          preset,
          params: JSON.stringify(params),
        });
      const t = unique('L');
      const name = (id: string) => `${t} ${id}`;
      const text = (night: ReadonlyArray<{ teamId: string; score: number }>) => night.map((r) => `${name(r.teamId)};${r.score}`).join('\n');
      const post = async (i: number, night: ReadonlyArray<{ teamId: string; score: number }>) => {
        const res = await put(quizzesOf[i]!.id, { text: text(night), acceptNew: true }, { cookie: user.cookie });
        expect(res.status).toBe(200);
      };
      const table = async () => {
        const rows = await testDb().all<{ team_name: string; points: number; nights: number; rank: number | null }>(
          sql`SELECT team_name, points, nights, rank FROM season_standings WHERE season_id = ${seasonId} ORDER BY position`,
        );
        return rows.map((r) => ({ teamId: ids.find((id) => r.team_name === name(id))!, points: r.points, nights: r.nights, rank: r.rank }));
      };
      expect((await put(outside.id, { text: `${name('A')};100`, acceptNew: true }, { cookie: user.cookie })).status).toBe(200);
      await post(0, SEASON_FIXTURE.nights[0]!);
      await post(1, SEASON_FIXTURE.nights[1]!);
      expect(await table()).toEqual(SEASON_FIXTURE_EXPECTED[preset].afterTwo);
      await post(2, SEASON_FIXTURE.nights[2]!);
      expect(await table()).toEqual(SEASON_FIXTURE_EXPECTED[preset].afterThree);
      await post(1, SEASON_FIXTURE.corrected[1]!);
      expect(await table()).toEqual(SEASON_FIXTURE_EXPECTED[preset].afterCorrection);
    });
  }
});

describe('seasons on a series', () => {
  it('an owner creates a season; its table is computed at once from the nights already posted', async () => {
    const user = await createUser({ now: new Date(CLOCK) });
    const venue = await createVenue(user.id);
    const location = await createLocation(venue.id, { city: 'Stockholm' });
    const seriesId = newId();
    const q1 = await createQuiz(location.id, { date: '2030-03-05', isRecurring: true, recurrenceId: seriesId, recurrencePattern: 'weekly' });
    const t = unique('S');
    expect((await put(q1.id, { text: `${t} A;10\n${t} X;12`, acceptNew: true }, { cookie: user.cookie })).status).toBe(200);
    const path = `/api/owner/series/${seriesId}/seasons`;
    const bad = await callJson(path, {
      body: { name: 'Vår', startDate: '2030-03-10', endDate: '2030-03-01', preset: 'best_n' },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues.map((i: { message: string }) => i.message)).toEqual(
      expect.arrayContaining(['Slutdatum: får inte vara före startdatum', 'Bästa N: ange hur många kvällar som räknas']),
    );
    const stranger = await createUser({ now: new Date(CLOCK) });
    const body = { name: 'Vår 2030', startDate: '2030-03-01', endDate: '2030-05-31', preset: 'placing_6' };
    expect((await callJson(path, { body, cookie: stranger.cookie, clock: CLOCK })).status).toBe(403);
    const made = await callJson(path, { body, cookie: user.cookie, clock: CLOCK });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: 'Vår 2030', preset: 'placing_6', bestN: null, minAttendancePct: null });
    const rows = await testDb().all<{ team_name: string; points: number; rank: number }>(
      sql`SELECT team_name, points, rank FROM season_standings WHERE season_id = ${made.body.id} ORDER BY position`,
    );
    expect(rows).toEqual([
      { team_name: `${t} X`, points: 6, rank: 1 },
      { team_name: `${t} A`, points: 4, rank: 2 },
    ]);
    const list = await callJson(path, { cookie: user.cookie, clock: CLOCK });
    expect(list.body.seasons).toHaveLength(1);
  });
});

describe('"Veckans resultat" for followers', () => {
  it('a follower who opted in gets one push on the first post, none on a correction; others get none', async () => {
    const { user, venue, location, quiz } = await ownerWithQuiz();
    const db = testDb();
    const follow = async (results: boolean, subscribed: boolean) => {
      const follower = await createUser({ now: new Date(CLOCK) });
      const id = newId();
      await db
        .insert(follows)
        .values({ id, userId: follower.id, kind: 'place', locationId: location.id, targetKey: `place:${location.id}`, results, confirmedAt: CLOCK });
      if (subscribed) await db.insert(pushSubscriptions).values({ id: newId(), followId: id, endpoint: `https://push.example/${id}`, p256dh: 'k', auth: 'a' });
      return { id, follower };
    };
    const opted = await follow(true, true);
    await follow(false, true);
    await follow(true, false);

    // The follower turns it on (and off) through the API.
    const patched = await callJson(`/api/follows/${opted.id}`, { method: 'PATCH', body: { results: false }, cookie: opted.follower.cookie, clock: CLOCK });
    expect(patched.status).toBe(200);
    expect(patched.body.follow).toMatchObject({ results: false, reminders: true });
    expect(
      (await callJson(`/api/follows/${opted.id}`, { method: 'PATCH', body: { results: true }, cookie: opted.follower.cookie, clock: CLOCK })).body.follow
        .results,
    ).toBe(true);
    expect((await callJson(`/api/follows/${opted.id}`, { method: 'PATCH', body: {}, cookie: opted.follower.cookie, clock: CLOCK })).status).toBe(400);

    const bodies: unknown[] = [];
    const deps = testDeps({
      now: CLOCK,
      ports: { mailQueue: () => ({ send: async (b: unknown) => void bodies.push(b), sendBatch: async () => undefined }) as never },
    });
    const actor = { id: user.id, email: user.email, roles: ['admin' as const] };
    const t = unique('V');
    await postResults(deps, actor, { quizId: quiz.id, body: { text: `${t} Ettan;10\n${t} Tvåan;8` } });
    expect(bodies).toEqual([
      {
        type: 'push',
        followId: opted.id,
        key: `results:${quiz.id}`,
        notice: {
          title: `Veckans resultat: ${venue.name}`,
          body: `Vinnare tisdag 12 mars: ${t} Ettan`,
          url: `/quiz/stockholm/${venue.slug}/resultat`,
          followId: opted.id,
          tag: `results:${quiz.id}`,
        },
      },
    ]);
    await postResults(deps, actor, { quizId: quiz.id, body: { text: `${t} Ettan;10\n${t} Tvåan;11` } });
    expect(bodies).toHaveLength(1);
  });

  it("the Monday digest of a follower who opted in lists last week's winners with a link to the results page", async () => {
    const { user, venue, location, quiz } = await ownerWithQuiz();
    const follower = await createUser({ now: new Date(CLOCK) });
    const id = newId();
    await testDb()
      .insert(follows)
      .values({ id, userId: follower.id, kind: 'place', locationId: location.id, targetKey: `place:${location.id}`, results: true, confirmedAt: CLOCK });
    const t = unique('D');
    expect((await put(quiz.id, { text: `${t} Vinnarna;10\n${t} Tvåorna;8` }, { cookie: user.cookie })).status).toBe(200);
    // Monday 2030-03-18: the digest of the week after the night (nothing upcoming at the place: the results alone).
    const deps = testDeps({ now: '2030-03-18T07:00:00Z', config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET } });
    const message = { id: `m-${t}`, body: { type: 'digest', followId: id, week: '2030-03-18' }, attempts: 1, ack() {}, retry() {} };
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: [message] });
    const [mail] = await testDb().all<{ text: string; html: string }>(sql`SELECT text, html FROM mail_outbox WHERE to_email = ${follower.email}`);
    expect(mail!.text).toContain(`Veckans resultat:\ntisdag 12 mars: ${t} Vinnarna vann\n  http://localhost/quiz/stockholm/${venue.slug}/resultat`);
    expect(mail!.html).toContain('Alla resultat');
  });
});
