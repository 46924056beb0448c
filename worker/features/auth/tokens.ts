/** Single-use mailed links: issued, looked up by hash, redeemed once, cleaned up nightly. */
import type { Db } from '../../db/client';
import { emailTokens } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId, randomToken } from '../../lib/ids';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import { consumeEmailToken, deleteExpiredEmailTokens, findEmailToken } from './queries';

/** Stores the hash of a new single-use token for `userId` and returns the token to mail. */
export async function issueEmailToken(
  db: Db,
  userId: string,
  purpose: 'verify_email' | 'reset_password' | 'change_email',
  ttlMs: number,
  now: Date,
  payload?: Record<string, unknown>,
): Promise<string> {
  const token = randomToken(20);
  await db.insert(emailTokens).values({
    id: newId(),
    userId,
    purpose,
    tokenHash: hashToken(token),
    expiresAt: now.getTime() + ttlMs,
    payload: payload ? JSON.stringify(payload) : null,
  });
  return token;
}

/** A single-use mailed link's token for another feature (accounts' e-mail change); returns the token to mail. */
export function issueMailedToken(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { userId: string; purpose: 'verify_email' | 'reset_password' | 'change_email'; ttlMs: number; payload?: Record<string, unknown> },
): Promise<string> {
  return issueEmailToken(deps.db, input.userId, input.purpose, input.ttlMs, deps.clock.now(), input.payload);
}

export type TokenFailure = 'expired' | 'invalid';

export function tokenError(kind: TokenFailure, expiredText: string): AppError {
  return kind === 'expired'
    ? new AppError(400, 'invalid_input', expiredText, undefined, { reason: 'expired' })
    : new AppError(400, 'invalid_input', 'Länken är ogiltig eller har redan använts.', undefined, { reason: 'invalid' });
}

/** Looks a mailed token up by its hash (constant-time at the database's unique index; the hash is compared, never the token). */
export async function loadToken(db: Db, token: string, purpose: string, nowMs: number, expiredText: string) {
  const row = await findEmailToken(db, hashToken(token));
  if (!row || row.purpose !== purpose || row.usedAt !== null) throw tokenError('invalid', expiredText);
  if (row.expiresAt <= nowMs) throw tokenError('expired', expiredText);
  return row;
}

/**
 * A usable mailed link of `purpose` (for features that mail their own single-use links, e.g. the
 * accounts feature's e-mail change): 400 'invalid' for an unknown, used or other-purpose token,
 * 400 `expiredText` with reason 'expired' after its expiry. Does not consume it (see redeemEmailToken).
 */
export async function readEmailToken(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { token: string; purpose: 'verify_email' | 'reset_password' | 'change_email'; expiredText: string },
) {
  return loadToken(deps.db, input.token, input.purpose, deps.clock.now().getTime(), input.expiredText);
}

/** Consumes a token read by readEmailToken; true only for the one call that won (single use). */
export async function redeemEmailToken(deps: Pick<Deps, 'db' | 'clock'>, input: { tokenId: string }): Promise<boolean> {
  return consumeEmailToken(deps.db, input.tokenId, deps.clock.now().getTime());
}

/** Nightly: removes expired e-mail tokens and those used more than a day ago; returns how many. */
export function cleanUpEmailTokens(deps: Pick<Deps, 'db' | 'clock'>): Promise<number> {
  return deleteExpiredEmailTokens(deps.db, deps.clock.now());
}
