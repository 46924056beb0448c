/**
 * The follow mail queue (issue 17, wrangler.toml [[queues.consumers]]): its names, the messages it carries and
 * the producer side. Requests and crons only enqueue; the consumer (consumer.ts) sends.
 */
import * as z from 'zod';

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
 * written with its claim (Mailer.outbox: freshness steps, the holiday question, the report mail, the superadmins' takeover notices).
 */
export const MailQueueMessageSchema = z.union([FollowMessageSchema, z.object({ type: z.literal('outbox'), id: z.string().min(1) })]);
export type MailQueueMessage = z.infer<typeof MailQueueMessageSchema>;

/** The producer side of the mail queue (env.MAIL_QUEUE, or a fake in tests). */
export interface MailQueue {
  send(body: FollowMessage): Promise<unknown>;
  sendBatch(messages: Iterable<{ body: FollowMessage }>): Promise<unknown>;
}
