/**
 * The one signed-link helper (ARCHITECTURE.md "Signed links"): links in mail that act without a session
 * (confirm a follow, unsubscribe, "Mina bevakningar", later "Ja, vi kör") carry a token
 *
 *   base64url(JSON { p: purpose, s: subject, e: expiry (unix s), n: nonce }) "." base64url(HMAC-SHA256)
 *
 * signed with LINK_SIGNING_SECRET. Verification checks the MAC in constant time (crypto.subtle.verify)
 * against the current secret and, during a rotation, LINK_SIGNING_SECRET_PREVIOUS (verify only: links
 * are always signed with the current one; docs/runbook.md "Rotate LINK_SIGNING_SECRET"),
 * then the purpose (a token for one action never works for another) and the expiry. Actions that are
 * not idempotent also spend the token: `spendStatement` inserts the SHA-256 of the token into
 * `used_links` (primary key), meant for the same db.batch as the action, so a second use fails the
 * batch as a whole and changes nothing.
 */
import { sql } from 'drizzle-orm';
import { decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding';
import type { Db } from '../db/client';
import { usedLinks } from '../db/schema';
import { invalidInput, unavailable } from './errors';
import { hashToken } from './tokens';
import { uniqueViolation } from './unique-race';

export type LinkPurpose =
  | 'follow-confirm'
  | 'unsubscribe'
  | 'unsubscribe-all'
  | 'manage'
  | 'holiday-decision'
  | 'freshness-confirm'
  | 'login-device'
  | 'tip-stop'
  | 'tip-page'
  | 'rsvp-confirm'
  | 'rsvp-cancel'
  | 'quizmaster-invite'
  | 'quizmaster-invite-stop'
  | 'team-hide';

export interface LinkPayload {
  p: LinkPurpose;
  /** What the link acts on, e.g. a follow id or 'a:{addressId}'. */
  s: string;
  /** Expiry, unix seconds. */
  e: number;
  /** Random nonce: two links for the same subject differ (single-use is per link). */
  n: string;
}

/**
 * The keys a link is verified with: the current secret and, while a rotation is under way, the previous
 * one. Every verification takes this pair (built by `linkKeys(config)`), so no caller can forget the
 * previous secret; signing takes only the current secret, so the previous one never signs.
 */
export interface LinkKeys {
  current: string | null | undefined;
  previous?: string | null | undefined;
}

export function linkKeys(config: { linkSigningSecret: string | null; linkSigningSecretPrevious: string | null }): LinkKeys {
  return { current: config.linkSigningSecret, previous: config.linkSigningSecretPrevious };
}

export type VerifyResult = { ok: true; payload: LinkPayload; token: string } | { ok: false; reason: 'malformed' | 'signature' | 'purpose' | 'expired' };

const enc = new TextEncoder();
/** Imported keys by secret: values, never promises another request would await (worker/lib/version-memo.ts). */
const keyCache = new Map<string, CryptoKey>();

/**
 * The HMAC key of LINK_SIGNING_SECRET. No secret (or an empty one) means no links at all: signing and
 * verifying answer 503 instead of using an empty key, with which anyone could forge a link.
 */
async function hmacKey(secret: string | null | undefined): Promise<CryptoKey> {
  if (!secret) throw unavailable('Länkar i e-post fungerar inte just nu (LINK_SIGNING_SECRET saknas).');
  const cached = keyCache.get(secret);
  if (cached) return cached;
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
  keyCache.set(secret, key);
  return key;
}

function randomNonce(): string {
  return encodeBase64urlNoPadding(crypto.getRandomValues(new Uint8Array(12)));
}

/**
 * The longest lifetime of a signed link (the owner links /bekrafta-quiz and /helgdag): a rotated-out signing secret
 * may go this many days after the rotation (docs/runbook.md).
 */
export const LONGEST_LINK_DAYS = 45;

/** A token for `purpose` on `subject`, valid for `ttlSeconds` from `now`. */
export async function signLink(secret: string | null | undefined, purpose: LinkPurpose, subject: string, ttlSeconds: number, now: Date): Promise<string> {
  const payload: LinkPayload = { p: purpose, s: subject, e: Math.floor(now.getTime() / 1000) + ttlSeconds, n: randomNonce() };
  const body = encodeBase64urlNoPadding(enc.encode(JSON.stringify(payload)));
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', await hmacKey(secret), enc.encode(body)));
  return `${body}.${encodeBase64urlNoPadding(mac)}`;
}

/** Checks signature (constant time), purpose and expiry. Throws only when no current secret is configured (503). */
export async function verifyLink(keys: LinkKeys, token: string | undefined | null, purpose: LinkPurpose, now: Date): Promise<VerifyResult> {
  const currentKey = await hmacKey(keys.current);
  if (!token || token.length > 1024) return { ok: false, reason: 'malformed' };
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return { ok: false, reason: 'malformed' };
  const body = token.slice(0, dot);
  let mac: Uint8Array<ArrayBuffer>;
  try {
    mac = new Uint8Array(decodeBase64urlIgnorePadding(token.slice(dot + 1)));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  let valid = await crypto.subtle.verify('HMAC', currentKey, mac, enc.encode(body));
  // A link mailed before the last rotation: signed with the previous secret (accepted, never used to sign).
  if (!valid && keys.previous && keys.previous !== keys.current)
    valid = await crypto.subtle.verify('HMAC', await hmacKey(keys.previous), mac, enc.encode(body));
  if (!valid) return { ok: false, reason: 'signature' };
  let payload: LinkPayload;
  try {
    payload = JSON.parse(new TextDecoder().decode(decodeBase64urlIgnorePadding(body))) as LinkPayload;
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (typeof payload?.s !== 'string' || typeof payload.e !== 'number') return { ok: false, reason: 'malformed' };
  if (payload.p !== purpose) return { ok: false, reason: 'purpose' };
  if (payload.e * 1000 <= now.getTime()) return { ok: false, reason: 'expired' };
  return { ok: true, payload, token };
}

/** The Swedish text shown for a refused link. */
export function linkRefusal(reason: Exclude<VerifyResult, { ok: true }>['reason'] | 'used'): string {
  if (reason === 'expired') return 'Länken har gått ut. Be om en ny länk.';
  if (reason === 'used') return 'Länken har redan använts.';
  return 'Länken är ogiltig.';
}

/** Verifies or throws a 400 with the Swedish refusal. */
export async function requireLink(keys: LinkKeys, token: string | undefined | null, purpose: LinkPurpose, now: Date): Promise<LinkPayload & { token: string }> {
  const r = await verifyLink(keys, token, purpose, now);
  if (!r.ok) throw invalidInput(linkRefusal(r.reason), [{ path: 't', message: linkRefusal(r.reason) }]);
  return { ...r.payload, token: r.token };
}

/**
 * The statement that spends a single-use token: put it in the same db.batch as the action. A reused
 * token violates the primary key, so the batch fails and nothing of the action happens
 * (`isSpentError` recognises that failure).
 */
export function spendStatement(db: Db, payload: LinkPayload & { token: string }) {
  return db.insert(usedLinks).values({
    tokenHash: hashToken(payload.token),
    purpose: payload.p,
    expiresAt: new Date(payload.e * 1000).toISOString(),
  });
}

export function isSpentError(err: unknown): boolean {
  return uniqueViolation(err) === 'used_links.token_hash';
}

/** Forgets spent tokens whose links have expired anyway (nothing could reuse them). */
export async function deleteExpiredUsedLinks(db: Db, now: Date): Promise<void> {
  await db.run(sql`DELETE FROM used_links WHERE expires_at < ${now.toISOString()}`);
}
