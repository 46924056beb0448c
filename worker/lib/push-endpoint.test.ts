/** Issue 42.3: only the browsers' push services, https on the default port; hostile look-alikes refused. */
import { describe, expect, it } from 'vitest';
import { PushSubscriptionSchema } from '../features/follows/contract';
import { isPushServiceEndpoint } from './push-endpoint';

const ALLOWED = [
  'https://fcm.googleapis.com/fcm/send/abc:def',
  'https://fcm.googleapis.com:443/fcm/send/abc',
  'https://FCM.GoogleAPIs.com/fcm/send/abc',
  'https://android.googleapis.com/gcm/send/abc',
  'https://updates.push.services.mozilla.com/wpush/v2/gAAAA',
  'https://eu.push.services.mozilla.com/wpush/v2/gAAAA',
  'https://wns2-par02p.notify.windows.com/w/?token=BQYAAAD',
  'https://web.push.apple.com/QGz3L7Ew',
];

const REFUSED = [
  'http://fcm.googleapis.com/fcm/send/abc', // not https
  'https://fcm.googleapis.com:8443/fcm/send/abc', // a port
  'https://fcm.googleapis.com.evil.example/fcm/send/abc', // suffix look-alike
  'https://evilfcm.googleapis.com.example/x',
  'https://notfcm.googleapis.com/x', // not a subdomain, only a suffix of letters
  'https://googleapis.com/x', // the parent domain
  'https://fcm.googleapis.com./fcm/send/abc', // trailing dot
  'https://fcm.googleapis.com@evil.example/x', // credentials trick: the host is evil.example
  'https://user:pw@fcm.googleapis.com/x', // credentials
  'https://push.example.test/x',
  'https://127.0.0.1/x',
  'https://[::1]/x',
  'https://10.0.0.1:443/x',
  'https://2130706433/x', // 127.0.0.1 as a number
  'https://localhost/x',
  'https://apple.com/x',
  'https://push.apple.com.evil.example/x',
  'ftp://fcm.googleapis.com/x',
  'not a url',
  '',
];

describe('push service endpoints', () => {
  it.each(ALLOWED)('allows %s', (url) => {
    expect(isPushServiceEndpoint(url)).toBe(true);
  });
  it.each(REFUSED)('refuses %s', (url) => {
    expect(isPushServiceEndpoint(url)).toBe(false);
  });

  it("the subscription's contract refuses them with a Swedish message naming the field", () => {
    const keys = { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' };
    expect(PushSubscriptionSchema.safeParse({ endpoint: ALLOWED[0], keys }).success).toBe(true);
    for (const endpoint of REFUSED.filter((u) => u.startsWith('https://'))) {
      const r = PushSubscriptionSchema.safeParse({ endpoint, keys });
      expect(r.success, endpoint).toBe(false);
      expect(r.error?.issues[0]?.message, endpoint).toMatch(/^Prenumerationens adress måste (höra till en webbläsares push-tjänst|vara en https:\/\/-adress)/);
    }
    const http = PushSubscriptionSchema.safeParse({ endpoint: 'http://fcm.googleapis.com/x', keys });
    expect(http.error?.issues.map((i) => i.message)).toEqual(['Prenumerationens adress måste vara en https://-adress utan blanksteg']);
  });
});
