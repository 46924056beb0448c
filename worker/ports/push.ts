/**
 * Push port (issue 32, docs/features/pwa.md): sends one Web Push message to one browser subscription.
 * Encryption is RFC 8291 (aes128gcm) and the sender is identified by VAPID (RFC 8292), both from
 * @block65/webcrypto-web-push on Web Crypto (runs in workerd). Outbound HTTP goes through the injected
 * `fetch` (production: the global one; tests: a fake push service), so no test reaches the network.
 */
import { buildPushPayload } from '@block65/webcrypto-web-push';

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

/** `sent`: the push service accepted it; `gone`: 404/410, the subscription no longer exists (remove it). */
export type PushResult = 'sent' | 'gone';

export interface PushPort {
  /** The VAPID public key browsers subscribe with (applicationServerKey). */
  readonly publicKey: string;
  /** Throws on any other answer (the queue retries the message). */
  send(target: PushTarget, notice: PushNotice, opts?: { ttlSeconds?: number }): Promise<PushResult>;
}

export interface PushPortOptions {
  vapid: { publicKey: string; privateKey: string; subject: string };
  fetch?: typeof fetch;
}

/** A reminder is useless the next day: the push service may hold it at most this long. */
export const PUSH_TTL_S = 12 * 3600;

export function createPushPort(opts: PushPortOptions): PushPort {
  const doFetch = opts.fetch ?? ((input, init) => fetch(input, init));
  return {
    publicKey: opts.vapid.publicKey,
    async send(target, notice, sendOpts = {}) {
      const subscription = { endpoint: target.endpoint, expirationTime: null, keys: { p256dh: target.p256dh, auth: target.auth } };
      const req = await buildPushPayload(
        { data: { ...notice }, options: { ttl: sendOpts.ttlSeconds ?? PUSH_TTL_S, urgency: 'normal' } },
        subscription,
        opts.vapid,
      );
      const res = await doFetch(target.endpoint, { method: 'POST', headers: req.headers, body: req.body });
      await res.body?.cancel();
      if (res.status === 404 || res.status === 410) return 'gone';
      if (res.status >= 200 && res.status < 300) return 'sent';
      // The endpoint is a capability URL: log only the push service's host.
      throw new Error(`push service ${new URL(target.endpoint).host} answered ${res.status}`);
    },
  };
}
