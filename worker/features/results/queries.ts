/**
 * Results (issue 46): the SQL. Writes are statements for one db.batch (service.ts postResults); the standings
 * read model is rewritten by two statements computed inside D1 from the stored results (decision 0020), so a
 * concurrent post of another night can never leave a table computed from a stale read. Public reads are bounded
 * (each page ≤ 50 rows read, test/integration/results-cost.test.ts).
 */
import { sql, type SQL } from 'drizzle-orm';
import { batchableRun } from '../../db/batch';
import type { Db } from '../../db/client';
import { PLACING_POINTS } from '../../lib/season-presets';

export interface TeamRef {
  id: string;
  name: string;
  nameKey: string;
  slug: string;
  code: string;
  hidden: boolean;
}

const TEAM_COLS = sql`t.id AS id, t.name AS name, t.name_key AS nameKey, t.slug AS slug, t.code AS code, t.hidden_at IS NOT NULL AS hidden`;
const toTeam = (r: TeamRef): TeamRef => ({ ...r, hidden: !!r.hidden });

/** Teams by name key (one read per key). */
export async function teamsByKeys(db: Db, keys: string[]): Promise<TeamRef[]> {
  if (!keys.length) return [];
  const rows = await db.all<TeamRef>(sql`SELECT ${TEAM_COLS} FROM json_each(${JSON.stringify(keys)}) j CROSS JOIN teams t ON t.name_key = j.value`);
  return rows.map(toTeam);
}

/** Teams by team code (upper case; one read per code). */
export async function teamsByCodes(db: Db, codes: string[]): Promise<TeamRef[]> {
  if (!codes.length) return [];
  const rows = await db.all<TeamRef>(sql`SELECT ${TEAM_COLS} FROM json_each(${JSON.stringify(codes)}) j CROSS JOIN teams t ON t.code = j.value`);
  return rows.map(toTeam);
}

/** Teams that have played at a business (for "Menade du …?"); bounded. */
export async function teamsAtVenue(db: Db, venueId: string, limit = 500): Promise<TeamRef[]> {
  const rows = await db.all<TeamRef>(sql`
    SELECT ${TEAM_COLS} FROM (SELECT DISTINCT team_id FROM results WHERE venue_id = ${venueId} LIMIT ${limit}) v
    CROSS JOIN teams t ON t.id = v.team_id`);
  return rows.map(toTeam);
}

export interface NightRow {
  quizId: string;
  date: string;
  firstPostedAt: string;
  correctedAt: string | null;
}

export async function nightOf(db: Db, quizId: string): Promise<NightRow | null> {
  const [row] = await db.all<NightRow>(sql`
    SELECT quiz_id AS quizId, date, first_posted_at AS firstPostedAt, corrected_at AS correctedAt FROM result_nights WHERE quiz_id = ${quizId}`);
  return row ?? null;
}

export interface NightResultRow {
  rank: number;
  team: string;
  slug: string;
  code: string;
  score: number;
  teamId: string;
  hidden: boolean;
}

/** A night's rows in rank order (ties by name). */
export async function nightRows(db: Db, quizId: string): Promise<NightResultRow[]> {
  const rows = await db.all<NightResultRow>(sql`
    SELECT r.rank AS rank, t.name AS team, t.slug AS slug, t.code AS code, r.score AS score, t.id AS teamId, t.hidden_at IS NOT NULL AS hidden
    FROM results r CROSS JOIN teams t ON t.id = r.team_id
    WHERE r.quiz_id = ${quizId} ORDER BY r.rank, t.name_key`);
  return rows.map((r) => ({ ...r, hidden: !!r.hidden }));
}

/** A place's occurrences between two dates (inclusive), newest first, with whether results are posted. */
export async function placeNights(db: Db, locationId: string, from: string, to: string) {
  return db.all<{ quizId: string; date: string; posted: number; corrected: number }>(sql`
    SELECT q.id AS quizId, q.date AS date, n.quiz_id IS NOT NULL AS posted, n.corrected_at IS NOT NULL AS corrected
    FROM quizzes q LEFT JOIN result_nights n ON n.quiz_id = q.id
    WHERE q.location_id = ${locationId} AND q.date BETWEEN ${from} AND ${to} AND q.is_cancelled = 0
    ORDER BY q.date DESC, q.start_time DESC LIMIT 100`);
}

// ---- Writes (one batch) ----

export interface NewTeam {
  id: string;
  name: string;
  key: string;
  slug: string;
  /** Used instead of `slug` when another team already has it (base slug + the code). */
  altSlug: string;
  code: string;
}

/** Inserts new teams; a name key another request inserted meanwhile is kept as it is (that team is used). */
export function insertTeams(db: Db, teams: NewTeam[], nowIso: string) {
  return batchableRun(
    db,
    sql`
    INSERT INTO teams (id, name, name_key, slug, code, created_at, updated_at)
    SELECT json_extract(j.value, '$.id'), json_extract(j.value, '$.name'), json_extract(j.value, '$.key'),
      CASE WHEN EXISTS (SELECT 1 FROM teams x WHERE x.slug = json_extract(j.value, '$.slug')) THEN json_extract(j.value, '$.altSlug') ELSE json_extract(j.value, '$.slug') END,
      json_extract(j.value, '$.code'), ${nowIso}, ${nowIso}
    FROM json_each(${JSON.stringify(teams)}) j WHERE true
    ON CONFLICT (name_key) DO NOTHING`,
  );
}

/**
 * The night's row: inserted on the first post; on a later post updated only while the correction window is open
 * (first post at or after `correctableSince`) — otherwise it changes no row and the guard after it fails the batch.
 */
export function upsertNight(
  db: Db,
  n: {
    quizId: string;
    venueId: string;
    locationId: string;
    seriesId: string | null;
    date: string;
    teamCount: number;
    nowIso: string;
    correctableSince: string;
  },
) {
  return batchableRun(
    db,
    sql`
    INSERT INTO result_nights (quiz_id, venue_id, location_id, series_id, date, team_count, first_posted_at, created_at, updated_at)
    VALUES (${n.quizId}, ${n.venueId}, ${n.locationId}, ${n.seriesId}, ${n.date}, ${n.teamCount}, ${n.nowIso}, ${n.nowIso}, ${n.nowIso})
    ON CONFLICT (quiz_id) DO UPDATE SET team_count = excluded.team_count, corrected_at = ${n.nowIso}, updated_at = ${n.nowIso}
    WHERE result_nights.first_posted_at >= ${n.correctableSince}`,
  );
}

/** The audit row: who, when, the stored rows before (null on the first post) and the rows after. */
export function insertChange(db: Db, c: { id: string; quizId: string; userId: string; after: string; nowIso: string }) {
  return batchableRun(
    db,
    sql`
    INSERT INTO result_changes (id, quiz_id, user_id, before, after, created_at)
    SELECT ${c.id}, ${c.quizId}, ${c.userId},
      (SELECT json_group_array(json_object('team', t.name, 'score', r.score, 'rank', r.rank))
         FROM results r JOIN teams t ON t.id = r.team_id WHERE r.quiz_id = ${c.quizId} HAVING COUNT(*) > 0),
      ${c.after}, ${c.nowIso}`,
  );
}

export function deleteNightResults(db: Db, quizId: string) {
  return batchableRun(db, sql`DELETE FROM results WHERE quiz_id = ${quizId}`);
}

/** The night's rows `[{ key, score, rank }]`, each joined to its team by name key. */
export function insertNightResults(db: Db, n: { quizId: string; date: string; venueId: string; locationId: string; rows: string }) {
  return batchableRun(
    db,
    sql`
    INSERT INTO results (quiz_id, team_id, score, rank, date, venue_id, location_id)
    SELECT ${n.quizId}, t.id, json_extract(j.value, '$.score'), json_extract(j.value, '$.rank'), ${n.date}, ${n.venueId}, ${n.locationId}
    FROM json_each(${n.rows}) j CROSS JOIN teams t ON t.name_key = json_extract(j.value, '$.key')`,
  );
}

/** The seasons a night belongs to: its series' seasons and its series' (consented) leagues' seasons covering its date. */
export const seasonsOfNight = (quizId: string): SQL => sql`
  SELECT s.* FROM result_nights q JOIN seasons s ON q.date BETWEEN s.start_date AND s.end_date
    AND (s.series_id = q.series_id
      OR s.league_id IN (SELECT ls.league_id FROM league_series ls WHERE ls.series_id = q.series_id AND ls.consented_at IS NOT NULL))
  WHERE q.quiz_id = ${quizId}`;

export const seasonById = (seasonId: string): SQL => sql`SELECT s.* FROM seasons s WHERE s.id = ${seasonId}`;

const placing = (preset: keyof typeof PLACING_POINTS) => sql.raw(`'${JSON.stringify(PLACING_POINTS[preset])}'`);

/** Statement 1 of 2: forget the stored tables of the seasons `which` selects. */
export function deleteStandings(db: Db, which: SQL) {
  return batchableRun(db, sql`WITH ss AS (${which}) DELETE FROM season_standings WHERE season_id IN (SELECT id FROM ss)`);
}

/**
 * Statement 2 of 2: the tables of the seasons `which` selects, from their nights' stored results. Points per
 * night: the score (total, best_n, min_attendance) or the placing points of the night's rank; best_n keeps each
 * team's N best nights; min_attendance ranks only teams at ≥ minAttendancePct % of the season's nights. Ties
 * share a rank; `position` orders ranked teams first (mirrors rules.ts computeStandings).
 */
export function insertStandings(db: Db, which: SQL) {
  return batchableRun(
    db,
    sql`
    WITH ss AS (
      SELECT w.id, w.preset, w.series_id, w.league_id, w.start_date, w.end_date,
        CAST(json_extract(w.params, '$.bestN') AS INTEGER) AS best_n, json_extract(w.params, '$.minAttendancePct') AS min_pct
      FROM (${which}) w
    ),
    sn AS (
      SELECT ss.id AS season_id, rn.quiz_id FROM ss JOIN result_nights rn ON rn.date BETWEEN ss.start_date AND ss.end_date
        AND (rn.series_id = ss.series_id
          OR rn.series_id IN (SELECT ls.series_id FROM league_series ls WHERE ls.league_id = ss.league_id AND ls.consented_at IS NOT NULL))
    ),
    m AS (SELECT season_id, COUNT(*) AS m FROM sn GROUP BY season_id),
    p AS (
      SELECT sn.season_id, r.team_id,
        CASE ss.preset
          WHEN 'placing_15' THEN COALESCE(json_extract(${placing('placing_15')}, '$[' || (r.rank - 1) || ']'), 0)
          WHEN 'placing_6' THEN COALESCE(json_extract(${placing('placing_6')}, '$[' || (r.rank - 1) || ']'), 0)
          ELSE r.score END AS pts
      FROM sn JOIN ss ON ss.id = sn.season_id JOIN results r ON r.quiz_id = sn.quiz_id
    ),
    k AS (SELECT p.*, ROW_NUMBER() OVER (PARTITION BY p.season_id, p.team_id ORDER BY p.pts DESC) AS k FROM p),
    a AS (
      SELECT k.season_id, k.team_id,
        SUM(CASE WHEN ss.preset = 'best_n' AND k.k > COALESCE(ss.best_n, 1000000) THEN 0 ELSE k.pts END) AS points,
        COUNT(*) AS nights,
        CASE WHEN ss.preset = 'min_attendance' THEN COUNT(*) * 100 >= COALESCE(ss.min_pct, 0) * MAX(m.m) ELSE 1 END AS ranked
      FROM k JOIN ss ON ss.id = k.season_id JOIN m ON m.season_id = k.season_id
      GROUP BY k.season_id, k.team_id
    )
    INSERT INTO season_standings (season_id, team_id, team_name, team_slug, hidden, points, nights, rank, position)
    SELECT a.season_id, a.team_id, t.name, t.slug, t.hidden_at IS NOT NULL, a.points, a.nights,
      CASE WHEN a.ranked THEN RANK() OVER (PARTITION BY a.season_id, a.ranked ORDER BY a.points DESC) END,
      ROW_NUMBER() OVER (PARTITION BY a.season_id ORDER BY a.ranked DESC, a.points DESC, t.name_key, t.id)
    FROM a JOIN teams t ON t.id = a.team_id`,
  );
}

// ---- Seasons ----

export interface SeasonOut {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  preset: string;
  params: string;
  seriesId: string | null;
}

export async function seasonsOfSeries(db: Db, seriesId: string): Promise<SeasonOut[]> {
  return db.all<SeasonOut>(sql`
    SELECT id, name, start_date AS startDate, end_date AS endDate, preset, params, series_id AS seriesId
    FROM seasons WHERE series_id = ${seriesId} ORDER BY start_date DESC LIMIT 50`);
}

export function insertSeason(
  db: Db,
  s: { id: string; seriesId: string; venueId: string; name: string; startDate: string; endDate: string; preset: string; params: string; nowIso: string },
) {
  return batchableRun(
    db,
    sql`
    INSERT INTO seasons (id, series_id, venue_id, name, start_date, end_date, preset, params, created_at, updated_at)
    VALUES (${s.id}, ${s.seriesId}, ${s.venueId}, ${s.name}, ${s.startDate}, ${s.endDate}, ${s.preset}, ${s.params}, ${s.nowIso}, ${s.nowIso})`,
  );
}

// ---- Public reads (bounded) ----

export interface StandingOut {
  rank: number | null;
  team: string;
  slug: string;
  points: number;
  nights: number;
}

/** A season's visible table rows in order (hidden teams left out), one page. */
export async function standingsPage(db: Db, seasonId: string, offset: number, limit: number): Promise<StandingOut[]> {
  return db.all<StandingOut>(sql`
    SELECT rank, team_name AS team, team_slug AS slug, points, nights FROM season_standings
    WHERE season_id = ${seasonId} AND position > ${offset} AND hidden = 0 ORDER BY position LIMIT ${limit}`);
}

/** A venue's nights newest first, before the cursor (date, quiz id), `limit` of them. */
export async function venueNights(db: Db, venueId: string, before: { date: string; quizId: string } | null, limit: number) {
  const cursor = before ? sql`AND (date, quiz_id) < (${before.date}, ${before.quizId})` : sql``;
  return db.all<{ quizId: string; date: string; teamCount: number; corrected: number }>(sql`
    SELECT quiz_id AS quizId, date, team_count AS teamCount, corrected_at IS NOT NULL AS corrected
    FROM result_nights WHERE venue_id = ${venueId} ${cursor} ORDER BY date DESC, quiz_id DESC LIMIT ${limit}`);
}

/** One night of a venue (for ?kvall=). */
export async function venueNight(db: Db, venueId: string, quizId: string) {
  const [row] = await db.all<{ quizId: string; date: string; teamCount: number; corrected: number }>(sql`
    SELECT quiz_id AS quizId, date, team_count AS teamCount, corrected_at IS NOT NULL AS corrected
    FROM result_nights WHERE quiz_id = ${quizId} AND venue_id = ${venueId}`);
  return row ?? null;
}

/**
 * A night's visible rows in rank order, at most `limit`: walked in index order (quiz, rank), so it reads about
 * two rows per row shown; ties are put in name order here, within the page.
 */
export async function nightTop(db: Db, quizId: string, limit: number) {
  const rows = await db.all<{ rank: number; team: string; slug: string; score: number; nameKey: string }>(sql`
    SELECT r.rank AS rank, t.name AS team, t.slug AS slug, r.score AS score, t.name_key AS nameKey
    FROM results r INDEXED BY results_quiz_rank_idx CROSS JOIN teams t ON t.id = r.team_id
    WHERE r.quiz_id = ${quizId} AND t.hidden_at IS NULL ORDER BY r.rank LIMIT ${limit}`);
  return rows.sort((a, b) => a.rank - b.rank || (a.nameKey < b.nameKey ? -1 : a.nameKey > b.nameKey ? 1 : 0)).map(({ nameKey: _, ...r }) => r);
}

/** A series' (or a single quiz's) latest posted night on or before `today` (owner kit's "top 3"; on result_nights_series_date_idx). */
export async function unitLatestNight(db: Db, unit: { seriesId: string } | { quizId: string }, today: string) {
  const where = 'seriesId' in unit ? sql`series_id = ${unit.seriesId}` : sql`quiz_id = ${unit.quizId}`;
  const [row] = await db.all<{ quizId: string; date: string }>(sql`
    SELECT quiz_id AS quizId, date FROM result_nights WHERE ${where} AND date <= ${today} ORDER BY date DESC, quiz_id DESC LIMIT 1`);
  return row ?? null;
}

/** Which of these series ids and single-quiz ids have a posted night (one bounded read: one probe per id). */
export async function unitsWithNights(db: Db, seriesIds: string[], quizIds: string[]): Promise<Set<string>> {
  if (!seriesIds.length && !quizIds.length) return new Set();
  const rows = await db.all<{ id: string }>(sql`
    SELECT j.value AS id FROM json_each(${JSON.stringify(seriesIds)}) j
      WHERE EXISTS (SELECT 1 FROM result_nights n WHERE n.series_id = j.value)
    UNION ALL
    SELECT j.value AS id FROM json_each(${JSON.stringify(quizIds)}) j
      WHERE EXISTS (SELECT 1 FROM result_nights n WHERE n.quiz_id = j.value)`);
  return new Set(rows.map((r) => r.id));
}

/** A venue's seasons, latest end first. */
export async function venueSeasons(db: Db, venueId: string, limit: number) {
  return db.all<{ id: string; name: string; startDate: string; endDate: string; preset: string }>(sql`
    SELECT id, name, start_date AS startDate, end_date AS endDate, preset FROM seasons
    WHERE venue_id = ${venueId} ORDER BY end_date DESC, id LIMIT ${limit}`);
}

export async function publicTeamBySlug(db: Db, slug: string) {
  const [row] = await db.all<{ id: string; name: string; slug: string }>(sql`SELECT id, name, slug FROM teams WHERE slug = ${slug} AND hidden_at IS NULL`);
  return row ?? null;
}

/** A team's nights at public venues, newest first, before the cursor. */
export async function teamNights(db: Db, teamId: string, before: { date: string; quizId: string } | null, limit: number) {
  const cursor = before ? sql`AND (r.date, r.quiz_id) < (${before.date}, ${before.quizId})` : sql``;
  return db.all<{ quizId: string; date: string; rank: number; score: number; venueName: string; venueSlug: string; citySlug: string; city: string }>(sql`
    SELECT r.quiz_id AS quizId, r.date AS date, r.rank AS rank, r.score AS score, v.name AS venueName, v.slug AS venueSlug,
      l.city_slug AS citySlug, l.city AS city
    FROM results r CROSS JOIN venues v ON v.id = r.venue_id CROSS JOIN locations l ON l.id = r.location_id
    WHERE r.team_id = ${teamId} AND v.is_public = 1 ${cursor}
    ORDER BY r.date DESC, r.quiz_id DESC LIMIT ${limit}`);
}

/** A team's season rows (newest seasons first), with the season's venue when it is public. */
export async function teamSeasons(db: Db, teamId: string, limit: number) {
  return db.all<{ id: string; name: string; rank: number | null; points: number; venueName: string | null; venueSlug: string | null; endDate: string }>(sql`
    SELECT s.id AS id, s.name AS name, st.rank AS rank, st.points AS points, v.name AS venueName, v.slug AS venueSlug, s.end_date AS endDate
    FROM (SELECT season_id, rank, points FROM season_standings WHERE team_id = ${teamId} LIMIT ${limit}) st
    CROSS JOIN seasons s ON s.id = st.season_id
    LEFT JOIN venues v ON v.id = s.venue_id AND v.is_public = 1
    ORDER BY s.end_date DESC`);
}

// ---- Sitemap ----

/** Public venues with posted results among venue rowids [from, to], with when their results last changed. */
export async function resultVenuesInRange(db: Db, fromRowid: number, toRowid: number) {
  return db.all<{ slug: string; lastmod: string }>(sql`
    SELECT v.slug AS slug, MAX(n.updated_at) AS lastmod
    FROM venues v CROSS JOIN result_nights n ON n.venue_id = v.id
    WHERE v.rowid BETWEEN ${fromRowid} AND ${toRowid} AND v.is_public = 1
    GROUP BY v.rowid`);
}

export async function teamRowidCeiling(db: Db): Promise<number> {
  const [row] = await db.all<{ n: number | null }>(sql`SELECT MAX(rowid) AS n FROM teams`);
  return row?.n ?? 0;
}

/** Visible teams among team rowids [from, to]. */
export async function teamSlugRange(db: Db, fromRowid: number, toRowid: number) {
  return db.all<{ slug: string; lastmod: string }>(sql`
    SELECT slug, updated_at AS lastmod FROM teams WHERE rowid BETWEEN ${fromRowid} AND ${toRowid} AND hidden_at IS NULL ORDER BY rowid`);
}

// ---- Teams: hiding, reports, the superadmin ----

export async function teamByCode(db: Db, code: string) {
  const [row] = await db.all<{ id: string; name: string }>(sql`SELECT id, name FROM teams WHERE code = ${code}`);
  return row ?? null;
}

export async function teamById(db: Db, id: string): Promise<TeamRef | null> {
  const [row] = await db.all<TeamRef>(sql`SELECT ${TEAM_COLS} FROM teams t WHERE t.id = ${id}`);
  return row ? toTeam(row) : null;
}

/** Hides or shows a team everywhere: the team row and its copies in the season tables. */
export function setTeamHidden(db: Db, teamId: string, hidden: boolean, nowIso: string) {
  return [
    batchableRun(db, sql`UPDATE teams SET hidden_at = ${hidden ? nowIso : null}, updated_at = ${nowIso} WHERE id = ${teamId}`),
    batchableRun(db, sql`UPDATE season_standings SET hidden = ${hidden ? 1 : 0} WHERE team_id = ${teamId}`),
  ];
}

/** Renames a team (its name key too; its slug stays, so links keep working) and its copies in the season tables. */
export function renameTeam(db: Db, teamId: string, name: string, key: string, nowIso: string) {
  return [
    batchableRun(db, sql`UPDATE teams SET name = ${name}, name_key = ${key}, updated_at = ${nowIso} WHERE id = ${teamId}`),
    batchableRun(db, sql`UPDATE season_standings SET team_name = ${name} WHERE team_id = ${teamId}`),
  ];
}

export function insertTeamReport(db: Db, r: { id: string; teamId: string; reason: string; nowIso: string }) {
  return db.run(sql`INSERT INTO team_reports (id, team_id, reason, created_at) VALUES (${r.id}, ${r.teamId}, ${r.reason}, ${r.nowIso})`);
}

/** Every open report of a team answered at once (the superadmin acted on the team). */
export function answerTeamReports(db: Db, teamId: string, nowIso: string) {
  return batchableRun(db, sql`UPDATE team_reports SET answered_at = ${nowIso} WHERE team_id = ${teamId} AND answered_at IS NULL`);
}

export async function dismissTeamReport(db: Db, id: string, nowIso: string) {
  return db.all<{ id: string }>(sql`UPDATE team_reports SET answered_at = ${nowIso} WHERE id = ${id} AND answered_at IS NULL RETURNING id`);
}

/** Open reports, oldest first (at most `limit`). */
export async function openTeamReports(db: Db, limit: number) {
  return db.all<{ id: string; reason: string; createdAt: string; teamId: string; name: string; slug: string; hidden: number }>(sql`
    SELECT r.id AS id, r.reason AS reason, r.created_at AS createdAt, t.id AS teamId, t.name AS name, t.slug AS slug, t.hidden_at IS NOT NULL AS hidden
    FROM team_reports r CROSS JOIN teams t ON t.id = r.team_id
    WHERE r.answered_at IS NULL ORDER BY r.created_at LIMIT ${limit}`);
}

// ---- Leagues ----

export interface SeriesPlace {
  seriesId: string;
  venueId: string;
  ownerId: string | null;
  venue: string;
  venueSlug: string;
  isPublic: number;
  place: string;
  city: string;
  citySlug: string;
}

const SERIES_PLACE_COLS = sql`v.id AS venueId, v.user_id AS ownerId, v.name AS venue, v.slug AS venueSlug, v.is_public AS isPublic,
  l.name AS place, l.city AS city, l.city_slug AS citySlug`;

/** Each known series' place and business (from its latest occurrence); unknown ids are left out. One read per id. */
export async function seriesPlaces(db: Db, ids: string[]): Promise<SeriesPlace[]> {
  if (!ids.length) return [];
  return db.all<SeriesPlace>(sql`
    SELECT j.value AS seriesId, ${SERIES_PLACE_COLS}
    FROM json_each(${JSON.stringify(ids)}) j
    CROSS JOIN quizzes q ON q.id = (SELECT x.id FROM quizzes x WHERE x.recurrence_id = j.value ORDER BY x.date DESC LIMIT 1)
    CROSS JOIN locations l ON l.id = q.location_id CROSS JOIN venues v ON v.id = l.venue_id`);
}

export interface LeagueRow {
  id: string;
  name: string;
  slug: string;
  userId: string | null;
}

export async function leagueById(db: Db, id: string): Promise<LeagueRow | null> {
  const [row] = await db.all<LeagueRow>(sql`SELECT id, name, slug, user_id AS userId FROM leagues WHERE id = ${id}`);
  return row ?? null;
}

export async function leagueBySlug(db: Db, slug: string): Promise<LeagueRow | null> {
  const [row] = await db.all<LeagueRow>(sql`SELECT id, name, slug, user_id AS userId FROM leagues WHERE slug = ${slug}`);
  return row ?? null;
}

/** Leagues a user created (all of them for the superadmin), newest first. */
export async function leaguesOf(db: Db, userId: string | null, limit: number): Promise<LeagueRow[]> {
  const who = userId === null ? sql`` : sql`WHERE user_id = ${userId}`;
  return db.all<LeagueRow>(sql`SELECT id, name, slug, user_id AS userId FROM leagues ${who} ORDER BY created_at DESC, id LIMIT ${limit}`);
}

/** The series of these leagues with their consent. */
export async function seriesOfLeagues(db: Db, leagueIds: string[]) {
  if (!leagueIds.length) return [];
  return db.all<{ leagueId: string; seriesId: string; consentedAt: string | null }>(sql`
    SELECT ls.league_id AS leagueId, ls.series_id AS seriesId, ls.consented_at AS consentedAt
    FROM json_each(${JSON.stringify(leagueIds)}) j CROSS JOIN league_series ls ON ls.league_id = j.value ORDER BY ls.created_at, ls.series_id`);
}

export async function seasonsOfLeagues(db: Db, leagueIds: string[]) {
  if (!leagueIds.length) return [];
  return db.all<SeasonOut & { leagueId: string }>(sql`
    SELECT s.id AS id, s.name AS name, s.start_date AS startDate, s.end_date AS endDate, s.preset AS preset, s.params AS params,
      s.series_id AS seriesId, s.league_id AS leagueId
    FROM json_each(${JSON.stringify(leagueIds)}) j CROSS JOIN seasons s ON s.league_id = j.value ORDER BY s.start_date DESC`);
}

/** Slugs taken among these candidates. */
export async function takenLeagueSlugs(db: Db, slugs: string[]): Promise<Set<string>> {
  const rows = await db.all<{ slug: string }>(sql`SELECT l.slug AS slug FROM json_each(${JSON.stringify(slugs)}) j CROSS JOIN leagues l ON l.slug = j.value`);
  return new Set(rows.map((r) => r.slug));
}

export function insertLeague(db: Db, l: { id: string; name: string; slug: string; userId: string; nowIso: string }) {
  return batchableRun(
    db,
    sql`INSERT INTO leagues (id, name, slug, user_id, created_at, updated_at) VALUES (${l.id}, ${l.name}, ${l.slug}, ${l.userId}, ${l.nowIso}, ${l.nowIso})`,
  );
}

/** Series into a league; `consented`: at once (the owner's own series), else pending the owner's answer. Already in: kept. */
export function insertLeagueSeries(db: Db, leagueId: string, seriesIds: string[], consented: boolean, nowIso: string) {
  return batchableRun(
    db,
    sql`
    INSERT INTO league_series (league_id, series_id, consented_at, created_at)
    SELECT ${leagueId}, j.value, ${consented ? nowIso : null}, ${nowIso} FROM json_each(${JSON.stringify(seriesIds)}) j WHERE true
    ON CONFLICT (league_id, series_id) DO NOTHING`,
  );
}

export function deleteLeagueSeries(db: Db, leagueId: string, seriesId: string) {
  return batchableRun(db, sql`DELETE FROM league_series WHERE league_id = ${leagueId} AND series_id = ${seriesId}`);
}

/** The owner's consent to a pending series (a no-op when it is no longer pending). */
export function consentLeagueSeries(db: Db, leagueId: string, seriesId: string, nowIso: string) {
  return batchableRun(
    db,
    sql`UPDATE league_series SET consented_at = ${nowIso} WHERE league_id = ${leagueId} AND series_id = ${seriesId} AND consented_at IS NULL`,
  );
}

/** A league's seasons (for rebuilding their tables). */
export const seasonsOfLeague = (leagueId: string): SQL => sql`SELECT s.* FROM seasons s WHERE s.league_id = ${leagueId}`;

/** The pending series (awaiting their owner's answer) of a user's businesses, oldest first. */
export async function pendingLeagueSeries(db: Db, userId: string, limit: number) {
  return db.all<{ leagueId: string; league: string; seriesId: string; venue: string; place: string }>(sql`
    SELECT ls.league_id AS leagueId, g.name AS league, ls.series_id AS seriesId, v.name AS venue, l.name AS place
    FROM league_series ls CROSS JOIN leagues g ON g.id = ls.league_id
    CROSS JOIN quizzes q ON q.id = (SELECT x.id FROM quizzes x WHERE x.recurrence_id = ls.series_id ORDER BY x.date DESC LIMIT 1)
    CROSS JOIN locations l ON l.id = q.location_id CROSS JOIN venues v ON v.id = l.venue_id
    WHERE ls.consented_at IS NULL AND v.user_id = ${userId} ORDER BY ls.created_at LIMIT ${limit}`);
}

/** Declines a pending series: its row goes (a consented series is removed by the league's owner instead). */
export async function declineLeagueSeries(db: Db, leagueId: string, seriesId: string) {
  return db.all<{ seriesId: string }>(
    sql`DELETE FROM league_series WHERE league_id = ${leagueId} AND series_id = ${seriesId} AND consented_at IS NULL RETURNING series_id AS seriesId`,
  );
}

export async function leagueSeriesRow(db: Db, leagueId: string, seriesId: string) {
  const [row] = await db.all<{ consentedAt: string | null }>(
    sql`SELECT consented_at AS consentedAt FROM league_series WHERE league_id = ${leagueId} AND series_id = ${seriesId}`,
  );
  return row ?? null;
}

export function insertLeagueSeason(
  db: Db,
  s: { id: string; leagueId: string; name: string; startDate: string; endDate: string; preset: string; params: string; nowIso: string },
) {
  return batchableRun(
    db,
    sql`
    INSERT INTO seasons (id, league_id, name, start_date, end_date, preset, params, created_at, updated_at)
    VALUES (${s.id}, ${s.leagueId}, ${s.name}, ${s.startDate}, ${s.endDate}, ${s.preset}, ${s.params}, ${s.nowIso}, ${s.nowIso})`,
  );
}

// ---- League page (bounded) ----

/** A league's consented series' places (public businesses), at most `limit` series. */
export async function leagueVenues(db: Db, leagueId: string, limit: number) {
  // Four rows a series: its league row, its listing unit by index and row (kept by the listing triggers: its place's
  // business and town now) and the business; the town's name comes from the gazetteer (lib/gazetteer.ts).
  return db.all<{ venue: string; venueSlug: string; isPublic: number; citySlug: string }>(sql`
    SELECT v.name AS venue, v.slug AS venueSlug, v.is_public AS isPublic, s.city_slug AS citySlug
    FROM (SELECT series_id FROM league_series WHERE league_id = ${leagueId} AND consented_at IS NOT NULL LIMIT ${limit}) ls
    CROSS JOIN listing_series s ON s.recurrence_id = ls.series_id
    CROSS JOIN venues v ON v.id = s.venue_id`);
}

/** A league's seasons, latest start first, before the cursor (walked in seasons_league_idx order). */
export async function leagueSeasonsPage(db: Db, leagueId: string, before: { startDate: string; id: string } | null, limit: number) {
  const cursor = before ? sql`AND (start_date, id) < (${before.startDate}, ${before.id})` : sql``;
  return db.all<{ id: string; name: string; startDate: string; endDate: string; preset: string }>(sql`
    SELECT id, name, start_date AS startDate, end_date AS endDate, preset FROM seasons
    WHERE league_id = ${leagueId} ${cursor} ORDER BY start_date DESC, id DESC LIMIT ${limit}`);
}

export async function leagueSeason(db: Db, leagueId: string, seasonId: string) {
  const [row] = await db.all<{ id: string; name: string; startDate: string; endDate: string; preset: string }>(sql`
    SELECT id, name, start_date AS startDate, end_date AS endDate, preset FROM seasons WHERE id = ${seasonId} AND league_id = ${leagueId}`);
  return row ?? null;
}

/** Leagues for the sitemap (at most `limit`). */
export async function leagueSlugs(db: Db, limit: number) {
  return db.all<{ slug: string; lastmod: string }>(sql`SELECT slug, updated_at AS lastmod FROM leagues ORDER BY rowid LIMIT ${limit}`);
}
