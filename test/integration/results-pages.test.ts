/**
 * Results' public pages (issue 46): /quiz/{stad}/{ställe}/resultat and /lag/{slug} at the issue's scale (a season of
 * 40 nights × 30 teams): what they show (ranks with ties, "rättad", the team's nights), the venue page's last
 * winner, the sitemap, the share card, and D1 rows read per uncached request (≤ 50, x-d1-rows-read).
 */
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { batchableRun } from '../../worker/db/batch';
import { seasons } from '../../worker/db/schema';
import { addDays } from '../../worker/lib/clock';
import { newId } from '../../worker/lib/ids';
import { LEAGUE_MAX_SERIES, LEAGUE_VENUES_SHOWN } from '../../worker/features/results/contract';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown, type TestUser } from '../factories';

// Thursday 2030-10-10, 21:00 Stockholm: the 40th weekly night is tonight.
const CLOCK = '2030-10-10T19:00:00Z';
const TODAY = '2030-10-10';
const NIGHTS = 40;
const TEAMS = 30;
const ROWS_READ_CEILING = 50;

let owner: TestUser;
let city: string;
let venueSlug: string;
let tag: string;
let lastQuizId: string;
let teamSlug: string;
let seasonSeriesId: string;

let bust = 0;
const RUN = crypto.randomUUID().slice(0, 8);
/** An uncached GET (a unique query parameter misses the edge cache) with its D1 cost. */
async function measure(path: string) {
  const res = await call(`${path}${path.includes('?') ? '&' : '?'}_b=${++bust}${RUN}`, { clock: CLOCK, headers: { 'x-d1-log': '1' } });
  const html = await res.text();
  const rowsRead = Number(res.headers.get('x-d1-rows-read'));
  const log = JSON.parse(decodeURIComponent(res.headers.get('x-d1-log') ?? '%5B%5D')) as Array<[number, number, string]>;
  if (rowsRead > ROWS_READ_CEILING) console.info(path, log.map(([r, , q]) => `${r} ${q.slice(0, 160)}`).join('\n'));
  return { status: res.status, html, rowsRead };
}

const pageData = (html: string) => JSON.parse(/<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html)![1]!);

beforeAll(async () => {
  owner = await createUser({ now: new Date(CLOCK) });
  tag = unique('r');
  const venue = await createVenue(owner.id, { name: `Resultatpuben ${tag}`, slug: `resultatpuben-${tag}` });
  venueSlug = venue.slug;
  const cityName = uniqueTown();
  const location = await createLocation(venue.id, { city: cityName });
  city = location.citySlug;
  const seriesId = newId();
  seasonSeriesId = seriesId;
  const db = testDb();
  const dates = Array.from({ length: NIGHTS }, (_, i) => addDays(TODAY, -7 * (NIGHTS - 1 - i)));
  const quizzes = await Promise.all(
    dates.map((date) => createQuiz(location.id, { date, isRecurring: true, recurrenceId: seriesId, recurrencePattern: 'weekly' })),
  );
  lastQuizId = quizzes[NIGHTS - 1]!.id;
  await db.insert(seasons).values({
    id: newId(),
    seriesId,
    venueId: venue.id,
    name: 'Säsong 2030',
    startDate: dates[0]!,
    endDate: addDays(TODAY, 30),
    preset: 'placing_15',
    params: '{}',
  });
  // 39 nights stored directly (the bulk), the 40th through the API (which rewrites the season's table).
  const teamIds = Array.from({ length: TEAMS }, () => newId());
  const rows = teamIds.map((id, i) => ({ id, name: `Lag ${tag} ${String(i + 1).padStart(2, '0')}`, code: `Z${String(i).padStart(3, '0')}9Q` }));
  await db.run(sql`
    INSERT INTO teams (id, name, name_key, slug, code)
    SELECT json_extract(value, '$.id'), json_extract(value, '$.name'), lower(json_extract(value, '$.name')), lower(replace(json_extract(value, '$.name'), ' ', '-')), json_extract(value, '$.code')
    FROM json_each(${JSON.stringify(rows)})`);
  for (let n = 0; n < NIGHTS - 1; n++) {
    const q = quizzes[n]!;
    await db.batch([
      batchableRun(
        db,
        sql`INSERT INTO result_nights (quiz_id, venue_id, location_id, series_id, date, team_count, first_posted_at)
        VALUES (${q.id}, ${venue.id}, ${location.id}, ${seriesId}, ${q.date}, ${TEAMS}, ${`${q.date}T21:00:00.000Z`})`,
      ),
      batchableRun(
        db,
        sql`INSERT INTO results (quiz_id, team_id, score, rank, date, venue_id, location_id)
        SELECT ${q.id}, json_extract(value, '$.id'), 100 - key, key + 1, ${q.date}, ${venue.id}, ${location.id} FROM json_each(${JSON.stringify(rows)})`,
      ),
    ]);
  }
  // Tonight: the paste box, ties at 2.
  const text = rows.map((r, i) => `${r.name};${i === 0 ? 50 : i <= 2 ? 45 : 40 - i}`).join('\n');
  const posted = await callJson(`/api/owner/quizzes/${lastQuizId}/results`, { method: 'PUT', body: { text }, cookie: owner.cookie, clock: CLOCK });
  expect(posted.status).toBe(200);
  expect(posted.body.rows.slice(0, 4).map((r: { rank: number }) => r.rank)).toEqual([1, 2, 2, 4]);
  teamSlug = posted.body.rows[1].slug;
});

describe('the results page', () => {
  it('shows the last night (ties share a rank) and the season table within 50 rows read', async () => {
    const { status, html, rowsRead } = await measure(`/quiz/${city}/${venueSlug}/resultat`);
    expect(status).toBe(200);
    const data = pageData(html);
    expect(data.kind).toBe('results');
    expect(data.latest).toBe(true);
    expect(data.night.rows.map((r: { rank: number }) => r.rank)).toEqual([1, 2, 2]);
    expect(data.night.date).toBe(TODAY);
    // placing_15 over 40 nights: team 1 won 40 times.
    expect(data.season.rows[0]).toMatchObject({ rank: 1, team: `Lag ${tag} 01`, score: 600, nights: 40 });
    expect(data.season.rows).toHaveLength(20);
    expect(data.season.hasMore).toBe(true);
    expect(data.nights).toHaveLength(8);
    expect(html).toContain('aria-label="Brödsmulor"');
    expect(html).toContain(`/og/resultat/${city}/${venueSlug}.png`);
    console.info(`results: /quiz/{city}/{venue}/resultat uncached → ${rowsRead} rows read`);
    expect(rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
  });

  it('pages earlier nights and the table, and shows a chosen night', async () => {
    const first = pageData((await measure(`/quiz/${city}/${venueSlug}/resultat`)).html);
    const older = await measure(`/quiz/${city}/${venueSlug}/resultat?fore=${first.nightsCursor}`);
    expect(older.rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
    const olderData = pageData(older.html);
    expect(olderData.nights[0].date).toBe(addDays(TODAY, -7 * 8));
    const table2 = pageData((await measure(`/quiz/${city}/${venueSlug}/resultat?sasong=${first.season.id}&tabell=2`)).html);
    // placing_15: places 7–30 score nothing all season, so they share rank 7.
    expect(table2.season.rows[0].rank).toBe(7);
    expect(table2.season.rows).toHaveLength(10);
    const chosen = await measure(`/quiz/${city}/${venueSlug}/resultat?kvall=${first.nights[0].quizId}`);
    expect(chosen.rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
    const night = pageData(chosen.html);
    expect(night).toMatchObject({ latest: false, night: { quizId: lastQuizId, more: 10, corrected: false } });
    expect(night.night.rows.slice(0, 5).map((r: { rank: number }) => r.rank)).toEqual([1, 2, 2, 4, 5]);
    expect(chosen.html).toMatch(/<td[^>]*>2<\/td><td[^>]*><a href="\/lag\//);
  });

  it('is a 404 for an unknown venue or a city the venue is not in', async () => {
    expect((await call(`/quiz/${city}/finns-inte-${tag}/resultat`, { clock: CLOCK })).status).toBe(404);
    expect((await call(`/quiz/annan-stad-${tag}/${venueSlug}/resultat`, { clock: CLOCK })).status).toBe(404);
  });
});

describe('the team page', () => {
  it('lists the team’s nights newest first within 50 rows read', async () => {
    const { status, html, rowsRead } = await measure(`/lag/${teamSlug}`);
    expect(status).toBe(200);
    const data = pageData(html);
    expect(data.kind).toBe('team');
    expect(data.nights[0]).toMatchObject({ quizId: lastQuizId, date: TODAY, rank: 2, score: 45 });
    expect(data.nights).toHaveLength(9);
    expect(data.seasons[0]).toMatchObject({ name: 'Säsong 2030', rank: 2 });
    console.info(`results: /lag/{slug} uncached → ${rowsRead} rows read`);
    expect(rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
    const next = await measure(`/lag/${teamSlug}?fore=${data.nextCursor}`);
    expect(pageData(next.html).nights[0].date).toBe(addDays(TODAY, -7 * 9));
    expect(next.rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
  });

  it('is a 404 for an unknown slug', async () => {
    expect((await call(`/lag/finns-inte-${tag}`, { clock: CLOCK })).status).toBe(404);
  });
});

describe('links into the results', () => {
  it('the venue page shows the last winner and links to the results page', async () => {
    const { html, rowsRead } = await measure(`/quiz/${city}/${venueSlug}`);
    expect(pageData(html).lastWinner).toEqual({ team: `Lag ${tag} 01`, slug: expect.any(String), date: TODAY });
    expect(html).toContain(`href="/quiz/${city}/${venueSlug}/resultat"`);
    expect(rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
  });

  it('the sitemap lists the results page and the team pages', async () => {
    const index = await (await call('/sitemap.xml', { clock: CLOCK })).text();
    expect(index).toContain('/sitemaps/lag-1.xml');
    const venues = await (await call('/sitemaps/stallen-1.xml', { clock: CLOCK })).text();
    expect(venues).toContain(`/quiz/${city}/${venueSlug}/resultat</loc>`);
    const teams = await (await call('/sitemaps/lag-1.xml', { clock: CLOCK })).text();
    expect(teams).toContain(`/lag/${teamSlug}</loc>`);
  });

  it('the share card of the table draws the season’s top three', async () => {
    const res = await call(`/og/resultat/${city}/${venueSlug}.png`, { clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const texts = JSON.parse(decodeURIComponent(res.headers.get('x-og-text') ?? '[]')) as string[];
    expect(texts).toContain(`1. Lag ${tag} 01 – 600 p (Säsong 2030)`);
  });
});

describe('a team hides itself, a name is reported (last: they change the shared season)', () => {
  it('hides with the team code and the mailed link: gone from every public page on the next request', async () => {
    const name = `Lag ${tag} 30`;
    const slug = name.toLowerCase().replaceAll(' ', '-');
    const resultsPath = `/quiz/${city}/${venueSlug}/resultat`;
    // Cached copies first (anonymous GETs go through the edge cache).
    expect((await call(`/lag/${slug}`, { clock: CLOCK })).status).toBe(200);
    const tablePage = `${resultsPath}?tabell=2`;
    expect(await (await call(tablePage, { clock: CLOCK })).text()).toContain(name);
    // The night's page (a query the edge-cache key must keep, or it serves the main page): the 30th is beyond the 20 shown.
    const nightPage = await (await call(`${resultsPath}?kvall=${lastQuizId}`, { clock: CLOCK })).text();
    expect(pageData(nightPage).night).toMatchObject({ quizId: lastQuizId, more: 10 });
    expect(nightPage).not.toContain(name);

    const email = `${unique('lag')}@test.local`;
    const wrong = await callJson('/api/teams/hide', { body: { code: 'ZZZZ99', email }, clock: CLOCK });
    expect(wrong.status).toBe(202);
    expect(await testDb().all(sql`SELECT 1 FROM mail_outbox WHERE to_email = ${email}`)).toHaveLength(0);
    const bad = await callJson('/api/teams/hide', { body: { code: 'Z0299Q', email: 'inte-en-adress' }, clock: CLOCK });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('E-post: ange en giltig e-postadress');

    const asked = await callJson('/api/teams/hide', { body: { code: 'z0299q', email }, clock: CLOCK });
    expect(asked.status).toBe(202);
    const [mail] = await testDb().all<{ text: string; subject: string }>(sql`SELECT text, subject FROM mail_outbox WHERE to_email = ${email}`);
    expect(mail!.subject).toBe('Bekräfta att ert lag ska döljas på Quizkväll');
    expect(mail!.text).not.toContain(name);
    const link = /\/dolj-lag\?t=([^\s]+)/.exec(mail!.text)![1]!;
    const shown = await call(`/dolj-lag?t=${link}`, { clock: CLOCK });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Dölj laget');
    const done = await call(`/dolj-lag?t=${link}`, {
      method: 'POST',
      clock: CLOCK,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Laget är dolt');

    expect((await call(`/lag/${slug}`, { clock: CLOCK })).status).toBe(404);
    expect(await (await call(tablePage, { clock: CLOCK })).text()).not.toContain(name);
    expect(await (await call('/sitemaps/lag-1.xml', { clock: CLOCK })).text()).not.toContain(`/lag/${slug}<`);
    const again = await call(`/dolj-lag?t=${link}`, {
      method: 'POST',
      clock: CLOCK,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: '',
    });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Länken har redan använts.');
  });

  it('a reported name reaches the superadmin, who renames the team; owners and visitors cannot', async () => {
    const slug = `lag-${tag}-29`;
    const report = await callJson(`/api/teams/${slug}/report`, { body: { reason: 'Stötande namn' }, clock: CLOCK });
    expect(report.status).toBe(201);
    expect((await callJson(`/api/teams/${slug}/report`, { body: { reason: ' ' }, clock: CLOCK })).status).toBe(400);
    expect((await callJson(`/api/teams/finns-inte-${tag}/report`, { body: { reason: 'x' }, clock: CLOCK })).status).toBe(404);

    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const list = await callJson('/api/admin/team-reports', { cookie: admin.cookie, clock: CLOCK });
    expect(list.status).toBe(200);
    const item = list.body.items.find((i: { team: { slug: string } }) => i.team.slug === slug);
    expect(item).toMatchObject({ reason: 'Stötande namn', team: { name: `Lag ${tag} 29`, hidden: false } });

    expect(
      (await callJson(`/api/admin/teams/${item.team.id}`, { method: 'PATCH', body: { name: 'Nytt namn' }, cookie: owner.cookie, clock: CLOCK })).status,
    ).toBe(403);
    expect((await callJson(`/api/admin/teams/${item.team.id}`, { method: 'PATCH', body: { name: 'Nytt namn' }, clock: CLOCK })).status).toBe(401);
    const taken = await callJson(`/api/admin/teams/${item.team.id}`, { method: 'PATCH', body: { name: `LAG ${tag} 01` }, cookie: admin.cookie, clock: CLOCK });
    expect(taken.status).toBe(409);
    const renamed = await callJson(`/api/admin/teams/${item.team.id}`, {
      method: 'PATCH',
      body: { name: `Omdöpta ${tag}` },
      cookie: admin.cookie,
      clock: CLOCK,
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: `Omdöpta ${tag}`, slug, hidden: false });
    expect(await (await call(`/lag/${slug}`, { clock: CLOCK })).text()).toContain(`Omdöpta ${tag}`);
    expect(await (await call(`/quiz/${city}/${venueSlug}/resultat?tabell=2`, { clock: CLOCK })).text()).toContain(`Omdöpta ${tag}`);
    const after = await callJson('/api/admin/team-reports', { cookie: admin.cookie, clock: CLOCK });
    expect(after.body.items.some((i: { team: { slug: string } }) => i.team.slug === slug)).toBe(false);
  });
});

describe('the league page', () => {
  it('/liga/{slug}: the league season over the 40 nights and a second venue, its venues, within 50 rows read', async () => {
    const other = await createVenue(owner.id, { name: `Ligagrannen ${tag}`, slug: `ligagrannen-${tag}` });
    const place = await createLocation(other.id, { city: uniqueTown() });
    const otherSeries = newId();
    const q = await createQuiz(place.id, { date: addDays(TODAY, -1), isRecurring: true, recurrenceId: otherSeries, recurrencePattern: 'weekly' });
    const posted = await callJson(`/api/owner/quizzes/${q.id}/results`, {
      method: 'PUT',
      body: { text: `Lag ${tag} 30;99\nNykomling ${tag};98`, acceptNew: true },
      cookie: owner.cookie,
      clock: CLOCK,
    });
    expect(posted.status).toBe(200);
    const league = await callJson('/api/owner/leagues', {
      method: 'POST',
      body: { name: `Kedjan ${tag}`, seriesIds: [seasonSeriesId, otherSeries] },
      cookie: owner.cookie,
      clock: CLOCK,
    });
    expect(league.status).toBe(201);
    // Eleven seasons: the table is the current one's, the list pages five at a time.
    for (let i = 10; i >= 1; i--) {
      const y = 2030 - i;
      const old = { name: `Säsong ${y}`, startDate: `${y}-01-01`, endDate: `${y}-12-31`, preset: 'total' };
      expect((await callJson(`/api/owner/leagues/${league.body.id}/seasons`, { method: 'POST', body: old, cookie: owner.cookie, clock: CLOCK })).status).toBe(
        201,
      );
    }
    const season = await callJson(`/api/owner/leagues/${league.body.id}/seasons`, {
      method: 'POST',
      body: { name: 'Ligan 2030', startDate: '2030-01-01', endDate: '2030-12-31', preset: 'placing_15' },
      cookie: owner.cookie,
      clock: CLOCK,
    });
    expect(season.status).toBe(201);
    const path = `/liga/${league.body.slug}`;
    const { status, html, rowsRead } = await measure(path);
    expect(status).toBe(200);
    const data = pageData(html);
    expect(data.kind).toBe('league');
    expect(data.season).toMatchObject({ name: 'Ligan 2030', hasMore: true });
    // Team 1 won the 40 nights at the first venue: 600 points; team 30 won the second venue's night.
    expect(data.season.rows[0]).toMatchObject({ rank: 1, team: `Lag ${tag} 01`, score: 600, nights: 40 });
    expect(data.season.rows).toHaveLength(20);
    expect(data.venues.map((v: { slug: string }) => v.slug).sort()).toEqual([other.slug, venueSlug].sort());
    expect(html).toContain(`/quiz/${city}/${venueSlug}/resultat`);
    expect(html).toContain('aria-label="Brödsmulor"');
    expect(html).toContain(`/og/liga/${league.body.slug}.png`);
    expect(data.seasons).toHaveLength(5);
    console.info(`results: /liga/{slug} uncached → ${rowsRead} rows read`);
    expect(rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);

    const older = await measure(`${path}?fore=${data.seasonsCursor}`);
    expect(older.rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
    const olderData = pageData(older.html);
    expect(olderData.seasons.map((s: { name: string }) => s.name)).toEqual(['Säsong 2025', 'Säsong 2024', 'Säsong 2023', 'Säsong 2022', 'Säsong 2021']);
    expect(olderData.seasonsCursor).not.toBeNull();
    const table2 = await measure(`${path}?sasong=${data.season.id}&tabell=2`);
    expect(table2.rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
    expect(pageData(table2.html).season.page).toBe(2);

    const sitemap = await (await call('/sitemaps/sidor-1.xml', { clock: CLOCK })).text();
    expect(sitemap).toContain(`/liga/${league.body.slug}<`);
    const card = await call(`/og/liga/${league.body.slug}.png`, { clock: CLOCK });
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toBe('image/png');
  });
  it(`a league of ${LEAGUE_MAX_SERIES} series at as many venues (the most a league holds): its page still within 50 rows read`, async () => {
    const seriesIds = [seasonSeriesId];
    for (let i = 1; i < LEAGUE_MAX_SERIES; i++) {
      const v = await createVenue(owner.id, { name: `Kedjepuben ${i} ${tag}`, slug: `kedjepuben-${i}-${tag}` });
      const place = await createLocation(v.id, { city: uniqueTown() });
      const id = newId();
      await createQuiz(place.id, { date: addDays(TODAY, 7), isRecurring: true, recurrenceId: id, recurrencePattern: 'weekly' });
      seriesIds.push(id);
    }
    const league = await callJson('/api/owner/leagues', { method: 'POST', body: { name: `Storkedjan ${tag}`, seriesIds }, cookie: owner.cookie, clock: CLOCK });
    expect(league.status).toBe(201);
    // A full page of seasons and one more (the list's probe), as the worst case reads.
    for (let y = 2024; y <= 2030; y++) {
      const season = { name: `Storligan ${y}`, startDate: `${y}-01-01`, endDate: `${y}-12-31`, preset: 'total' };
      const made = await callJson(`/api/owner/leagues/${league.body.id}/seasons`, { method: 'POST', body: season, cookie: owner.cookie, clock: CLOCK });
      expect(made.status).toBe(201);
    }
    const { status, html, rowsRead } = await measure(`/liga/${league.body.slug}`);
    expect(status).toBe(200);
    const data = pageData(html);
    expect(data.season.rows).toHaveLength(20);
    expect(data.venues.length).toBe(LEAGUE_VENUES_SHOWN);
    console.info(`results: /liga/{slug} of ${LEAGUE_MAX_SERIES} venues uncached → ${rowsRead} rows read`);
    expect(rowsRead).toBeLessThanOrEqual(ROWS_READ_CEILING);
  });
});
