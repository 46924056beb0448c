/**
 * Account rules (spec 01 §2 register tabs, spec 02 §2.3 Konto/Säkerhet, §4.5, §5, §8): account
 * summary, deletion, e-mail and password change, TOTP enrolment. Sensitive changes require the
 * current password when the account has one (Google-only accounts have none).
 */
import { eq } from 'drizzle-orm';
import { encodeBase64 } from '@oslojs/encoding';
import { createTOTPKeyURI } from '@oslojs/otp';
import { changes, runBatch } from '../../db/batch';
import { passwordCredentials, totpFactors, users } from '../../db/schema';
import { bumpDataVersion } from '../../lib/data-version';
import { AppError, conflict, invalidInput, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { onUniqueRace } from '../../lib/unique-race';
import { hashPassword, verifyPassword } from '../../lib/password';
import { hitRateLimit, takeMailAttempt } from '../../lib/rate-limit';
import { invalidateUserSessions } from '../../lib/session';
import type { Db } from '../../db/client';
import type { Deps } from '../../ports/deps';
import { TOTP_DIGITS, TOTP_PERIOD_S, verifyTotpAt } from '../../lib/totp';
import { issueMailedToken, readEmailToken, redeemEmailToken } from '../auth/service';
import { EMAIL_CHANGE_TOKEN_TTL_MS } from './contract';
import { emailChangeMail, emailChangedNotice, passwordChangedNotice } from './mail';
import { deleteOwnedLocationsChunk, deleteOwnedQuizzesChunk, emailInUse, findUserById, ownedCounts, passwordHashOf, totpFactorOf } from './queries';
import { deleteGuarded } from '../promotion/service';

/** Rows deleted per statement when removing a big account (bounded work per statement). */
const DELETE_CHUNK = 500;

type AccountDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;
type AccountUser = { id: string; email: string };

export async function accountSummary(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string }) {
  const { db } = deps;
  const { userId } = input;
  const today = deps.clock.today();
  const user = await findUserById(db, userId);
  if (!user) throw notFound('Användaren kunde inte hittas. Kontot kan redan ha tagits bort.');
  const factor = await totpFactorOf(db, userId);
  return {
    email: user.email,
    hasPassword: !!(await passwordHashOf(db, userId)),
    totpEnabled: !!factor?.verifiedAt,
    counts: await ownedCounts(db, userId, today),
  };
}

/**
 * Deletes a user. Foreign keys cascade user → businesses → places → quizzes → promotions and slot
 * claims, plus sessions, tokens, roles, profile; orders and feedback keep a null user. A big account is
 * emptied in bounded chunks first (quizzes, then places) so no single statement cascades through
 * an unbounded number of rows; the last batch deletes the user and bumps the public data version.
 * Returns false when the user did not exist.
 */
export async function deleteUserAccount(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string }): Promise<boolean> {
  const { db } = deps;
  const { userId } = input;
  // Checked before the first chunk, so a refused account is left whole (issue 13.2).
  return deleteGuarded(db, 'user', { userId }, deps.clock, () => deleteOwnedRows(db, userId));
}

async function deleteOwnedRows(db: Db, userId: string): Promise<boolean> {
  // RETURNING counts the deleted rows themselves (meta.changes would add the listing triggers' rows).
  for (;;) {
    const gone = await deleteOwnedQuizzesChunk(db, userId, DELETE_CHUNK);
    if (changes(gone) < DELETE_CHUNK) break;
  }
  for (;;) {
    const gone = await deleteOwnedLocationsChunk(db, userId, DELETE_CHUNK);
    if (changes(gone) < DELETE_CHUNK) break;
  }
  const [deleted] = await runBatch(db, [db.delete(users).where(eq(users.id, userId)).returning({ id: users.id }), bumpDataVersion(db)]);
  return (deleted ?? 0) > 0;
}

async function requirePassword(db: Db, userId: string, password: string | undefined, now: Date): Promise<boolean> {
  const hash = await passwordHashOf(db, userId);
  if (!hash) return false;
  if (!password) throw invalidInput('Ange ditt nuvarande lösenord.', [{ path: 'password', message: 'Ange ditt nuvarande lösenord.' }]);
  const limit = await hitRateLimit(db, `reauth:${userId}`, 10, 15 * 60 * 1000, now);
  if (!limit.allowed) throw new AppError(429, 'rate_limited', 'För många försök. Vänta en stund och försök igen.', undefined, { retryAfterSeconds: 900 });
  if (!(await verifyPassword(password, hash))) {
    throw new AppError(401, 'unauthorized', 'Fel lösenord.', [{ path: 'password', message: 'Fel lösenord.' }], { reason: 'wrong_password' });
  }
  return true;
}

/** Changes the password (current password required when one exists) and ends the user's other sessions. */
export async function changePassword(
  deps: Pick<Deps, 'db' | 'clock' | 'mailer'>,
  input: { user: AccountUser; currentPassword?: string; password: string; keepSessionId?: string },
): Promise<void> {
  const { db, mailer } = deps;
  const { user, keepSessionId } = input;
  const now = deps.clock.now();
  await requirePassword(db, user.id, input.currentPassword, now);
  const hash = await hashPassword(input.password);
  await db
    .insert(passwordCredentials)
    .values({ userId: user.id, hash })
    .onConflictDoUpdate({ target: passwordCredentials.userId, set: { hash, updatedAt: now.toISOString() } });
  await invalidateUserSessions(db, user.id, keepSessionId);
  await mailer.send(passwordChangedNotice(user.email));
}

/** Starts an e-mail change: a link to the new address (24 h); the address changes when it is opened. */
export async function requestEmailChange(
  deps: AccountDeps,
  input: { user: AccountUser; newEmail: string; password?: string; clientKey: string },
): Promise<{ newEmail: string }> {
  const { db, mailer, config } = deps;
  const { user, clientKey } = input;
  const now = deps.clock.now();
  // It mails the new address and answers 409 for a taken one: limited per client too (issue 13.7).
  await takeMailAttempt(db, 'email-change', clientKey, now);
  await requirePassword(db, user.id, input.password, now);
  if (input.newEmail === user.email)
    throw invalidInput('Den nya e-postadressen är samma som den nuvarande.', [{ path: 'newEmail', message: 'Samma som nuvarande' }]);
  if (await emailInUse(db, input.newEmail)) throw conflict('E-postadressen används redan av ett annat konto.');
  const token = await issueMailedToken(deps, {
    userId: user.id,
    purpose: 'change_email',
    ttlMs: EMAIL_CHANGE_TOKEN_TTL_MS,
    payload: { newEmail: input.newEmail },
  });
  await mailer.send(emailChangeMail(input.newEmail, `${config.appUrl}/verify?type=email_change&token=${encodeURIComponent(token)}`));
  return { newEmail: input.newEmail };
}

/** Completes an e-mail change from the link; the old address is told. */
export async function confirmEmailChange(deps: Pick<Deps, 'db' | 'clock' | 'mailer'>, input: { token: string }): Promise<{ userId: string; email: string }> {
  const { db, mailer } = deps;
  const now = deps.clock.now();
  const row = await readEmailToken(deps, { token: input.token, purpose: 'change_email', expiredText: 'Länken har gått ut.' });
  const newEmail = (JSON.parse(row.payload ?? '{}') as { newEmail?: string }).newEmail;
  const user = await findUserById(db, row.userId);
  if (!newEmail || !user) throw new AppError(400, 'invalid_input', 'Länken är ogiltig.', undefined, { reason: 'invalid' });
  if (await emailInUse(db, newEmail)) throw conflict('E-postadressen används redan av ett annat konto.');
  if (!(await redeemEmailToken(deps, { tokenId: row.id })))
    throw new AppError(400, 'invalid_input', 'Länken är ogiltig eller har redan använts.', undefined, { reason: 'invalid' });
  // Two links to one address opened at once (or a registration of it in between): the second is the 409 above (issue 43.2).
  await onUniqueRace(
    () => db.update(users).set({ email: newEmail, updatedAt: now.toISOString() }).where(eq(users.id, user.id)),
    ['users.email'],
    () => {
      throw conflict('E-postadressen används redan av ett annat konto.');
    },
  );
  await mailer.send(emailChangedNotice(user.email, newEmail));
  return { userId: user.id, email: newEmail };
}

/** Starts (or restarts) TOTP enrolment: a new secret, not active until a code confirms it. */
export async function startTotpEnrolment(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { user: AccountUser; password?: string },
): Promise<{ secret: string; uri: string }> {
  const { db } = deps;
  const { user, password } = input;
  const now = deps.clock.now();
  await requirePassword(db, user.id, password, now);
  const existing = await totpFactorOf(db, user.id);
  if (existing?.verifiedAt) throw conflict('Tvåstegsverifiering är redan aktiverad. Ta bort den först.');
  const key = new Uint8Array(20);
  crypto.getRandomValues(key);
  const secret = encodeBase64(key);
  await db.batch([db.delete(totpFactors).where(eq(totpFactors.userId, user.id)), db.insert(totpFactors).values({ id: newId(), userId: user.id, secret })]);
  return { secret: base32(key), uri: createTOTPKeyURI('Quizkväll', user.email, key, TOTP_PERIOD_S, TOTP_DIGITS) };
}

export async function confirmTotpEnrolment(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; code: string }): Promise<void> {
  const { db } = deps;
  const { userId, code } = input;
  const now = deps.clock.now();
  const factor = await totpFactorOf(db, userId);
  if (!factor || factor.verifiedAt) throw invalidInput('Starta aktiveringen först.');
  const step = verifyTotpAt(factor.secret, code, now, null);
  if (step === null) throw invalidInput('Felaktig kod. Kontrollera tiden i din app och försök igen.', [{ path: 'code', message: 'Felaktig kod' }]);
  await db.update(totpFactors).set({ verifiedAt: now.toISOString(), lastUsedStep: step, updatedAt: now.toISOString() }).where(eq(totpFactors.id, factor.id));
}

export async function removeTotp(deps: Pick<Deps, 'db' | 'clock'>, input: { userId: string; password?: string }): Promise<void> {
  const { db } = deps;
  const { userId, password } = input;
  const now = deps.clock.now();
  await requirePassword(db, userId, password, now);
  await db.delete(totpFactors).where(eq(totpFactors.userId, userId));
}

/** RFC 4648 base32 (upper case, no padding): what people type into an authenticator app. */
function base32(bytes: Uint8Array): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = 0;
  let value = 0;
  let out = '';
  for (const b of bytes) {
    value = (value << 8) | b;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
