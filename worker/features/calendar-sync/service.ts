/**
 * Calendar sync for owners (issue 31.2, docs/features/calendar-sync.md): a place follows a public ICS
 * address. Preview first (nothing stored), then accept: the feed is stored and synced at once, again every
 * night (worker/jobs/nightly.ts, job `calendar-sync`) and on "Synka nu".
 *
 * A sync is idempotent by event UID + original date (calendar_sync_items.key): a new occurrence creates a
 * quiz, an edited one updates its quiz, a removed (or EXDATE'd) one cancels its future quiz. A quiz whose
 * current fields no longer match the fingerprint the sync last wrote was edited by its owner and is left as
 * the owner left it; a quiz the owner deleted is not recreated. Moving or cancelling a quiz that anything
 * was bought for goes through the purchase guard (promotion service) and is reported as skipped when refused.
 */
import { eq } from 'drizzle-orm';
import { QUIZ_ROWS_PER_INSERT, runBatch, type BatchStatement } from '../../db/batch';
import { chunks } from '../../lib/chunks';
import { calendarFeeds, quizzes, type CalendarFeedRow, type LocationRow, type QuizRow } from '../../db/schema';
import { authorizeLocation, requireActor, type Actor } from '../../lib/authz';
import { bumpDataVersion } from '../../lib/data-version';
import { AppError, conflict, invalidInput, notFound, rateLimited } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { takeAttempt } from '../../lib/rate-limit';
import { cleanText } from '../../lib/zod-text';
import { DEFAULT_QUIZ_LANGUAGE, type QuizLanguage } from '../../lib/quiz-filters';
import { namesOf } from '../../lib/recurrence';
import { FeedFetchError } from '../../ports/calendar-fetch';
import type { Deps } from '../../ports/deps';
import { purchaseGuarded } from '../promotion/service';
import {
  CALENDAR_FETCHES_PER_HOUR,
  CALENDAR_MESSAGES,
  MAX_CALENDAR_FEEDS_PER_ACCOUNT,
  MAX_CALENDAR_FEEDS_PER_BUSINESS,
  SYNC_HORIZON_DAYS,
  TEXT_MAX,
  TITLE_MAX,
  type CalendarFeed,
  type CalendarFeedsResponse,
  type CalendarPreview,
  type PreviewEventWithLanguage,
  type SkippedChange,
  type SyncResult,
} from './contract';
import { loadCalendarParser } from '../../lazy';
import { fingerprint } from './fingerprint';
import type { MappedFeed, Occurrence } from './ics';
import {
  claimFeedAttempt,
  countFeedsOfAccount,
  countFeedsOfVenue,
  feedExists,
  feedIdsToSync,
  feedOfLocation,
  feedsOfLocation,
  insertFeedWithinLimits,
  releaseFeedAttempt,
  itemsOfFeed,
  quizzesByIds,
  quizzesWithPurchases,
  upsertItemStatements,
} from './queries';

export type CalendarDeps = Pick<Deps, 'db' | 'clock' | 'calendar'>;

/** The nightly job's name in job_runs, and how many feeds one night syncs (least recently attempted first). */
export const CALENDAR_SYNC_JOB = 'calendar-sync';
export const FEEDS_PER_NIGHT = 500;

function toFeed(r: CalendarFeedRow): CalendarFeed {
  return {
    id: r.id,
    url: r.url,
    lastSyncedAt: r.lastSyncedAt,
    lastStatus: r.lastStatus,
    lastError: r.lastError,
    lastResult: r.lastResult ? (JSON.parse(r.lastResult) as SyncResult) : null,
    createdAt: r.createdAt,
  };
}

/** Outbound fetches per account and hour: previews and "Synka nu" (the nightly job is not counted). */
async function takeFetchAttempt(deps: CalendarDeps, userId: string) {
  await takeAttempt(deps.db, `calendar:${userId}`, CALENDAR_FETCHES_PER_HOUR, 3_600_000, deps.clock.now(), (ms) =>
    rateLimited(CALENDAR_MESSAGES.rate(Math.max(1, Math.ceil(ms / 60_000))), Math.ceil(ms / 1000)),
  );
}

/**
 * The calendar parser (ical.js) is a lazy module, loaded on the first sync or preview of an isolate. Its error
 * classes are the loaded module's: the bundle has its own copies (docs/decisions/0017-lazy-module-rule.md).
 */
type CalendarParser = Awaited<ReturnType<typeof loadCalendarParser>>;

/**
 * A calendar's text through the one text rule (lib/zod-text `cleanText`, issue 43.5): control characters (BEL,
 * ESC, NEL …) and lone surrogates removed, NFC, trimmed. Cleaned, not refused: the owner cannot fix the remote
 * calendar. Titles and descriptions of quizzes, the preview's events and what is not understood alike; one line
 * each (ics.ts already joins a description's lines).
 */
function cleanFeedText(mapped: MappedFeed): MappedFeed {
  const title = (t: string | null) => cleanText(t, { max: TITLE_MAX });
  return {
    ...mapped,
    occurrences: mapped.occurrences.map((o) => ({ ...o, title: title(o.title), description: cleanText(o.description, { max: TEXT_MAX }) })),
    events: mapped.events.map((e) => ({ ...e, title: title(e.title) })),
    notUnderstood: mapped.notUnderstood.map((n) => ({ ...n, title: title(n.title) })),
  };
}

/** Fetches and maps a calendar; a failure becomes a 400 naming the address field, with the Swedish reason. */
async function load(deps: CalendarDeps, url: string): Promise<MappedFeed> {
  const ics = await loadCalendarParser();
  try {
    return cleanFeedText(ics.mapCalendar(await deps.calendar.fetchText(url), deps.clock.today()));
  } catch (err) {
    throw asFeedError(err, ics);
  }
}

/** The owner's words for a failed fetch (the port gives only its code). */
function fetchFailureText(err: FeedFetchError): string {
  switch (err.code) {
    case 'not_https':
      return CALENDAR_MESSAGES.notHttps;
    case 'private':
      return CALENDAR_MESSAGES.privateAddress;
    case 'too_large':
      return CALENDAR_MESSAGES.tooLarge;
    case 'timeout':
      return CALENDAR_MESSAGES.timeout;
    case 'http':
      return CALENDAR_MESSAGES.httpStatus(err.status ?? 0);
    case 'redirects':
      return CALENDAR_MESSAGES.redirects;
    case 'network':
      return CALENDAR_MESSAGES.network;
  }
}

function feedErrorText(err: unknown, ics: CalendarParser): string {
  if (err instanceof FeedFetchError) return fetchFailureText(err);
  if (err instanceof ics.FeedParseError) return CALENDAR_MESSAGES.notIcs;
  if (err instanceof ics.FeedTooComplexError) return CALENDAR_MESSAGES.tooManyRules;
  throw err;
}

function asFeedError(err: unknown, ics: CalendarParser): AppError {
  const message = feedErrorText(err, ics);
  return invalidInput(`Kalenderadress: ${message}`, [{ path: 'url', message }]);
}

export async function listFeeds(deps: Pick<Deps, 'db'>, actor: Actor, input: { locationId: string }): Promise<CalendarFeedsResponse> {
  await authorizeLocation(deps.db, actor, input.locationId);
  return { feeds: (await feedsOfLocation(deps.db, input.locationId)).map(toFeed), maxPerBusiness: MAX_CALENDAR_FEEDS_PER_BUSINESS };
}

export async function previewFeed(deps: CalendarDeps, actor: Actor, input: { locationId: string; url: string }): Promise<CalendarPreview> {
  requireActor(actor);
  await authorizeLocation(deps.db, actor, input.locationId);
  await takeFetchAttempt(deps, actor.id);
  const mapped = await load(deps, input.url);
  return {
    events: withLanguages(mapped),
    notUnderstood: mapped.notUnderstood,
    truncated: mapped.truncated,
    horizonDays: SYNC_HORIZON_DAYS,
    today: deps.clock.today(),
  };
}

/** Each previewed event with the distinct languages of its quizzes (a moved occurrence may carry its own); svenska when it has none. */
function withLanguages(mapped: MappedFeed): PreviewEventWithLanguage[] {
  const byUid = new Map<string, QuizLanguage[]>();
  for (const o of mapped.occurrences) {
    const list = byUid.get(o.uid) ?? [];
    if (!list.includes(o.language)) list.push(o.language);
    byUid.set(o.uid, list);
  }
  return mapped.events.map((e) => ({ ...e, languages: byUid.get(e.uid) ?? [DEFAULT_QUIZ_LANGUAGE] }));
}

/** The Swedish refusal of a feed over a limit: the business's, else the account's. */
async function feedLimitError(deps: Pick<Deps, 'db'>, venue: { id: string; userId: string }): Promise<AppError | null> {
  if ((await countFeedsOfVenue(deps.db, venue.id)) >= MAX_CALENDAR_FEEDS_PER_BUSINESS) return conflict(CALENDAR_MESSAGES.tooMany, { reason: 'feed_limit' });
  if ((await countFeedsOfAccount(deps.db, venue.userId)) >= MAX_CALENDAR_FEEDS_PER_ACCOUNT)
    return conflict(CALENDAR_MESSAGES.tooManyForAccount, { reason: 'account_feed_limit' });
  return null;
}

/** Accept: store the address and sync it at once. */
export async function addFeed(deps: CalendarDeps, actor: Actor, input: { locationId: string; url: string }): Promise<{ feed: CalendarFeed }> {
  requireActor(actor);
  const { location, venue } = await authorizeLocation(deps.db, actor, input.locationId);
  if ((await feedsOfLocation(deps.db, location.id)).some((f) => f.url === input.url)) throw conflict(CALENDAR_MESSAGES.duplicate, { reason: 'duplicate' });
  // Checked before the fetch (no download for nothing) and again by the insert itself (two adds at once).
  const over = await feedLimitError(deps, venue);
  if (over) throw over;
  await takeFetchAttempt(deps, actor.id);
  // Fetch before storing: an address that cannot be read is refused, not saved.
  const mapped = await load(deps, input.url);
  const id = newId();
  let stored: boolean;
  try {
    stored = await insertFeedWithinLimits(
      deps.db,
      { id, locationId: location.id, url: input.url },
      { venueId: venue.id, userId: venue.userId },
      { perBusiness: MAX_CALENDAR_FEEDS_PER_BUSINESS, perAccount: MAX_CALENDAR_FEEDS_PER_ACCOUNT },
    );
  } catch (err) {
    if (/UNIQUE/i.test(String((err as { cause?: unknown })?.cause ?? err))) throw conflict(CALENDAR_MESSAGES.duplicate, { reason: 'duplicate' });
    throw err;
  }
  if (!stored) throw (await feedLimitError(deps, venue)) ?? conflict(CALENDAR_MESSAGES.tooMany, { reason: 'feed_limit' });
  // This sync is the feed's first attempt (the nightly line: least recently attempted first).
  await markAttempted(deps, id);
  const feed = (await feedOfLocation(deps.db, location.id, id))!;
  return { feed: toFeed(await applyAndRecord(deps, feed, location, mapped)) };
}

/** Records an attempt of a sync started by the owner (before its fetch, like the nightly one). */
async function markAttempted(deps: CalendarDeps, feedId: string): Promise<void> {
  await deps.db.update(calendarFeeds).set({ attemptedAt: deps.clock.now().toISOString() }).where(eq(calendarFeeds.id, feedId));
}

export async function syncNow(deps: CalendarDeps, actor: Actor, input: { locationId: string; feedId: string }): Promise<{ feed: CalendarFeed }> {
  requireActor(actor);
  const { location } = await authorizeLocation(deps.db, actor, input.locationId);
  const feed = await feedOfLocation(deps.db, location.id, input.feedId);
  if (!feed) throw notFound(CALENDAR_MESSAGES.feedNotFound);
  await takeFetchAttempt(deps, actor.id);
  await markAttempted(deps, feed.id);
  return { feed: toFeed(await syncFeed(deps, feed, location)) };
}

/** Stops syncing; the quizzes stay (they become ordinary quizzes of the place). */
export async function removeFeed(deps: Pick<Deps, 'db'>, actor: Actor, input: { locationId: string; feedId: string }): Promise<{ removed: true }> {
  const { location } = await authorizeLocation(deps.db, actor, input.locationId);
  const feed = await feedOfLocation(deps.db, location.id, input.feedId);
  if (!feed) throw notFound(CALENDAR_MESSAGES.feedNotFound);
  await deps.db.delete(calendarFeeds).where(eq(calendarFeeds.id, feed.id));
  return { removed: true };
}

/**
 * One feed: fetch, map, apply. A fetch or parse failure is recorded on the feed (last_status 'failed',
 * last_error in Swedish) and is not thrown: it is the owner's address, not our fault. Database errors throw.
 */
export async function syncFeed(deps: CalendarDeps, feed: CalendarFeedRow, location: LocationRow): Promise<CalendarFeedRow> {
  let mapped: MappedFeed;
  const ics = await loadCalendarParser();
  try {
    mapped = cleanFeedText(ics.mapCalendar(await deps.calendar.fetchText(feed.url), deps.clock.today()));
  } catch (err) {
    const message = feedErrorText(err, ics);
    const now = deps.clock.now().toISOString();
    await deps.db
      .update(calendarFeeds)
      .set({ lastSyncedAt: now, lastStatus: 'failed', lastError: message, updatedAt: now })
      .where(eq(calendarFeeds.id, feed.id));
    return { ...feed, lastSyncedAt: now, lastStatus: 'failed', lastError: message };
  }
  return applyAndRecord(deps, feed, location, mapped);
}

async function applyAndRecord(deps: CalendarDeps, feed: CalendarFeedRow, location: LocationRow, mapped: MappedFeed): Promise<CalendarFeedRow> {
  const result = await applyOccurrences(deps, feed, location, mapped);
  const now = deps.clock.now().toISOString();
  const status = result.skipped.length ? 'partial' : 'ok';
  const values = { lastSyncedAt: now, lastStatus: status, lastError: null, lastResult: JSON.stringify(result), updatedAt: now } as const;
  await deps.db.update(calendarFeeds).set(values).where(eq(calendarFeeds.id, feed.id));
  return { ...feed, ...values };
}

const state = (q: Pick<QuizRow, 'date' | 'startTime' | 'title' | 'description' | 'isCancelled' | 'language'>) =>
  fingerprint({ date: q.date, startTime: q.startTime, title: q.title, description: q.description, isCancelled: q.isCancelled, language: q.language });

/** A stable series id per feed and event UID (64 bits of FNV-1a over two orders of the text). */
function recurrenceIdOf(feedId: string, uid: string): string {
  const h = (s: string) => fingerprint({ date: s, startTime: null, title: null, description: null, isCancelled: false });
  return `cal-${feedId}-${h(uid)}${h([...uid].reverse().join(''))}`;
}

interface Change {
  quiz: QuizRow;
  values: Pick<QuizRow, 'date' | 'startTime' | 'title' | 'description' | 'isCancelled' | 'language'>;
  key: string;
  /** Which purchase guard applies if anything was bought for the quiz: a new date, or a cancellation. */
  guard: 'date' | 'delete' | null;
}

async function applyOccurrences(deps: CalendarDeps, feed: CalendarFeedRow, location: LocationRow, mapped: MappedFeed): Promise<SyncResult> {
  const { db, clock } = deps;
  const today = clock.today();
  const now = clock.now().toISOString();
  const items = new Map((await itemsOfFeed(db, feed.id)).map((i) => [i.key, i]));
  const quizRows = await quizzesByIds(
    db,
    [...items.values()].flatMap((i) => (i.quizId ? [i.quizId] : [])),
  );
  const result: SyncResult = {
    created: 0,
    updated: 0,
    cancelled: 0,
    keptOwnerEdits: 0,
    skipped: [],
    notUnderstood: mapped.notUnderstood.length,
    truncated: mapped.truncated,
  };

  const inserts: (typeof quizzes.$inferInsert)[] = [];
  const itemRows: { feedId: string; key: string; quizId: string | null; syncedHash: string }[] = [];
  const changes: Change[] = [];
  const seen = new Set<string>();
  const seriesDates = new Set<string>();
  for (const q of quizRows.values()) if (q.recurrenceId) seriesDates.add(`${q.recurrenceId}|${q.date}`);

  for (const o of mapped.occurrences) {
    if (seen.has(o.key)) continue;
    seen.add(o.key);
    const values = { date: o.date, startTime: o.startTime, title: o.title, description: o.description, isCancelled: false, language: o.language };
    const item = items.get(o.key);
    if (!item) {
      const row = newQuiz(feed, location, o);
      const slot = `${row.recurrenceId}|${row.date}`;
      if (row.recurrenceId && seriesDates.has(slot)) continue; // a moved occurrence onto another's date: one quiz per series and date
      if (row.recurrenceId) seriesDates.add(slot);
      inserts.push(row);
      itemRows.push({ feedId: feed.id, key: o.key, quizId: row.id, syncedHash: state(values) });
      result.created++;
      continue;
    }
    if (!item.quizId) continue; // deleted by the owner: not recreated
    const quiz = quizRows.get(item.quizId);
    if (!quiz || quiz.date < today) continue;
    if (state(quiz) !== item.syncedHash) {
      result.keptOwnerEdits++;
      continue;
    }
    if (state(values) === item.syncedHash) continue;
    if (values.date !== quiz.date && quiz.recurrenceId) {
      // One quiz per series and date (quizzes_series_date_uq): a move onto a sibling's date is skipped.
      const slot = `${quiz.recurrenceId}|${values.date}`;
      if (seriesDates.has(slot)) {
        result.skipped.push({ date: quiz.date, title: quiz.title, reason: CALENDAR_MESSAGES.dateTaken(values.date) });
        continue;
      }
      seriesDates.delete(`${quiz.recurrenceId}|${quiz.date}`);
      seriesDates.add(slot);
    }
    changes.push({ quiz, values, key: o.key, guard: values.date !== quiz.date ? 'date' : null });
  }
  for (const item of items.values()) {
    if (seen.has(item.key) || !item.quizId) continue;
    const quiz = quizRows.get(item.quizId);
    if (!quiz || quiz.date < today || quiz.isCancelled) continue;
    if (state(quiz) !== item.syncedHash) {
      result.keptOwnerEdits++;
      continue;
    }
    const { date, startTime, title, description, language } = quiz;
    changes.push({ quiz, values: { date, startTime, title, description, language, isCancelled: true }, key: item.key, guard: 'delete' });
  }

  const bought = await quizzesWithPurchases(
    db,
    changes.filter((c) => c.guard).map((c) => c.quiz.id),
  );
  const count = (c: Change) => (c.values.isCancelled && !c.quiz.isCancelled ? result.cancelled++ : result.updated++);
  const statements = (c: Change): BatchStatement[] => [
    db
      .update(quizzes)
      .set({ ...c.values, updatedAt: now })
      .where(eq(quizzes.id, c.quiz.id)),
    ...upsertItemStatements(db, [{ feedId: feed.id, key: c.key, quizId: c.quiz.id, syncedHash: state(c.values) }], now),
  ];

  const batch: BatchStatement[] = [];
  for (const c of changes) {
    if (c.guard && bought.has(c.quiz.id)) continue;
    batch.push(...statements(c));
    count(c);
  }
  if (inserts.length) {
    // Chunked multi-row inserts (≤ 100 bound parameters each); the items after them reference the new ids.
    for (const part of chunks(inserts, QUIZ_ROWS_PER_INSERT)) batch.push(db.insert(quizzes).values(part));
    batch.push(...upsertItemStatements(db, itemRows, now));
  }
  if (batch.length) await runBatch(db, [...batch, bumpDataVersion(db)]);

  // Quizzes with an open or paid order: one by one through the guard; a refusal is reported, not thrown.
  for (const c of changes) {
    if (!(c.guard && bought.has(c.quiz.id))) continue;
    try {
      await purchaseGuarded(db, c.guard, 'quiz', { quizId: c.quiz.id }, clock, () => runBatch(db, [...statements(c), bumpDataVersion(db)]));
      count(c);
    } catch (err) {
      if (!(err instanceof AppError) || err.status !== 409) throw err;
      result.skipped.push({ date: c.quiz.date, title: c.quiz.title, reason: err.message } satisfies SkippedChange);
    }
  }
  return result;
}

function newQuiz(feed: CalendarFeedRow, location: LocationRow, o: Occurrence): typeof quizzes.$inferInsert {
  const base = {
    id: newId(),
    locationId: location.id,
    date: o.date,
    startTime: o.startTime,
    title: o.title,
    description: o.description,
    language: o.language,
    isCancelled: false,
  };
  if (!o.series) return { ...base, isRecurring: false };
  // The series ends at the rule's real end (UNTIL, or a COUNT rule's last date: issue 44.3), or never (an open
  // rule: "förlängs automatiskt"), not at the sync horizon. The nightly sync adds the dates beyond the horizon;
  // the series extension job leaves a series a feed still tracks alone (series/service.ts extendSeries), so the
  // two never write the same series.
  const until = o.series.until;
  return {
    ...base,
    isRecurring: true,
    recurrenceId: recurrenceIdOf(feed.id, o.uid),
    recurrencePattern: o.series.pattern,
    recurrenceDays: JSON.stringify(namesOf(o.series.days)),
    recurrenceUntil: until,
  };
}

/**
 * The nightly task (issue 42.2): hands the FEEDS_PER_NIGHT least recently attempted feeds to `enqueue`, one
 * message per feed (worker/jobs/nightly.ts puts them on the jobs queue); each is synced by `syncFeedOfNight`
 * in a queue invocation of its own.
 */
export async function enqueueCalendarSyncJob(deps: Pick<Deps, 'db'>, enqueue: (feedIds: string[]) => Promise<void>): Promise<{ enqueued: number }> {
  const ids = await feedIdsToSync(deps.db, FEEDS_PER_NIGHT);
  if (ids.length) await enqueue(ids);
  return { enqueued: ids.length };
}

export type NightlyFeedOutcome = 'gone' | 'already-attempted' | SyncStatus;
type SyncStatus = NonNullable<CalendarFeedRow['lastStatus']>;

/**
 * One feed of the night (a jobs-queue message): marked attempted before its fetch, so a sync the runtime kills
 * (CPU, memory) still moves the feed to the back of the line, and a redelivery of that message this night
 * (attempted at or after `nightStart`) does nothing. A bad address is recorded on the feed (`failed`); an error
 * of ours (database) gives the attempt back and is thrown, so the queue retries the message.
 */
export async function syncFeedOfNight(deps: CalendarDeps, feedId: string, nightStart: string): Promise<NightlyFeedOutcome> {
  const now = deps.clock.now().toISOString();
  const claimed = await claimFeedAttempt(deps.db, feedId, now, nightStart);
  if (!claimed) return (await feedExists(deps.db, feedId)) ? 'already-attempted' : 'gone';
  try {
    const row = await syncFeed(deps, claimed.feed, claimed.location);
    return row.lastStatus ?? 'ok';
  } catch (err) {
    await releaseFeedAttempt(deps.db, feedId, now, claimed.previous).catch(() => undefined);
    throw err;
  }
}
