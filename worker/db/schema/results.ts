/**
 * Results, teams and season tables (issue 46). A team is its name (no personal names); a night's results are
 * rows of (quiz, team, score, rank); every post and correction is audited; seasons (on a series, or a league of
 * series) keep a standings read model rewritten in the same batch as the results (decision 0020).
 */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { SEASON_PRESETS } from '../../lib/season-presets';
import { nowIso, timestamps } from './common';
import { users } from './accounts';
import { locations, quizzes, venues } from './catalogue';

/**
 * A team, one identity across venues. `name_key` is the name lower-cased, accents stripped and spaces
 * collapsed (teamNameKey in worker/features/results/rules.ts): the same key is the same team. `code` is the
 * 6-character team code a quizmaster may type instead of the name. `hidden_at`: the team hid itself (or the
 * superadmin hid it); hidden teams appear on no public page.
 */
export const teams = sqliteTable(
  'teams',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    nameKey: text('name_key').notNull(),
    slug: text('slug').notNull(),
    code: text('code').notNull(),
    hiddenAt: text('hidden_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('teams_name_key_uq').on(t.nameKey),
    uniqueIndex('teams_slug_uq').on(t.slug),
    uniqueIndex('teams_code_uq').on(t.code),
    check('teams_code_ck', sql`length(code) = 6`),
  ],
);
export type TeamRow = typeof teams.$inferSelect;

/**
 * One night with posted results (one quiz occurrence). `venue_id`, `location_id` and `date` are the quiz's,
 * copied so the public pages read a venue's nights from one index. `corrected_at`: the night was changed after
 * its first post ("rättad").
 */
export const resultNights = sqliteTable(
  'result_nights',
  {
    quizId: text('quiz_id')
      .primaryKey()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    venueId: text('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'cascade' }),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    /** The quiz's series (recurrence_id), or null for a single evening. */
    seriesId: text('series_id'),
    date: text('date').notNull(),
    teamCount: integer('team_count').notNull(),
    firstPostedAt: text('first_posted_at').notNull().default(nowIso),
    correctedAt: text('corrected_at'),
    ...timestamps,
  },
  (t) => [
    index('result_nights_venue_date_idx').on(t.venueId, t.date, t.quizId),
    index('result_nights_location_date_idx').on(t.locationId, t.date),
    index('result_nights_series_date_idx').on(t.seriesId, t.date),
  ],
);
export type ResultNightRow = typeof resultNights.$inferSelect;

/** One team's result on one night. Ties share a rank (1, 2, 2, 4). */
export const results = sqliteTable(
  'results',
  {
    quizId: text('quiz_id')
      .notNull()
      .references(() => resultNights.quizId, { onDelete: 'cascade' }),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** Points on the night; halves allowed (42.5). */
    score: real('score').notNull(),
    rank: integer('rank').notNull(),
    /** The night's date and venue, copied: a team's page reads its nights newest first from one index. */
    date: text('date').notNull(),
    venueId: text('venue_id').notNull(),
    locationId: text('location_id').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.quizId, t.teamId] }),
    index('results_quiz_rank_idx').on(t.quizId, t.rank),
    index('results_team_date_idx').on(t.teamId, t.date, t.quizId),
    index('results_venue_team_idx').on(t.venueId, t.teamId),
    check('results_score_ck', sql`score >= 0`),
    check('results_rank_ck', sql`rank >= 1`),
  ],
);
export type ResultRow = typeof results.$inferSelect;

/** Every post and correction of a night: who, when, and the rows before and after (JSON [{team, score}]). */
export const resultChanges = sqliteTable(
  'result_changes',
  {
    id: text('id').primaryKey(),
    quizId: text('quiz_id')
      .notNull()
      .references(() => resultNights.quizId, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    before: text('before'),
    after: text('after').notNull(),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('result_changes_quiz_idx').on(t.quizId, t.createdAt)],
);

/** A league: one table across several series (a chain, or an organiser's simultaneous quiz). */
export const leagues = sqliteTable(
  'leagues',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    slug: text('slug').notNull(),
    /** The owner (or the superadmin) who created it. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [uniqueIndex('leagues_slug_uq').on(t.slug)],
);

/** A series in a league; `consented_at` is its owner's consent (set at once when the owner created the league). */
export const leagueSeries = sqliteTable(
  'league_series',
  {
    leagueId: text('league_id')
      .notNull()
      .references(() => leagues.id, { onDelete: 'cascade' }),
    seriesId: text('series_id').notNull(),
    consentedAt: text('consented_at'),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [primaryKey({ columns: [t.leagueId, t.seriesId] }), index('league_series_series_idx').on(t.seriesId)],
);

/**
 * A season: a name, a date range (inclusive, Stockholm dates) and a scoring preset with its parameters (JSON:
 * { bestN } for best_n, { minAttendancePct } for min_attendance). It belongs to one series, or to a league.
 * `venue_id` is the series' business (null for a league), for the venue's results page.
 */
export const seasons = sqliteTable(
  'seasons',
  {
    id: text('id').primaryKey(),
    seriesId: text('series_id'),
    leagueId: text('league_id').references(() => leagues.id, { onDelete: 'cascade' }),
    venueId: text('venue_id').references(() => venues.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    preset: text('preset', { enum: SEASON_PRESETS }).notNull(),
    params: text('params').notNull().default('{}'),
    ...timestamps,
  },
  (t) => [
    index('seasons_series_idx').on(t.seriesId, t.startDate),
    // With the id: the league page's seasons (latest first, id as the tie-break) are walked in index order, not sorted.
    index('seasons_league_idx').on(t.leagueId, t.startDate, t.id),
    index('seasons_venue_idx').on(t.venueId, t.endDate),
    check('seasons_owner_ck', sql`(series_id IS NULL) <> (league_id IS NULL)`),
    check('seasons_range_ck', sql`start_date <= end_date`),
  ],
);
export type SeasonRow = typeof seasons.$inferSelect;

/**
 * The standings read model: one row per (season, team), rewritten for every season a night belongs to in the
 * same batch as its results (worker/features/results/queries.ts standingsRefresh). `rank` is null for a team
 * below the minimum attendance. Team name and slug are copied so a table page reads one row per team; hiding
 * or renaming a team updates them.
 */
export const seasonStandings = sqliteTable(
  'season_standings',
  {
    seasonId: text('season_id')
      .notNull()
      .references(() => seasons.id, { onDelete: 'cascade' }),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    teamName: text('team_name').notNull(),
    teamSlug: text('team_slug').notNull(),
    hidden: integer('hidden', { mode: 'boolean' }).notNull().default(false),
    points: real('points').notNull(),
    nights: integer('nights').notNull(),
    rank: integer('rank'),
    /** Sort key: ranked teams by rank, then unranked by points (rank null sorts last). */
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.seasonId, t.teamId] }),
    index('season_standings_position_idx').on(t.seasonId, t.position),
    index('season_standings_team_idx').on(t.teamId),
  ],
);
export type SeasonStandingRow = typeof seasonStandings.$inferSelect;

/**
 * A report of an offensive team name (issue 46), for the superadmin's moderation queue (the "Tips" tab). The
 * reporter leaves only a reason; `answered_at` is set when the superadmin renamed, hid or dismissed it.
 */
export const teamReports = sqliteTable(
  'team_reports',
  {
    id: text('id').primaryKey(),
    teamId: text('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    reason: text('reason').notNull(),
    answeredAt: text('answered_at'),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('team_reports_open_idx').on(t.answeredAt, t.createdAt)],
);
