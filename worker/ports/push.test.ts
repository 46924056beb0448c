/**
 * Web Push encryption and VAPID (issue 32): the library's aes128gcm output is checked byte for byte against
 * the worked example of RFC 8291 (appendix A), with the example's salt and application-server key pair in
 * place of the random ones; then a real message round-trips through the fake push service.
 */
import { encryptNotification } from '@block65/webcrypto-web-push';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { b64u, decryptAes128gcm, fakePushService, importUaPrivateKey, newSubscription } from '../../test/push-service';
import { DEV_VAPID } from '../env';
import { createPushPort } from './push';

/** RFC 8291 appendix A. */
const RFC = {
  plaintext: 'When I grow up, I want to be a watermelon',
  asPrivate: 'yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw',
  asPublic: 'BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8',
  uaPrivate: 'q1dXpw3UpT5VOmu_cf_v6ih07Aems3njxI-JWgLcM94',
  uaPublic: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4',
  auth: 'BTBZMqHH6r4Tts7J_aSIgg',
  salt: 'DGv6ra1nlYgDCS1FRnbzlw',
  message:
    'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
};

afterEach(() => vi.restoreAllMocks());

describe('Web Push encryption (RFC 8291)', () => {
  it('the library encrypts the RFC 8291 example to exactly the RFC ciphertext', async () => {
    const asPub = b64u.decode(RFC.asPublic);
    const asPair = {
      privateKey: await crypto.subtle.importKey(
        'jwk',
        { kty: 'EC', crv: 'P-256', d: RFC.asPrivate, x: b64u.encode(asPub.slice(1, 33)), y: b64u.encode(asPub.slice(33)) },
        { name: 'ECDH', namedCurve: 'P-256' },
        false,
        ['deriveBits'],
      ),
      publicKey: await crypto.subtle.importKey('raw', asPub, { name: 'ECDH', namedCurve: 'P-256' }, true, []),
    };
    vi.spyOn(crypto.subtle, 'generateKey').mockResolvedValueOnce(asPair as never);
    vi.spyOn(crypto, 'getRandomValues').mockImplementationOnce(((a: Uint8Array) => {
      a.set(b64u.decode(RFC.salt));
      return a;
    }) as never);
    const body = await encryptNotification(
      { endpoint: 'https://push.example/x', expirationTime: null, keys: { p256dh: RFC.uaPublic, auth: RFC.auth } },
      new TextEncoder().encode(RFC.plaintext),
      { pad: false },
    );
    expect(b64u.encode(body)).toBe(RFC.message);
  });

  it('the test decryptor (the fake push service) reads the RFC example back', async () => {
    const privateKey = await importUaPrivateKey(RFC.uaPrivate, RFC.uaPublic);
    expect(await decryptAes128gcm(b64u.decode(RFC.message) as Uint8Array<ArrayBuffer>, { privateKey, p256dh: RFC.uaPublic, auth: RFC.auth })).toBe(
      RFC.plaintext,
    );
  });

  it('the push port sends an aes128gcm body with a VAPID JWT for the endpoint origin; 404/410 mean gone', async () => {
    const sub = await newSubscription('https://fcm.googleapis.com/fcm/send/abc');
    const gone = await newSubscription('https://fcm.googleapis.com/fcm/send/gone');
    const service = fakePushService([sub, gone], (e) => (e.endsWith('/gone') ? 410 : 201));
    const port = createPushPort({ vapid: { ...DEV_VAPID, subject: 'mailto:support@quizkvall.se' }, fetch: service.fetch });
    const notice = { title: 'Ikväll: pubquiz', body: 'Puben kl. 19:00', url: '/quiz/stockholm/puben#quiz-1', followId: 'f1', tag: 'reminder:q1' };
    expect(await port.send(sub, notice)).toBe('sent');
    expect(await port.send(gone, notice)).toBe('gone');
    expect(service.deliveries).toHaveLength(1);
    const [d] = service.deliveries;
    expect(d!.payload).toEqual(notice);
    expect(d!.vapid.k).toBe(DEV_VAPID.publicKey);
    expect(d!.vapid.claims).toMatchObject({ aud: 'https://fcm.googleapis.com', sub: 'mailto:support@quizkvall.se' });
    expect(Number(d!.headers.ttl)).toBeGreaterThan(0);
    await expect(port.send({ ...sub, endpoint: 'https://fcm.googleapis.com/fcm/send/unknown' }, notice)).resolves.toBe('gone');
  });
});

describe('the push port cannot be held or pointed elsewhere (issue 42.3)', () => {
  const notice = { title: 'Ikväll', body: 'Puben', url: '/quiz/a/b#quiz-1', followId: 'f1', tag: 'reminder:q1' };
  const vapid = { ...DEV_VAPID, subject: 'mailto:support@quizkvall.se' };

  it('refuses an endpoint off the push services before any fetch', async () => {
    const fetch = vi.fn(async () => new Response(null, { status: 201 }));
    const port = createPushPort({ vapid, fetch });
    for (const endpoint of ['https://push.example.test/x', 'https://fcm.googleapis.com:8443/x', 'http://fcm.googleapis.com/x', 'https://127.0.0.1/x']) {
      const target = { ...(await newSubscription(endpoint)) };
      expect(await port.send(target, notice)).toBe('refused');
    }
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a push service that never answers fails that push after the timeout, whether or not the fetch honours the signal', async () => {
    const sub = await newSubscription('https://fcm.googleapis.com/fcm/send/hang');
    const signals: AbortSignal[] = [];
    const ignoring = createPushPort({
      vapid,
      timeoutMs: 50,
      fetch: (_input, init) => {
        signals.push(init!.signal!);
        return new Promise<Response>(() => {});
      },
    });
    await expect(ignoring.send(sub, notice)).rejects.toThrow('push service fcm.googleapis.com did not answer within 50 ms');
    expect(signals[0]!.aborted).toBe(true);

    const honouring = createPushPort({
      vapid,
      timeoutMs: 50,
      fetch: (_input, init) => new Promise<Response>((_, reject) => init!.signal!.addEventListener('abort', () => reject(init!.signal!.reason))),
    });
    await expect(honouring.send(sub, notice)).rejects.toThrow('did not answer within 50 ms');

    // A test ends the wait itself: the injected signal.
    const stop = new AbortController();
    const held = createPushPort({ vapid, timeoutSignal: () => stop.signal, fetch: () => new Promise<Response>(() => {}) });
    const pending = held.send(sub, notice);
    stop.abort();
    await expect(pending).rejects.toThrow('did not answer within 5000 ms');
  });
});
