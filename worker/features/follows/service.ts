/**
 * Follows (issue 17): rules, no Hono. Visitors follow by e-mail with a double opt-in; signed-in users at
 * once. Mail is never sent from a request: requests and the cron only enqueue `FollowMessage`s, and the
 * queue consumer (`processMailBatch`) renders and sends each at most once (the outbox's unique send key).
 */
import { and, eq, sql } from 'drizzle-orm';
import * as z from 'zod';
import type { Db } from '../../db/client';
import { deadLetters, followAddresses, follows } from '../../db/schema';
import { chunks, QUEUE_SEND_BATCH_MAX } from '../../lib/chunks';
import { addDays, clockFrom, startOfIsoWeek } from '../../lib/clock';
import { recordJob } from '../../lib/jobs';
import { listPages, quizFiltersOf } from '../listing/service';
import { conflict, foundOr404, invalidInput, notFound, rateLimited, unavailable } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { takeAttempt, takeMailAttempt } from '../../lib/rate-limit';
import { deleteExpiredUsedLinks, isSpentError, requireLink, signLink, spendStatement, type LinkKeys, type LinkPayload } from '../../lib/signed-link';
import { hasQuizFilters, matchesQuizFilters, quizFilterLabels, type QuizFilters } from '../../lib/quiz-filters';
import { QuizFilterShape } from '../listing/contract';
import { findWeekday } from '../../lib/swedish';
import { SEARCH_LABEL_SEPARATOR, searchLabelParts } from '../../lib/search-label';
import type { Deps } from '../../ports/deps';
import type { Actor } from '../../lib/authz';
import {
  canonicalFilters,
  CONFIRM_LINK_TTL_S,
  FOLLOW_PENDING_MESSAGE,
  MAX_FOLLOWS_PER_ADDRESS,
  normalizeSearch,
  SavedSearchSchema,
  type FollowRequest,
  type FollowView,
  type SavedSearch,
  type FollowStatsResponse,
} from './contract';
import { confirmMail, digestMail, reminderMail, type MailLinks } from './mail';
import * as q from './queries';
import { newQuizzesNotice, pushToFollow, reminderNotice } from './push';

/** Per client (IP) and per address: follow requests that send a confirmation mail. */
export const FOLLOW_ADDRESS_LIMIT = 5;
export const FOLLOW_ADDRESS_WINDOW_MS = 60 * 60 * 1000;
/** Unsubscribe links keep working this long; the manage link is shorter (it shows the list). */
const UNSUBSCRIBE_TTL_S = 400 * 24 * 3600;
const MANAGE_TTL_S = 60 * 24 * 3600;

// ---------------------------------------------------------------- queue messages

/** wrangler.toml [[queues.consumers]]: the follow mail queue and its dead-letter queue (worker/index.ts dispatches by name). */
export const MAIL_QUEUE_NAME = 'quizkvall-mail';
export const MAIL_DLQ_NAME = 'quizkvall-mail-dlq';

export const FollowMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('confirm'), followId: z.string().nullable(), requestId: z.string().min(1) }),
  z.object({ type: z.literal('reminder'), followId: z.string().min(1), quizId: z.string().min(1), date: z.string() }),
  z.object({ type: z.literal('digest'), followId: z.string().min(1), week: z.string() }),
]);
export type FollowMessage = z.infer<typeof FollowMessageSchema>;

/**
 * Everything the mail queue carries: the follow messages, and (issue 27.3) the delivery of one outbox row
 * written with its claim (Mailer.outbox: freshness steps, the holiday question, the report mail).
 */
export const MailQueueMessageSchema = z.union([FollowMessageSchema, z.object({ type: z.literal('outbox'), id: z.string().min(1) })]);
export type MailQueueMessage = z.infer<typeof MailQueueMessageSchema>;

/** The producer side of the mail queue (env.MAIL_QUEUE, or a fake in tests). */
export interface MailQueue {
  send(body: FollowMessage): Promise<unknown>;
  sendBatch(messages: Iterable<{ body: FollowMessage }>): Promise<unknown>;
}

/** What the follow services need: the database, the clock and the config (APP_URL, LINK_SIGNING_SECRET). */
export type FollowDeps = Pick<Deps, 'db' | 'clock' | 'config'>;
/** The queue consumer also sends: the mailer, and the push port (reminders to the follower's phone, issue 32). */
export type FollowMailDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'> & Partial<Pick<Deps, 'push'>>;

function secretOf(deps: Pick<Deps, 'config'>): string {
  const secret = deps.config.linkSigningSecret;
  if (!secret) {
    console.error('LINK_SIGNING_SECRET is not set: signed links are refused');
    throw unavailable('Funktionen är inte tillgänglig just nu. Försök igen senare.');
  }
  return secret;
}

/** Verification keys: the current secret (required, as above) and the previous one during a rotation. */
function keysOf(deps: Pick<Deps, 'config'>): LinkKeys {
  return { current: secretOf(deps), previous: deps.config.linkSigningSecretPrevious };
}

// ---------------------------------------------------------------- labels

/** "quiz Stockholm · tisdag · ”musik” · Gratis · På engelska": the saved search named as the web names it (worker/lib/search-label.ts). */
export function describeSearch(f: SavedSearch, cityName?: string | null): string {
  return `quiz ${searchLabelParts({ ...f, cityName: f.city ? (cityName ?? f.city) : undefined }).join(SEARCH_LABEL_SEPARATOR)}`;
}

/**
 * A stored search (canonicalFilters) read back; each quiz filter through the listing contract's own shape, so a
 * value it no longer knows is dropped (the rest of the search stays), never trusted.
 */
function parseFilters(json: string | null): SavedSearch {
  const raw = JSON.parse(json ?? '{}') as Record<string, string | number | null>;
  const text = (k: string) => (typeof raw[k] === 'string' ? (raw[k] as string) : undefined);
  const quiz = Object.fromEntries(
    (Object.keys(QuizFilterShape) as Array<keyof typeof QuizFilterShape>).flatMap((k) => {
      const r = QuizFilterShape[k].safeParse(raw[k] ?? undefined);
      return r.success && r.data !== undefined ? [[k, r.data]] : [];
    }),
  ) as QuizFilters;
  return { city: text('city'), weekday: text('weekday'), search: text('search'), ...quiz };
}

export function searchUrl(f: SavedSearch): string {
  const qs = new URLSearchParams();
  if (f.weekday) qs.set('weekday', f.weekday);
  if (f.search) qs.set('search', f.search);
  if (f.price) qs.set('price', f.price);
  if (f.team !== undefined) qs.set('team', String(f.team));
  if (f.category) qs.set('category', f.category);
  if (f.time) qs.set('time', f.time);
  if (f.sprak) qs.set('sprak', f.sprak);
  const s = qs.toString();
  return `${f.city ? `/quiz/${f.city}` : '/'}${s ? `?${s}` : ''}`;
}

function labelOf(f: q.FollowWithRecipient): string {
  if (f.kind === 'place') return f.place_name ? `${f.place_name}, ${f.city}` : 'ett ställe';
  return describeSearch(parseFilters(f.filters));
}

/**
 * What the confirmation mail says a follow is about (issue 26.8). It goes to an address that has not
 * confirmed anything, so it carries no text anyone could choose: no place or business name, no city, no
 * search words — only the kind, a known weekday and the fixed labels of quiz filters. The confirmation
 * page and "Mina bevakningar" show the full label.
 */
function confirmLabelOf(f: q.FollowWithRecipient): string {
  if (f.kind === 'place') return 'ett quizställe';
  const s = parseFilters(f.filters);
  const parts = [s.weekday ? findWeekday(s.weekday)?.name : undefined, ...quizFilterLabels(s)].filter((p): p is string => !!p);
  return `en sparad sökning bland quizkvällar${parts.length ? ` (${parts.join(' · ')})` : ''}`;
}

export function toView(f: q.FollowWithRecipient): FollowView {
  return {
    id: f.id,
    kind: f.kind,
    label: labelOf(f),
    url: f.kind === 'place' ? (f.city_slug && f.venue_slug ? `/quiz/${f.city_slug}/${f.venue_slug}` : null) : searchUrl(parseFilters(f.filters)),
    reminders: !!f.reminders,
    confirmed: !!f.confirmed_at,
    createdAt: f.created_at,
  };
}

// ---------------------------------------------------------------- follow

async function resolveTarget(db: Db, input: FollowRequest): Promise<q.FollowTarget> {
  if (input.placeId) {
    const place = await q.findPublicPlace(db, input.placeId);
    if (!place) throw invalidInput('Ställe: Stället finns inte', [{ path: 'placeId', message: 'Stället finns inte' }]);
    return { kind: 'place', locationId: place.id, filters: null, targetKey: `place:${place.id}` };
  }
  const filters = canonicalFilters(normalizeSearch(SavedSearchSchema.parse(input.filters)));
  return { kind: 'search', locationId: null, filters, targetKey: `search:${filters}` };
}

export type FollowOutcome = { status: 201; follow: FollowView } | { status: 202; message: string };

/**
 * Signed in: the follow is confirmed at once (an existing one is returned). Visitor: e-mail required;
 * counted per client and per address first, then the address row, the pending follow (within the limit)
 * and one queued confirmation — the same statements and the same answer whether the address is new,
 * already follows this, or is at the limit, so the answer reveals nothing.
 */
export async function requestFollow(deps: FollowDeps, actor: Actor, input: FollowRequest & { clientKey: string; queue: MailQueue }): Promise<FollowOutcome> {
  const { db } = deps;
  const { clientKey, queue } = input;
  const now = deps.clock.now();
  if (actor) {
    const target = await resolveTarget(db, input);
    const owner = { userId: actor.id };
    await q.insertFollowWithinLimit(db, { id: newId(), owner, target, confirmedAt: now.toISOString() });
    const existing = await q.findFollowByTarget(db, owner, target.targetKey);
    if (!existing) throw conflict(`Du kan bevaka högst ${MAX_FOLLOWS_PER_ADDRESS} saker. Ta bort någon bevakning först.`);
    const row = await q.followWithRecipient(db, existing.id);
    return { status: 201, follow: toView(foundOr404(row, 'Bevakningen hittades inte.')) };
  }
  if (!input.email) throw invalidInput('E-post: E-postadress krävs', [{ path: 'email', message: 'E-postadress krävs' }]);
  secretOf(deps);
  const target = await resolveTarget(db, input);
  await takeMailAttempt(db, 'follow', clientKey, now);
  await takeAttempt(db, `follow-address:${input.email}`, FOLLOW_ADDRESS_LIMIT, FOLLOW_ADDRESS_WINDOW_MS, now, (ms) =>
    rateLimited(`För många förfrågningar för den här adressen. Försök igen om ${Math.max(1, Math.ceil(ms / 60000))} minuter.`, Math.ceil(ms / 1000)),
  );
  const addressId = await q.upsertAddress(db, newId(), input.email, now);
  const owner = { addressId };
  await q.insertFollowWithinLimit(db, { id: newId(), owner, target, confirmedAt: null });
  const follow = await q.findFollowByTarget(db, owner, target.targetKey);
  // Always one message: the consumer drops it when there is no follow (limit reached).
  await queue.send({ type: 'confirm', followId: follow?.id ?? null, requestId: newId() });
  return { status: 202, message: FOLLOW_PENDING_MESSAGE };
}

/** Spends the single-use confirmation link and confirms the follow and its address, in one batch. */
export async function confirmFollow(deps: FollowDeps, input: { token: string | undefined }): Promise<{ label: string }> {
  const { db } = deps;
  const { token } = input;
  const now = deps.clock.now();
  const link = await requireLink(keysOf(deps), token, 'follow-confirm', now);
  const at = now.toISOString();
  let changed: Array<{ id: string }>;
  try {
    const [, rows] = await db.batch([
      spendStatement(db, link),
      db.update(follows).set({ confirmedAt: sql`coalesce(${follows.confirmedAt}, ${at})`, updatedAt: at }).where(eq(follows.id, link.s)).returning({ id: follows.id }),
      db
        .update(followAddresses)
        .set({ confirmedAt: sql`coalesce(${followAddresses.confirmedAt}, ${at})`, updatedAt: at })
        .where(sql`${followAddresses.id} = (SELECT address_id FROM follows WHERE id = ${link.s})`),
    ]);
    changed = rows;
  } catch (err) {
    if (isSpentError(err)) throw invalidInput('Länken har redan använts.', [{ path: 't', message: 'Länken har redan använts.' }]);
    throw err;
  }
  if (changed.length === 0) throw notFound('Bevakningen finns inte längre.');
  const row = await q.followWithRecipient(db, link.s);
  return { label: row ? labelOf(row) : '' };
}

/** Subject of an address- or account-wide link: 'a:{addressId}' or 'u:{userId}'. */
function subjectOf(f: Pick<q.FollowWithRecipient, 'user_id' | 'address_id'>): string {
  return f.user_id ? `u:${f.user_id}` : `a:${f.address_id}`;
}
function parseSubject(s: string): { userId: string } | { addressId: string } | null {
  if (s.startsWith('u:') && s.length > 2) return { userId: s.slice(2) };
  if (s.startsWith('a:') && s.length > 2) return { addressId: s.slice(2) };
  return null;
}

/** Looks at an unsubscribe link without acting (the GET confirmation page). */
export async function inspectUnsubscribe(deps: FollowDeps, input: { token: string | undefined }): Promise<{ label: string | null }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'unsubscribe', deps.clock.now());
  const row = await q.followWithRecipient(deps.db, link.s);
  return { label: row ? labelOf(row) : null };
}

/** One-click unsubscribe (RFC 8058): ends that follow. Idempotent, so the link is not single-use. */
export async function unsubscribe(deps: FollowDeps, input: { token: string | undefined }): Promise<{ label: string | null }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'unsubscribe', deps.clock.now());
  const row = await q.followWithRecipient(deps.db, link.s);
  await deps.db.delete(follows).where(eq(follows.id, link.s));
  return { label: row ? labelOf(row) : null };
}

/** Ends all mail to the address (its row and follows go) or to the account (its follows go). */
export async function unsubscribeAll(deps: FollowDeps, input: { token: string | undefined }): Promise<{ removed: number }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'unsubscribe-all', deps.clock.now());
  const subject = parseSubject(link.s);
  if (!subject) throw invalidInput('Länken är ogiltig.');
  if ('userId' in subject) {
    const rows = await deps.db.delete(follows).where(eq(follows.userId, subject.userId)).returning({ id: follows.id });
    return { removed: rows.length };
  }
  const rows = await deps.db.select({ id: follows.id }).from(follows).where(eq(follows.addressId, subject.addressId));
  await deps.db.delete(followAddresses).where(eq(followAddresses.id, subject.addressId));
  return { removed: rows.length };
}

// ---------------------------------------------------------------- "Mina bevakningar"

export type FollowOwner = { userId: string } | { addressId: string };

/** The follows behind a manage link. */
export async function ownerOfManageLink(deps: FollowDeps, input: { token: string | undefined }): Promise<{ owner: FollowOwner; link: LinkPayload }> {
  const { token } = input;
  const link = await requireLink(keysOf(deps), token, 'manage', deps.clock.now());
  const owner = parseSubject(link.s);
  if (!owner) throw invalidInput('Länken är ogiltig.');
  return { owner, link };
}

export async function listFollows(deps: Pick<Deps, 'db'>, input: { owner: FollowOwner }): Promise<FollowView[]> {
  return (await q.followsOf(deps.db, input.owner)).map(toView);
}

function ownerCondition(owner: FollowOwner) {
  return 'userId' in owner ? eq(follows.userId, owner.userId) : eq(follows.addressId, owner.addressId);
}

/** Pause/resume reminders of one's own follow; someone else's or a missing one is 404 (ids are not secrets, but no one learns of others' follows). */
export async function setReminders(deps: Pick<Deps, 'db' | 'clock'>, input: { owner: FollowOwner; followId: string; reminders: boolean }): Promise<FollowView> {
  const { db } = deps;
  const { owner, followId, reminders } = input;
  const now = deps.clock.now();
  const rows = await db
    .update(follows)
    .set({ reminders, updatedAt: now.toISOString() })
    .where(and(eq(follows.id, followId), ownerCondition(owner)))
    .returning({ id: follows.id });
  if (rows.length === 0) throw notFound('Bevakningen hittades inte.');
  return toView(foundOr404(await q.followWithRecipient(db, followId), 'Bevakningen hittades inte.'));
}

export async function removeFollow(deps: Pick<Deps, 'db'>, input: { owner: FollowOwner; followId: string }): Promise<void> {
  const { db } = deps;
  const { owner, followId } = input;
  const rows = await db.delete(follows).where(and(eq(follows.id, followId), ownerCondition(owner))).returning({ id: follows.id });
  if (rows.length === 0) throw notFound('Bevakningen hittades inte.');
}

/** Superadmin: counts only, never addresses. */
export async function followStats(deps: Pick<Deps, 'db' | 'clock'>): Promise<FollowStatsResponse> {
  const { db } = deps;
  const now = deps.clock.now();
  const since = new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString();
  const [row] = await db.all<FollowStatsResponse>(sql`
    SELECT
      (SELECT count(*) FROM follows WHERE confirmed_at IS NOT NULL) AS confirmed,
      (SELECT count(*) FROM follows WHERE confirmed_at IS NULL) AS pending,
      (SELECT count(*) FROM follows WHERE kind = 'place' AND confirmed_at IS NOT NULL) AS places,
      (SELECT count(*) FROM follows WHERE kind = 'search' AND confirmed_at IS NOT NULL) AS searches,
      (SELECT count(*) FROM follow_addresses WHERE confirmed_at IS NOT NULL) AS confirmedAddresses,
      (SELECT count(DISTINCT user_id) FROM follows WHERE user_id IS NOT NULL) AS accounts,
      (SELECT count(*) FROM mail_outbox WHERE send_key IS NOT NULL AND created_at >= ${since}) AS mailsLast7Days,
      (SELECT count(*) FROM dead_letters) AS deadLetters`);
  return row!;
}

export async function listDeadLetters(deps: Pick<Deps, 'db'>) {
  const rows = await deps.db.select().from(deadLetters).orderBy(sql`${deadLetters.createdAt} DESC`).limit(200);
  return rows.map((r) => ({ id: r.id, queue: r.queue, messageId: r.messageId, body: readDeadLetterBody(r.body), attempts: r.attempts, reason: r.reason, createdAt: r.createdAt }));
}

/** Most characters of a message body a dead letter keeps. */
export const DEAD_LETTER_BODY_MAX = 4000;

/**
 * A stored body as JSON. Issue 27.4: a body cut at DEAD_LETTER_BODY_MAX is no JSON, and parsing it made the
 * whole list a 500; rows stored before the fix come back as their text.
 */
function readDeadLetterBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { truncated: text };
  }
}

export async function followerCountsByPlace(deps: Pick<Deps, 'db'>, input: { locationIds: string[] }): Promise<Map<string, number>> {
  return q.followerCounts(deps.db, input.locationIds);
}

// ---------------------------------------------------------------- cron: enqueue only

const PAGE = 500;

async function sendAll(queue: MailQueue, bodies: FollowMessage[]): Promise<void> {
  for (const part of chunks(bodies, QUEUE_SEND_BATCH_MAX)) await queue.sendBatch(part.map((body) => ({ body })));
}

/** job_runs rows through the shared recordJob (lib/jobs.ts), on a clock that starts at the run's instant. */
function recordRun<T extends Record<string, unknown>>(db: Db, job: string, now: Date, work: () => Promise<T>) {
  return recordJob(db, clockFrom(now), job, () => work());
}

/**
 * Data minimisation: follows never confirmed within 48 h (the link has expired) go, then addresses
 * left without any follow, and spent links past their expiry.
 */
export async function cleanUpFollows(deps: Pick<Deps, 'db' | 'clock'>) {
  const { db } = deps;
  const now = deps.clock.now();
  const cutoff = new Date(now.getTime() - CONFIRM_LINK_TTL_S * 1000).toISOString();
  return recordRun(db, 'follow-cleanup', now, async () => {
    const follows = await db.all<{ id: string }>(sql`DELETE FROM follows WHERE confirmed_at IS NULL AND created_at < ${cutoff} RETURNING id`);
    const addresses = await db.all<{ id: string }>(sql`
      DELETE FROM follow_addresses WHERE updated_at < ${cutoff} AND NOT EXISTS (SELECT 1 FROM follows f WHERE f.address_id = follow_addresses.id) RETURNING id`);
    await deleteExpiredUsedLinks(db, now);
    // Push send keys (issue 32) only guard a reminder's own day: a week is ample.
    await db.run(sql`DELETE FROM push_sends WHERE created_at < ${new Date(now.getTime() - 7 * 24 * 3600 * 1000).toISOString()}`);
    return { pendingFollows: follows.length, addresses: addresses.length };
  });
}

/** One message per (confirmed place follow with reminders) × (its place's quiz on `today`, not cancelled). */
export async function enqueueReminders(deps: Pick<Deps, 'db' | 'clock'>, input: { queue: MailQueue }): Promise<{ enqueued: number }> {
  const { db } = deps;
  const { queue } = input;
  const today = deps.clock.today();
  const now = deps.clock.now();
  return recordRun(db, 'follow-reminders', now, async () => {
    let after = '';
    let enqueued = 0;
    for (;;) {
      const rows = await q.dueReminders(db, today, after, PAGE);
      if (rows.length === 0) break;
      await sendAll(queue, rows.map((r) => ({ type: 'reminder', followId: r.follow_id, quizId: r.quiz_id, date: today })));
      enqueued += rows.length;
      const last = rows[rows.length - 1]!;
      after = `${last.follow_id}:${last.quiz_id}`;
      if (rows.length < PAGE) break;
    }
    return { date: today, enqueued };
  });
}

/** Mondays: one digest message per confirmed follow for the ISO week starting `today`. */
export async function enqueueDigests(deps: Pick<Deps, 'db' | 'clock'>, input: { queue: MailQueue }): Promise<{ enqueued: number }> {
  const { db } = deps;
  const { queue } = input;
  const today = deps.clock.today();
  const now = deps.clock.now();
  const week = startOfIsoWeek(today);
  return recordRun(db, 'follow-digest', now, async () => {
    let after = '';
    let enqueued = 0;
    for (;;) {
      const ids = await q.confirmedFollowIds(db, after, PAGE);
      if (ids.length === 0) break;
      await sendAll(queue, ids.map((followId) => ({ type: 'digest', followId, week })));
      enqueued += ids.length;
      after = ids[ids.length - 1]!;
      if (ids.length < PAGE) break;
    }
    return { week, enqueued };
  });
}

// ---------------------------------------------------------------- consumer

export type MessageOutcome = 'sent' | 'duplicate' | 'skipped';

async function linksFor(deps: FollowDeps, f: q.FollowWithRecipient): Promise<MailLinks> {
  const secret = secretOf(deps);
  const subject = subjectOf(f);
  const base = deps.config.appUrl;
  return {
    unsubscribe: `${base}/bevakningar/avsluta?t=${await signLink(secret, 'unsubscribe', f.id, UNSUBSCRIBE_TTL_S, deps.clock.now())}`,
    unsubscribeAll: `${base}/bevakningar/avsluta-alla?t=${await signLink(secret, 'unsubscribe-all', subject, UNSUBSCRIBE_TTL_S, deps.clock.now())}`,
    manage: `${base}/bevakningar?t=${await signLink(secret, 'manage', subject, MANAGE_TTL_S, deps.clock.now())}`,
  };
}

/** Most listing pages (of 12) a digest reads for one saved text search: 240 series or single quizzes. */
export const DIGEST_SEARCH_MAX_PAGES = 20;

/**
 * The week's quizzes of a saved search, matched as the listing matches it, so a follower gets what the
 * listing shows. With text, the listing service itself chooses the units (its search over business,
 * place, title, description, theme and quiz master, with Nordic case folding; the city; public businesses
 * only), asked on the week's Monday; the digest then holds each unit's dates in the week. The saved weekday
 * keeps that weekday's dates (a text search in the listing ignores the weekday; the follow names it).
 * Without text, city and weekday are one indexed query with the listing's own conditions.
 */
async function weekForSearch(db: Db, f: SavedSearch, from: string, to: string, houseEmail: string): Promise<q.MailQuiz[]> {
  const quiz = quizFiltersOf(f);
  if (!f.search && !hasQuizFilters(quiz)) return q.weekForCityDay(db, f, from, to);
  // The real house account: the listing keeps its stored columns for it (a wrong one would refresh its units).
  const ctx = { today: from, viewerId: null, houseEmail };
  const query = { city: f.city, search: f.search, ...quiz };
  const ids = (await listPages(db, query, ctx, DIGEST_SEARCH_MAX_PAGES)).map((item) => item.id);
  // The quiz filters chose the units; each date is checked too (one date of a series may have been edited alone).
  return (await q.weekOfUnits(db, ids, from, to, f.weekday)).filter((row) =>
    matchesQuizFilters({ price: row.price, teamSize: row.team_size, category: row.category, theme: row.theme, startTime: row.start_time, language: row.language }, quiz),
  );
}

/**
 * Renders and sends one message, at most once per send key. Only confirmed follows get reminders and
 * digests (the confirmation mail is the one mail a pending follow gets); a follow or quiz that is gone,
 * a cancelled quiz, a reminder for another day and an empty week send nothing.
 */
export async function processMessage(deps: FollowMailDeps, msg: MailQueueMessage): Promise<MessageOutcome> {
  const { db } = deps;
  if (msg.type === 'outbox') return deps.mailer.deliver(msg.id);
  if (msg.type === 'confirm') {
    if (!msg.followId) return 'skipped';
    const f = await q.followWithRecipient(db, msg.followId);
    if (!f?.email || !f.address_id) return 'skipped';
    const confirmUrl = `${deps.config.appUrl}/bevakningar/bekrafta?t=${await signLink(secretOf(deps), 'follow-confirm', f.id, CONFIRM_LINK_TTL_S, deps.clock.now())}`;
    return deps.mailer.sendOnce(confirmMail(f.email, confirmLabelOf(f), confirmUrl, await linksFor(deps, f)), `confirm:${msg.requestId}`);
  }
  const f = await q.followWithRecipient(db, msg.followId);
  if (!f?.email || !f.confirmed_at) return 'skipped';
  if (msg.type === 'reminder') {
    if (msg.date !== deps.clock.today() || f.kind !== 'place' || !f.reminders) return 'skipped';
    const quiz = await q.mailQuiz(db, msg.quizId);
    if (!quiz || quiz.is_cancelled || !quiz.is_public || quiz.date !== deps.clock.today()) return 'skipped';
    // The same reminder as a push to every phone that opted in ("Påminn mig i telefonen"), once per subscription.
    await pushToFollow({ db, push: deps.push ?? null }, { followId: f.id, notice: reminderNotice(f.id, quiz), key: `reminder:${f.id}:${quiz.id}` });
    return deps.mailer.sendOnce(reminderMail(f.email, quiz, deps.config.appUrl, await linksFor(deps, f)), `reminder:${f.id}:${quiz.id}`);
  }
  const from = msg.week;
  const to = addDays(from, 6);
  const items = f.kind === 'place' ? await q.weekAtPlace(db, f.location_id!, from, to) : await weekForSearch(db, parseFilters(f.filters), from, to, deps.config.houseAccountEmail);
  if (items.length === 0) return 'skipped';
  const newSince = new Date(deps.clock.now().getTime() - 7 * 24 * 3600 * 1000).toISOString();
  const marked = items.map((i) => ({ ...i, isNew: i.created_at > newSince }));
  // The week's new quizzes as a push to every phone that opted in, once per (follow, week, subscription);
  // first, so a failed push retries the message before the digest's own send key is spent.
  const notice = newQuizzesNotice(f.id, msg.week, f.kind, marked.filter((i) => i.isNew));
  if (notice) await pushToFollow({ db, push: deps.push ?? null }, { followId: f.id, notice, key: `new:${f.id}:${msg.week}` });
  return deps.mailer.sendOnce(digestMail(f.email, labelOf(f), marked, deps.config.appUrl, await linksFor(deps, f)), `digest:${f.id}:${msg.week}`);
}

export interface QueueMessageLike {
  id: string;
  body: unknown;
  attempts: number;
  ack(): void;
  retry(options?: { delaySeconds?: number }): void;
}

/** Back-off for a failed message: 30 s, 60 s, 120 s … at most 1 h. */
export function retryDelaySeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/**
 * The mail queue's consumer: each message on its own (one failure never holds back the others), acked
 * when done, retried with back-off when it throws. A message that cannot be parsed can never succeed:
 * it is parked in `dead_letters` at once. Each batch is recorded in job_runs.
 */
export async function processMailBatch(deps: FollowMailDeps, input: { queueName: string; messages: readonly QueueMessageLike[] }) {
  const { queueName, messages } = input;
  return recordRun(deps.db, 'follow-mail-batch', deps.clock.now(), async () => {
    const counts = { sent: 0, duplicate: 0, skipped: 0, retried: 0, poison: 0 };
    for (const m of messages) {
      const parsed = MailQueueMessageSchema.safeParse(m.body);
      if (!parsed.success) {
        await parkDeadLetter(deps.db, queueName, m, 'ogiltigt meddelande');
        m.ack();
        counts.poison++;
        continue;
      }
      try {
        counts[await processMessage(deps, parsed.data)]++;
        m.ack();
      } catch (err) {
        console.error(`follow mail ${m.id} failed (attempt ${m.attempts})`, err);
        m.retry({ delaySeconds: retryDelaySeconds(m.attempts) });
        counts.retried++;
      }
    }
    return counts;
  });
}

async function parkDeadLetter(db: Db, queueName: string, m: QueueMessageLike, reason: string): Promise<void> {
  let body: string;
  try {
    body = JSON.stringify(m.body ?? null) ?? 'null';
  } catch {
    body = '"(kunde inte läsas)"';
  }
  await db
    .insert(deadLetters)
    // Always valid JSON: a longer body is kept as its first characters, marked as cut.
    .values({ id: newId(), queue: queueName, messageId: m.id, body: body.length > DEAD_LETTER_BODY_MAX ? JSON.stringify({ truncated: body.slice(0, DEAD_LETTER_BODY_MAX) }) : body, attempts: m.attempts, reason })
    .onConflictDoNothing();
}

/** The dead-letter queue's consumer: records every message for the superadmin and acks it. */
export async function recordDeadLetters(deps: Pick<Deps, 'db' | 'clock'>, input: { queueName: string; messages: readonly QueueMessageLike[] }) {
  const { db } = deps;
  const { queueName, messages } = input;
  const now = deps.clock.now();
  return recordRun(db, 'follow-mail-dead-letters', now, async () => {
    for (const m of messages) {
      await parkDeadLetter(db, queueName, m, 'för många misslyckade försök');
      m.ack();
    }
    return { recorded: messages.length };
  });
}
