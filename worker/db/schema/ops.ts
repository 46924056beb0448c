/** Operations: the mail outbox, job runs, spent links, dead letters, counters and incidents. */
import { sql } from 'drizzle-orm';
import { index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowIso, timestamps } from './common';

export const mailOutbox = sqliteTable(
  'mail_outbox',
  {
    id: text('id').primaryKey(),
    toEmail: text('to_email').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    sentAt: text('sent_at'),
    /** Extra mail headers as a JSON object (List-Unsubscribe, List-Unsubscribe-Post), or null. */
    headers: text('headers'),
    /**
     * Idempotency key of a queued send (`reminder:{follow}:{quiz}`, `digest:{follow}:{week}`, …); unique,
     * so a retried or duplicated queue message can never write (or send) the same mail twice.
     */
    sendKey: text('send_key'),
    ...timestamps,
  },
  (t) => [
    index('mail_outbox_created_idx').on(t.createdAt),
    uniqueIndex('mail_outbox_send_key_uq').on(t.sendKey),
    // Unsent mail only (pending / failed) for the "Drift" tab, without reading the sent ones (issue 30 §4).
    index('mail_outbox_unsent_idx').on(t.status, t.createdAt).where(sql`status <> 'sent'`),
  ],
);
export type MailOutboxRow = typeof mailOutbox.$inferSelect;

export const jobRuns = sqliteTable(
  'job_runs',
  {
    id: text('id').primaryKey(),
    job: text('job').notNull(),
    status: text('status', { enum: ['running', 'done', 'failed'] }).notNull(),
    startedAt: text('started_at').notNull().default(nowIso),
    finishedAt: text('finished_at'),
    /** Resume point of a chunked job (e.g. last recurrence id handled). */
    cursor: text('cursor'),
    /** JSON summary (counts, error message). */
    result: text('result'),
  },
  (t) => [index('job_runs_job_started_idx').on(t.job, t.startedAt)],
);
export type JobRunRow = typeof jobRuns.$inferSelect;

/** Spent single-use signed links (worker/lib/signed-link.ts): only the SHA-256 of the token. */
export const usedLinks = sqliteTable(
  'used_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    purpose: text('purpose').notNull(),
    /** The link's own expiry: after it the row can go (nothing could reuse the link). */
    expiresAt: text('expires_at').notNull(),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('used_links_expires_idx').on(t.expiresAt)],
);

/** Queue messages that could not be processed (the dead-letter queue's consumer records them here). */
export const deadLetters = sqliteTable(
  'dead_letters',
  {
    id: text('id').primaryKey(),
    queue: text('queue').notNull(),
    messageId: text('message_id').notNull(),
    /** The message body as JSON (ids only: messages never carry addresses). */
    body: text('body').notNull(),
    attempts: integer('attempts').notNull(),
    reason: text('reason'),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('dead_letters_created_idx').on(t.createdAt), uniqueIndex('dead_letters_message_uq').on(t.queue, t.messageId)],
);
export type DeadLetterRow = typeof deadLetters.$inferSelect;

/**
 * Hourly counters of operational events (worker/lib/ops-counters.ts): '5xx' responses (request-log
 * middleware) and 'webhook-signature' failures (payments webhook). One upsert per event; `hour` is the
 * UTC hour 'YYYY-MM-DDTHH'. Read by the superadmin's "Drift" tab and the alert check; old hours are
 * deleted by the alert check after OPS_COUNTER_RETENTION_DAYS.
 */
export const opsCounters = sqliteTable(
  'ops_counters',
  {
    name: text('name').notNull(),
    hour: text('hour').notNull(),
    count: integer('count').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.name, t.hour] }), index('ops_counters_hour_idx').on(t.hour)],
);
export type OpsCounterRow = typeof opsCounters.$inferSelect;

/**
 * An operations alert (worker/features/ops/alerts.ts): opened when a check fails, resolved when it passes
 * again. At most one open incident per `key` (partial unique index), so a second check run opens nothing;
 * the alert and recovery mails carry send keys made from `id`, so each goes out once per incident.
 */
export const opsIncidents = sqliteTable(
  'ops_incidents',
  {
    /** `{key}@{opened_at}`. */
    id: text('id').primaryKey(),
    key: text('key').notNull(),
    /** What failed, in Swedish (the alert mail's first line). */
    summary: text('summary').notNull(),
    openedAt: text('opened_at').notNull(),
    resolvedAt: text('resolved_at'),
  },
  (t) => [uniqueIndex('ops_incidents_open_uq').on(t.key).where(sql`resolved_at IS NULL`), index('ops_incidents_opened_idx').on(t.openedAt)],
);
export type OpsIncidentRow = typeof opsIncidents.$inferSelect;
