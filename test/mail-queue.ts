/**
 * Mail-queue fakes for the outbox deliveries of issue 27.3 (Mailer.outbox → enqueueOutbox → the consumer's
 * 'outbox' message), and a provider fetch that can be told to refuse.
 */
import type { OutboxMessage, OutboxQueue } from '../worker/ports/mailer';

/** Captures what is enqueued; `failing` makes every sendBatch throw (the queue is down). */
export function capturingOutboxQueue(opts: { failing?: boolean } = {}): OutboxQueue & { bodies: OutboxMessage[] } {
  const bodies: OutboxMessage[] = [];
  return {
    bodies,
    async sendBatch(messages) {
      if (opts.failing) throw new Error('queue unavailable');
      for (const m of messages) bodies.push(m.body);
    },
  };
}

/** A mail provider (Resend's HTTP API shape) that accepts, or answers 503 while `down` is true. */
export function fakeProvider() {
  const calls: Array<{ to: string[]; subject: string; idempotencyKey: string | null }> = [];
  const state = { down: false };
  const fetcher = (async (_url: string | URL | Request, init?: RequestInit) => {
    const body = JSON.parse(String(init?.body)) as { to: string[]; subject: string };
    const headers = new Headers(init?.headers);
    if (state.down) return new Response('unavailable', { status: 503 });
    calls.push({ to: body.to, subject: body.subject, idempotencyKey: headers.get('idempotency-key') });
    return new Response('{"id":"x"}', { status: 200 });
  }) as typeof fetch;
  return { calls, state, fetcher };
}

/** Queue messages as the consumer gets them (acked / retried recorded). */
export function queueMessages(bodies: readonly unknown[], attempts = 1) {
  return bodies.map((body, i) => ({
    id: `m${i}-${Math.random().toString(36).slice(2)}`,
    body,
    attempts,
    acked: false,
    retried: null as number | null,
    ack() {
      this.acked = true;
    },
    retry(o?: { delaySeconds?: number }) {
      this.retried = o?.delaySeconds ?? 0;
    },
  }));
}
