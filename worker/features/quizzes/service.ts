/**
 * Quiz rules for owners (spec 02 §2.2, §4.4, §5): create single quizzes and series, edit one quiz,
 * convert single ⇄ recurring, delete, cancel one date. Every write bumps the public-data version in the
 * same batch; every owned object goes through worker/lib/authz.ts.
 */
import { and, eq, ne } from 'drizzle-orm';
import { runBatch } from '../../db/batch';
import type { Db } from '../../db/client';
import { quizzes } from '../../db/schema';
import { authorizeLocation, authorizeQuiz, isSuperadmin, requireActor, type Actor } from '../../lib/authz';
import { addDays, isoWeekday, normalizeTime } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { AppError, conflict, forbidden, invalidInput, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { uniqueViolation } from '../../lib/unique-race';
import { generateOccurrences, isoDaysOf, namesOf, seriesEnd } from '../../lib/recurrence';
import { deleteGuarded, purchaseGuarded } from '../promotion/service';
import { confirmVenueStatements } from '../freshness/service';
import {
  MAX_UNTIL_DAYS,
  SERIES_HORIZON_DAYS,
  storedTheme,
  type CreateQuizData,
  type CreateQuizResponse,
  type EditQuizData,
  type PlaceQuizzesResponse,
  type PlaceSeriesGroup,
  type QuizDetailResponse,
} from './contract';
import type { Deps } from '../../ports/deps';
import {
  insertOccurrenceStatements,
  placesFor,
  quizWithPromotion,
  seriesSize,
  seriesTotals,
  toOwnerQuiz,
  upcomingAtLocation,
  upcomingSingles,
  type QuizInsert,
} from './queries';

type Fields = Pick<
  EditQuizData,
  'startTime' | 'category' | 'theme' | 'customTheme' | 'quizmaster' | 'teamSize' | 'description' | 'price' | 'language' | 'capacityTables'
>;

function fieldValues(d: Fields) {
  return {
    startTime: normalizeTime(d.startTime),
    category: d.category,
    theme: storedTheme(d),
    quizmaster: d.quizmaster ?? null,
    teamSize: d.teamSize ?? null,
    description: d.description ?? null,
    price: d.price ?? null,
    // Undefined leaves an edited quiz's language as it was; a new row gets the column default 'sv'.
    language: d.language,
    // Likewise the tables of "Vi kommer" (issue 47): undefined = unchanged (none on a new row).
    capacityTables: d.capacityTables,
  };
}

const pastDate = () => invalidInput('Datum: Datumet kan inte vara i det förflutna', [{ path: 'date', message: 'Datumet kan inte vara i det förflutna' }]);
const TOO_FAR = 'Datumet får ligga högst tre år fram';
/** A single quiz's date at most MAX_UNTIL_DAYS ahead (issue 13.10). */
function checkDateHorizon(date: string, today: string) {
  if (date > addDays(today, MAX_UNTIL_DAYS)) throw invalidInput(`Datum: ${TOO_FAR}`, [{ path: 'date', message: TOO_FAR }]);
}
const SERIES_START_TOO_FAR = `En serie kan börja högst ${SERIES_HORIZON_DAYS} dagar fram`;
const SERIES_UNTIL_TOO_FAR = 'Slutdatumet får ligga högst tre år fram från idag';
/**
 * Issue 26.8: a series starts within the nightly extension's horizon (SERIES_HORIZON_DAYS; further out it
 * would have nothing to show yet) and ends at most MAX_UNTIL_DAYS from today (not from its start, or it
 * could run six years out).
 */
function checkSeriesBounds(date: string, until: string | null | undefined, today: string) {
  if (date > addDays(today, SERIES_HORIZON_DAYS)) throw invalidInput(`Datum: ${SERIES_START_TOO_FAR}`, [{ path: 'date', message: SERIES_START_TOO_FAR }]);
  if (until && until > addDays(today, MAX_UNTIL_DAYS))
    throw invalidInput(`Slutdatum: ${SERIES_UNTIL_TOO_FAR}`, [{ path: 'until', message: SERIES_UNTIL_TOO_FAR }]);
}
const PAST_QUIZ = 'Quizet har redan varit och kan inte flyttas';

/** The create form's place check with the spec's texts ('Ingen lokal hittad', 'Lokal ej tillgänglig'). */
async function authorizePlaceForCreate(db: Db, actor: Actor, locationId: string) {
  try {
    return await authorizeLocation(db, actor, locationId);
  } catch (err) {
    if (err instanceof AppError && err.status === 404) throw notFound('Ingen lokal hittad');
    if (err instanceof AppError && err.status === 403) throw forbidden('Lokal ej tillgänglig');
    throw err;
  }
}

/** The days a new series runs on: the chosen ones, or the start date's weekday. */
function seriesDays(date: string, days: readonly string[] | undefined): number[] {
  const iso = isoDaysOf(days ?? []);
  return iso.length ? iso : [isoWeekday(date)];
}

/** What the quiz services need: the database and the clock (today, and the instant stamped on writes). */
export type QuizDeps = Pick<Deps, 'db' | 'clock'>;

export async function createQuiz(deps: QuizDeps, actor: Actor, data: CreateQuizData): Promise<CreateQuizResponse> {
  const { db } = deps;
  const today = deps.clock.today();
  const now = deps.clock.now();
  const { location, venue } = await authorizePlaceForCreate(db, actor, data.locationId);
  // Any owner edit confirms the business's quizzes (freshness, issue 20).
  const confirm = confirmVenueStatements(db, venue.id, now);
  if (data.date < today) throw pastDate();
  checkDateHorizon(data.date, today);
  if (data.recurring) checkSeriesBounds(data.date, data.until, today);
  const base = { locationId: location.id, ...fieldValues(data), isCancelled: false };
  if (!data.recurring) {
    const id = newId();
    await runBatch(db, [db.insert(quizzes).values({ ...base, id, date: data.date, isRecurring: false }), ...confirm, bumpDataVersion(db)]);
    return { created: 1, recurrenceId: null, firstId: id };
  }
  const weekdays = seriesDays(data.date, data.days);
  const until = data.until ?? null;
  const dates = generateOccurrences({ start: data.date, pattern: data.pattern, weekdays, end: seriesEnd(data.date, until) });
  if (!dates.length)
    throw invalidInput('Veckodagar: Inga datum matchar de valda veckodagarna före slutdatumet', [
      { path: 'days', message: 'Inga datum matchar de valda veckodagarna före slutdatumet' },
    ]);
  const recurrenceId = newId();
  const rows: QuizInsert[] = dates.map((date) => ({
    ...base,
    id: newId(),
    date,
    isRecurring: true,
    recurrenceId,
    recurrencePattern: data.pattern,
    recurrenceDays: JSON.stringify(namesOf(weekdays)),
    recurrenceUntil: until,
  }));
  // All occurrences in ONE batch with one recurrence id: all or nothing.
  await runBatch(db, [...occurrenceInserts(db, rows), ...confirm, bumpDataVersion(db)]);
  return { created: rows.length, recurrenceId, firstId: rows[0]!.id! };
}

export async function listPlaceQuizzes(deps: QuizDeps, actor: Actor, input: { locationId: string }): Promise<PlaceQuizzesResponse> {
  const { db } = deps;
  const { locationId } = input;
  const today = deps.clock.today();
  const { location } = await authorizeLocation(db, actor, locationId);
  const [rows, totals] = await Promise.all([upcomingAtLocation(db, location.id, today), seriesTotals(db, location.id)]);
  const singles = [];
  const groups = new Map<string, PlaceSeriesGroup>();
  for (const r of rows) {
    const q = toOwnerQuiz(r);
    if (!q.recurrenceId) {
      singles.push(q);
      continue;
    }
    let g = groups.get(q.recurrenceId);
    if (!g) {
      g = {
        recurrenceId: q.recurrenceId,
        pattern: q.recurrencePattern,
        days: q.recurrenceDays ?? [],
        until: q.recurrenceUntil,
        totalCount: totals.get(q.recurrenceId) ?? 0,
        occurrences: [],
      };
      groups.set(q.recurrenceId, g);
    }
    g.occurrences.push(q);
  }
  return { today, location: { id: location.id, name: location.name, city: location.city, venueId: location.venueId }, singles, series: [...groups.values()] };
}

export async function listPlaces(deps: Pick<Deps, 'db'>, actor: Actor) {
  const { db } = deps;
  requireActor(actor);
  return { places: await placesFor(db, isSuperadmin(actor) ? null : actor.id) };
}

export async function listSingles(deps: QuizDeps, actor: Actor) {
  const { db } = deps;
  const today = deps.clock.today();
  requireActor(actor);
  const rows = await upcomingSingles(db, isSuperadmin(actor) ? null : actor.id, today);
  return { quizzes: rows.map((r) => ({ ...toOwnerQuiz(r), locationName: r.locationName, venueName: r.venueName })) };
}

export async function getQuiz(deps: QuizDeps, actor: Actor, input: { id: string }): Promise<QuizDetailResponse> {
  const { db } = deps;
  const { id } = input;
  const today = deps.clock.today();
  const { location } = await authorizeQuiz(db, actor, id);
  const row = (await quizWithPromotion(db, id, today))!;
  let seriesCount = 0;
  if (row.recurrenceId) {
    seriesCount = await seriesSize(db, row.recurrenceId);
  }
  return { quiz: toOwnerQuiz(row), location: { id: location.id, name: location.name, city: location.city, venueId: location.venueId }, seriesCount };
}

/** Another occurrence of the series is on that date already (quizzes_series_date_uq). */
function isUniqueViolation(err: unknown): boolean {
  return uniqueViolation(err) === 'quizzes.recurrence_id, quizzes.date';
}

/**
 * Edits this quiz only. `recurring: true` on a single quiz makes it the first occurrence of a new
 * series (weekly unless told otherwise); `recurring: false` on an occurrence keeps this quiz as a
 * single and deletes the series' other occurrences (the form warns with that count first).
 */
export async function editQuiz(deps: QuizDeps, actor: Actor, input: { id: string; data: EditQuizData }) {
  const { db, clock } = deps;
  const { id, data } = input;
  const today = clock.today();
  const now = clock.now();
  const { quiz, venue } = await authorizeQuiz(db, actor, id);
  const confirm = confirmVenueStatements(db, venue.id, now);
  const moves = data.date !== quiz.date;
  if (moves) {
    // Issue 26.8: never into the past, and a quiz that has been stays where it was.
    if (data.date < today) throw pastDate();
    if (quiz.date < today) throw invalidInput(`Datum: ${PAST_QUIZ}`, [{ path: 'date', message: PAST_QUIZ }]);
    checkDateHorizon(data.date, today);
  }
  // Language missing from the edit: the quiz keeps its own (and a series made from it inherits it).
  const values = { ...fieldValues(data), language: data.language ?? quiz.language, date: data.date, updatedAt: now.toISOString() };
  // Issue 26.2: a new date must not leave an open or paid order behind on the old one.
  const guardMove = <T>(run: () => Promise<T>) => (moves ? purchaseGuarded(db, 'date', 'quiz', { quizId: id }, clock, run) : run());
  try {
    return await guardMove(() => applyEdit());
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('Serien har redan ett quiz det datumet.');
    throw err;
  }

  async function applyEdit() {
    if (data.recurring === true && !quiz.recurrenceId) {
      if (data.date < today) throw pastDate();
      checkSeriesBounds(data.date, data.until, today);
      const weekdays = seriesDays(data.date, data.days);
      const until = data.until ?? null;
      const recurrenceId = newId();
      const recurrence = {
        isRecurring: true,
        recurrenceId,
        recurrencePattern: data.pattern ?? 'weekly',
        recurrenceDays: JSON.stringify(namesOf(weekdays)),
        recurrenceUntil: until,
      };
      const dates = generateOccurrences({ start: data.date, pattern: data.pattern ?? 'weekly', weekdays, end: seriesEnd(data.date, until) }).filter(
        (d) => d !== data.date,
      );
      const rows: QuizInsert[] = dates.map((date) => ({ ...values, id: newId(), locationId: quiz.locationId, date, isCancelled: false, ...recurrence }));
      await runBatch(db, [
        db
          .update(quizzes)
          .set({ ...values, ...recurrence })
          .where(eq(quizzes.id, id)),
        ...occurrenceInserts(db, rows),
        ...confirm,
        bumpDataVersion(db),
      ]);
      return { updated: 1, created: rows.length, deleted: 0, recurrenceId };
    }
    if (data.recurring === false && quiz.recurrenceId) {
      // The series' other dates are deleted: not while one of them has an open checkout or paid promotion.
      const recurrenceId = quiz.recurrenceId;
      const [deleted] = await deleteGuarded(db, 'series', { recurrenceId, exceptQuizId: id }, clock, () =>
        runBatch(db, [
          db
            .delete(quizzes)
            .where(and(eq(quizzes.recurrenceId, recurrenceId), ne(quizzes.id, id)))
            .returning({ id: quizzes.id }),
          db
            .update(quizzes)
            .set({ ...values, isRecurring: false, recurrenceId: null, recurrencePattern: null, recurrenceDays: null, recurrenceUntil: null })
            .where(eq(quizzes.id, id)),
          ...confirm,
          bumpDataVersion(db),
        ]),
      );
      return { updated: 1, created: 0, deleted: deleted ?? 0, recurrenceId: null };
    }
    await runBatch(db, [db.update(quizzes).set(values).where(eq(quizzes.id, id)), ...confirm, bumpDataVersion(db)]);
    return { updated: 1, created: 0, deleted: 0, recurrenceId: quiz.recurrenceId };
  }
}

export async function deleteQuiz(deps: QuizDeps, actor: Actor, input: { id: string }) {
  const { db } = deps;
  const { id } = input;
  await authorizeQuiz(db, actor, id);
  const [deleted] = await deleteGuarded(db, 'quiz', { quizId: id }, deps.clock, () =>
    runBatch(db, [db.delete(quizzes).where(eq(quizzes.id, id)).returning({ id: quizzes.id }), bumpDataVersion(db)]),
  );
  return { deleted: deleted ?? 0 };
}

/** Cancels one date (visitors see 'Inställt') or undoes it. */
export async function setCancelled(deps: QuizDeps, actor: Actor, input: { id: string; cancelled: boolean }) {
  const { db } = deps;
  const { id, cancelled } = input;
  const now = deps.clock.now();
  const { venue } = await authorizeQuiz(db, actor, id);
  await runBatch(db, [
    db.update(quizzes).set({ isCancelled: cancelled, updatedAt: now.toISOString() }).where(eq(quizzes.id, id)),
    ...confirmVenueStatements(db, venue.id, now),
    bumpDataVersion(db),
  ]);
  return { id, isCancelled: cancelled };
}

// ---- Thin entry points for other features (they may import only this file). ----

export type { QuizInsert };

/**
 * Statements inserting occurrences (chunked to stay under D1's 100 bound parameters, ON CONFLICT DO
 * NOTHING on (recurrence_id, date), RETURNING ids) for the caller to put into ONE db.batch. Series (their
 * extension, edits) use it too: occurrences are quizzes, so their insert lives here and series depends on
 * quizzes, never the other way round (issue 45.2).
 */
export function occurrenceInserts(db: Db, rows: QuizInsert[]) {
  return insertOccurrenceStatements(db, rows);
}
