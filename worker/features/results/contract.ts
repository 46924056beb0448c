/**
 * Results (issue 46): the API contract and the paste-box parser, shared by the owner's form (web/) and the
 * Worker. Imports only zod; every message is Swedish and names the line.
 */
import * as z from 'zod';
import { isSingleLine, lineText, multiLineText } from '../../lib/zod-text';
import { SEASON_PRESET_LABELS, SEASON_PRESETS, type SeasonPreset } from '../../lib/season-presets';
import { lazySchema } from '../../lib/lazy-schema';

export { SEASON_PRESET_LABELS, SEASON_PRESETS, type SeasonPreset };
/** The pure rules (no I/O), for the demo seed (worker/db/seed.ts) and the owner's form. */
export { computeStandings, rankScores } from './rules';

/** Teams (lines) per night at most. */
export const RESULTS_MAX_TEAMS = 60;
/** A team name's length at most. */
export const TEAM_NAME_MAX = 60;
/** A score at most (a sanity bound, not a rule of any quiz). */
export const SCORE_MAX = 100_000;
/** Results may be posted from the evening itself up to this many days after. */
export const RESULTS_POST_DAYS = 14;
/** A night may be corrected for this many days after its first post. */
export const RESULTS_CORRECT_DAYS = 7;
/** The paste box's text at most (60 lines of name and score, with room). */
export const RESULTS_TEXT_MAX = 10_000;

/** One parsed line: the team as typed (a name or a team code) and its score. */
export interface ResultLine {
  line: number;
  team: string;
  score: number;
}

export interface LineIssue {
  line: number;
  message: string;
}

const SCORE = /^\d+(?:[.,]\d)?$/;
const NEGATIVE = /^-\s*\d/;

/**
 * A team's identity key: lower-cased, accents stripped (å/ä → a, ö → o, é → e), spaces collapsed.
 * Punctuation stays: "Quizzly Bears!" is another name than "Quizzly Bears" (the team code or "Menade du …?"
 * joins them).
 */
export function teamNameKey(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/[åä]/g, 'a')
    .replace(/ö/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ø/g, 'o')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ');
}

/** "42,5" / "42.5" / "42" → 42.5 / 42; null when it is not a score. */
function scoreOf(raw: string): number | null {
  return SCORE.test(raw) ? Number(raw.replace(',', '.')) : null;
}

/** Splits a line into name and score text: `Lagnamn;poäng`, `Lagnamn<tab>poäng` or `Lagnamn poäng` (number last). */
function splitLine(line: string): { name: string; score: string | null } {
  for (const sep of [';', '\t']) {
    const at = line.lastIndexOf(sep);
    if (at >= 0) return { name: line.slice(0, at).trim(), score: line.slice(at + 1).trim() || null };
  }
  const m = /^(.*?)\s+(-?\s*\d+(?:[.,]\d+)?)$/.exec(line);
  if (m) return { name: m[1]!.trim(), score: m[2]!.replace(/\s+/g, '') };
  return { name: line.trim(), score: null };
}

/** Checks one line's name and score; the first problem found, or the line. */
function checkLine(line: number, name: string, rawScore: string | null): ResultLine | LineIssue {
  if (!name) return { line, message: `Rad ${line}: lagnamn saknas` };
  if (name.length > TEAM_NAME_MAX) return { line, message: `Rad ${line}: lagnamnet får vara högst ${TEAM_NAME_MAX} tecken` };
  if (!isSingleLine(name)) return { line, message: `Rad ${line}: lagnamnet innehåller otillåtna tecken` };
  if (rawScore === null || rawScore === '') return { line, message: `Rad ${line}: poäng saknas för ”${name}”` };
  if (NEGATIVE.test(rawScore)) return { line, message: `Rad ${line}: poängen får inte vara negativ (”${name}”)` };
  const score = scoreOf(rawScore);
  if (score === null) return { line, message: `Rad ${line}: ”${rawScore}” är inte en poäng (heltal eller en decimal, t.ex. 42 eller 42,5)` };
  if (score > SCORE_MAX) return { line, message: `Rad ${line}: poängen får vara högst ${SCORE_MAX}` };
  return { line, team: name, score };
}

/** Duplicate teams among parsed lines (same name key): one issue per repeat, naming both lines. */
function duplicates(lines: ResultLine[]): LineIssue[] {
  const seen = new Map<string, number>();
  const out: LineIssue[] = [];
  for (const l of lines) {
    const key = teamNameKey(l.team);
    const first = seen.get(key);
    if (first !== undefined) out.push({ line: l.line, message: `Rad ${l.line}: laget ”${l.team}” finns redan på rad ${first}` });
    else seen.set(key, l.line);
  }
  return out;
}

export type ParseResult = { ok: true; lines: ResultLine[] } | { ok: false; issues: LineIssue[] };

/** Parses the paste box. Blank lines are skipped; line numbers count every line as typed. */
export function parseResultsText(text: string): ParseResult {
  const raw = text.split(/\r\n|\r|\n/);
  const filled = raw.map((l, i) => ({ line: i + 1, text: l.trim() })).filter((l) => l.text !== '');
  if (!filled.length) return { ok: false, issues: [{ line: 0, message: 'Ange minst ett lag och dess poäng' }] };
  if (filled.length > RESULTS_MAX_TEAMS) {
    const over = filled[RESULTS_MAX_TEAMS]!.line;
    return { ok: false, issues: [{ line: over, message: `Rad ${over}: högst ${RESULTS_MAX_TEAMS} lag per kväll (du angav ${filled.length})` }] };
  }
  return collect(filled.map((l) => (({ name, score }) => checkLine(l.line, name, score))(splitLine(l.text))));
}

/** Checks the row form's rows the same way (row n = line n). */
export function parseResultRows(rows: Array<{ team: string; score: number | string | null }>): ParseResult {
  if (!rows.length) return { ok: false, issues: [{ line: 0, message: 'Ange minst ett lag och dess poäng' }] };
  if (rows.length > RESULTS_MAX_TEAMS) {
    const over = RESULTS_MAX_TEAMS + 1;
    return { ok: false, issues: [{ line: over, message: `Rad ${over}: högst ${RESULTS_MAX_TEAMS} lag per kväll (du angav ${rows.length})` }] };
  }
  return collect(
    rows.map((r, i) => {
      const score = r.score === null ? null : typeof r.score === 'number' ? (Number.isFinite(r.score) ? String(r.score) : 'x') : r.score.trim();
      return checkLine(i + 1, r.team.trim(), score);
    }),
  );
}

function collect(checked: Array<ResultLine | LineIssue>): ParseResult {
  const issues = checked.filter((c): c is LineIssue => 'message' in c);
  if (issues.length) return { ok: false, issues };
  const lines = checked as ResultLine[];
  const dup = duplicates(lines);
  return dup.length ? { ok: false, issues: dup } : { ok: true, lines };
}

/** PUT /api/owner/quizzes/{quizId}/results: the paste box's text, or rows. `acceptNew`: keep names that resemble a known team as new teams. */
export const PostResultsSchema = lazySchema(() =>
  z
    .object({
      text: multiLineText()
        .pipe(z.string().max(RESULTS_TEXT_MAX, `Resultat: högst ${RESULTS_TEXT_MAX} tecken`))
        .optional()
        .describe('Resultat'),
      rows: z
        .array(
          z.object({
            team: lineText().pipe(z.string().max(200, 'Lag: för långt namn')).describe('Lag'),
            score: z.union([z.number(), z.string().max(20), z.null()], { error: 'Poäng: ange en poäng' }).describe('Poäng'),
          }),
          { error: 'Rader: ange en lista med lag och poäng' },
        )
        .max(200, `Rader: högst ${RESULTS_MAX_TEAMS} lag per kväll`)
        .optional()
        .describe('Rader'),
      acceptNew: z.boolean({ error: 'acceptNew: ange true eller false' }).optional().describe('Nya lag'),
    })
    .refine((v) => (v.text === undefined) !== (v.rows === undefined), { message: 'Ange antingen text eller rader', path: ['text'] }),
);
export type PostResultsInput = z.output<typeof PostResultsSchema>;

export const QuizIdParamSchema = lazySchema(() =>
  z.object({ quizId: z.string().trim().min(1, 'Ange ett quiz-id').max(64, 'Ogiltigt quiz-id').describe('quizId') }),
);
export const LocationIdParamSchema = lazySchema(() =>
  z.object({ id: z.string().trim().min(1, 'Ange ett plats-id').max(64, 'Ogiltigt plats-id').describe('id') }),
);

/** One ranked row as the API answers it. */
export interface RankedResult {
  rank: number;
  team: string;
  slug: string;
  /** The team code (owner API only). */
  code: string;
  score: number;
}

export interface NightResults {
  quizId: string;
  date: string;
  posted: boolean;
  firstPostedAt: string | null;
  corrected: boolean;
  /** Until when (Stockholm date) the night may still be posted or corrected; null: no longer. */
  editableUntil: string | null;
  rows: RankedResult[];
}

/** "Menade du …?": a typed name close to a team already seen at the venue. */
export interface TeamSuggestion {
  line: number;
  typed: string;
  team: { name: string; slug: string; code: string };
  similarity: number;
}

export interface LocationNight {
  quizId: string;
  date: string;
  posted: boolean;
  corrected: boolean;
}

// ---- Public pages (server-rendered; the data the pages render from) ----

/** Nights per page of a venue's earlier nights, a team's nights, and rows per page of a season table. */
export const PUBLIC_NIGHTS_PAGE = 8;
export const TEAM_NIGHTS_PAGE = 9;
export const TABLE_PAGE = 20;
/** A chosen night (?kvall=) shows at most this many rows (the rest are counted); the latest night shows its top 3. */
export const NIGHT_ROWS_SHOWN = 20;
export const PODIUM = 3;

export interface PublicRow {
  rank: number | null;
  team: string;
  slug: string;
  score: number;
  nights?: number | undefined;
}

export interface PublicNight {
  quizId: string;
  date: string;
  teamCount: number;
  corrected: boolean;
}

export interface PublicSeason {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  preset: SeasonPreset;
}

/**
 * /quiz/{stad}/{ställe}/resultat. Without ?kvall=: the latest night's top 3 (`latest`), the season table, earlier
 * nights and seasons. With ?kvall=: that night's table (top NIGHT_ROWS_SHOWN) alone.
 */
export interface ResultsPageData {
  kind: 'results';
  today: string;
  city: { slug: string; name: string };
  venue: { id: string; name: string; slug: string };
  night: (PublicNight & { rows: PublicRow[]; more: number }) | null;
  /** True when `night` is the venue's latest night (then its top 3 is shown as the podium). */
  latest: boolean;
  season: (PublicSeason & { rows: PublicRow[]; page: number; hasMore: boolean }) | null;
  nights: PublicNight[];
  /** The cursor of the next page of earlier nights (?fore=), or null. */
  nightsCursor: string | null;
  seasons: PublicSeason[];
}

/** /lag/{slug}: a team's nights across venues, newest first, and its seasons. */
export interface TeamPageData {
  kind: 'team';
  team: { name: string; slug: string };
  nights: Array<{ quizId: string; date: string; rank: number; score: number; venue: { name: string; slug: string; citySlug: string; city: string } }>;
  /** The next page's cursor (?fore=), or null. */
  nextCursor: string | null;
  seasons: Array<{ id: string; name: string; rank: number | null; points: number; venue: string | null }>;
}

/** A page cursor of nights: `<date>_<quizId>` of the last night shown. */
const NIGHT_CURSOR = /^(\d{4}-\d{2}-\d{2})_([A-Za-z0-9-]{1,64})$/;
export const nightCursor = (n: { date: string; quizId: string }) => `${n.date}_${n.quizId}`;
export function parseNightCursor(raw: string | undefined): { date: string; quizId: string } | null {
  const m = raw ? NIGHT_CURSOR.exec(raw) : null;
  return m ? { date: m[1]!, quizId: m[2]! } : null;
}

// ---- Teams: hiding, reports, the superadmin ----

export const TEAM_REPORT_REASON_MAX = 500;

/** POST /api/teams/hide: the team code and an address to confirm by mail (the address is not stored). */
export const HideTeamSchema = lazySchema(() =>
  z.object({
    code: z
      .string({ error: 'Lagkod: ange lagets kod' })
      .trim()
      .toUpperCase()
      .regex(/^[A-Z0-9]{6}$/, 'Lagkod: sex tecken, bokstäver och siffror')
      .describe('Lagkod'),
    email: z.email({ error: 'E-post: ange en giltig e-postadress' }).max(254, 'E-post: ange en giltig e-postadress').describe('E-post'),
  }),
);
export type HideTeamInput = z.output<typeof HideTeamSchema>;

export const TeamSlugParamSchema = lazySchema(() =>
  z.object({ slug: lineText().pipe(z.string().trim().min(1, 'Ange ett lag').max(100, 'Ogiltigt lag')).describe('slug') }),
);

/** POST /api/teams/{slug}/report: why the name is offensive. */
export const ReportTeamSchema = lazySchema(() =>
  z.object({
    reason: lineText()
      .pipe(
        z.string().trim().min(1, 'Anledning: skriv varför namnet är stötande').max(TEAM_REPORT_REASON_MAX, `Anledning: högst ${TEAM_REPORT_REASON_MAX} tecken`),
      )
      .describe('Anledning'),
  }),
);

export const TeamIdParamSchema = lazySchema(() => z.object({ id: z.string().trim().min(1, 'Ange ett lag-id').max(64, 'Ogiltigt lag-id').describe('id') }));

/** PATCH /api/admin/teams/{id}: the superadmin renames or hides (or shows) a team. */
export const AdminTeamSchema = lazySchema(() =>
  z
    .object({
      name: lineText()
        .pipe(z.string().trim().min(1, 'Namn: ange ett namn').max(TEAM_NAME_MAX, `Namn: högst ${TEAM_NAME_MAX} tecken`))
        .optional()
        .describe('Namn'),
      hidden: z.boolean({ error: 'Dold: ange true eller false' }).optional().describe('Dold'),
    })
    .refine((v) => v.name !== undefined || v.hidden !== undefined, { message: 'Ange ett nytt namn eller om laget ska döljas', path: ['name'] }),
);

export interface AdminTeamReport {
  id: string;
  reason: string;
  createdAt: string;
  team: { id: string; name: string; slug: string; hidden: boolean };
}

// ---- Seasons ----

const SEASON_DATE = lazySchema(() =>
  z
    .string({ error: 'Ange ett datum' })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Ange ett giltigt datum (ÅÅÅÅ-MM-DD)')
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      'Ange ett giltigt datum (ÅÅÅÅ-MM-DD)',
    ),
);

/** POST /api/owner/series/{seriesId}/seasons: a season on a series (name, date range, scoring preset). */
export const CreateSeasonSchema = lazySchema(() =>
  z
    .object({
      name: lineText().pipe(z.string().trim().min(1, 'Namn: ange ett namn').max(60, 'Namn: högst 60 tecken')).describe('Namn'),
      startDate: SEASON_DATE.describe('Startdatum'),
      endDate: SEASON_DATE.describe('Slutdatum'),
      preset: z.enum(SEASON_PRESETS, { error: 'Poängregel: välj en regel' }).describe('Poängregel'),
      bestN: z
        .number({ error: 'Bästa N: ange ett antal kvällar' })
        .int('Bästa N: ett heltal')
        .min(1, 'Bästa N: minst 1')
        .max(200, 'Bästa N: högst 200')
        .optional()
        .describe('Bästa N'),
      minAttendancePct: z
        .number({ error: 'Minsta närvaro: ange procent' })
        .int('Minsta närvaro: ett heltal')
        .min(1, 'Minsta närvaro: minst 1 %')
        .max(100, 'Minsta närvaro: högst 100 %')
        .optional()
        .describe('Minsta närvaro'),
    })
    .superRefine((v, ctx) => {
      if (v.endDate < v.startDate) ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'Slutdatum: får inte vara före startdatum' });
      if (v.preset === 'best_n' && v.bestN === undefined)
        ctx.addIssue({ code: 'custom', path: ['bestN'], message: 'Bästa N: ange hur många kvällar som räknas' });
      if (v.preset === 'min_attendance' && v.minAttendancePct === undefined)
        ctx.addIssue({ code: 'custom', path: ['minAttendancePct'], message: 'Minsta närvaro: ange procent av kvällarna' });
    }),
);
export type CreateSeasonInput = z.output<typeof CreateSeasonSchema>;

export const SeriesIdParamSchema = lazySchema(() =>
  z.object({ seriesId: z.string().trim().min(1, 'Ange en serie').max(64, 'Ogiltig serie').describe('seriesId') }),
);

export interface OwnerSeason {
  id: string;
  name: string;
  startDate: string;
  endDate: string;
  preset: SeasonPreset;
  bestN: number | null;
  minAttendancePct: number | null;
}

// ---- Leagues (one table across several series) ----

/** Series in a league at least (when created) and at most. */
export const LEAGUE_MIN_SERIES = 2;
export const LEAGUE_MAX_SERIES = 20;

const SERIES_ID = lazySchema(() => z.string({ error: 'Ange en serie' }).trim().min(1, 'Ange en serie').max(64, 'Ogiltig serie'));

/** POST /api/owner/leagues and POST /api/admin/leagues: a name and the series (at least two, each once). */
export const CreateLeagueSchema = lazySchema(() =>
  z.object({
    name: lineText().pipe(z.string().trim().min(1, 'Namn: ange ett namn').max(80, 'Namn: högst 80 tecken')).describe('Namn'),
    seriesIds: z
      .array(SERIES_ID, { error: 'Serier: välj minst två serier' })
      .min(LEAGUE_MIN_SERIES, `Serier: välj minst ${LEAGUE_MIN_SERIES} serier`)
      .max(LEAGUE_MAX_SERIES, `Serier: högst ${LEAGUE_MAX_SERIES} serier`)
      .refine((ids) => new Set(ids).size === ids.length, 'Serier: samma serie flera gånger')
      .describe('Serier'),
  }),
);
export type CreateLeagueInput = z.output<typeof CreateLeagueSchema>;

/** POST /api/owner/leagues/{leagueId}/series: one more series. */
export const AddLeagueSeriesSchema = lazySchema(() => z.object({ seriesId: SERIES_ID.describe('Serie') }));

export const LeagueIdParamSchema = lazySchema(() =>
  z.object({ leagueId: z.string().trim().min(1, 'Ange en liga').max(64, 'Ogiltig liga').describe('leagueId') }),
);
export const LeagueSeriesParamSchema = lazySchema(() =>
  z.object({
    leagueId: z.string().trim().min(1, 'Ange en liga').max(64, 'Ogiltig liga').describe('leagueId'),
    seriesId: SERIES_ID.describe('seriesId'),
  }),
);

/** POST …/answer: the series' owner accepts or declines the invitation. */
export const LeagueAnswerSchema = lazySchema(() => z.object({ accept: z.boolean({ error: 'Svar: ange true (ja) eller false (nej)' }).describe('Svar') }));

export interface LeagueSeriesOut {
  seriesId: string;
  venue: string;
  place: string;
  city: string;
  /** The series' owner has agreed (always, for a series the league's owner added from their own business). */
  consented: boolean;
}

export interface OwnerLeague {
  id: string;
  name: string;
  slug: string;
  series: LeagueSeriesOut[];
  seasons: OwnerSeason[];
}

/** A series of the owner's that the superadmin put in a league, awaiting the owner's answer. */
export interface LeagueInvitation {
  leagueId: string;
  league: string;
  seriesId: string;
  venue: string;
  place: string;
}

/** Rows per page of a league's table, and earlier seasons per page. */
export const LEAGUE_SEASONS_PAGE = 5;
/**
 * Venues listed on a league page at most: the page's read budget. Each costs four rows (its league row, its listing
 * unit by index and row, its business) beside the league, a page of seasons and a page of the table: ≤ 50 rows with
 * the most series and a full page of seasons (results-pages.test.ts).
 */
export const LEAGUE_VENUES_SHOWN = 5;

/** /liga/{slug}: a league's current (or chosen) season table, its venues and its seasons. */
export interface LeaguePageData {
  kind: 'league';
  today: string;
  league: { name: string; slug: string };
  venues: Array<{ name: string; slug: string; city: string; citySlug: string }>;
  season: (PublicSeason & { rows: PublicRow[]; page: number; hasMore: boolean }) | null;
  seasons: PublicSeason[];
  /** The cursor of the next page of seasons (?fore=), or null. */
  seasonsCursor: string | null;
}

/** A page cursor of seasons: `<startDate>_<id>` of the last season shown. */
const SEASON_CURSOR = /^(\d{4}-\d{2}-\d{2})_([A-Za-z0-9-]{1,64})$/;
export const seasonCursor = (s: { startDate: string; id: string }) => `${s.startDate}_${s.id}`;
export function parseSeasonCursor(raw: string | undefined): { startDate: string; id: string } | null {
  const m = raw ? SEASON_CURSOR.exec(raw) : null;
  return m ? { startDate: m[1]!, id: m[2]! } : null;
}
