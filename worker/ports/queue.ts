/**
 * The mail queue's producer as a port (issue 28.6), beside the mailer and payments: services and jobs get
 * it from `Deps.mailQueue` instead of reading the raw `env.MAIL_QUEUE` binding, so tests hand in a fake the
 * same way they do for mail and payments. Messages are the outbox deliveries (`{ type: 'outbox', id }`)
 * and the follow mails; the consumer is `queue()` in worker/index.ts.
 */

/** What a producer of the mail queue can do: a Cloudflare `Queue` binding has this shape. */
export interface MailQueuePort {
  send(body: unknown): Promise<unknown>;
  sendBatch(messages: Iterable<{ body: unknown }>): Promise<unknown>;
}

/** The bindings the producer is made from (the run's env; absent in unit tests that never enqueue). */
export type QueueBindings = { MAIL_QUEUE?: Queue | undefined } | undefined;

/** A producer without a binding: fails loudly when used (a run that must enqueue needs the binding). */
const missingQueue: MailQueuePort = {
  send: () => Promise.reject(new Error('MAIL_QUEUE binding missing')),
  sendBatch: () => Promise.reject(new Error('MAIL_QUEUE binding missing')),
};

/** The production producer: the run's MAIL_QUEUE binding. */
export function createMailQueue(bindings: QueueBindings): MailQueuePort {
  return bindings?.MAIL_QUEUE ?? missingQueue;
}
