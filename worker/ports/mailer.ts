/**
 * Mailer port. Every mail is written to the mail_outbox table (the local stand-in, shown at /dev/mail
 * when APP_ENV=development); when MAIL_API_KEY is set it is also sent through the provider (Resend's
 * HTTP API). Templates live beside each feature (mail.ts); texts are Swedish.
 */
import { eq, sql, type SQL } from 'drizzle-orm';
import { batchableRun, changes, type BatchStatement } from '../db/batch';
import type { Db } from '../db/client';
import { mailOutbox } from '../db/schema';
import { chunks, QUEUE_SEND_BATCH_MAX } from '../lib/chunks';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** Extra headers, e.g. List-Unsubscribe (RFC 2369) and List-Unsubscribe-Post (RFC 8058). Stored in the outbox. */
  headers?: Record<string, string>;
}

export type SendOnceResult = 'sent' | 'duplicate';

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /**
   * Sends at most once per `key` (queue consumers): the outbox row and its unique key are written in one
   * statement, so a retried or duplicated message finds the key and sends nothing. A row whose provider
   * delivery failed is delivered again (with the key as the provider's idempotency key); the error is
   * thrown so the caller can retry later.
   */
  sendOnce(message: MailMessage, key: string): Promise<SendOnceResult>;
  /**
   * A mail that belongs to a claim (issue 27.3): the statement writes it to the outbox, at most once per
   * `key` and only where `when` holds at write time, for the SAME `db.batch` as the claim — so a claim and
   * its mail are stored together or not at all. Nothing is sent here: `pending` rows are delivered by the
   * mail queue (`enqueueOutbox` → `deliver`, retried with back-off), and swept again by the nightly
   * `mail-redeliver` task if the enqueue itself failed. Without a provider the outbox row is the mail.
   */
  outbox(message: MailMessage, key: string, when?: SQL): OutboxMail;
  /**
   * Delivers one outbox row written by `outbox` (the queue consumer): 'duplicate' when it is already sent,
   * gone, or there is no provider; throws when the provider refuses, so the queue retries it.
   */
  deliver(id: string): Promise<SendOnceResult>;
}

/** An outbox write for a claim's batch (Mailer.outbox). */
export interface OutboxMail {
  id: string;
  statement: BatchStatement;
  /** True when a provider is configured (the row is written 'pending'). */
  pending: boolean;
}

/** After the batch: whether this outbox write stored a row that the queue must deliver (enqueue `mail.id`). */
export function needsDelivery(mail: OutboxMail, result: unknown): boolean {
  // mail_outbox has no triggers, so D1's meta.changes is exact here.
  return mail.pending && changes(result) > 0;
}

/** The mail queue's message that delivers one outbox row (consumer: follows/consumer.ts processMailBatch). */
export interface OutboxMessage {
  type: 'outbox';
  id: string;
}

/** The producer side of the mail queue as the outbox needs it (env.MAIL_QUEUE, or a fake in tests). */
export interface OutboxQueue {
  sendBatch(messages: Iterable<{ body: OutboxMessage }>): Promise<unknown>;
}

/** `clock` stamps sent_at (the run's clock, so a pinned test or dev clock stamps the pinned instant). */
export function createMailer(db: Db, opts: { apiKey: string | null; from: string; clock: Clock; fetcher?: typeof fetch }): Mailer {
  const row = (id: string, message: MailMessage, sendKey: string | null) => ({
    id,
    toEmail: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    headers: message.headers ? JSON.stringify(message.headers) : null,
    sendKey,
    status: (opts.apiKey ? 'pending' : 'sent') as 'pending' | 'sent',
  });
  /** Hands the mail to the provider; true when accepted. */
  async function deliver(id: string, message: MailMessage, idempotencyKey?: string): Promise<boolean> {
    const res = await (opts.fetcher ?? fetch)('https://api.resend.com/emails', {
      method: 'POST',
      headers: {
        authorization: `Bearer ${opts.apiKey}`,
        'content-type': 'application/json',
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey.slice(0, 256) } : {}),
      },
      body: JSON.stringify({ from: opts.from, to: [message.to], subject: message.subject, text: message.text, html: message.html, headers: message.headers }),
    });
    await db
      .update(mailOutbox)
      .set({ status: res.ok ? 'sent' : 'failed', sentAt: res.ok ? opts.clock.now().toISOString() : null })
      .where(eq(mailOutbox.id, id));
    if (!res.ok) console.error(`mail provider answered ${res.status}`);
    return res.ok;
  }
  return {
    async send(message) {
      const id = newId();
      await db.insert(mailOutbox).values(row(id, message, null));
      if (opts.apiKey) await deliver(id, message);
    },
    async sendOnce(message, key) {
      const inserted = await db
        .insert(mailOutbox)
        .values(row(newId(), message, key))
        .onConflictDoNothing({ target: mailOutbox.sendKey })
        .returning({ id: mailOutbox.id });
      let id = inserted[0]?.id;
      if (!id) {
        // Already written by an earlier attempt: done, unless its provider delivery failed.
        const [prev] = await db.all<{ id: string; status: string }>(sql`SELECT id, status FROM mail_outbox WHERE send_key = ${key}`);
        if (!prev || prev.status === 'sent' || !opts.apiKey) return 'duplicate';
        id = prev.id;
      }
      if (opts.apiKey && !(await deliver(id, message, key))) throw new Error('mail provider refused the message');
      return 'sent';
    },
    outbox(message, key, when) {
      const r = row(newId(), message, key);
      const statement = batchableRun(
        db,
        sql`INSERT INTO mail_outbox (id, to_email, subject, text, html, headers, send_key, status)
          SELECT ${r.id}, ${r.toEmail}, ${r.subject}, ${r.text}, ${r.html}, ${r.headers}, ${r.sendKey}, ${r.status}
          WHERE ${when ?? sql`1`}
          ON CONFLICT (send_key) DO NOTHING`,
      );
      return { id: r.id, statement, pending: r.status === 'pending' };
    },
    async deliver(id) {
      const [prev] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, id)).limit(1);
      if (!prev || prev.status === 'sent' || !opts.apiKey) return 'duplicate';
      const message: MailMessage = {
        to: prev.toEmail,
        subject: prev.subject,
        text: prev.text,
        ...(prev.html ? { html: prev.html } : {}),
        ...(prev.headers ? { headers: JSON.parse(prev.headers) as Record<string, string> } : {}),
      };
      if (!(await deliver(id, message, prev.sendKey ?? id))) throw new Error('mail provider refused the message');
      return 'sent';
    },
  };
}

/**
 * Puts outbox rows on the mail queue for delivery (at most 100 a sendBatch). A failed enqueue is logged
 * and reported (false), never thrown: the claim and its mail are already stored together, and the nightly
 * `mail-redeliver` sweep enqueues what is still pending.
 */
export async function enqueueOutbox(queue: OutboxQueue, ids: readonly string[]): Promise<boolean> {
  try {
    for (const part of chunks(ids, QUEUE_SEND_BATCH_MAX)) await queue.sendBatch(part.map((id) => ({ body: { type: 'outbox' as const, id } })));
    return true;
  } catch (err) {
    console.error(`mail queue refused ${ids.length} outbox deliveries (the nightly sweep retries)`, err);
    return false;
  }
}

/** What `withNotices` ran: the statements' results in order, and how many of the mails were written. */
export interface NoticeBatch {
  results: unknown[];
  mailed: number;
}

/**
 * The one way to store a claim with its mail (issue 27.3): `statements` and the `notices`' outbox writes (made
 * by `Mailer.outbox`, after the statements so their conditions see the claim) run as ONE `db.batch`, so they
 * are stored together or not at all. The rows the queue must deliver then go to `delivery`: enqueued at once
 * when it is the mail queue, or appended when it is a list (a job enqueues a page's mail together; a failed
 * enqueue is logged by enqueueOutbox and swept again by `mail-redeliver`).
 */
export async function withNotices(
  db: Db,
  statements: readonly BatchStatement[],
  notices: readonly OutboxMail[],
  delivery: OutboxQueue | string[],
): Promise<NoticeBatch> {
  const results: unknown[] = await db.batch([...statements, ...notices.map((n) => n.statement)] as [BatchStatement, ...BatchStatement[]]);
  const written = results.slice(statements.length);
  const stored = notices.filter((n, i) => needsDelivery(n, written[i])).map((n) => n.id);
  if (Array.isArray(delivery)) delivery.push(...stored);
  else if (stored.length) await enqueueOutbox(delivery, stored);
  // mail_outbox has no triggers, so D1's meta.changes is exact here.
  return { results: results.slice(0, statements.length), mailed: written.filter((r) => changes(r) > 0).length };
}

/** The sweep leaves a row this long to its own queue delivery first. */
const REDELIVER_AFTER_MINUTES = 10;
/** …and gives up on it after this many days (the mail would be stale; it stays 'failed' for the record). */
const REDELIVER_WITHIN_DAYS = 7;

/**
 * The nightly `mail-redeliver` sweep: outbox rows of the given key kinds (claims' mail, e.g. 'freshness:')
 * not sent 10 minutes after they were written (enqueue failed, or the queue gave up and dead-lettered them)
 * go on the queue again. Times are the database's own (`created_at`), as in deleteOldMail.
 */
export async function redeliverOutbox(db: Db, queue: OutboxQueue, keyPrefixes: readonly string[], limit = 1000): Promise<number> {
  if (!keyPrefixes.length) return 0;
  const kinds = sql.join(
    keyPrefixes.map((p) => sql`send_key LIKE ${`${p.replace(/[%_\\]/g, (ch) => `\\${ch}`)}%`} ESCAPE '\\'`),
    sql` OR `,
  );
  const rows = await db.all<{ id: string }>(sql`
    SELECT id FROM mail_outbox
    WHERE status <> 'sent' AND send_key IS NOT NULL AND (${kinds})
      AND created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${REDELIVER_AFTER_MINUTES} minutes`})
      AND created_at > strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${`-${REDELIVER_WITHIN_DAYS} days`})
    ORDER BY created_at LIMIT ${limit}`);
  const ids = rows.map((r) => r.id);
  if (ids.length && !(await enqueueOutbox(queue, ids))) throw new Error('mail queue refused the redeliveries');
  return ids.length;
}

/**
 * Data minimisation: every outbox row (address, text, headers — sent, failed or stuck) older than this
 * many days is deleted by the nightly task `mail-outbox`. Exactly-once still holds, because no send key is
 * used again after it: a queue message lives at most 14 days (Cloudflare Queues retention; here ≤ 5
 * retries within hours), a reminder is only sent on its quiz's date, a digest only in its ISO week, the
 * holiday question and the freshness steps are claimed in their own tables (`holiday_decisions.asked_at`,
 * `venues.freshness_stage`) before mailing, and the report mail's fixed 30-day bucket has ended when its
 * row is 30 days old.
 */
export const MAIL_RETENTION_DAYS = 30;
const MAIL_DELETE_PAGE = 500;
/** At most this many pages a night (50 000 rows); the rest go the next night. */
const MAIL_DELETE_MAX_PAGES = 100;

/**
 * Deletes outbox rows older than MAIL_RETENTION_DAYS, in pages (oldest first, by the created_at index).
 * `created_at` is written by the database's own clock, so the cut-off is the database's time too — never a
 * pinned application clock (CLOCK_NOW, x-clock-now), which could otherwise delete the mail a run has just
 * written and free its send key for a second send.
 */
export async function deleteOldMail(db: Db, retentionDays = MAIL_RETENTION_DAYS): Promise<number> {
  const modifier = `-${Math.max(1, Math.floor(retentionDays))} days`;
  let deleted = 0;
  for (let page = 0; page < MAIL_DELETE_MAX_PAGES; page++) {
    const rows = await db.all<{ id: string }>(sql`
      DELETE FROM mail_outbox WHERE id IN (
        SELECT id FROM mail_outbox WHERE created_at < strftime('%Y-%m-%dT%H:%M:%fZ', 'now', ${modifier}) ORDER BY created_at LIMIT ${MAIL_DELETE_PAGE}
      ) RETURNING id`);
    deleted += rows.length;
    if (rows.length < MAIL_DELETE_PAGE) break;
  }
  return deleted;
}

/** Pulls the links out of a mail text, for /dev/mail.json (so tests and newcomers can click them). */
export function extractLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"')]+/g)].map((m) => m[0]);
}
