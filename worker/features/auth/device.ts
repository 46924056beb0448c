/**
 * Device cookies (issue 26.5; OWASP "Slow Down Online Guessing Attacks with Device Cookies"). A client
 * that signed in to an account gets a token signed with the one signed-link helper (purpose
 * 'login-device'): its subject is a keyed hash of the account's e-mail (never the address itself), its
 * nonce names the device. Sign-in attempts that carry a valid token for the account tried are limited
 * per device (login-device:{nonce}) instead of in the untrusted pool, so strangers guessing from rotating
 * addresses cannot keep the owner out. No secret (production without LINK_SIGNING_SECRET): no device
 * tokens, every client is untrusted.
 */
import { signLink, verifyLink } from '../../lib/signed-link';
import { hashToken } from '../../lib/tokens';

export const DEVICE_COOKIE = 'qk_device';
/** How long a device token stays valid after the sign-in that issued it. */
export const DEVICE_TTL_S = 180 * 24 * 3600;
/** Accounts remembered per browser (most recent sign-ins first). */
export const DEVICE_TOKENS_MAX = 5;
const SEP = '~';

/** The account as a device token names it: a keyed hash of the normalised e-mail. */
export function accountHash(secret: string, email: string): string {
  return hashToken(`login-device\u0000${secret}\u0000${email.trim().toLowerCase()}`).slice(0, 32);
}

/** The tokens in a cookie value (at most DEVICE_TOKENS_MAX, each at most 512 characters). */
export function deviceTokensOf(cookie: string | undefined): string[] {
  if (!cookie) return [];
  return cookie
    .split(SEP)
    .filter((t) => t.length > 0 && t.length <= 512)
    .slice(0, DEVICE_TOKENS_MAX);
}

/** The device nonce of a valid token for `email` among `tokens`, or null (untrusted client). */
export async function trustedDevice(secret: string | null, tokens: string[], email: string, now: Date): Promise<string | null> {
  if (!secret || tokens.length === 0) return null;
  const account = accountHash(secret, email);
  for (const token of tokens) {
    const r = await verifyLink({ current: secret }, token, 'login-device', now); // current secret only: a rotation re-issues device cookies at the next sign-in
    if (r.ok && r.payload.s === account && typeof r.payload.n === 'string') return r.payload.n;
  }
  return null;
}

/**
 * The new cookie value after a sign-in to `email`: a fresh token for it first, then the tokens of other
 * accounts that are still valid. Null without a secret.
 */
export async function issueDeviceCookie(secret: string | null, previous: string[], email: string, now: Date): Promise<string | null> {
  if (!secret) return null;
  const account = accountHash(secret, email);
  const fresh = await signLink(secret, 'login-device', account, DEVICE_TTL_S, now);
  const keep: string[] = [];
  for (const token of previous) {
    const r = await verifyLink({ current: secret }, token, 'login-device', now); // current secret only: a rotation re-issues device cookies at the next sign-in
    if (r.ok && r.payload.s !== account) keep.push(token);
  }
  return [fresh, ...keep].slice(0, DEVICE_TOKENS_MAX).join(SEP);
}
