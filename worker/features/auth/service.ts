/**
 * Sign-in rules (spec 01 §4–§8): login with throttling and no account enumeration, TOTP second step,
 * registration with its rate limit, e-mail verification (roles granted there), password reset,
 * Google sign-in. Services take db, clock time, ports and config; they never see Hono.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { emailTokens, oauthAccounts, passwordCredentials, profiles, sessions, userRoles, users } from '../../db/schema';
import type { Config } from '../../env';
import { AppError, conflict, rateLimited, unauthorized } from '../../lib/errors';
import { newId, randomToken } from '../../lib/ids';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../lib/password';
import { claimAttempt, claimSpacedAttempt, forgiveAttempt, hitRateLimit, resetRateLimit, takeAttempt, takeMailAttempt } from '../../lib/rate-limit';
import { createSession, invalidateUserSessions } from '../../lib/session';
import { hashToken } from '../../lib/tokens';
import type { GoogleProfile } from '../../ports/google';
import type { Deps } from '../../ports/deps';
import type { Mailer } from '../../ports/mailer';

/** What the sign-in services need: the database, the clock, the config and the mailer. */
export type AuthDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;
import {
  LOGIN_ACCOUNT_FREE,
  LOGIN_ACCOUNT_MAX_DELAY_MS,
  LOGIN_CLIENT_LIMIT,
  LOGIN_DEVICE_LIMIT,
  LOGIN_PAIR_LIMIT,
  LOGIN_WINDOW_MS,
  TOTP_SESSION_LIMIT,
  TOTP_USER_LIMIT,
  REGISTER_LIMIT,
  REGISTER_WINDOW_MS,
  RESET_TOKEN_TTL_MS,
  VERIFY_TOKEN_TTL_MS,
  type LoginInput,
  type RegisterInput,
} from './contract';
import { issueDeviceCookie, trustedDevice } from './device';
import { newUserNotice, resetMail, verifyMail, welcomeMail } from './mail';
import {
  claimTotpStep,
  consumeEmailToken,
  deleteExpiredEmailTokens,
  findEmailToken,
  findOauthAccount,
  findUserByEmail,
  findUserById,
  insertResetTokenFor,
  markUserVerified,
  retireEmailTokens,
  superadminEmails,
  verifiedTotpFactor,
} from './queries';
import { verifyTotpAt } from '../../lib/totp';
import { onUniqueRace } from '../../lib/unique-race';

export const INVALID_CREDENTIALS = 'Felaktig e-post eller lösenord. Försök igen.';
export const EMAIL_NOT_CONFIRMED = 'E-post inte bekräftad. Du måste bekräfta din e-postadress innan du kan logga in.';

const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60000));

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

async function issueEmailToken(
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

function verifyLink(appUrl: string, token: string, takeoverVenue?: string | null): string {
  const q = new URLSearchParams({ token });
  if (takeoverVenue) q.set('takeoverVenue', takeoverVenue);
  return `${appUrl}/verify?${q.toString()}`;
}

/**
 * Registration: 5 attempts per e-mail per 15 minutes. A verified address answers 409 (the spec's
 * duplicate-email toast). An unverified one gets the new password and a fresh link: only whoever
 * controls the inbox can complete it.
 */
export async function register(deps: AuthDeps, input: RegisterInput & { clientKey: string }): Promise<{ email: string }> {
  const { db, mailer, config } = deps;
  const { clientKey } = input;
  const now = deps.clock.now();
  await takeMailAttempt(db, 'register', clientKey, now);
  const limit = await hitRateLimit(db, `register:${input.email}`, REGISTER_LIMIT, REGISTER_WINDOW_MS, now);
  if (!limit.allowed) {
    throw rateLimited(`För många försök. Vänta ${minutes(limit.retryAfterMs)} minuter innan du försöker igen.`, Math.ceil(limit.retryAfterMs / 1000));
  }
  const hash = await hashPassword(input.password);
  const userId = await registerAddress(db, input.email, hash, now);
  const token = await issueEmailToken(
    db,
    userId,
    'verify_email',
    VERIFY_TOKEN_TTL_MS,
    now,
    input.takeoverVenue ? { takeoverVenue: input.takeoverVenue } : undefined,
  );
  await mailer.send(verifyMail(input.email, verifyLink(config.appUrl, token, input.takeoverVenue), !!input.takeoverVenue));
  return { email: input.email };
}

/**
 * The account of a registration: a verified address answers 409; an unverified one gets the new password;
 * a new one is created. Parallel registrations of one new address (a double click) both find no account:
 * the one whose insert loses the race goes the unverified way, as it would have a moment later (issue 43.2).
 */
async function registerAddress(db: Db, email: string, hash: string, now: Date): Promise<string> {
  const existing = await findUserByEmail(db, email);
  if (existing?.user.emailVerifiedAt) {
    throw conflict('E-postadressen är redan registrerad', { reason: 'email_taken' });
  }
  if (existing) {
    await db
      .insert(passwordCredentials)
      .values({ userId: existing.user.id, hash })
      .onConflictDoUpdate({ target: passwordCredentials.userId, set: { hash, updatedAt: now.toISOString() } });
    return existing.user.id;
  }
  const userId = newId();
  return onUniqueRace(
    async () => {
      await db.batch([
        db.insert(users).values({ id: userId, email, createdAt: now.toISOString(), updatedAt: now.toISOString() }),
        db.insert(passwordCredentials).values({ userId, hash }),
        db.insert(profiles).values({ userId }),
      ]);
      return userId;
    },
    ['users.email'],
    // The winner's account exists now: this takes one of the ways above.
    () => registerAddress(db, email, hash, now),
  );
}

/** Sends a new verification link if the address belongs to an unconfirmed account; same answer either way. */
export async function resendVerification(deps: AuthDeps, input: { email: string; takeoverVenue?: string; clientKey: string }): Promise<void> {
  const { db, mailer, config } = deps;
  const { email, takeoverVenue, clientKey } = input;
  const now = deps.clock.now();
  await takeMailAttempt(db, 'resend', clientKey, now);
  const limit = await hitRateLimit(db, `resend:${email}`, REGISTER_LIMIT, REGISTER_WINDOW_MS, now);
  if (!limit.allowed) {
    throw rateLimited(`För många försök. Vänta ${minutes(limit.retryAfterMs)} minuter innan du försöker igen.`, Math.ceil(limit.retryAfterMs / 1000));
  }
  const row = await findUserByEmail(db, email);
  if (!row || row.user.emailVerifiedAt) return;
  const token = await issueEmailToken(db, row.user.id, 'verify_email', VERIFY_TOKEN_TTL_MS, now, takeoverVenue ? { takeoverVenue } : undefined);
  await mailer.send(verifyMail(email, verifyLink(config.appUrl, token, takeoverVenue), !!takeoverVenue));
}

/**
 * Marks a user verified and grants roles: every verified account is a venue owner (admin); addresses
 * in SUPERADMIN_EMAILS also become superadmin. Returns true when this call verified the user.
 */
async function markVerified(db: Db, config: Config, userId: string, email: string, now: Date): Promise<boolean> {
  const verified = await markUserVerified(db, userId, now.toISOString());
  const roles: Array<'admin' | 'superadmin'> = ['admin'];
  if (config.superadminEmails.includes(email.toLowerCase())) roles.push('superadmin');
  await db
    .insert(userRoles)
    .values(roles.map((role) => ({ userId, role })))
    .onConflictDoNothing();
  await db.insert(profiles).values({ userId }).onConflictDoNothing();
  return verified;
}

/** Welcome mail to the user and notify-new-user mail to every superadmin. */
async function welcomeNewUser(db: Db, mailer: Mailer, config: Config, userId: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  await mailer.send(welcomeMail(user.email, config.appUrl));
  for (const admin of await superadminEmails(db)) {
    if (admin !== user.email) await mailer.send(newUserNotice(admin, user, config.appUrl));
  }
}

export type TokenFailure = 'expired' | 'invalid';

function tokenError(kind: TokenFailure, expiredText: string): AppError {
  return kind === 'expired'
    ? new AppError(400, 'invalid_input', expiredText, undefined, { reason: 'expired' })
    : new AppError(400, 'invalid_input', 'Länken är ogiltig eller har redan använts.', undefined, { reason: 'invalid' });
}

/** Looks a mailed token up by its hash (constant-time at the database's unique index; the hash is compared, never the token). */
async function loadToken(db: Db, token: string, purpose: string, nowMs: number, expiredText: string) {
  const row = await findEmailToken(db, hashToken(token));
  if (!row || row.purpose !== purpose || row.usedAt !== null) throw tokenError('invalid', expiredText);
  if (row.expiresAt <= nowMs) throw tokenError('expired', expiredText);
  return row;
}

/** Consumes a verify_email token: verifies the user, grants roles, sends welcome/notify mails. */
export async function verifyEmail(deps: AuthDeps, input: { token: string }): Promise<{ userId: string; email: string; takeoverVenue: string | null }> {
  const { db, mailer, config } = deps;
  const { token } = input;
  const now = deps.clock.now();
  const t = now.getTime();
  const row = await loadToken(db, token, 'verify_email', t, 'Verifieringslänken har gått ut.');
  if (!(await consumeEmailToken(db, row.id, t))) throw tokenError('invalid', '');
  await retireEmailTokens(db, row.userId, 'verify_email', t);
  const user = await findUserById(db, row.userId);
  if (!user) throw tokenError('invalid', '');
  const fresh = await markVerified(db, config, user.id, user.email, now);
  if (fresh) await welcomeNewUser(db, mailer, config, user.id);
  const payload = row.payload ? (JSON.parse(row.payload) as { takeoverVenue?: string }) : {};
  return { userId: user.id, email: user.email, takeoverVenue: payload.takeoverVenue ?? null };
}

/**
 * Reset request: always the same answer, in one timing class (issue 13.12). Known and unknown addresses
 * do the same work: a token is drawn and hashed, and ONE statement inserts it for the user with that
 * address (no row when there is none). The mail (outbox row and provider call) goes to `defer` — after
 * the response — so a slow or failing mail provider does not tell the two apart either.
 */
export async function requestPasswordReset(
  deps: AuthDeps,
  input: { email: string; clientKey: string; defer?: (work: Promise<unknown>) => void },
): Promise<void> {
  const { db, mailer, config } = deps;
  const { email, ...ctx } = input;
  const now = deps.clock.now();
  await takeMailAttempt(db, 'forgot', ctx.clientKey, now);
  const perEmail = await hitRateLimit(db, `reset:${email}`, REGISTER_LIMIT, REGISTER_WINDOW_MS, now);
  const token = randomToken(20);
  const tokenHash = hashToken(token);
  if (!perEmail.allowed) return; // silently: the answer must not differ by account
  if (!(await insertResetTokenFor(db, { id: newId(), email, tokenHash, expiresAt: now.getTime() + RESET_TOKEN_TTL_MS }))) return;
  const send = mailer.send(resetMail(email, `${config.appUrl}/update-password?token=${encodeURIComponent(token)}`)).catch((err: unknown) => {
    console.error('reset mail failed', (err as Error).message);
  });
  if (ctx.defer) ctx.defer(send);
  else await send;
}

/** Whether a reset link is still usable (the update-password screen asks before showing the form). */
export async function checkResetToken(deps: Pick<Deps, 'db' | 'clock'>, input: { token: string }): Promise<void> {
  await loadToken(deps.db, input.token, 'reset_password', deps.clock.now().getTime(), 'Länken för att återställa lösenordet har gått ut.');
}

/** Sets a new password from a reset link and ends every session of the user. */
export async function resetPassword(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { token: string; password: string }): Promise<{ userId: string }> {
  const { db, config } = deps;
  const { token, password } = input;
  const now = deps.clock.now();
  const t = now.getTime();
  const row = await loadToken(db, token, 'reset_password', t, 'Länken för att återställa lösenordet har gått ut.');
  const hash = await hashPassword(password);
  if (!(await consumeEmailToken(db, row.id, t))) throw tokenError('invalid', '');
  await retireEmailTokens(db, row.userId, 'reset_password', t);
  await db
    .insert(passwordCredentials)
    .values({ userId: row.userId, hash })
    .onConflictDoUpdate({ target: passwordCredentials.userId, set: { hash, updatedAt: now.toISOString() } });
  await invalidateUserSessions(db, row.userId);
  // The link proves control of the inbox: an unconfirmed account becomes confirmed.
  const user = await findUserById(db, row.userId);
  if (user && !user.emailVerifiedAt) await markVerified(db, config, user.id, user.email, now);
  return { userId: row.userId };
}

/**
 * Google sign-in/registration: a known Google account signs in; otherwise an existing account with
 * the same e-mail is linked only when Google says the e-mail is verified; otherwise a new verified
 * account is created. Returns the user and whether it is new.
 */
export async function completeGoogleSignIn(deps: AuthDeps, profile: GoogleProfile): Promise<{ userId: string; created: boolean }> {
  const { db, mailer, config } = deps;
  const now = deps.clock.now();
  const linked = await findOauthAccount(db, profile.sub);
  if (linked) return { userId: linked.userId, created: false };
  if (!profile.emailVerified) {
    throw new AppError(403, 'forbidden', 'Google har inte bekräftat e-postadressen.', undefined, { reason: 'google_email_unverified' });
  }
  const existing = await findUserByEmail(db, profile.email);
  if (existing) {
    await db.insert(oauthAccounts).values({ provider: 'google', providerUserId: profile.sub, userId: existing.user.id }).onConflictDoNothing();
    if (!existing.user.emailVerifiedAt) {
      // Someone may have registered this address with a password without confirming it: drop that password.
      await db.delete(passwordCredentials).where(eq(passwordCredentials.userId, existing.user.id));
      await invalidateUserSessions(db, existing.user.id);
      if (await markVerified(db, config, existing.user.id, profile.email, now)) await welcomeNewUser(db, mailer, config, existing.user.id);
    }
    return { userId: existing.user.id, created: false };
  }
  const userId = newId();
  const create = () =>
    db.batch([
      db
        .insert(users)
        .values({ id: userId, email: profile.email, emailVerifiedAt: now.toISOString(), createdAt: now.toISOString(), updatedAt: now.toISOString() }),
      db.insert(profiles).values({ userId }),
      db.insert(oauthAccounts).values({ provider: 'google', providerUserId: profile.sub, userId }),
    ]);
  // Two callbacks at once (two tabs): the one that loses the insert race signs in to the winner's account (issue 43.2).
  const raced = await onUniqueRace(
    async () => {
      await create();
      return false;
    },
    ['users.email', 'oauth_accounts.provider, oauth_accounts.provider_user_id'],
    () => true,
  );
  if (raced) return completeGoogleSignIn(deps, profile);
  await markVerified(db, config, userId, profile.email, now);
  await welcomeNewUser(db, mailer, config, userId);
  return { userId, created: true };
}

/** Creates a full session, or a pending one when the user has TOTP. */
export async function startSession(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string }) {
  const mfa = !!(await verifiedTotpFactor(deps.db, input.userId));
  const { token, session } = await createSession(deps.db, input.userId, deps.clock.now(), { mfaPending: mfa });
  return { token, session, mfaRequired: mfa };
}

// ---- Thin entry points for other features and the cron (they may import only this file). ----

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
