/**
 * A fake Web Push service for tests (issue 32): it plays the browser's side of RFC 8291 (decrypts the
 * aes128gcm body with the subscription's private key) and the push service's side of RFC 8292 (checks the
 * VAPID JWT). Web Crypto only, so it runs in Node (unit) and in workerd (integration).
 */

const enc = new TextEncoder();
export const b64u = {
  decode(s: string): Uint8Array<ArrayBuffer> {
    const bin = atob(
      s
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(s.length / 4) * 4, '='),
    );
    return Uint8Array.from(bin, (c) => c.charCodeAt(0));
  },
  encode(bytes: ArrayBuffer | Uint8Array): string {
    const u = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
    return btoa(String.fromCharCode(...u))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  },
};
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let i = 0;
  for (const p of parts) {
    out.set(p, i);
    i += p.length;
  }
  return out;
};

async function hkdf(salt: Uint8Array, ikm: Uint8Array | ArrayBuffer, info: Uint8Array, bytes: number): Promise<Uint8Array<ArrayBuffer>> {
  const key = await crypto.subtle.importKey('raw', ikm as BufferSource, 'HKDF', false, ['deriveBits']);
  return new Uint8Array(
    await crypto.subtle.deriveBits({ name: 'HKDF', hash: 'SHA-256', salt: salt as BufferSource, info: info as BufferSource }, key, bytes * 8),
  );
}

/** A browser's push subscription: its keys (private part kept here) and the JSON the browser would hand over. */
export interface TestSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  privateKey: CryptoKey;
}

export async function newSubscription(endpoint: string): Promise<TestSubscription> {
  const pair = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
  const raw = await crypto.subtle.exportKey('raw', pair.publicKey);
  return { endpoint, p256dh: b64u.encode(raw as ArrayBuffer), auth: b64u.encode(crypto.getRandomValues(new Uint8Array(16))), privateKey: pair.privateKey };
}

/** The user agent's private key from its `d` and raw public key (RFC 8291 appendix A gives both). */
export async function importUaPrivateKey(d: string, publicKey: string): Promise<CryptoKey> {
  const pub = b64u.decode(publicKey);
  return crypto.subtle.importKey(
    'jwk',
    { kty: 'EC', crv: 'P-256', d, x: b64u.encode(pub.slice(1, 33)), y: b64u.encode(pub.slice(33, 65)) },
    { name: 'ECDH', namedCurve: 'P-256' },
    false,
    ['deriveBits'],
  );
}

/** RFC 8291 §3–4 as the user agent: the plaintext of one aes128gcm record (RFC 8188), padding removed. */
export async function decryptAes128gcm(body: Uint8Array<ArrayBuffer>, ua: { privateKey: CryptoKey; p256dh: string; auth: string }): Promise<string> {
  const salt = body.slice(0, 16);
  const rs = new DataView(body.buffer, body.byteOffset + 16, 4).getUint32(0);
  const idlen = body[20]!;
  const asPublic = body.slice(21, 21 + idlen);
  const record = body.slice(21 + idlen);
  if (idlen !== 65 || record.length > rs) throw new Error(`bad aes128gcm header (idlen ${idlen}, rs ${rs}, record ${record.length})`);
  const asKey = await crypto.subtle.importKey('raw', asPublic, { name: 'ECDH', namedCurve: 'P-256' }, false, []);
  const ecdh = await crypto.subtle.deriveBits({ name: 'ECDH', public: asKey }, ua.privateKey, 256);
  const uaPublic = b64u.decode(ua.p256dh);
  const ikm = await hkdf(b64u.decode(ua.auth), ecdh, concat(enc.encode('WebPush: info\0'), uaPublic, asPublic), 32);
  const cek = await hkdf(salt, ikm, enc.encode('Content-Encoding: aes128gcm\0'), 16);
  const nonce = await hkdf(salt, ikm, enc.encode('Content-Encoding: nonce\0'), 12);
  const key = await crypto.subtle.importKey('raw', cek, 'AES-GCM', false, ['decrypt']);
  const padded = new Uint8Array(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: nonce }, key, record));
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end--;
  if (padded[end] !== 0x02) throw new Error('last record without the 0x02 delimiter');
  return new TextDecoder().decode(padded.slice(0, end));
}

/** RFC 8292 §2–3: `Authorization: vapid t=<ES256 JWT>, k=<public key>`; checks the signature with k. */
export async function verifyVapid(authorization: string | null): Promise<{ k: string; claims: { aud: string; exp: number; sub: string } }> {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`no VAPID authorization: ${authorization}`);
  const [, jwt, k] = m as unknown as [string, string, string];
  const [h, p, s] = jwt.split('.') as [string, string, string];
  const header = JSON.parse(new TextDecoder().decode(b64u.decode(h))) as { alg: string };
  if (header.alg !== 'ES256') throw new Error(`JWT alg ${header.alg}`);
  const key = await crypto.subtle.importKey('raw', b64u.decode(k), { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  const ok = await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, b64u.decode(s), enc.encode(`${h}.${p}`));
  if (!ok) throw new Error('VAPID JWT signature does not verify');
  return { k, claims: JSON.parse(new TextDecoder().decode(b64u.decode(p))) as { aud: string; exp: number; sub: string } };
}

export interface PushDelivery {
  endpoint: string;
  headers: Record<string, string>;
  vapid: Awaited<ReturnType<typeof verifyVapid>>;
  payload: unknown;
}

/**
 * A push service answering for `subscriptions` (by endpoint): each accepted push is decrypted and recorded;
 * `status(endpoint)` picks the answer (201 by default; 410 for a gone subscription). Unknown endpoints: 404.
 */
export function fakePushService(subscriptions: TestSubscription[], status: (endpoint: string) => number = () => 201) {
  const deliveries: PushDelivery[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const req = new Request(input, init);
    const sub = subscriptions.find((s) => s.endpoint === req.url);
    if (!sub) return new Response(null, { status: 404 });
    if (req.headers.get('content-encoding') !== 'aes128gcm') throw new Error(`content-encoding ${req.headers.get('content-encoding')}`);
    const vapid = await verifyVapid(req.headers.get('authorization'));
    const answer = status(req.url);
    if (answer >= 200 && answer < 300) {
      const payload = JSON.parse(await decryptAes128gcm(new Uint8Array(await req.arrayBuffer()), sub)) as unknown;
      deliveries.push({ endpoint: req.url, headers: Object.fromEntries(req.headers), vapid, payload });
    }
    return new Response(null, { status: answer });
  };
  return { fetch: fetch as typeof globalThis.fetch, deliveries };
}
