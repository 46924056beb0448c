/**
 * Signed links without LINK_SIGNING_SECRET: never an empty HMAC key (anyone could forge a link to cancel
 * a holiday date or bring back a hidden business); every sign and verify answers 503 instead.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../worker/lib/errors';
import { requireLink, signLink, verifyLink } from '../../worker/lib/signed-link';

const NOW = new Date('2026-11-23T10:00:00Z');

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

describe('signed links', () => {
  it('round-trip with a secret; a link signed with another secret or for another purpose is refused', async () => {
    const t = await signLink('hemlig', 'holiday-decision', 'r1:2026-12-24:skip', 3600, NOW);
    expect((await verifyLink('hemlig', t, 'holiday-decision', NOW)).ok).toBe(true);
    expect(await verifyLink('annan', t, 'holiday-decision', NOW)).toEqual({ ok: false, reason: 'signature' });
    expect(await verifyLink('hemlig', t, 'freshness-confirm', NOW)).toEqual({ ok: false, reason: 'purpose' });
    expect(await verifyLink('hemlig', t, 'holiday-decision', new Date(NOW.getTime() + 3601_000))).toEqual({ ok: false, reason: 'expired' });
  });

  for (const secret of [null, undefined, '']) {
    it(`no secret (${JSON.stringify(secret)}): signing and checking answer 503, never a key`, async () => {
      expect((await refusal(signLink(secret, 'freshness-confirm', 'v1', 3600, NOW))).status).toBe(503);
      const forged = await signLink('x', 'freshness-confirm', 'v1', 3600, NOW);
      expect((await refusal(verifyLink(secret, forged, 'freshness-confirm', NOW))).status).toBe(503);
      expect((await refusal(requireLink(secret, forged, 'freshness-confirm', NOW))).status).toBe(503);
    });
  }
});
