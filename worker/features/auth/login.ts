/**
 * Login: e-mail and password with throttling and no account enumeration, the TOTP second
 * step, the trusted-device cookie and the session.
 */
import { eq } from 'drizzle-orm';
import { sessions } from '../../db/schema';
import { AppError, rateLimited, unauthorized } from '../../lib/errors';
import { DUMMY_PASSWORD_HASH, verifyPassword } from '../../lib/password';
import { claimAttempt, claimSpacedAttempt, forgiveAttempt, hitRateLimit, resetRateLimit, takeAttempt } from '../../lib/rate-limit';
import { createSession } from '../../lib/session';
import { verifyTotpAt } from '../../lib/totp';
import type { Deps } from '../../ports/deps';
import {
  LOGIN_ACCOUNT_FREE,
  LOGIN_ACCOUNT_MAX_DELAY_MS,
  LOGIN_CLIENT_LIMIT,
  LOGIN_DEVICE_LIMIT,
  LOGIN_PAIR_LIMIT,
  LOGIN_WINDOW_MS,
  TOTP_SESSION_LIMIT,
  TOTP_USER_LIMIT,
  type LoginInput,
} from './contract';
import { issueDeviceCookie, trustedDevice } from './device';
import { claimTotpStep, findUserByEmail, findUserById, verifiedTotpFactor } from './queries';
import { minutes } from './account';

export const INVALID_CREDENTIALS = 'Felaktig e-post eller lösenord. Försök igen.';
export const EMAIL_NOT_CONFIRMED = 'E-post inte bekräftad. Du måste bekräfta din e-postadress innan du kan logga in.';

export type LoginResult = { kind: 'signed_in'; userId: string } | { kind: 'mfa_required'; userId: string };

const WAIT_LOGIN = (ms: number) => rateLimited(`För många inloggningsförsök. Vänta ${minutes(ms)} minuter och försök igen.`, Math.ceil(ms / 1000));

/**
 * Checks e-mail + password. Every attempt is counted before the password is checked (issue 13.3). A
 * client with a valid device cookie for this account (issue 26.5) is limited on its own, per device
 * (LOGIN_DEVICE_LIMIT, then locked); every other client is in the untrusted pool: per client, per
 * account + client (locked after LOGIN_PAIR_LIMIT) and per account across clients (slowed, never locked,
 * issue 13.5); see the constants in contract.ts. An attempt refused by one limit is taken back from the
 * others and never counted, so the owner's refused tries cannot prolong their own lock.
 * The answer for an unknown e-mail and a wrong password is identical (and costs the same hashing time).
 * Only a correct password reveals that the address is unconfirmed.
 */
export async function login(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  input: LoginInput & { clientKey: string; deviceTokens?: string[] },
): Promise<LoginResult> {
  const { db } = deps;
  const now = deps.clock.now();
  const device = await trustedDevice(deps.config.linkSigningSecret, input.deviceTokens ?? [], input.email, now);
  const clientKey = `login-client:${input.clientKey}`;
  const pairKey = `login-pair:${input.email}|${input.clientKey}`;
  const accountKey = `login:${input.email}`;
  const deviceKey = `login-device:${device}`;
  if (device) {
    const d = await claimAttempt(db, deviceKey, LOGIN_DEVICE_LIMIT, LOGIN_WINDOW_MS, now);
    if (!d.allowed) throw WAIT_LOGIN(d.retryAfterMs);
  } else {
    const c = await claimAttempt(db, clientKey, LOGIN_CLIENT_LIMIT, LOGIN_WINDOW_MS, now);
    if (!c.allowed) throw WAIT_LOGIN(c.retryAfterMs);
    const p = await claimAttempt(db, pairKey, LOGIN_PAIR_LIMIT, LOGIN_WINDOW_MS, now);
    if (!p.allowed) {
      await forgiveAttempt(db, clientKey);
      throw WAIT_LOGIN(p.retryAfterMs);
    }
    const account = await claimSpacedAttempt(db, accountKey, {
      free: LOGIN_ACCOUNT_FREE,
      windowMs: LOGIN_WINDOW_MS,
      maxDelayMs: LOGIN_ACCOUNT_MAX_DELAY_MS,
      now,
    });
    if (!account.allowed) {
      await Promise.all([forgiveAttempt(db, clientKey), forgiveAttempt(db, pairKey)]);
      const s = Math.ceil(account.retryAfterMs / 1000);
      throw rateLimited(`Många inloggningsförsök på det här kontot just nu. Vänta ${s} sekunder och försök igen.`, s);
    }
  }
  const row = await findUserByEmail(db, input.email);
  const ok = await verifyPassword(input.password, row?.hash ?? DUMMY_PASSWORD_HASH);
  if (!row?.hash || !ok) {
    throw new AppError(401, 'unauthorized', INVALID_CREDENTIALS, undefined, { reason: 'invalid_credentials' });
  }
  if (!row.user.emailVerifiedAt) {
    throw new AppError(403, 'forbidden', EMAIL_NOT_CONFIRMED, undefined, { reason: 'email_not_confirmed' });
  }
  // A right password: this attempt does not count against the device, the client, the pair or the account.
  if (device) await resetRateLimit(db, deviceKey);
  else await Promise.all([resetRateLimit(db, pairKey), forgiveAttempt(db, clientKey), forgiveAttempt(db, accountKey)]);
  const factor = await verifiedTotpFactor(db, row.user.id);
  return factor ? { kind: 'mfa_required', userId: row.user.id } : { kind: 'signed_in', userId: row.user.id };
}

/**
 * The device cookie's new value after a completed sign-in of `userId` (password, and the TOTP code where
 * enrolled): a fresh token for this account beside the browser's others. Null when links cannot be signed.
 */
export async function deviceCookieAfterSignIn(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  input: { userId: string; previous: string[] },
): Promise<string | null> {
  const user = await findUserById(deps.db, input.userId);
  if (!user) return null;
  return issueDeviceCookie(deps.config.linkSigningSecret, input.previous, user.email, deps.clock.now());
}

/**
 * Second step for a TOTP-enrolled user: checks the code (no replay). Every guess is counted before it is
 * checked (issue 13.4): at most TOTP_SESSION_LIMIT per pending session (then it ends) and TOTP_USER_LIMIT
 * per user per window, so new logins cannot buy unlimited guesses and parallel guesses cannot slip past.
 */
export async function verifyLoginCode(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; pendingSessionId: string; code: string }): Promise<void> {
  const { db } = deps;
  const { userId, pendingSessionId, code } = input;
  const now = deps.clock.now();
  const userKey = `totp-user:${userId}`;
  const sessionKey = `totp:${pendingSessionId}`;
  await takeAttempt(db, userKey, TOTP_USER_LIMIT, LOGIN_WINDOW_MS, now, (ms) =>
    rateLimited(`För många felaktiga koder. Vänta ${minutes(ms)} minuter och försök igen.`, Math.ceil(ms / 1000)),
  );
  const endPending = async () => {
    await db.delete(sessions).where(eq(sessions.id, pendingSessionId));
    return rateLimited('För många felaktiga koder. Logga in igen.', 60);
  };
  const perSession = await hitRateLimit(db, sessionKey, TOTP_SESSION_LIMIT, LOGIN_WINDOW_MS, now);
  if (!perSession.allowed) throw await endPending();
  const factor = await verifiedTotpFactor(db, userId);
  if (!factor) throw unauthorized('Tvåstegsverifiering är inte aktiverad.');
  const wrong = async () =>
    perSession.count >= TOTP_SESSION_LIMIT
      ? endPending()
      : new AppError(401, 'unauthorized', 'Felaktig kod. Försök igen.', undefined, { reason: 'invalid_code' });
  const step = verifyTotpAt(factor.secret, code, now, factor.lastUsedStep);
  if (step === null) throw await wrong();
  if (!(await claimTotpStep(db, factor.id, step))) throw await wrong();
  await Promise.all([db.delete(sessions).where(eq(sessions.id, pendingSessionId)), forgiveAttempt(db, userKey), resetRateLimit(db, sessionKey)]);
}

/** Creates a full session, or a pending one when the user has TOTP. */
export async function startSession(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string }) {
  const mfa = !!(await verifiedTotpFactor(deps.db, input.userId));
  const { token, session } = await createSession(deps.db, input.userId, deps.clock.now(), { mfaPending: mfa });
  return { token, session, mfaRequired: mfa };
}
