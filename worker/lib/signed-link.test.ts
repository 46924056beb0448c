import { describe, expect, it } from 'vitest';
import { linkRefusal, signLink, verifyLink } from './signed-link';

const SECRET = 'test-secret';
const NOW = new Date('2026-03-29T06:00:00Z');

describe('signed links', () => {
  it('verifies a fresh link for its purpose and returns the subject', async () => {
    const t = await signLink(SECRET, 'unsubscribe', 'follow-1', 3600, NOW);
    const r = await verifyLink({ current: SECRET }, t, 'unsubscribe', NOW);
    expect(r.ok && r.payload.s).toBe('follow-1');
  });

  it('two links for the same subject differ (nonce)', async () => {
    const a = await signLink(SECRET, 'manage', 'a:1', 60, NOW);
    const b = await signLink(SECRET, 'manage', 'a:1', 60, NOW);
    expect(a).not.toBe(b);
  });

  it('refuses another purpose, another secret, an expired link and tampering', async () => {
    const t = await signLink(SECRET, 'follow-confirm', 'follow-1', 48 * 3600, NOW);
    expect(await verifyLink({ current: SECRET }, t, 'unsubscribe', NOW)).toEqual({ ok: false, reason: 'purpose' });
    expect(await verifyLink({ current: 'other' }, t, 'follow-confirm', NOW)).toEqual({ ok: false, reason: 'signature' });
    const later = new Date(NOW.getTime() + 48 * 3600 * 1000);
    expect(await verifyLink({ current: SECRET }, t, 'follow-confirm', later)).toEqual({ ok: false, reason: 'expired' });
    const justBefore = new Date(later.getTime() - 1000);
    expect((await verifyLink({ current: SECRET }, t, 'follow-confirm', justBefore)).ok).toBe(true);
    // Change the subject inside the payload: the MAC no longer matches.
    const [body, mac] = t.split('.');
    const payload = JSON.parse(Buffer.from(body!, 'base64url').toString());
    payload.s = 'follow-2';
    const forged = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    expect(await verifyLink({ current: SECRET }, forged, 'follow-confirm', NOW)).toEqual({ ok: false, reason: 'signature' });
    // Extend the expiry: same.
    payload.s = 'follow-1';
    payload.e += 3600 * 24 * 365;
    const extended = `${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${mac}`;
    expect(await verifyLink({ current: SECRET }, extended, 'follow-confirm', later)).toEqual({ ok: false, reason: 'signature' });
  });

  it('refuses malformed tokens without throwing', async () => {
    for (const bad of [undefined, null, '', 'abc', 'a.b.c', '.x', 'x.!!!', 'x'.repeat(2000)]) {
      const r = await verifyLink({ current: SECRET }, bad, 'manage', NOW);
      expect(r.ok).toBe(false);
    }
  });

  it('has Swedish refusals', () => {
    expect(linkRefusal('expired')).toMatch(/gått ut/);
    expect(linkRefusal('used')).toMatch(/redan använts/);
    expect(linkRefusal('signature')).toMatch(/ogiltig/);
  });
});
