/** What the sign-in services share: their deps, the wait text's minutes, and making an account verified (roles, welcome). */
import type { Db } from '../../db/client';
import { profiles, userRoles } from '../../db/schema';
import type { Config } from '../../env';
import type { Deps } from '../../ports/deps';
import type { Mailer } from '../../ports/mailer';
import { newUserNotice, welcomeMail } from './mail';
import { findUserById, markUserVerified, superadminEmails } from './queries';

/** What the sign-in services need: the database, the clock, the config and the mailer. */
export type AuthDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'mailer'>;

/** A wait in whole minutes (at least 1), for the rate limits' Swedish texts. */
export const minutes = (ms: number) => Math.max(1, Math.ceil(ms / 60000));

/**
 * Marks a user verified and grants roles: every verified account is a venue owner (admin); addresses
 * in SUPERADMIN_EMAILS also become superadmin. Returns true when this call verified the user.
 */
export async function markVerified(db: Db, config: Config, userId: string, email: string, now: Date): Promise<boolean> {
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
export async function welcomeNewUser(db: Db, mailer: Mailer, config: Config, userId: string): Promise<void> {
  const user = await findUserById(db, userId);
  if (!user) return;
  await mailer.send(welcomeMail(user.email, config.appUrl));
  for (const admin of await superadminEmails(db)) {
    if (admin !== user.email) await mailer.send(newUserNotice(admin, user, config.appUrl));
  }
}
