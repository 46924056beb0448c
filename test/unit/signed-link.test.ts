/**
 * Signed links without LINK_SIGNING_SECRET: never an empty HMAC key (anyone could forge a link to cancel
 * a holiday date or bring back a hidden business); every sign and verify answers 503 instead. And the
 * rotation of LINK_SIGNING_SECRET (docs/runbook.md): LINK_SIGNING_SECRET_PREVIOUS verifies, never signs.
 */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../worker/lib/errors';
import { parseConfig } from '../../worker/env';
import { linkKeys, requireLink, signLink, verifyLink } from '../../worker/lib/signed-link';

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
    expect((await verifyLink({ current: 'hemlig' }, t, 'holiday-decision', NOW)).ok).toBe(true);
    expect(await verifyLink({ current: 'annan' }, t, 'holiday-decision', NOW)).toEqual({ ok: false, reason: 'signature' });
    expect(await verifyLink({ current: 'hemlig' }, t, 'freshness-confirm', NOW)).toEqual({ ok: false, reason: 'purpose' });
    expect(await verifyLink({ current: 'hemlig' }, t, 'holiday-decision', new Date(NOW.getTime() + 3601_000))).toEqual({ ok: false, reason: 'expired' });
  });

  for (const secret of [null, undefined, '']) {
    it(`no secret (${JSON.stringify(secret)}): signing and checking answer 503, never a key`, async () => {
      expect((await refusal(signLink(secret, 'freshness-confirm', 'v1', 3600, NOW))).status).toBe(503);
      const forged = await signLink('x', 'freshness-confirm', 'v1', 3600, NOW);
      expect((await refusal(verifyLink({ current: secret }, forged, 'freshness-confirm', NOW))).status).toBe(503);
      expect((await refusal(requireLink({ current: secret }, forged, 'freshness-confirm', NOW))).status).toBe(503);
    });
  }

  describe('rotating LINK_SIGNING_SECRET', () => {
    /** The longest a mailed owner link lives (FRESHNESS_LINK_TTL_S): the previous secret is kept this long. */
    const LIFETIME_S = 45 * 86_400;
    const OLD = 'gammal-hemlighet';
    const NEW = 'ny-hemlighet';
    const rotated = parseConfig({ APP_ENV: 'production', LINK_SIGNING_SECRET: NEW, LINK_SIGNING_SECRET_PREVIOUS: OLD } as unknown as Env);

    it('a link signed with the old secret still verifies after the rotation, until it expires (45 days)', async () => {
      const mailed = await signLink(OLD, 'freshness-confirm', 'v1', LIFETIME_S, NOW);
      const lastDay = new Date(NOW.getTime() + (LIFETIME_S - 60) * 1000);
      expect((await verifyLink(linkKeys(rotated), mailed, 'freshness-confirm', lastDay)).ok).toBe(true);
      expect((await requireLink(linkKeys(rotated), mailed, 'freshness-confirm', NOW)).s).toBe('v1');
      expect(await verifyLink(linkKeys(rotated), mailed, 'freshness-confirm', new Date(NOW.getTime() + LIFETIME_S * 1000))).toEqual({
        ok: false,
        reason: 'expired',
      });
      // Before the rotation config (no previous secret) the same link is refused: the previous secret is what lets it through.
      const withoutPrevious = parseConfig({ APP_ENV: 'production', LINK_SIGNING_SECRET: NEW } as unknown as Env);
      expect(await verifyLink(linkKeys(withoutPrevious), mailed, 'freshness-confirm', NOW)).toEqual({ ok: false, reason: 'signature' });
    });

    it('a link signed with an unknown secret does not verify; new links verify with the new secret alone', async () => {
      const forged = await signLink('okänd', 'freshness-confirm', 'v1', LIFETIME_S, NOW);
      expect(await verifyLink(linkKeys(rotated), forged, 'freshness-confirm', NOW)).toEqual({ ok: false, reason: 'signature' });
      expect((await refusal(requireLink(linkKeys(rotated), forged, 'freshness-confirm', NOW))).status).toBe(400);
      const fresh = await signLink(rotated.linkSigningSecret, 'freshness-confirm', 'v2', LIFETIME_S, NOW);
      expect((await verifyLink({ current: NEW }, fresh, 'freshness-confirm', NOW)).ok).toBe(true);
      expect(await verifyLink({ current: OLD }, fresh, 'freshness-confirm', NOW)).toEqual({ ok: false, reason: 'signature' });
    });

    it('the previous secret alone is no key: without a current secret every link is refused with 503', async () => {
      const mailed = await signLink(OLD, 'freshness-confirm', 'v1', LIFETIME_S, NOW);
      expect((await refusal(verifyLink({ current: null, previous: OLD }, mailed, 'freshness-confirm', NOW))).status).toBe(503);
    });
  });
});
