/**
 * The mail queue's consumer (issue 17): renders and sends each follow message at most once (the outbox's unique
 * send key), enqueues the same reminder and the week's new quizzes as pushes to opted-in phones (issue 32) and
 * sends those push messages (issue 42.3: apart from the mail, a few at a time, never in the mail's way), delivers
 * outbox rows (issue 27.3), retries with back-off and parks what can never succeed in `dead_letters`.
 */
import type { Db } from '../../db/client';
import { addDays, clockFrom } from '../../lib/clock';
import { newId } from '../../lib/ids';
import { recordJob } from '../../lib/jobs';
import { createLimiter, type Limiter } from '../../lib/limiter';
import { hasQuizFilters, matchesQuizFilters } from '../../lib/quiz-filters';
import type { Deps } from '../../ports/deps';
import { listPages, quizFiltersOf } from '../listing/service';
import type { SavedSearch } from './contract';
import { confirmLabelOf, labelOf, parseFilters } from './labels';
import { confirmUrlFor, linksFor } from './links';
import { confirmMail, digestMail, quizmasterNewsMail, reminderMail } from './mail';
import { enqueuePush, newQuizzesNotice, pushToFollow, reminderNotice } from './push';
import * as q from './queries';
import { MailQueueMessageSchema, type MailQueueMessage } from './queue';

/**
 * The queue consumer sends: the mailer, and the push port (reminders to the follower's phone, issue 32); it
 * enqueues a mail's pushes on the mail queue (issue 42.3).
 */
export type FollowMailDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer' | 'mailQueue'> & Partial<Pick<Deps, 'push'>>;

/**
 * Pushes in flight at once in one batch, over all its push messages. A Worker invocation has at most six
 * connections waiting for headers (a seventh waits in line): four leave the batch's mail its own.
 */
export const PUSH_CONCURRENCY = 4;

export type MessageOutcome = 'sent' | 'duplicate' | 'skipped';

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
  if (!f.search && !hasQuizFilters(quiz) && !f.quizmaster) return q.weekForCityDay(db, f, from, to);
  // The real house account: the listing keeps its stored columns for it (a wrong one would refresh its units).
  const ctx = { today: from, viewerId: null, houseEmail };
  const query = { city: f.city, search: f.search, ...quiz, quizmaster: f.quizmaster };
  const ids = (await listPages(db, query, ctx, DIGEST_SEARCH_MAX_PAGES)).map((item) => item.id);
  // The quiz filters chose the units; each date is checked too (one date of a series may have been edited alone).
  return (await q.weekOfUnits(db, ids, from, to, f.weekday)).filter((row) =>
    matchesQuizFilters(
      { price: row.price, teamSize: row.team_size, category: row.category, theme: row.theme, startTime: row.start_time, language: row.language },
      quiz,
    ),
  );
}

/**
 * A mail and its push, each a delivery of its own (issue 42.3): the mail is sent (once, by its send key) whether
 * or not the push can be enqueued, and the push is enqueued whether or not the mail goes out. If either fails,
 * the message is retried: the mail is then a duplicate, the push message's sends are deduplicated by push_sends.
 */
async function mailAndPush(mail: () => Promise<MessageOutcome>, push: () => Promise<void>): Promise<MessageOutcome> {
  const [sent, pushed] = await Promise.allSettled([mail(), push()]);
  if (sent.status === 'rejected') throw sent.reason;
  if (pushed.status === 'rejected') throw pushed.reason;
  return sent.value;
}

/**
 * Renders and sends one message, at most once per send key. Only confirmed follows get reminders and
 * digests (the confirmation mail is the one mail a pending follow gets); a follow or quiz that is gone,
 * a cancelled quiz, a reminder for another day and an empty week send nothing. A push message's sends go
 * through `limit` (the batch's bound).
 */
export async function processMessage(deps: FollowMailDeps, msg: MailQueueMessage, limit: Limiter = createLimiter(PUSH_CONCURRENCY)): Promise<MessageOutcome> {
  const { db } = deps;
  if (msg.type === 'outbox') return deps.mailer.deliver(msg.id);
  if (msg.type === 'push') {
    const out = await pushToFollow({ db, push: deps.push ?? null }, msg, limit);
    return out.sent + out.gone > 0 ? 'sent' : out.duplicate > 0 ? 'duplicate' : 'skipped';
  }
  if (msg.type === 'confirm') {
    if (!msg.followId) return 'skipped';
    const f = await q.followWithRecipient(db, msg.followId);
    if (!f?.email || !f.address_id) return 'skipped';
    const confirmUrl = await confirmUrlFor(deps, f.id);
    return deps.mailer.sendOnce(confirmMail(f.email, confirmLabelOf(f), confirmUrl, await linksFor(deps, f)), `confirm:${msg.requestId}`);
  }
  const f = await q.followWithRecipient(db, msg.followId);
  if (!f?.email || !f.confirmed_at) return 'skipped';
  const email = f.email;
  if (msg.type === 'quizmaster-news') {
    // One such mail a follower and day (the send key), whatever the number of new places that day.
    const news = await q.quizmasterNews(db, msg.quizmasterId, msg.locationId);
    if (!news?.is_public || parseFilters(f.filters).quizmaster !== news.slug) return 'skipped';
    return deps.mailer.sendOnce(quizmasterNewsMail(email, news, deps.config.appUrl, await linksFor(deps, f)), `quizmaster-news:${f.id}:${msg.day}`);
  }
  if (msg.type === 'reminder') {
    if (msg.date !== deps.clock.today() || f.kind !== 'place' || !f.reminders) return 'skipped';
    const quiz = await q.mailQuiz(db, msg.quizId);
    if (!quiz || quiz.is_cancelled || !quiz.is_public || quiz.date !== deps.clock.today()) return 'skipped';
    // The same reminder as a push to every phone that opted in ("Påminn mig i telefonen"): a message of its own.
    const key = `reminder:${f.id}:${quiz.id}`;
    return mailAndPush(
      async () => deps.mailer.sendOnce(reminderMail(email, quiz, deps.config.appUrl, await linksFor(deps, f)), key),
      () => enqueuePush({ db, push: deps.push ?? null, mailQueue: deps.mailQueue }, { followId: f.id, notice: reminderNotice(f.id, quiz), key }),
    );
  }
  const from = msg.week;
  const to = addDays(from, 6);
  const items =
    f.kind === 'place'
      ? await q.weekAtPlace(db, f.location_id!, from, to)
      : await weekForSearch(db, parseFilters(f.filters), from, to, deps.config.houseAccountEmail);
  // "Veckans resultat" (issue 46): last week's winners at the place, for a follow that opted in.
  const winners = f.kind === 'place' && f.results ? await q.winnersAtPlace(db, f.location_id!, addDays(from, -7), addDays(from, -1)) : [];
  if (items.length === 0 && winners.length === 0) return 'skipped';
  const newSince = new Date(deps.clock.now().getTime() - 7 * 24 * 3600 * 1000).toISOString();
  const marked = items.map((i) => ({ ...i, isNew: i.created_at > newSince }));
  // The week's new quizzes as a push to every phone that opted in, once per (follow, week, subscription): a
  // message of its own, as the reminder's.
  const notice = newQuizzesNotice(
    f.id,
    msg.week,
    f.kind,
    marked.filter((i) => i.isNew),
  );
  return mailAndPush(
    async () =>
      deps.mailer.sendOnce(
        digestMail(email, labelOf(f), marked, deps.config.appUrl, await linksFor(deps, f), winnersFor(f, winners)),
        `digest:${f.id}:${msg.week}`,
      ),
    async () => {
      if (notice) await enqueuePush({ db, push: deps.push ?? null, mailQueue: deps.mailQueue }, { followId: f.id, notice, key: `new:${f.id}:${msg.week}` });
    },
  );
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
 * Two lanes side by side (issue 42.3): the mails one after another, and the push messages together with at most
 * PUSH_CONCURRENCY pushes in flight, each ended by the port's timeout — so a push service that never answers
 * holds only its own message, never a mail of the same batch.
 */
export async function processMailBatch(deps: FollowMailDeps, input: { queueName: string; messages: readonly QueueMessageLike[] }) {
  const { queueName, messages } = input;
  return recordJob(deps.db, clockFrom(deps.clock.now()), 'follow-mail-batch', async () => {
    const counts = { sent: 0, duplicate: 0, skipped: 0, retried: 0, poison: 0 };
    const limit = createLimiter(PUSH_CONCURRENCY);
    const mails: Array<{ m: QueueMessageLike; msg: MailQueueMessage }> = [];
    const pushes: Array<{ m: QueueMessageLike; msg: MailQueueMessage }> = [];
    for (const m of messages) {
      const parsed = MailQueueMessageSchema.safeParse(m.body);
      if (!parsed.success) {
        await parkDeadLetter(deps.db, queueName, m, 'ogiltigt meddelande');
        m.ack();
        counts.poison++;
        continue;
      }
      (parsed.data.type === 'push' ? pushes : mails).push({ m, msg: parsed.data });
    }
    const handle = async ({ m, msg }: { m: QueueMessageLike; msg: MailQueueMessage }) => {
      try {
        counts[await processMessage(deps, msg, limit)]++;
        m.ack();
      } catch (err) {
        console.error(`follow mail ${m.id} failed (attempt ${m.attempts})`, err);
        m.retry({ delaySeconds: retryDelaySeconds(m.attempts) });
        counts.retried++;
      }
    };
    await Promise.all([
      (async () => {
        for (const item of mails) await handle(item);
      })(),
      Promise.all(pushes.map(handle)),
    ]);
    return counts;
  });
}

/** Most characters of a message body a dead letter keeps. */
export const DEAD_LETTER_BODY_MAX = 4000;

async function parkDeadLetter(db: Db, queueName: string, m: QueueMessageLike, reason: string): Promise<void> {
  let body: string;
  try {
    body = JSON.stringify(m.body ?? null) ?? 'null';
  } catch {
    body = '"(kunde inte läsas)"';
  }
  // Always valid JSON: a longer body is kept as its first characters, marked as cut.
  await q.insertDeadLetter(db, {
    id: newId(),
    queue: queueName,
    messageId: m.id,
    body: body.length > DEAD_LETTER_BODY_MAX ? JSON.stringify({ truncated: body.slice(0, DEAD_LETTER_BODY_MAX) }) : body,
    attempts: m.attempts,
    reason,
  });
}

/** The dead-letter queue's consumer: records every message for the superadmin and acks it. */
export async function recordDeadLetters(deps: Pick<Deps, 'db' | 'clock'>, input: { queueName: string; messages: readonly QueueMessageLike[] }) {
  const { db } = deps;
  const { queueName, messages } = input;
  return recordJob(db, clockFrom(deps.clock.now()), 'follow-mail-dead-letters', async () => {
    for (const m of messages) {
      await parkDeadLetter(db, queueName, m, 'för många misslyckade försök');
      m.ack();
    }
    return { recorded: messages.length };
  });
}

/** The digest's "Veckans resultat" section: the winners and the place's results page, or undefined. */
function winnersFor(f: q.FollowWithRecipient, winners: Array<{ date: string; team: string }>) {
  if (!winners.length || !f.city_slug || !f.venue_slug) return undefined;
  return { winners, path: `/quiz/${encodeURIComponent(f.city_slug)}/${encodeURIComponent(f.venue_slug)}/resultat` };
}
