/**
 * Leagues (issue 46.3): one table across several series. The owner's API (create over their own series, add and
 * remove a series, league seasons), the superadmin's league across businesses with each owner's consent (a pending
 * or declined series counts for nothing; a consent or a removal rebuilds the tables), refusals that store nothing,
 * and the public page /liga/{slug}.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../worker/lib/ids';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, type TestUser } from '../factories';

// Tuesday 2030-03-12, 21:00 in Stockholm.
const CLOCK = '2030-03-12T20:00:00Z';
const LEAGUE_TABLES = ['leagues', 'league_series', 'seasons', 'season_standings'];
const SEASON = { name: 'Vår 2030', startDate: '2030-03-01', endDate: '2030-05-31', preset: 'total' };

/** A business of `user` with a weekly series; one night of it on 2030-03-10 with `text` posted, when given. */
async function seriesOf(user: TestUser, opts: { text?: string; date?: string } = {}) {
  const venue = await createVenue(user.id, { name: `Ligapuben ${unique('v')}` });
  const location = await createLocation(venue.id);
  const seriesId = newId();
  const quiz = await createQuiz(location.id, { date: opts.date ?? '2030-03-10', isRecurring: true, recurrenceId: seriesId, recurrencePattern: 'weekly' });
  if (opts.text) {
    const res = await callJson(`/api/owner/quizzes/${quiz.id}/results`, {
      method: 'PUT',
      body: { text: opts.text, acceptNew: true },
      cookie: user.cookie,
      clock: CLOCK,
    });
    expect(res.status).toBe(200);
  }
  return { venue, location, seriesId, quiz };
}

const post = (path: string, body: unknown, user?: TestUser) => callJson(path, { method: 'POST', body, cookie: user?.cookie, clock: CLOCK });
const table = (seasonId: string) =>
  testDb().all<{ team_name: string; points: number; nights: number }>(
    sql`SELECT team_name, points, nights FROM season_standings WHERE season_id = ${seasonId} ORDER BY position`,
  );

describe('an owner’s league', () => {
  it('is created over two of the owner’s series (consented at once), gets a unique slug, a season and one table', async () => {
    const owner = await createUser({ now: new Date(CLOCK) });
    const t = unique('L');
    const a = await seriesOf(owner, { text: `${t} Alfa;10\n${t} Beta;8` });
    const b = await seriesOf(owner, { text: `${t} Alfa;5\n${t} Gamma;20` });
    const name = `Kedjeligan ${t}`;
    const made = await post('/api/owner/leagues', { name, seriesIds: [a.seriesId, b.seriesId] }, owner);
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name, slug: `kedjeligan-${t.toLowerCase()}` });
    expect(made.body.series.map((s: { seriesId: string; consented: boolean }) => [s.seriesId, s.consented]).sort()).toEqual(
      [
        [a.seriesId, true],
        [b.seriesId, true],
      ].sort(),
    );
    const again = await post('/api/owner/leagues', { name, seriesIds: [a.seriesId, b.seriesId] }, owner);
    expect(again.status).toBe(201);
    expect(again.body.slug).toBe(`${made.body.slug}-2`);

    const season = await post(`/api/owner/leagues/${made.body.id}/seasons`, SEASON, owner);
    expect(season.status).toBe(201);
    expect(season.body).toMatchObject({ name: 'Vår 2030', preset: 'total' });
    expect(await table(season.body.id)).toEqual([
      { team_name: `${t} Gamma`, points: 20, nights: 1 },
      { team_name: `${t} Alfa`, points: 15, nights: 2 },
      { team_name: `${t} Beta`, points: 8, nights: 1 },
    ]);

    // A night posted later at either venue updates the league's table in the same batch.
    const later = await createQuiz(b.location.id, { date: '2030-03-11', isRecurring: true, recurrenceId: b.seriesId, recurrencePattern: 'weekly' });
    const put = await callJson(`/api/owner/quizzes/${later.id}/results`, { method: 'PUT', body: { text: `${t} Beta;30` }, cookie: owner.cookie, clock: CLOCK });
    expect(put.status).toBe(200);
    expect((await table(season.body.id))[0]).toEqual({ team_name: `${t} Beta`, points: 38, nights: 2 });

    // Removing a series rebuilds the table without its nights.
    const removed = await callJson(`/api/owner/leagues/${made.body.id}/series/${b.seriesId}`, { method: 'DELETE', cookie: owner.cookie, clock: CLOCK });
    expect(removed.status).toBe(200);
    expect(removed.body.series).toHaveLength(1);
    expect(await table(season.body.id)).toEqual([
      { team_name: `${t} Alfa`, points: 10, nights: 1 },
      { team_name: `${t} Beta`, points: 8, nights: 1 },
    ]);
    // …and adding it back brings them back.
    const added = await post(`/api/owner/leagues/${made.body.id}/series`, { seriesId: b.seriesId }, owner);
    expect(added.status).toBe(200);
    expect((await table(season.body.id))[0]).toEqual({ team_name: `${t} Beta`, points: 38, nights: 2 });

    const list = await callJson('/api/owner/leagues', { cookie: owner.cookie, clock: CLOCK });
    expect(list.status).toBe(200);
    expect(list.body.leagues.map((l: { id: string }) => l.id).sort()).toEqual([made.body.id, again.body.id].sort());
    expect(list.body.leagues.find((l: { id: string }) => l.id === made.body.id).seasons).toHaveLength(1);
    expect(list.body.invitations).toEqual([]);
  });

  const bad: Array<[string, (s: string[]) => unknown, string]> = [
    ['one series', (s) => ({ name: 'Liga', seriesIds: [s[0]] }), 'Serier: välj minst 2 serier'],
    ['the same series twice', (s) => ({ name: 'Liga', seriesIds: [s[0], s[0]] }), 'Serier: samma serie flera gånger'],
    ['no name', (s) => ({ name: '  ', seriesIds: s }), 'Namn: ange ett namn'],
    ['a name of 81 characters', (s) => ({ name: 'x'.repeat(81), seriesIds: s }), 'Namn: högst 80 tecken'],
    ['21 series', (s) => ({ name: 'Liga', seriesIds: Array.from({ length: 21 }, (_, i) => `${s[0]}-${i}`) }), 'Serier: högst 20 serier'],
  ];
  for (const [what, body, message] of bad) {
    it(`refuses ${what} (400, Swedish, the field named) and stores nothing`, async () => {
      const owner = await createUser({ now: new Date(CLOCK) });
      const ids = [(await seriesOf(owner)).seriesId, (await seriesOf(owner)).seriesId];
      const before = await snapshot(LEAGUE_TABLES);
      const res = await post('/api/owner/leagues', body(ids), owner);
      expect(res.status).toBe(400);
      expect(res.body.error.issues.map((i: { message: string }) => i.message)).toContain(message);
      expect(await snapshot(LEAGUE_TABLES)).toEqual(before);
    });
  }

  it('refuses the anonymous (401), someone else’s series (403), an unknown series (404); nothing stored', async () => {
    const owner = await createUser({ now: new Date(CLOCK) });
    const stranger = await createUser({ now: new Date(CLOCK) });
    const mine = await seriesOf(owner);
    const theirs = await seriesOf(stranger);
    const before = await snapshot(LEAGUE_TABLES);
    expect((await post('/api/owner/leagues', { name: 'Liga', seriesIds: [mine.seriesId, theirs.seriesId] })).status).toBe(401);
    expect((await post('/api/owner/leagues', { name: 'Liga', seriesIds: [mine.seriesId, theirs.seriesId] }, owner)).status).toBe(403);
    expect((await post('/api/owner/leagues', { name: 'Liga', seriesIds: [mine.seriesId, newId()] }, owner)).status).toBe(404);
    expect(await snapshot(LEAGUE_TABLES)).toEqual(before);

    const league = await post('/api/owner/leagues', { name: `Liga ${unique('x')}`, seriesIds: [mine.seriesId, (await seriesOf(owner)).seriesId] }, owner);
    expect(league.status).toBe(201);
    const id = league.body.id as string;
    const after = await snapshot(LEAGUE_TABLES);
    // Someone else's series into my league; my league touched by someone else; unknown league and series.
    expect((await post(`/api/owner/leagues/${id}/series`, { seriesId: theirs.seriesId }, owner)).status).toBe(403);
    expect((await post(`/api/owner/leagues/${id}/series`, { seriesId: newId() }, owner)).status).toBe(404);
    expect((await post(`/api/owner/leagues/${id}/series`, { seriesId: theirs.seriesId }, stranger)).status).toBe(403);
    expect((await post(`/api/owner/leagues/${id}/seasons`, SEASON, stranger)).status).toBe(403);
    expect((await post(`/api/owner/leagues/${newId()}/seasons`, SEASON, owner)).status).toBe(404);
    expect((await callJson(`/api/owner/leagues/${id}/series/${mine.seriesId}`, { method: 'DELETE', cookie: stranger.cookie, clock: CLOCK })).status).toBe(403);
    expect((await callJson(`/api/owner/leagues/${id}/series/${theirs.seriesId}`, { method: 'DELETE', cookie: owner.cookie, clock: CLOCK })).status).toBe(404);
    const badSeason = await post(`/api/owner/leagues/${id}/seasons`, { ...SEASON, preset: 'best_n' }, owner);
    expect(badSeason.status).toBe(400);
    expect(badSeason.body.error.issues.map((i: { message: string }) => i.message)).toContain('Bästa N: ange hur många kvällar som räknas');
    expect((await callJson('/api/owner/leagues', { clock: CLOCK })).status).toBe(401);
    expect(await snapshot(LEAGUE_TABLES)).toEqual(after);
  });
});

describe('the superadmin’s league across businesses', () => {
  it('a series counts only after its owner accepts; a declined one never; only the owner may answer', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const anna = await createUser({ now: new Date(CLOCK) });
    const bo = await createUser({ now: new Date(CLOCK) });
    const t = unique('K');
    const a = await seriesOf(anna, { text: `${t} Alfa;10` });
    const b = await seriesOf(bo, { text: `${t} Alfa;7\n${t} Beta;9` });
    const made = await post('/api/owner/leagues', { name: `Stadsligan ${t}`, seriesIds: [a.seriesId, b.seriesId] }, admin);
    expect(made.status).toBe(201);
    expect(made.body.series.every((s: { consented: boolean }) => !s.consented)).toBe(true);
    const season = await post(`/api/owner/leagues/${made.body.id}/seasons`, SEASON, admin);
    expect(season.status).toBe(201);
    expect(await table(season.body.id)).toEqual([]);
    // The public page (edge-cached under the data version) has no team and no venue yet.
    const early = await (await call(`/liga/${made.body.slug}`, { clock: CLOCK })).text();
    expect(early).not.toContain(`${t} Alfa`);
    expect(early).not.toContain(`/quiz/${a.location.citySlug}/${a.venue.slug}/resultat`);

    // Anna sees the invitation; Bo sees his own only; nobody answers for someone else.
    const annaList = await callJson('/api/owner/leagues', { cookie: anna.cookie, clock: CLOCK });
    expect(annaList.body.invitations).toEqual([
      { leagueId: made.body.id, league: `Stadsligan ${t}`, seriesId: a.seriesId, venue: a.venue.name, place: a.location.name },
    ]);
    expect(annaList.body.leagues).toEqual([]);
    const answer = (user: TestUser | undefined, seriesId: string, accept: unknown) =>
      post(`/api/owner/leagues/${made.body.id}/series/${seriesId}/answer`, { accept }, user);
    expect((await answer(bo, a.seriesId, true)).status).toBe(403);
    expect((await answer(admin, a.seriesId, true)).status).toBe(403);
    expect((await answer(undefined, a.seriesId, true)).status).toBe(401);
    const bad = await answer(anna, a.seriesId, 'ja');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Svar');
    expect((await answer(anna, newId(), true)).status).toBe(404);
    expect(await table(season.body.id)).toEqual([]);

    // Anna accepts: her night counts at once. Bo declines: his series leaves the league.
    expect((await answer(anna, a.seriesId, true)).body).toEqual({ accepted: true });
    expect(await table(season.body.id)).toEqual([{ team_name: `${t} Alfa`, points: 10, nights: 1 }]);
    expect((await answer(anna, a.seriesId, true)).status).toBe(404);
    expect((await answer(bo, b.seriesId, false)).body).toEqual({ accepted: false });
    expect(await table(season.body.id)).toEqual([{ team_name: `${t} Alfa`, points: 10, nights: 1 }]);
    const listed = await callJson('/api/owner/leagues', { cookie: admin.cookie, clock: CLOCK });
    expect(listed.body.leagues.find((l: { id: string }) => l.id === made.body.id).series).toEqual([
      { seriesId: a.seriesId, venue: a.venue.name, place: a.location.name, city: a.location.city, consented: true },
    ]);

    // The public page shows the consented venue only.
    const page = await call(`/liga/${made.body.slug}`, { clock: CLOCK });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`/quiz/${a.location.citySlug}/${a.venue.slug}/resultat`);
    expect(html).not.toContain(`/quiz/${b.location.citySlug}/${b.venue.slug}/resultat`);
    expect(html).toContain(`${t} Alfa`);
    expect(html).toContain(`/og/liga/${made.body.slug}.png`);
    // Valid JSON-LD: the breadcrumb trail ends at the league's page.
    const ld = [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
    const crumbs = ld.find((o) => o['@type'] === 'BreadcrumbList');
    expect(crumbs.itemListElement.map((i: { name: string }) => i.name)).toEqual(['Quizkväll', `Stadsligan ${t}`]);
    expect((await call('/liga/finns-inte-alls', { clock: CLOCK })).status).toBe(404);
    expect((await call('/liga/%E0%A4%A', { clock: CLOCK })).status).toBe(404);
    expect((await call(`/liga/${made.body.slug}?sasong=${'x'.repeat(80)}&fore=skräp`, { clock: CLOCK })).status).toBe(200);
  });
});
