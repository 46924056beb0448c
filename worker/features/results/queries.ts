/**
 * Results (issue 46): the SQL. Writes are statements for one db.batch (service.ts postResults); the standings
 * read model is rewritten by two statements computed inside D1 from the stored results (decision 0018), so a
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
