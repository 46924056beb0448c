/**
 * Push port (issue 32, docs/features/pwa.md): sends one Web Push message to one browser subscription.
 * Encryption is RFC 8291 (aes128gcm) and the sender is identified by VAPID (RFC 8292), both from
 * @block65/webcrypto-web-push on Web Crypto (runs in workerd). Outbound HTTP goes through the injected
 * `fetch` (production: the global one; tests: a fake push service), so no test reaches the network.
 * Issue 42.3: only the browsers' push services are fetched (worker/lib/push-endpoint.ts, checked again here
 * before any fetch), and every fetch has a timeout, so one endpoint that never answers costs at most that.
 */
import { buildPushPayload } from '@block65/webcrypto-web-push';
import { isPushServiceEndpoint } from '../lib/push-endpoint';

export interface PushTarget {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/** What the service worker shows (web/pwa/sw.ts `push`): short, Swedish, no personal data. */
export interface PushNotice {
  title: string;
  body: string;
  /** Path on our site the tap opens (the venue page at that quiz). */
  url: string;
  /** The follow this reminder belongs to ("Sluta påminna" stops it). */
  followId: string;
  /** Collapses repeats of the same reminder on the device. */
  tag: string;
}

/**
 * `sent`: the push service accepted it; `gone`: 404/410, the subscription no longer exists (remove it);
 * `refused`: the endpoint is not on a browser's push service (stored before issue 42.3): never fetched (remove it).
 */
export type PushResult = 'sent' | 'gone' | 'refused';

export interface PushPort {
  /** The VAPID public key browsers subscribe with (applicationServerKey). */
  readonly publicKey: string;
  /** Throws on any other answer and on a timeout (the queue retries the message). */
  send(target: PushTarget, notice: PushNotice, opts?: { ttlSeconds?: number }): Promise<PushResult>;
}

export interface PushPortOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  fetch?: typeof fetch;
  /** How long one push may take (default PUSH_TIMEOUT_MS). */
  timeoutMs?: number;
  /** The signal that ends one push (default `AbortSignal.timeout(timeoutMs)`); tests end it themselves. */
  timeoutSignal?: (timeoutMs: number) => AbortSignal;
}

/** A reminder is useless the next day: the push service may hold it at most this long. */
export const PUSH_TTL_S = 12 * 3600;

/** Most time one push may take, answer included; a push service answers in well under a second. */
export const PUSH_TIMEOUT_MS = 5000;

/**
 * `promise`, or a rejection once `signal` aborts: the fetch gets the signal too, but a fetch that ignores it
 * (or a response that never settles) must not hold the caller.
 */
function abortable<T>(promise: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(reason());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

export function createPushPort(opts: PushPortOptions): PushPort {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  const timeoutMs = opts.timeoutMs ?? PUSH_TIMEOUT_MS;
  const timeoutSignal = opts.timeoutSignal ?? ((ms: number) => AbortSignal.timeout(ms));
  return {
    publicKey: opts.vapid.publicKey,
    async send(target, notice, sendOpts = {}) {
      // Defense in depth: the contract refuses such endpoints, but rows stored before it may hold them.
      if (!isPushServiceEndpoint(target.endpoint)) return 'refused';
      const subscription = { endpoint: target.endpoint, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } };
      const req = await buildPushPayload(
        { data: { ...notice }, options: { ttl: sendOpts.ttlSeconds ?? PUSH_TTL_S, urgency: 'normal' } },
        subscription,
        opts.vapid,
      );
      // The endpoint is a capability URL: log only the push service's host.
      const host = new URL(target.endpoint).host;
      const signal = timeoutSignal(timeoutMs);
      const timedOut = () => new Error(`push service ${host} did not answer within ${timeoutMs} ms`);
      const status = await abortable(
        doFetch(target.endpoint, { method: 'POST', headers: req.headers, body: req.body, signal }).then(async (res) => {
          await res.body?.cancel();
          return res.status;
        }),
        signal,
        timedOut,
      ).catch((err: unknown) => {
        throw signal.aborted ? timedOut() : err;
      });
      if (status === 404 || status === 410) return 'gone';
      if (status >= 200 && status < 300) return 'sent';
      throw new Error(`push service ${host} answered ${status}`);
    },
  };
}
