/** Password reset: the request in one timing class, the link check and the new password. */
import { passwordCredentials } from '../../db/schema';
import { newId, randomToken } from '../../lib/ids';
import { hashPassword } from '../../lib/password';
import { hitRateLimit, takeMailAttempt } from '../../lib/rate-limit';
import { invalidateUserSessions } from '../../lib/session';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import { REGISTER_LIMIT, REGISTER_WINDOW_MS, RESET_TOKEN_TTL_MS } from './contract';
import { resetMail } from './mail';
import { consumeEmailToken, findUserById, insertResetTokenFor, retireEmailTokens } from './queries';
import { type AuthDeps, markVerified } from './account';
import { loadToken, tokenError } from './tokens';

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
