/**
 * Series rules (spec 02 §4.4, §5, §7): extension (one service for the owner's buttons and the nightly
 * cron), summaries for quiz management, editing and deleting a whole series, pausing a date range.
 */
import { and, between, eq, gte } from 'drizzle-orm';
import { runBatch } from '../../db/batch';
import type { Db } from '../../db/client';
import { quizzes, type QuizRow } from '../../db/schema';
import { isSuperadmin, authorizeQuiz, requireActor, type Actor } from '../../lib/authz';
import { addDays, daysBetween, isoWeekday, stockholmDate } from '../../lib/clock';
import type { Deps } from '../../ports/deps';

/** What the series services need: the database and the clock (today, and the instant stamped on writes). */
export type SeriesDeps = Pick<Deps, 'db' | 'clock'>;
import { bumpDataVersion } from '../../lib/data-version';
import { invalidInput, notFound } from '../../lib/errors';
import { deleteGuarded } from '../promotion/service';
import { confirmVenueStatements } from '../freshness/service';
import { newId } from '../../lib/ids';
import { recordJob } from '../../lib/jobs';
import { occurrenceInserts, type QuizInsert } from '../quizzes/service';
import { EXTENSION_THRESHOLD_DAYS, SERIES_HORIZON_DAYS, storedTheme, type EditSeriesData, type SeriesSummary } from '../quizzes/contract';
import {
  anyOccurrenceId,
  countSeries,
  extensionCandidates,
  seriesAggregate,
  latestOccurrences,
  recentOccurrences,
  seriesSummaryRows,
  trackedByCalendarFeed,
} from './queries';
import { extensionDates, namesOf, parseRecurrenceDays, type Pattern } from '../../lib/recurrence';

/** A series whose latest occurrence is more than this many days past is treated as ended, not extended. */
const ENDED_GRACE_DAYS = 7;
export const SERIES_JOB = 'series-extension';
/** A crashed run is resumed from its cursor only if it started this recently. */
const RESUME_WINDOW_MS = 20 * 3_600_000;

/** A new occurrence copying the series' fields from a template row. */
function occurrenceFrom(t: QuizRow, date: string): QuizInsert {
  return {
    id: newId(),
    locationId: t.locationId,
    date,
    startTime: t.startTime,
    title: t.title,
    description: t.description,
    category: t.category,
    theme: t.theme,
    quizmaster: t.quizmaster,
    teamSize: t.teamSize,
    price: t.price,
    language: t.language,
    capacityTables: t.capacityTables,
    isRecurring: true,
    recurrenceId: t.recurrenceId,
    recurrencePattern: t.recurrencePattern,
    recurrenceDays: t.recurrenceDays,
    recurrenceUntil: t.recurrenceUntil,
    isCancelled: false,
  };
}

function seriesRule(recent: QuizRow[]): { pattern: Pattern; weekdays: number[] } {
  const t = recent[0]!;
  return {
    pattern: (t.recurrencePattern ?? 'weekly') as Pattern,
    // Fallback when recurrence_days is missing: the weekdays the series actually has.
    weekdays: parseRecurrenceDays(t.recurrenceDays) ?? [...new Set(recent.map((r) => isoWeekday(r.date)))].sort(),
  };
}

/**
 * Extends one series up to `end` (default: today + SERIES_HORIZON_DAYS), never past its until-date, never
 * before today. Idempotent: ON CONFLICT DO NOTHING on (recurrence_id, date). Returns rows added.
 */
export async function extendSeries(db: Db, recurrenceId: string, today: string, end?: string): Promise<number> {
  const recent = await recentOccurrences(db, recurrenceId);
  if (!recent.length) return 0;
  const template = recent[0]!;
  // A synced series (calendar-sync) may end past the horizon (its rule's real end): the nightly sync adds its
  // dates while its feed tracks it; after "Sluta synka" it is an ordinary series and extended here.
  if (template.recurrenceId?.startsWith('cal-') && (await trackedByCalendarFeed(db, template.id))) return 0;
  let target = end ?? addDays(today, SERIES_HORIZON_DAYS);
  if (template.recurrenceUntil && template.recurrenceUntil < target) target = template.recurrenceUntil;
  const { pattern, weekdays } = seriesRule(recent);
  const dates = extensionDates({ pattern, weekdays, existing: recent.map((r) => r.date), end: target, notBefore: today });
  if (!dates.length) return 0;
  const stmts = occurrenceInserts(
    db,
    dates.map((d) => occurrenceFrom(template, d)),
  );
  const changes = await runBatch(db, [...stmts, bumpDataVersion(db)]);
  return changes.slice(0, stmts.length).reduce((a, b) => a + b, 0);
}

export interface ExtendManyResult {
  extendedCount: number;
  added: number;
  processed: number;
  cursor: string | null;
  complete: boolean;
}

/**
 * Extends every series that needs it (optionally only one owner's), page by page in recurrence-id
 * order from `cursor`. `onPage` records progress (the cron's job_runs cursor); `stopAfterPages`
 * simulates an interruption in tests.
 */
async function extendMany(
  db: Db,
  today: string,
  opts: { ownerUserId?: string | null; cursor?: string | null; pageSize?: number; stopAfterPages?: number; onPage?: (cursor: string) => Promise<unknown> } = {},
): Promise<ExtendManyResult> {
  let cursor = opts.cursor ?? null;
  const res: ExtendManyResult = { extendedCount: 0, added: 0, processed: 0, cursor, complete: false };
  let pages = 0;
  for (;;) {
    const page = await extensionCandidates(db, {
      cursor,
      oldest: addDays(today, -ENDED_GRACE_DAYS),
      threshold: addDays(today, EXTENSION_THRESHOLD_DAYS),
      limit: opts.pageSize ?? 25,
      ownerUserId: opts.ownerUserId ?? null,
    });
    if (!page.length) return { ...res, cursor, complete: true };
    for (const c of page) {
      const n = await extendSeries(db, c.recurrenceId, today);
      res.processed++;
      if (n > 0) {
        res.extendedCount++;
        res.added += n;
      }
    }
    cursor = page[page.length - 1]!.recurrenceId;
    res.cursor = cursor;
    await opts.onPage?.(cursor);
    if (opts.stopAfterPages && ++pages >= opts.stopAfterPages) return res;
  }
}

export interface SeriesJobResult extends ExtendManyResult {
  runId: string;
  resumedFrom: string | null;
}

/**
 * The nightly job: one job_runs row per run (running → done | failed) whose cursor is the last series
 * handled. A run that finds the previous run unfinished (crashed or still going) continues from its
 * cursor; everything is idempotent, so an overlapping run adds nothing twice.
 */
export async function runSeriesExtensionJob(deps: SeriesDeps, opts: { pageSize?: number; stopAfterPages?: number } = {}): Promise<SeriesJobResult> {
  const { db, clock } = deps;
  const now = clock.now();
  const today = stockholmDate(now);
  let extended: ExtendManyResult | undefined;
  const recorded = await recordJob(db, clock, SERIES_JOB, async (run) => {
    const prev = run.previous;
    const resumedFrom = prev && prev.status !== 'done' && prev.cursor && now.getTime() - Date.parse(prev.startedAt) < RESUME_WINDOW_MS ? prev.cursor : null;
    if (resumedFrom) await run.setCursor(resumedFrom);
    const r = await extendMany(db, today, {
      cursor: resumedFrom,
      pageSize: opts.pageSize,
      stopAfterPages: opts.stopAfterPages,
      onPage: (cursor) => run.setCursor(cursor),
    });
    extended = r;
    if (!r.complete) run.leaveOpen();
    return { extendedCount: r.extendedCount, added: r.added, processed: r.processed, resumedFrom, today };
  });
  return { ...extended!, runId: recorded.runId, resumedFrom: recorded.resumedFrom };
}

// ------------------------------------------------------------------ owner actions

/** The one ownership check for a series: via any of its occurrences (authorizeQuiz). 401/404/403. */
export async function authorizeSeries(db: Db, actor: Actor, recurrenceId: string) {
  requireActor(actor);
  const id = await anyOccurrenceId(db, recurrenceId);
  if (!id) throw notFound('Quiz-serien hittades inte.');
  return authorizeQuiz(db, actor, id);
}

/** Whether the extension service would add something to a series with this latest date and rule. */
export function needsExtension(s: { latest: string; until: string | null; pattern: Pattern; weekdays: number[] }, today: string): boolean {
  if (s.latest > addDays(today, EXTENSION_THRESHOLD_DAYS) || s.latest < addDays(today, -ENDED_GRACE_DAYS)) return false;
  if (!s.until) return true;
  const end = s.until < addDays(today, SERIES_HORIZON_DAYS) ? s.until : addDays(today, SERIES_HORIZON_DAYS);
  return extensionDates({ pattern: s.pattern, weekdays: s.weekdays, existing: [s.latest], end, notBefore: today }).length > 0;
}

const SUMMARY_LIMIT = 500;

/** Series summaries (spec 02 §3 "Series summary"): the owner's own; a superadmin's all. */
export async function listSeries(deps: SeriesDeps, actor: Actor): Promise<SeriesSummary[]> {
  const { db } = deps;
  const today = deps.clock.today();
  requireActor(actor);
  const rows = await seriesSummaryRows(db, { today, ownerUserId: isSuperadmin(actor) ? null : actor.id, limit: SUMMARY_LIMIT });
  const templates = await latestOccurrences(
    db,
    rows.map((r) => r.recurrenceId),
  );
  return rows.map((r) => {
    const t = templates.get(r.recurrenceId);
    const pattern = (t?.recurrencePattern ?? 'weekly') as Pattern;
    const weekdays = parseRecurrenceDays(t?.recurrenceDays) ?? [isoWeekday(r.latest)];
    const until = t?.recurrenceUntil ?? null;
    return {
      recurrenceId: r.recurrenceId,
      pattern: (t?.recurrencePattern ?? null) as Pattern | null,
      days: namesOf(weekdays),
      until,
      startTime: t?.startTime ?? null,
      category: t?.category ?? null,
      theme: t?.theme ?? null,
      quizmaster: t?.quizmaster ?? null,
      teamSize: t?.teamSize ?? null,
      price: t?.price ?? null,
      language: t?.language ?? 'sv',
      description: t?.description ?? null,
      count: Number(r.count),
      upcoming: Number(r.upcoming ?? 0),
      first: r.first,
      latest: r.latest,
      daysLeft: daysBetween(today, r.latest),
      needsExtension: needsExtension({ latest: r.latest, until, pattern, weekdays }, today),
      locationId: r.locationId,
      locationName: r.locationName,
      city: r.city,
      venueId: r.venueId,
      venueName: r.venueName || 'Okänd verksamhet',
    };
  });
}

export async function getSeries(deps: SeriesDeps, actor: Actor, input: { recurrenceId: string }) {
  const { db } = deps;
  const { recurrenceId } = input;
  const today = deps.clock.today();
  const { location, venue } = await authorizeSeries(db, actor, recurrenceId);
  const t = (await latestOccurrences(db, [recurrenceId])).get(recurrenceId)!;
  const agg = await seriesAggregate(db, recurrenceId, today);
  const weekdays = parseRecurrenceDays(t.recurrenceDays) ?? [isoWeekday(t.date)];
  return {
    series: {
      recurrenceId,
      pattern: (t.recurrencePattern ?? null) as Pattern | null,
      days: namesOf(weekdays),
      until: t.recurrenceUntil,
      startTime: t.startTime,
      category: t.category,
      theme: t.theme,
      quizmaster: t.quizmaster,
      teamSize: t.teamSize,
      price: t.price,
      language: t.language,
      description: t.description,
      count: Number(agg?.count ?? 0),
      upcoming: Number(agg?.upcoming ?? 0),
      first: agg?.first ?? t.date,
      latest: t.date,
      daysLeft: daysBetween(today, t.date),
      needsExtension: needsExtension({ latest: t.date, until: t.recurrenceUntil, pattern: (t.recurrencePattern ?? 'weekly') as Pattern, weekdays }, today),
      locationId: location.id,
      locationName: location.name,
      city: location.city,
      venueId: venue.id,
      venueName: venue.name || 'Okänd verksamhet',
    } satisfies SeriesSummary,
  };
}

/** Edits the whole series: the fields apply to every occurrence from today on (past ones stay as they were). */
export async function editSeries(deps: SeriesDeps, actor: Actor, input: { recurrenceId: string; data: EditSeriesData }) {
  const { db } = deps;
  const { recurrenceId, data } = input;
  const today = deps.clock.today();
  const now = deps.clock.now();
  const { venue } = await authorizeSeries(db, actor, recurrenceId);
  const [changes] = await runBatch(db, [
    db
      .update(quizzes)
      .set({
        startTime: normalize(data.startTime),
        category: data.category,
        theme: storedTheme(data),
        quizmaster: data.quizmaster ?? null,
        teamSize: data.teamSize ?? null,
        price: data.price ?? null,
        language: data.language,
        // Issue 47: undefined leaves each date's tables as they are.
        capacityTables: data.capacityTables,
        description: data.description ?? null,
        updatedAt: now.toISOString(),
      })
      .where(and(eq(quizzes.recurrenceId, recurrenceId), gte(quizzes.date, today)))
      .returning({ id: quizzes.id }),
    // Any owner edit confirms the business's quizzes (freshness, issue 20).
    ...confirmVenueStatements(db, venue.id, now),
    bumpDataVersion(db),
  ]);
  return { updated: changes ?? 0 };
}

export async function deleteSeries(deps: SeriesDeps, actor: Actor, input: { recurrenceId: string }) {
  const { db } = deps;
  const { recurrenceId } = input;
  await authorizeSeries(db, actor, recurrenceId);
  const [changes] = await deleteGuarded(db, 'series', { recurrenceId }, deps.clock, () =>
    runBatch(db, [db.delete(quizzes).where(eq(quizzes.recurrenceId, recurrenceId)).returning({ id: quizzes.id }), bumpDataVersion(db)]),
  );
  return { deleted: changes ?? 0 };
}

/** The owner's 'Förläng' button: same service as the cron, for one series. */
export async function extendOneSeries(deps: SeriesDeps, actor: Actor, input: { recurrenceId: string }) {
  const { db } = deps;
  const { recurrenceId } = input;
  const today = deps.clock.today();
  await authorizeSeries(db, actor, recurrenceId);
  const added = await extendSeries(db, recurrenceId, today);
  return { added, count: await countSeries(db, recurrenceId) };
}

/** The auto-extension button: every series of the owner (all for a superadmin) that needs it. */
export async function autoExtend(deps: SeriesDeps, actor: Actor) {
  const { db } = deps;
  const today = deps.clock.today();
  requireActor(actor);
  const r = await extendMany(db, today, { ownerUserId: isSuperadmin(actor) ? null : actor.id });
  return { extendedCount: r.extendedCount, added: r.added };
}

/** Longest pause: one year ahead of today. */
const PAUSE_MAX_AHEAD_DAYS = 366;

/**
 * Pause (e.g. summer break): every occurrence from `from` to `to` is marked cancelled ('Inställt'),
 * after first generating the series up to `to` so that the nightly extension cannot later add
 * un-cancelled dates inside the break. Undo (`resumeSeries`) clears the mark on the same range.
 */
export async function pauseSeries(deps: SeriesDeps, actor: Actor, input: { recurrenceId: string; from: string; to: string }) {
  const { db } = deps;
  const { recurrenceId, ...range } = input;
  const today = deps.clock.today();
  const now = deps.clock.now();
  const { venue } = await authorizeSeries(db, actor, recurrenceId);
  if (range.from < today) throw invalidInput('Från: Uppehållet kan inte börja före idag', [{ path: 'from', message: 'Uppehållet kan inte börja före idag' }]);
  if (range.to > addDays(today, PAUSE_MAX_AHEAD_DAYS))
    throw invalidInput('Till: Uppehållet får sluta högst ett år fram', [{ path: 'to', message: 'Uppehållet får sluta högst ett år fram' }]);
  await extendSeries(db, recurrenceId, today, range.to);
  const [changes] = await runBatch(db, [
    db
      .update(quizzes)
      .set({ isCancelled: true, updatedAt: now.toISOString() })
      .where(and(eq(quizzes.recurrenceId, recurrenceId), between(quizzes.date, range.from, range.to), eq(quizzes.isCancelled, false)))
      .returning({ id: quizzes.id }),
    ...confirmVenueStatements(db, venue.id, now),
    bumpDataVersion(db),
  ]);
  return { cancelled: changes ?? 0 };
}

export async function resumeSeries(deps: SeriesDeps, actor: Actor, input: { recurrenceId: string; from: string; to: string }) {
  const { db } = deps;
  const { recurrenceId, ...range } = input;
  const now = deps.clock.now();
  const { venue } = await authorizeSeries(db, actor, recurrenceId);
  const [changes] = await runBatch(db, [
    db
      .update(quizzes)
      .set({ isCancelled: false, updatedAt: now.toISOString() })
      .where(and(eq(quizzes.recurrenceId, recurrenceId), between(quizzes.date, range.from, range.to), eq(quizzes.isCancelled, true)))
      .returning({ id: quizzes.id }),
    ...confirmVenueStatements(db, venue.id, now),
    bumpDataVersion(db),
  ]);
  return { restored: changes ?? 0 };
}

function normalize(time: string): string {
  return time.length === 5 ? `${time}:00` : time;
}
