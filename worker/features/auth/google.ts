/** Google sign-in and registration. */
import { eq } from 'drizzle-orm';
import { oauthAccounts, passwordCredentials, profiles, users } from '../../db/schema';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { invalidateUserSessions } from '../../lib/session';
import { onUniqueRace } from '../../lib/unique-race';
import type { GoogleProfile } from '../../ports/google';
import { findOauthAccount, findUserByEmail } from './queries';
import { type AuthDeps, markVerified, welcomeNewUser } from './account';

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
