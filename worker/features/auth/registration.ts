/** Registration and e-mail verification: the rate limit, the verify link, and roles granted on verification. */
import type { Db } from '../../db/client';
import { passwordCredentials, profiles, users } from '../../db/schema';
import { conflict, rateLimited } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import { hitRateLimit, takeMailAttempt } from '../../lib/rate-limit';
import { onUniqueRace } from '../../lib/unique-race';
import { REGISTER_LIMIT, REGISTER_WINDOW_MS, VERIFY_TOKEN_TTL_MS, type RegisterInput } from './contract';
import { verifyMail } from './mail';
import { consumeEmailToken, findUserByEmail, findUserById, retireEmailTokens } from './queries';
import { type AuthDeps, markVerified, minutes, welcomeNewUser } from './account';
import { issueEmailToken, loadToken, tokenError } from './tokens';

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
