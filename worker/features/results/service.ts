/**
 * Results (issue 46): posting a night's results, reading them back, a place's recent nights, seasons.
 * Rules: who may post is decided by `authorizeResultsPost` alone; a night is posted from the evening itself up to
 * RESULTS_POST_DAYS after it and corrected for RESULTS_CORRECT_DAYS after its first post; bad input, a refused
 * window or a "Menade du …?" proposal stores nothing. A post is one batch: new teams, the night (guarded by the
 * correction window), the audit row, the rows, the affected seasons' standings and the data version.
 */
import { townCentre } from '../../lib/gazetteer';
import { abortUnlessClaimed, claimLost, runBatch, type BatchStatement } from '../../db/batch';
import type { Db } from '../../db/client';
import { authorizeLocation, authorizeQuiz, isSuperadmin, quizWithPlace, requireActor, type Actor } from '../../lib/authz';
import { addDays, stockholmDate } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { AppError, conflict, forbidden, invalidInput, notFound, rateLimited } from '../../lib/errors';
import { isAssignedQuizmaster } from '../../lib/quizmaster-access';
import { takeAttempt } from '../../lib/rate-limit';
import { isSpentError, linkKeys, linkRefusal, requireLink, signLink, spendStatement } from '../../lib/signed-link';
import { hashToken } from '../../lib/tokens';
import { teamHideMail } from './mail';
import { authorizeSeries } from '../series/service';
import { enqueueResultsPush } from '../follows/service';
import { displayDate } from '../../lib/swedish';
import { newId } from '../../lib/ids';
import { slugify } from '../../lib/slug';
import { uniqueViolation } from '../../lib/unique-race';
import type { Deps } from '../../ports/deps';
import {
  parseResultRows,
  parseResultsText,
  RESULTS_CORRECT_DAYS,
  RESULTS_POST_DAYS,
  teamNameKey,
  type LineIssue,
  NIGHT_ROWS_SHOWN,
  PODIUM,
  nightCursor,
  parseNightCursor,
  PUBLIC_NIGHTS_PAGE,
  TABLE_PAGE,
  TEAM_NIGHTS_PAGE,
  type AdminTeamReport,
  type CreateSeasonInput,
  type CreateLeagueInput,
  type LeagueInvitation,
  type LeaguePageData,
  type OwnerLeague,
  LEAGUE_SEASONS_PAGE,
  LEAGUE_VENUES_SHOWN,
  parseSeasonCursor,
  seasonCursor,
  type OwnerSeason,
  type HideTeamInput,
  type LocationNight,
  type NightResults,
  type PublicSeason,
  type ResultsPageData,
  type SeasonPreset,
  type TeamPageData,
  type PostResultsInput,
  type ResultLine,
  type TeamSuggestion,
} from './contract';
import {
  answerTeamReports,
  consentLeagueSeries,
  declineLeagueSeries,
  deleteLeagueSeries,
  insertLeague,
  insertLeagueSeason,
  insertLeagueSeries,
  leagueById,
  leagueBySlug,
  leagueSeason,
  leagueSeasonsPage,
  leagueSeriesRow,
  leagueSlugs,
  leaguesOf,
  leagueVenues,
  pendingLeagueSeries,
  seasonsOfLeague,
  seasonsOfLeagues,
  seriesOfLeagues,
  seriesPlaces,
  takenLeagueSlugs,
  type LeagueRow,
  deleteNightResults,
  dismissTeamReport,
  insertTeamReport,
  openTeamReports,
  renameTeam,
  setTeamHidden,
  teamByCode,
  insertSeason,
  seasonById,
  seasonsOfSeries,
  type SeasonOut,
  teamById,
  deleteStandings,
  insertChange,
  insertNightResults,
  insertStandings,
  insertTeams,
  nightOf,
  nightRows,
  nightTop,
  placeNights,
  publicTeamBySlug,
  resultVenuesInRange,
  teamRowidCeiling,
  teamSlugRange,
  standingsPage,
  teamNights,
  teamSeasons,
  venueNight,
  venueNights,
  venueSeasons,
  seasonsOfNight,
  teamsAtVenue,
  teamsByCodes,
  teamsByKeys,
  unitLatestNight,
  unitsWithNights,
  upsertNight,
  type NewTeam,
  type NightRow,
  type TeamRef,
} from './queries';
import { closestTeam, looksLikeTeamCode, newTeamCode, rankScores } from './rules';

export type ResultsDeps = Pick<Deps, 'db' | 'clock' | 'push' | 'mailQueue'>;

const DAY_MS = 24 * 3600 * 1000;

/**
 * THE check of "may post results for this quiz": the place's owner or the superadmin (401 anonymous, 404 no
 * such quiz, 403 someone else's). The one place to extend when other roles (a series' quizmaster) may post.
 */
export async function authorizeResultsPost(deps: ResultsDeps, actor: Actor, quizId: string) {
  try {
    return await authorizeQuiz(deps.db, actor, quizId);
  } catch (err) {
    // The quizmaster assigned to the quiz's series (or single quiz) may post its results too (issue 48.3); the
    // assignment is read on every request, so removing it removes the right at once.
    if (err instanceof AppError && err.status === 403 && actor && (await isAssignedQuizmaster(deps.db, actor.id, quizId)))
      return quizWithPlace(deps.db, quizId);
    throw err;
  }
}

type Quiz = Awaited<ReturnType<typeof authorizeResultsPost>>['quiz'];

/** Refuses an occurrence outside the posting window (future, or older than RESULTS_POST_DAYS) and a cancelled one. */
function checkPostWindow(quiz: Quiz, today: string): void {
  const issue = (message: string) => invalidInput(`Kvällen: ${message}`, [{ path: 'quizId', message }]);
  if (quiz.isCancelled) throw issue('kvällen är inställd, så den har inga resultat');
  if (quiz.date > today) throw issue(`kvällen (${quiz.date}) har inte varit än; resultat kan läggas in från och med samma kväll`);
  if (quiz.date < addDays(today, -RESULTS_POST_DAYS))
    throw issue(`kvällen (${quiz.date}) är äldre än ${RESULTS_POST_DAYS} dagar; resultat kan inte längre läggas in`);
}

function lineIssues(issues: LineIssue[], from: 'text' | 'rows') {
  const first = issues[0]!;
  return invalidInput(
    first.message,
    issues.map((i) => ({ path: from === 'rows' && i.line > 0 ? `rows.${i.line - 1}` : from, message: i.message })),
  );
}

function editableUntil(quiz: Quiz, night: NightRow | null): string {
  if (!night) return addDays(quiz.date, RESULTS_POST_DAYS);
  return stockholmDate(new Date(Date.parse(night.firstPostedAt) + RESULTS_CORRECT_DAYS * DAY_MS));
}

async function answer(deps: ResultsDeps, quiz: Quiz): Promise<NightResults> {
  const [night, rows] = await Promise.all([nightOf(deps.db, quiz.id), nightRows(deps.db, quiz.id)]);
  const today = deps.clock.today();
  const until = editableUntil(quiz, night);
  const open = night ? Date.parse(night.firstPostedAt) >= deps.clock.now().getTime() - RESULTS_CORRECT_DAYS * DAY_MS : quiz.date <= today && until >= today;
  return {
    quizId: quiz.id,
    date: quiz.date,
    posted: !!night,
    firstPostedAt: night?.firstPostedAt ?? null,
    corrected: !!night?.correctedAt,
    editableUntil: open && !quiz.isCancelled ? until : null,
    rows: rows.map((r) => ({ rank: r.rank, team: r.team, slug: r.slug, code: r.code, score: r.score })),
  };
}

/** GET /api/owner/quizzes/{quizId}/results. */
export async function getResults(deps: ResultsDeps, actor: Actor, input: { quizId: string }): Promise<NightResults> {
  const { quiz } = await authorizeResultsPost(deps, actor, input.quizId);
  return answer(deps, quiz);
}

/** Each parsed line's team: an existing team (by code, or by name key) or a new name. */
interface Resolved {
  line: ResultLine;
  key: string;
  team: TeamRef | null;
}

async function resolveTeams(deps: ResultsDeps, lines: ResultLine[]): Promise<Resolved[]> {
  const codes = [...new Set(lines.filter((l) => looksLikeTeamCode(l.team)).map((l) => l.team.trim().toUpperCase()))];
  const byCode = new Map((await teamsByCodes(deps.db, codes)).map((t) => [t.code, t]));
  const keyed = lines.map((l) => ({ line: l, codeTeam: looksLikeTeamCode(l.team) ? (byCode.get(l.team.trim().toUpperCase()) ?? null) : null }));
  const keys = [...new Set(keyed.filter((k) => !k.codeTeam).map((k) => teamNameKey(k.line.team)))];
  const byKey = new Map((await teamsByKeys(deps.db, keys)).map((t) => [t.nameKey, t]));
  return keyed.map(({ line, codeTeam }) => {
    const key = codeTeam ? codeTeam.nameKey : teamNameKey(line.team);
    return { line, key, team: codeTeam ?? byKey.get(key) ?? null };
  });
}

/** A team typed twice (once by code, once by name): the same error as a repeated name. */
function sameTeamTwice(resolved: Resolved[]): LineIssue[] {
  const seen = new Map<string, Resolved>();
  const out: LineIssue[] = [];
  for (const r of resolved) {
    const first = seen.get(r.key);
    if (first) out.push({ line: r.line.line, message: `Rad ${r.line.line}: laget ”${r.team?.name ?? r.line.team}” finns redan på rad ${first.line.line}` });
    else seen.set(r.key, r);
  }
  return out;
}

/** Plans the new teams' rows: slug from the name; a second new team of the same slug in this post gets slug-code. */
function planNewTeams(resolved: Resolved[]): NewTeam[] {
  const used = new Set<string>();
  return resolved
    .filter((r) => !r.team)
    .map((r) => {
      const code = newTeamCode();
      const base = slugify(r.line.team) || 'lag';
      const alt = `${base}-${code.toLowerCase()}`;
      const slug = used.has(base) ? alt : base;
      used.add(base);
      return { id: newId(), name: r.line.team.trim().replace(/\s+/g, ' '), key: r.key, slug, altSlug: alt, code };
    });
}

/** PUT /api/owner/quizzes/{quizId}/results: posts or corrects a night; answers the ranked rows. */
export async function postResults(deps: ResultsDeps, actor: Actor, input: { quizId: string; body: PostResultsInput }): Promise<NightResults> {
  const { db, clock } = deps;
  const { quiz, location, venue } = await authorizeResultsPost(deps, actor, input.quizId);
  const user = actor!;
  const now = clock.now();
  const nowIso = now.toISOString();
  const correctableSince = new Date(now.getTime() - RESULTS_CORRECT_DAYS * DAY_MS).toISOString();

  const from = input.body.rows !== undefined ? 'rows' : 'text';
  const parsed = input.body.rows !== undefined ? parseResultRows(input.body.rows) : parseResultsText(input.body.text ?? '');
  if (!parsed.ok) throw lineIssues(parsed.issues, from);

  const night = await nightOf(db, quiz.id);
  if (night) {
    if (night.firstPostedAt < correctableSince) {
      throw conflict(`Resultaten kan bara rättas i ${RESULTS_CORRECT_DAYS} dagar efter att de lades in (${night.firstPostedAt.slice(0, 10)}).`);
    }
  } else {
    checkPostWindow(quiz, clock.today());
  }

  const resolved = await resolveTeams(deps, parsed.lines);
  const twice = sameTeamTwice(resolved);
  if (twice.length) throw lineIssues(twice, from);

  if (!input.body.acceptNew && resolved.some((r) => !r.team)) {
    const known = await teamsAtVenue(db, venue.id);
    const suggestions: TeamSuggestion[] = [];
    for (const r of resolved) {
      if (r.team) continue;
      const near = closestTeam(r.key, known);
      if (near && !resolved.some((o) => o.key === near.team.nameKey)) {
        suggestions.push({
          line: r.line.line,
          typed: r.line.team,
          team: { name: near.team.name, slug: near.team.slug, code: near.team.code },
          similarity: Math.round(near.similarity * 100) / 100,
        });
      }
    }
    if (suggestions.length) {
      const s = suggestions[0]!;
      throw conflict(`Rad ${s.line}: Menade du ”${s.team.name}”? Välj laget eller spara ”${s.typed}” som ett nytt lag.`, { suggestions });
    }
  }

  const ranked = rankScores(resolved.map((r) => ({ key: r.key, name: r.team?.name ?? r.line.team, score: r.line.score })));
  if (night) {
    const current = await nightRows(db, quiz.id);
    const same = current.length === ranked.length && ranked.every((r) => current.some((c) => teamNameKey(c.team) === r.key && c.score === r.score));
    if (same) return answer(deps, quiz);
  }

  const newTeams = planNewTeams(resolved);
  const rowsJson = JSON.stringify(ranked.map((r) => ({ key: r.key, score: r.score, rank: r.rank })));
  const statements: BatchStatement[] = [
    ...(newTeams.length ? [insertTeams(db, newTeams, nowIso)] : []),
    upsertNight(db, {
      quizId: quiz.id,
      venueId: venue.id,
      locationId: location.id,
      seriesId: quiz.recurrenceId,
      date: quiz.date,
      teamCount: ranked.length,
      nowIso,
      correctableSince,
    }),
    abortUnlessClaimed(db),
    insertChange(db, {
      id: newId(),
      quizId: quiz.id,
      userId: user.id,
      after: JSON.stringify(ranked.map((r) => ({ team: r.name, score: r.score, rank: r.rank }))),
      nowIso,
    }),
    deleteNightResults(db, quiz.id),
    insertNightResults(db, { quizId: quiz.id, date: quiz.date, venueId: venue.id, locationId: location.id, rows: rowsJson }),
    deleteStandings(db, seasonsOfNight(quiz.id)),
    insertStandings(db, seasonsOfNight(quiz.id)),
    bumpDataVersion(db),
  ];
  try {
    await runBatch(db, statements);
  } catch (err) {
    if (claimLost(err)) throw conflict(`Resultaten kan bara rättas i ${RESULTS_CORRECT_DAYS} dagar efter att de lades in.`);
    if (uniqueViolation(err)) throw conflict('Ett annat inlägg sparades samtidigt. Försök igen.');
    throw err;
  }
  const out = await answer(deps, quiz);
  // "Veckans resultat": followers who opted in get the first post as a push; a correction sends nothing.
  if (!night) await announceResults(deps, { quiz, location, venue, rows: out.rows });
  return out;
}

/** The first post's push to the place's followers (best effort: the results are stored whatever happens here). */
async function announceResults(
  deps: ResultsDeps,
  input: { quiz: Quiz; location: { id: string; citySlug: string }; venue: { name: string; slug: string }; rows: NightResults['rows'] },
): Promise<void> {
  const top = input.rows.filter((r) => r.rank === 1).map((r) => r.team);
  if (!top.length || !deps.push) return;
  try {
    await enqueueResultsPush(deps, {
      locationId: input.location.id,
      quizId: input.quiz.id,
      notice: {
        title: `Veckans resultat: ${input.venue.name}`,
        body: `Vinnare ${displayDate(input.quiz.date)}: ${top.join(', ')}`,
        url: `/quiz/${encodeURIComponent(input.location.citySlug)}/${encodeURIComponent(input.venue.slug)}/resultat`,
      },
    });
  } catch (err) {
    console.error(`results ${input.quiz.id}: the followers' push could not be queued`, err);
  }
}

/** GET /api/owner/locations/{id}/results: the place's nights of the last RESULTS_POST_DAYS days, newest first. */
export async function listPlaceNights(deps: ResultsDeps, actor: Actor, input: { locationId: string }): Promise<{ nights: LocationNight[] }> {
  await authorizeLocation(deps.db, actor, input.locationId);
  const today = deps.clock.today();
  const rows = await placeNights(deps.db, input.locationId, addDays(today, -RESULTS_POST_DAYS), today);
  return { nights: rows.map((r) => ({ quizId: r.quizId, date: r.date, posted: !!r.posted, corrected: !!r.corrected })) };
}

// ---- Public pages ----

const toSeason = (s: { id: string; name: string; startDate: string; endDate: string; preset: string }): PublicSeason => ({
  id: s.id,
  name: s.name,
  startDate: s.startDate,
  endDate: s.endDate,
  preset: s.preset as SeasonPreset,
});

/** Seasons listed on a venue's results page at most. */
const VENUE_SEASONS_SHOWN = 6;

/**
 * The data of /quiz/{stad}/{ställe}/resultat for a public venue: the latest night (or ?kvall=) with its table,
 * the current season's table (?sasong= another, ?tabell= its page), earlier nights (?fore=). Bounded reads.
 */
export async function buildResultsPage(
  deps: Pick<Deps, 'db'>,
  input: { today: string; city: { slug: string; name: string }; venue: { id: string; name: string; slug: string }; query: Record<string, string> },
): Promise<ResultsPageData> {
  const { db } = deps;
  const { query, today, venue } = input;
  const fore = parseNightCursor(query.fore);
  const chosen = query.kvall && /^[A-Za-z0-9-]{1,64}$/.test(query.kvall) ? await venueNight(db, venue.id, query.kvall) : null;
  const [list, seasonRows] = chosen
    ? [[], []]
    : await Promise.all([venueNights(db, venue.id, fore, PUBLIC_NIGHTS_PAGE + 1), fore ? [] : venueSeasons(db, venue.id, VENUE_SEASONS_SHOWN)]);
  const shown = list.slice(0, PUBLIC_NIGHTS_PAGE);
  const latestNight = fore ? null : (list[0] ?? null);
  const nightRow = chosen ?? latestNight;
  let night: ResultsPageData['night'] = null;
  if (nightRow) {
    const rows = await nightTop(db, nightRow.quizId, chosen ? NIGHT_ROWS_SHOWN : PODIUM);
    night = {
      quizId: nightRow.quizId,
      date: nightRow.date,
      teamCount: nightRow.teamCount,
      corrected: !!nightRow.corrected,
      rows: rows.map((r) => ({ rank: r.rank, team: r.team, slug: r.slug, score: r.score })),
      more: Math.max(0, nightRow.teamCount - rows.length),
    };
  }
  const seasonsAll = seasonRows.map(toSeason);
  const wanted = query.sasong ? seasonsAll.find((s) => s.id === query.sasong) : undefined;
  const current = wanted ?? seasonsAll.find((s) => s.startDate <= today && today <= s.endDate) ?? seasonsAll.find((s) => s.startDate <= today) ?? null;
  const season = current && !chosen ? await seasonTable(db, current, query.tabell) : null;
  return {
    kind: 'results',
    today,
    city: input.city,
    venue,
    night,
    latest: !chosen && !!latestNight,
    season,
    nights: shown.map((n) => ({ quizId: n.quizId, date: n.date, teamCount: n.teamCount, corrected: !!n.corrected })),
    nightsCursor: list.length > PUBLIC_NIGHTS_PAGE ? nightCursor(shown[shown.length - 1]!) : null,
    seasons: seasonsAll,
  };
}

/** The data of /lag/{slug}, or null for an unknown or hidden team. */
export async function buildTeamPage(deps: Pick<Deps, 'db'>, input: { slug: string; query: Record<string, string> }): Promise<TeamPageData | null> {
  const { db } = deps;
  const team = await publicTeamBySlug(db, input.slug);
  if (!team) return null;
  const fore = parseNightCursor(input.query.fore);
  const [rows, seasonRows] = await Promise.all([teamNights(db, team.id, fore, TEAM_NIGHTS_PAGE + 1), fore ? [] : teamSeasons(db, team.id, 4)]);
  const shown = rows.slice(0, TEAM_NIGHTS_PAGE);
  return {
    kind: 'team',
    team: { name: team.name, slug: team.slug },
    nights: shown.map((r) => ({
      quizId: r.quizId,
      date: r.date,
      rank: r.rank,
      score: r.score,
      venue: { name: r.venueName, slug: r.venueSlug, citySlug: r.citySlug, city: r.city },
    })),
    nextCursor: rows.length > TEAM_NIGHTS_PAGE ? nightCursor(shown[shown.length - 1]!) : null,
    seasons: seasonRows.map((s) => ({ id: s.id, name: s.name, rank: s.rank, points: s.points, venue: s.venueName })),
  };
}

/** A venue's latest night's winner (the venue page's "Senaste vinnare"), or null. */
export async function lastWinner(deps: Pick<Deps, 'db'>, venueId: string): Promise<{ team: string; slug: string; date: string } | null> {
  const [night] = await venueNights(deps.db, venueId, null, 1);
  if (!night) return null;
  const [top] = await nightTop(deps.db, night.quizId, 1);
  return top ? { team: top.team, slug: top.slug, date: night.date } : null;
}

/** Team pages per "lag" sitemap child. */
export const SITEMAP_TEAMS_PER_CHILD = 10_000;

/** For the sitemap: results pages of public venues in a venue rowid range (slug → lastmod). */
export async function resultPagesInRange(deps: Pick<Deps, 'db'>, fromRowid: number, toRowid: number): Promise<Map<string, string>> {
  return new Map((await resultVenuesInRange(deps.db, fromRowid, toRowid)).map((r) => [r.slug, r.lastmod]));
}

/** How many "lag" sitemap children there are. */
export async function teamSitemapChildren(deps: Pick<Deps, 'db'>): Promise<number> {
  return Math.ceil((await teamRowidCeiling(deps.db)) / SITEMAP_TEAMS_PER_CHILD);
}

/** The team pages of "lag" child n (1-based), or null past the end. */
export async function teamSitemapChild(deps: Pick<Deps, 'db'>, n: number): Promise<Array<{ slug: string; lastmod: string }> | null> {
  if (n > (await teamSitemapChildren(deps))) return null;
  return teamSlugRange(deps.db, (n - 1) * SITEMAP_TEAMS_PER_CHILD + 1, n * SITEMAP_TEAMS_PER_CHILD);
}

/** The results share card's lines: the current season's top three ("1. Lag – 42 p"), else the last night's. */
export async function resultsCardLines(deps: Pick<Deps, 'db'>, input: { venueId: string; today: string }): Promise<{ lines: string[] }> {
  const seasonsList = (await venueSeasons(deps.db, input.venueId, VENUE_SEASONS_SHOWN)).map(toSeason);
  const season = seasonsList.find((s) => s.startDate <= input.today && input.today <= s.endDate) ?? seasonsList.find((s) => s.startDate <= input.today);
  const points = (n: number) => `${String(n).replace('.', ',')} p`;
  if (season) {
    const rows = await standingsPage(deps.db, season.id, 0, 3);
    if (rows.length) return { lines: rows.map((r) => `${r.rank ?? '–'}. ${r.team} – ${points(r.points)} (${season.name})`) };
  }
  const [night] = await venueNights(deps.db, input.venueId, null, 1);
  if (!night) return { lines: [] };
  const top = await nightTop(deps.db, night.quizId, 3);
  return { lines: top.map((r) => `${r.rank}. ${r.team} – ${points(r.score)}`) };
}

/** Rows the owner kit's "top 3" image shows at most (ties at rank 3 can make more than three). */
export const KIT_TOP_ROWS = 5;

/**
 * The owner kit's "last night's top 3" (issue 48.7): a series' (or single quiz's) latest posted night and its
 * visible rows ranked 1–3 (ties kept: 1, 2, 2), through the public read (hidden teams left out), or null without
 * results.
 */
export async function lastNightTop(
  deps: Pick<Deps, 'db'>,
  input: { unit: { seriesId: string } | { quizId: string }; today: string },
): Promise<{ date: string; rows: Array<{ rank: number; team: string; score: number }> } | null> {
  const night = await unitLatestNight(deps.db, input.unit, input.today);
  if (!night) return null;
  const rows = (await nightTop(deps.db, night.quizId, KIT_TOP_ROWS + 1)).filter((r) => r.rank <= PODIUM).slice(0, KIT_TOP_ROWS);
  return rows.length ? { date: night.date, rows: rows.map((r) => ({ rank: r.rank, team: r.team, score: r.score })) } : null;
}

/** The owner kit's list: which series ids and single-quiz ids have posted results. */
export async function unitsWithResults(deps: Pick<Deps, 'db'>, input: { seriesIds: string[]; quizIds: string[] }): Promise<Set<string>> {
  return unitsWithNights(deps.db, input.seriesIds, input.quizIds);
}

// ---- Teams: hiding (team code + a confirmed address), reports, the superadmin ----

/** Hide requests and reports per client and hour (counted first: worker/lib/rate-limit.ts). */
export const TEAM_REQUEST_LIMIT = 5;
const TEAM_REQUEST_WINDOW_MS = 3600 * 1000;
/** The hide link in the mail stays valid this long. */
const HIDE_LINK_TTL_S = 2 * 24 * 3600;

type TeamDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;

/**
 * POST /api/teams/hide: when the code is a team's, mails a signed link to the address; the same answer either way
 * (no oracle for codes). The address is used once and not stored: using the link is its confirmation.
 */
export async function requestTeamHide(deps: TeamDeps, input: HideTeamInput & { clientKey: string }): Promise<{ ok: true }> {
  const now = deps.clock.now();
  await takeAttempt(deps.db, `team-hide:${hashToken(input.clientKey)}`, TEAM_REQUEST_LIMIT, TEAM_REQUEST_WINDOW_MS, now, (ms) =>
    rateLimited('För många försök på kort tid. Försök igen om en stund.', Math.ceil(ms / 1000)),
  );
  const team = await teamByCode(deps.db, input.code);
  if (team) {
    const token = await signLink(deps.config.linkSigningSecret, 'team-hide', team.id, HIDE_LINK_TTL_S, now);
    await deps.mailer.send(teamHideMail(input.email.toLowerCase(), `${deps.config.appUrl}/dolj-lag?t=${encodeURIComponent(token)}`));
  }
  return { ok: true };
}

/** POST /dolj-lag?t=…: hides the team of a valid, unused link (gone from every public page on the next request). */
export async function hideTeamByLink(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string | undefined }): Promise<void> {
  const now = deps.clock.now();
  const link = await requireLink(linkKeys(deps.config), input.token, 'team-hide', now);
  const team = await teamById(deps.db, link.s);
  if (!team) throw notFound('Laget finns inte längre.');
  try {
    await runBatch(deps.db, [spendStatement(deps.db, link), ...setTeamHidden(deps.db, team.id, true, now.toISOString()), bumpDataVersion(deps.db)]);
  } catch (err) {
    if (isSpentError(err)) throw invalidInput(linkRefusal('used'), [{ path: 't', message: linkRefusal('used') }]);
    throw err;
  }
}

/** POST /api/teams/{slug}/report: an offensive name, into the superadmin's queue. */
export async function reportTeam(deps: Pick<Deps, 'db' | 'clock'>, input: { slug: string; reason: string; clientKey: string }): Promise<{ ok: true }> {
  const now = deps.clock.now();
  await takeAttempt(deps.db, `team-report:${hashToken(input.clientKey)}`, TEAM_REQUEST_LIMIT, TEAM_REQUEST_WINDOW_MS, now, (ms) =>
    rateLimited('För många anmälningar på kort tid. Försök igen om en stund.', Math.ceil(ms / 1000)),
  );
  const team = await publicTeamBySlug(deps.db, input.slug);
  if (!team) throw notFound('Laget hittades inte.');
  await insertTeamReport(deps.db, { id: newId(), teamId: team.id, reason: input.reason, nowIso: now.toISOString() });
  return { ok: true };
}

/** GET /api/admin/team-reports: open reports, oldest first. */
export async function listTeamReports(deps: Pick<Deps, 'db'>): Promise<{ items: AdminTeamReport[] }> {
  const rows = await openTeamReports(deps.db, 100);
  return {
    items: rows.map((r) => ({ id: r.id, reason: r.reason, createdAt: r.createdAt, team: { id: r.teamId, name: r.name, slug: r.slug, hidden: !!r.hidden } })),
  };
}

/** PATCH /api/admin/teams/{id}: rename and/or hide; answers the team's open reports; the pages follow on the next request. */
export async function updateTeam(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string; name?: string | undefined; hidden?: boolean | undefined }) {
  const team = await teamById(deps.db, input.id);
  if (!team) throw notFound('Laget hittades inte.');
  const nowIso = deps.clock.now().toISOString();
  const statements: BatchStatement[] = [];
  if (input.name !== undefined) {
    const name = input.name.replace(/\s+/g, ' ');
    const key = teamNameKey(name);
    if (key !== team.nameKey && (await teamsByKeys(deps.db, [key])).length) throw conflict(`Namn: det finns redan ett lag som heter ”${name}”.`);
    statements.push(...renameTeam(deps.db, team.id, name, key, nowIso));
  }
  if (input.hidden !== undefined) statements.push(...setTeamHidden(deps.db, team.id, input.hidden, nowIso));
  statements.push(answerTeamReports(deps.db, team.id, nowIso), bumpDataVersion(deps.db));
  try {
    await runBatch(deps.db, statements);
  } catch (err) {
    if (uniqueViolation(err) === 'teams.name_key') throw conflict('Namn: det finns redan ett lag med det namnet.');
    throw err;
  }
  const after = (await teamById(deps.db, team.id))!;
  return { id: after.id, name: after.name, slug: after.slug, hidden: after.hidden };
}

/** POST /api/admin/team-reports/{id}/dismiss: the name is fine. */
export async function dismissReport(deps: Pick<Deps, 'db' | 'clock'>, input: { id: string }): Promise<{ ok: true }> {
  const done = await dismissTeamReport(deps.db, input.id, deps.clock.now().toISOString());
  if (!done.length) throw notFound('Anmälan hittades inte eller är redan hanterad.');
  return { ok: true };
}

// ---- Seasons ----

const toOwnerSeason = (s: SeasonOut): OwnerSeason => {
  const p = JSON.parse(s.params) as { bestN?: number; minAttendancePct?: number };
  return {
    id: s.id,
    name: s.name,
    startDate: s.startDate,
    endDate: s.endDate,
    preset: s.preset as SeasonPreset,
    bestN: p.bestN ?? null,
    minAttendancePct: p.minAttendancePct ?? null,
  };
};

/** GET /api/owner/series/{seriesId}/seasons. */
export async function listSeasons(deps: Pick<Deps, 'db'>, actor: Actor, input: { seriesId: string }): Promise<{ seasons: OwnerSeason[] }> {
  await authorizeSeries(deps.db, actor, input.seriesId);
  return { seasons: (await seasonsOfSeries(deps.db, input.seriesId)).map(toOwnerSeason) };
}

/** POST /api/owner/series/{seriesId}/seasons: the season and its table from the nights already posted, in one batch. */
export async function createSeason(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: { seriesId: string; data: CreateSeasonInput }): Promise<OwnerSeason> {
  const { venue } = await authorizeSeries(deps.db, actor, input.seriesId);
  const { data } = input;
  const id = newId();
  const params = seasonParams(data);
  await runBatch(deps.db, [
    insertSeason(deps.db, {
      id,
      seriesId: input.seriesId,
      venueId: venue.id,
      name: data.name,
      startDate: data.startDate,
      endDate: data.endDate,
      preset: data.preset,
      params,
      nowIso: deps.clock.now().toISOString(),
    }),
    insertStandings(deps.db, seasonById(id)),
    bumpDataVersion(deps.db),
  ]);
  const [row] = (await seasonsOfSeries(deps.db, input.seriesId)).filter((s) => s.id === id);
  return toOwnerSeason(row!);
}

const seasonParams = (data: CreateSeasonInput) =>
  JSON.stringify(data.preset === 'best_n' ? { bestN: data.bestN } : data.preset === 'min_attendance' ? { minAttendancePct: data.minAttendancePct } : {});

// ---- Leagues: one table across several series ----
//
// An owner builds a league from series of their own businesses (each consented at once); the superadmin may add
// any business's series, which stay pending (consented_at NULL) until that series' owner accepts in the dashboard.
// Only consented series count in the standings SQL; a consent or a removal rebuilds the league's season tables in
// the same batch (the two statements postResults uses) and bumps the data version.

/** Leagues a user lists at most. */
const LEAGUES_LISTED = 50;

/** The league, when the actor may manage it (its creator or the superadmin): 401, 404, 403. */
async function authorizeLeague(deps: Pick<Deps, 'db'>, actor: Actor, leagueId: string): Promise<LeagueRow> {
  requireActor(actor);
  const league = await leagueById(deps.db, leagueId);
  if (!league) throw notFound('Ligan hittades inte.');
  if (league.userId !== actor.id && !isSuperadmin(actor)) throw forbidden();
  return league;
}

/**
 * The series' places, split into the actor's own (consented at once) and others' (pending; the superadmin only).
 * 404 for an unknown series, 403 for someone else's series when the actor is not the superadmin.
 */
async function placeSeries(deps: Pick<Deps, 'db'>, actor: NonNullable<Actor>, ids: string[]) {
  const places = await seriesPlaces(deps.db, ids);
  const own = places.filter((p) => p.ownerId === actor.id).map((p) => p.seriesId);
  const others = places.filter((p) => p.ownerId !== actor.id).map((p) => p.seriesId);
  if (others.length && !isSuperadmin(actor)) throw forbidden('Du kan bara lägga till dina egna quiz-serier i en liga.');
  if (places.length < ids.length) throw notFound('Quiz-serien hittades inte.');
  return { own, others };
}

/** The league's rebuild statements: its seasons' tables from the series that now count. */
const rebuildLeague = (deps: Pick<Deps, 'db'>, leagueId: string) => [
  deleteStandings(deps.db, seasonsOfLeague(leagueId)),
  insertStandings(deps.db, seasonsOfLeague(leagueId)),
];

async function leaguesOut(deps: Pick<Deps, 'db'>, leagues: LeagueRow[]): Promise<OwnerLeague[]> {
  const ids = leagues.map((l) => l.id);
  const [series, seasonRows] = await Promise.all([seriesOfLeagues(deps.db, ids), seasonsOfLeagues(deps.db, ids)]);
  const places = new Map((await seriesPlaces(deps.db, [...new Set(series.map((s) => s.seriesId))])).map((p) => [p.seriesId, p]));
  return leagues.map((l) => ({
    id: l.id,
    name: l.name,
    slug: l.slug,
    series: series
      .filter((s) => s.leagueId === l.id)
      .map((s) => {
        const p = places.get(s.seriesId);
        return { seriesId: s.seriesId, venue: p?.venue ?? '', place: p?.place ?? '', city: p?.city ?? '', consented: !!s.consentedAt };
      }),
    seasons: seasonRows.filter((s) => s.leagueId === l.id).map(toOwnerSeason),
  }));
}

async function leagueOut(deps: Pick<Deps, 'db'>, leagueId: string): Promise<OwnerLeague> {
  const league = await leagueById(deps.db, leagueId);
  if (!league) throw notFound('Ligan hittades inte.');
  return (await leaguesOut(deps, [league]))[0]!;
}

/** GET /api/owner/leagues: the actor's leagues (every league for the superadmin) and the invitations awaiting them. */
export async function listLeagues(deps: Pick<Deps, 'db'>, actor: Actor): Promise<{ leagues: OwnerLeague[]; invitations: LeagueInvitation[] }> {
  requireActor(actor);
  const [rows, pending] = await Promise.all([
    leaguesOf(deps.db, isSuperadmin(actor) ? null : actor.id, LEAGUES_LISTED),
    pendingLeagueSeries(deps.db, actor.id, LEAGUES_LISTED),
  ]);
  return { leagues: await leaguesOut(deps, rows), invitations: pending };
}

/** A free slug for a league name: the name's slug, else with -2 … -9, else with a random tail. */
async function freeLeagueSlug(deps: Pick<Deps, 'db'>, name: string): Promise<string> {
  const base = (slugify(name) || 'liga').slice(0, 70);
  const candidates = [base, ...Array.from({ length: 8 }, (_, i) => `${base}-${i + 2}`)];
  const taken = await takenLeagueSlugs(deps.db, candidates);
  return candidates.find((c) => !taken.has(c)) ?? `${base}-${newId().slice(0, 8).toLowerCase()}`;
}

/**
 * POST /api/owner/leagues: a league over at least two series. The owner's own series count at once; the
 * superadmin's league may include other businesses' series, each pending its owner's consent.
 */
export async function createLeague(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: CreateLeagueInput): Promise<OwnerLeague> {
  requireActor(actor);
  const { own, others } = await placeSeries(deps, actor, input.seriesIds);
  const id = newId();
  const nowIso = deps.clock.now().toISOString();
  const slug = await freeLeagueSlug(deps, input.name);
  try {
    await runBatch(deps.db, [
      insertLeague(deps.db, { id, name: input.name, slug, userId: actor.id, nowIso }),
      insertLeagueSeries(deps.db, id, own, true, nowIso),
      insertLeagueSeries(deps.db, id, others, false, nowIso),
      bumpDataVersion(deps.db),
    ]);
  } catch (err) {
    if (uniqueViolation(err) === 'leagues.slug') throw conflict('Namn: en liga med samma adress skapades nyss. Försök igen.');
    throw err;
  }
  return leagueOut(deps, id);
}

/** POST /api/owner/leagues/{leagueId}/series: one more series (the owner's own at once; another's pending). */
export async function addLeagueSeries(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: { leagueId: string; seriesId: string }): Promise<OwnerLeague> {
  const league = await authorizeLeague(deps, actor, input.leagueId);
  const { own } = await placeSeries(deps, actor!, [input.seriesId]);
  const nowIso = deps.clock.now().toISOString();
  await runBatch(deps.db, [
    insertLeagueSeries(deps.db, league.id, [input.seriesId], own.length > 0, nowIso),
    ...rebuildLeague(deps, league.id),
    bumpDataVersion(deps.db),
  ]);
  return leagueOut(deps, league.id);
}

/** DELETE /api/owner/leagues/{leagueId}/series/{seriesId}: the series leaves; the league's tables are rebuilt. */
export async function removeLeagueSeries(deps: Pick<Deps, 'db'>, actor: Actor, input: { leagueId: string; seriesId: string }): Promise<OwnerLeague> {
  const league = await authorizeLeague(deps, actor, input.leagueId);
  if (!(await leagueSeriesRow(deps.db, league.id, input.seriesId))) throw notFound('Serien finns inte i ligan.');
  await runBatch(deps.db, [deleteLeagueSeries(deps.db, league.id, input.seriesId), ...rebuildLeague(deps, league.id), bumpDataVersion(deps.db)]);
  return leagueOut(deps, league.id);
}

/**
 * POST /api/owner/leagues/{leagueId}/series/{seriesId}/answer `{ accept }`: the series' owner accepts (its nights
 * count from now on: the tables are rebuilt) or declines (the series leaves the league). Only the series' owner.
 */
export async function answerLeagueInvitation(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  input: { leagueId: string; seriesId: string; accept: boolean },
): Promise<{ accepted: boolean }> {
  requireActor(actor);
  const [place] = await seriesPlaces(deps.db, [input.seriesId]);
  const row = place ? await leagueSeriesRow(deps.db, input.leagueId, input.seriesId) : null;
  if (!place || !row || row.consentedAt) throw notFound('Inbjudan hittades inte.');
  if (place.ownerId !== actor.id) throw forbidden('Bara seriens ägare kan svara på inbjudan.');
  if (!input.accept) {
    await declineLeagueSeries(deps.db, input.leagueId, input.seriesId);
    return { accepted: false };
  }
  await runBatch(deps.db, [
    consentLeagueSeries(deps.db, input.leagueId, input.seriesId, deps.clock.now().toISOString()),
    ...rebuildLeague(deps, input.leagueId),
    bumpDataVersion(deps.db),
  ]);
  return { accepted: true };
}

/** POST /api/owner/leagues/{leagueId}/seasons: a league season; its table from the consented series' nights. */
export async function createLeagueSeason(
  deps: Pick<Deps, 'db' | 'clock'>,
  actor: Actor,
  input: { leagueId: string; data: CreateSeasonInput },
): Promise<OwnerSeason> {
  const league = await authorizeLeague(deps, actor, input.leagueId);
  const { data } = input;
  const id = newId();
  await runBatch(deps.db, [
    insertLeagueSeason(deps.db, {
      id,
      leagueId: league.id,
      name: data.name,
      startDate: data.startDate,
      endDate: data.endDate,
      preset: data.preset,
      params: seasonParams(data),
      nowIso: deps.clock.now().toISOString(),
    }),
    insertStandings(deps.db, seasonById(id)),
    bumpDataVersion(deps.db),
  ]);
  const out = await leagueOut(deps, league.id);
  return out.seasons.find((s) => s.id === id)!;
}

/** A page (`?tabell=`, 1–100) of a season's table from the read model, with whether more follow. */
async function seasonTable(db: Db, season: PublicSeason, tabell: string | undefined): Promise<NonNullable<ResultsPageData['season']>> {
  const page = Math.min(100, Math.max(1, Number.parseInt(tabell ?? '1', 10) || 1));
  const rows = await standingsPage(db, season.id, (page - 1) * TABLE_PAGE, TABLE_PAGE + 1);
  return {
    ...season,
    page,
    hasMore: rows.length > TABLE_PAGE,
    rows: rows.slice(0, TABLE_PAGE).map((r) => ({ rank: r.rank, team: r.team, slug: r.slug, score: r.points, nights: r.nights })),
  };
}

/**
 * The data of /liga/{slug}, or null for an unknown league: the current (or ?sasong=) season's table (?tabell= its
 * page), the venues of its consented series, its seasons (?fore= the next page). Bounded reads.
 */
export async function buildLeaguePage(
  deps: Pick<Deps, 'db'>,
  input: { today: string; slug: string; query: Record<string, string> },
): Promise<LeaguePageData | null> {
  const { db } = deps;
  const { query, today } = input;
  const league = await leagueBySlug(db, input.slug);
  if (!league) return null;
  const fore = parseSeasonCursor(query.fore);
  const chosenId = query.sasong && /^[A-Za-z0-9-]{1,64}$/.test(query.sasong) ? query.sasong : null;
  const [places, list, chosen] = await Promise.all([
    leagueVenues(db, league.id, LEAGUE_VENUES_SHOWN),
    leagueSeasonsPage(db, league.id, fore, LEAGUE_SEASONS_PAGE + 1),
    chosenId ? leagueSeason(db, league.id, chosenId) : null,
  ]);
  const shown = list.slice(0, LEAGUE_SEASONS_PAGE).map(toSeason);
  const current = chosen
    ? toSeason(chosen)
    : fore
      ? null
      : (shown.find((s) => s.startDate <= today && today <= s.endDate) ?? shown.find((s) => s.startDate <= today) ?? null);
  const season = current ? await seasonTable(db, current, query.tabell) : null;
  const venues = new Map<string, LeaguePageData['venues'][number]>();
  for (const p of places) {
    if (p.isPublic)
      venues.set(`${p.citySlug}/${p.venueSlug}`, { name: p.venue, slug: p.venueSlug, city: townCentre(p.citySlug)?.name ?? p.citySlug, citySlug: p.citySlug });
  }
  return {
    kind: 'league',
    today,
    league: { name: league.name, slug: league.slug },
    venues: [...venues.values()],
    season,
    seasons: shown,
    seasonsCursor: list.length > LEAGUE_SEASONS_PAGE ? seasonCursor(list[LEAGUE_SEASONS_PAGE - 1]!) : null,
  };
}

/** For the sitemap: the league pages (at most `limit`). */
export async function leaguePages(deps: Pick<Deps, 'db'>, limit: number) {
  return leagueSlugs(deps.db, limit);
}

/** The league share card's lines: the current season's top three. */
export async function leagueCardLines(deps: Pick<Deps, 'db'>, input: { slug: string; today: string }): Promise<{ name: string; lines: string[] } | null> {
  const page = await buildLeaguePage(deps, { today: input.today, slug: input.slug, query: {} });
  if (!page) return null;
  const points = (n: number) => `${String(n).replace('.', ',')} p`;
  const lines = (page.season?.rows ?? []).slice(0, 3).map((r) => `${r.rank ?? '–'}. ${r.team} – ${points(r.score)} (${page.season!.name})`);
  return { name: page.league.name, lines };
}
