/**
 * The follow mail queue (issue 17, wrangler.toml [[queues.consumers]]): its names, the messages it carries and
 * the producer side. Requests and crons only enqueue; the consumer (consumer.ts) sends.
 */
import * as z from 'zod';
import { lazySchema } from '../../lib/lazy-schema';

/** wrangler.toml [[queues.consumers]]: the follow mail queue and its dead-letter queue (worker/index.ts dispatches by name). */
export const MAIL_QUEUE_NAME = 'quizkvall-mail';
export const MAIL_DLQ_NAME = 'quizkvall-mail-dlq';

export const FollowMessageSchema = lazySchema(() =>
  z.discriminatedUnion('type', [
    z.object({ type: z.literal('confirm'), followId: z.string().nullable(), requestId: z.string().min(1) }),
    z.object({ type: z.literal('reminder'), followId: z.string().min(1), quizId: z.string().min(1), date: z.string() }),
    z.object({ type: z.literal('digest'), followId: z.string().min(1), week: z.string() }),
    // Issue 48: a followed quizmaster starts at a new place ("X leder nu quiz på Y"); at most one a follower and day.
    z.object({
      type: z.literal('quizmaster-news'),
      followId: z.string().min(1),
      quizmasterId: z.string().min(1),
      locationId: z.string().min(1),
      day: z.string(),
    }),
  ]),
);
export type FollowMessage = z.infer<typeof FollowMessageSchema>;

/**
 * One notice to every push subscription of a follow (issue 42.3): a delivery of its own, apart from the mail it
 * goes with (reminder, digest), so a push that fails or hangs retries only itself and never holds a mail.
 * `key` + the subscription's id is each push's send key (push_sends). The notice is public text (a quiz's
 * time, place and title; no personal data), as the lock screen shows it.
 */
export const PushMessageSchema = lazySchema(() =>
  z.object({
    type: z.literal('push'),
    followId: z.string().min(1).max(64),
    key: z.string().min(1).max(300),
    notice: z.object({
      title: z.string().max(300),
      body: z.string().max(1000),
      url: z.string().startsWith('/').max(1000),
      followId: z.string().max(64),
      tag: z.string().max(300),
    }),
  }),
);
export type PushMessage = z.infer<typeof PushMessageSchema>;

/**
 * Everything the mail queue carries: the follow messages, the follows' pushes (issue 42.3), and (issue 27.3) the
 * delivery of one outbox row written with its claim (Mailer.outbox: freshness steps, the holiday question, the
 * report mail, the superadmins' takeover notices).
 */
export const MailQueueMessageSchema = lazySchema(() =>
  z.union([FollowMessageSchema, PushMessageSchema, z.object({ type: z.literal('outbox'), id: z.string().min(1) })]),
);
export type MailQueueMessage = z.infer<typeof MailQueueMessageSchema>;

/** The producer side of the mail queue (env.MAIL_QUEUE, or a fake in tests). */
export interface MailQueue {
  send(body: FollowMessage): Promise<unknown>;
  sendBatch(messages: Iterable<{ body: FollowMessage }>): Promise<unknown>;
}
