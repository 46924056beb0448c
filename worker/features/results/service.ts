/**
 * Results (issue 46): posting a night's results, reading them back, a place's recent nights, seasons.
 * Rules: who may post is decided by `authorizeResultsPost` alone; a night is posted from the evening itself up to
 * RESULTS_POST_DAYS after it and corrected for RESULTS_CORRECT_DAYS after its first post; bad input, a refused
 * window or a "Menade du …?" proposal stores nothing. A post is one batch: new teams, the night (guarded by the
 * correction window), the audit row, the rows, the affected seasons' standings and the data version.
 */
import { abortUnlessClaimed, claimLost, runBatch, type BatchStatement } from '../../db/batch';
import { authorizeLocation, authorizeQuiz, type Actor } from '../../lib/authz';
import { addDays, stockholmDate } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, invalidInput } from '../../lib/errors';
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
  type LocationNight,
  type NightResults,
  type PostResultsInput,
  type ResultLine,
  type TeamSuggestion,
} from './contract';
import {
  deleteNightResults,
  deleteStandings,
  insertChange,
  insertNightResults,
  insertStandings,
  insertTeams,
  nightOf,
  nightRows,
  placeNights,
  seasonsOfNight,
  teamsAtVenue,
  teamsByCodes,
  teamsByKeys,
  upsertNight,
  type NewTeam,
  type NightRow,
  type TeamRef,
} from './queries';
import { closestTeam, looksLikeTeamCode, newTeamCode, rankScores } from './rules';

export type ResultsDeps = Pick<Deps, 'db' | 'clock'>;

const DAY_MS = 24 * 3600 * 1000;

/**
 * THE check of "may post results for this quiz": the place's owner or the superadmin (401 anonymous, 404 no
 * such quiz, 403 someone else's). The one place to extend when other roles (a series' quizmaster) may post.
 */
export async function authorizeResultsPost(deps: ResultsDeps, actor: Actor, quizId: string) {
  return authorizeQuiz(deps.db, actor, quizId);
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
  return answer(deps, quiz);
}

/** GET /api/owner/locations/{id}/results: the place's nights of the last RESULTS_POST_DAYS days, newest first. */
export async function listPlaceNights(deps: ResultsDeps, actor: Actor, input: { locationId: string }): Promise<{ nights: LocationNight[] }> {
  await authorizeLocation(deps.db, actor, input.locationId);
  const today = deps.clock.today();
  const rows = await placeNights(deps.db, input.locationId, addDays(today, -RESULTS_POST_DAYS), today);
  return { nights: rows.map((r) => ({ quizId: r.quizId, date: r.date, posted: !!r.posted, corrected: !!r.corrected })) };
}
