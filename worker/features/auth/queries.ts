import { and, eq, isNotNull, lt, or, sql } from 'drizzle-orm';
import { changes } from '../../db/batch';
import type { Db } from '../../db/client';
import { emailTokens, oauthAccounts, passwordCredentials, totpFactors, userRoles, users, type Role } from '../../db/schema';

export async function findUserByEmail(db: Db, email: string) {
  const [row] = await db
    .select({ user: users, hash: passwordCredentials.hash })
    .from(users)
    .leftJoin(passwordCredentials, eq(passwordCredentials.userId, users.id))
    .where(eq(users.email, email))
    .limit(1);
  return row ?? null;
}

export async function findUserById(db: Db, id: string) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function rolesOf(db: Db, userId: string): Promise<Role[]> {
  const rows = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, userId));
  return rows.map((r) => r.role);
}

export async function verifiedTotpFactor(db: Db, userId: string) {
  const [row] = await db
    .select()
    .from(totpFactors)
    .where(and(eq(totpFactors.userId, userId), isNotNull(totpFactors.verifiedAt)))
    .limit(1);
  return row ?? null;
}

export async function findOauthAccount(db: Db, providerUserId: string) {
  const [row] = await db
    .select()
    .from(oauthAccounts)
    .where(and(eq(oauthAccounts.provider, 'google'), eq(oauthAccounts.providerUserId, providerUserId)))
    .limit(1);
  return row ?? null;
}

export async function superadminEmails(db: Db): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(users).innerJoin(userRoles, eq(userRoles.userId, users.id)).where(eq(userRoles.role, 'superadmin'));
  return rows.map((r) => r.email);
}

export async function findEmailToken(db: Db, tokenHash: string) {
  const [row] = await db.select().from(emailTokens).where(eq(emailTokens.tokenHash, tokenHash)).limit(1);
  return row ?? null;
}

/** Marks a token used only if it is still unused and unexpired; true when this call won. */
export async function consumeEmailToken(db: Db, id: string, nowMs: number): Promise<boolean> {
  const res = await db
    .update(emailTokens)
    .set({ usedAt: nowMs })
    .where(and(eq(emailTokens.id, id), sql`${emailTokens.usedAt} IS NULL`, sql`${emailTokens.expiresAt} > ${nowMs}`));
  return (res.meta?.changes ?? 0) === 1;
}

/** Nightly: removes e-mail tokens that are expired or were used more than a day ago. */
export async function deleteExpiredEmailTokens(db: Db, now: Date): Promise<number> {
  const t = now.getTime();
  return changes(await db.delete(emailTokens).where(or(lt(emailTokens.expiresAt, t), lt(emailTokens.usedAt, t - 24 * 3600 * 1000))));
}

/** After one link of a kind was used, the user's other links of that kind stop working too. */
export async function retireEmailTokens(db: Db, userId: string, purpose: 'verify_email' | 'reset_password' | 'change_email', nowMs: number): Promise<void> {
  await db
    .update(emailTokens)
    .set({ usedAt: nowMs })
    .where(and(eq(emailTokens.userId, userId), eq(emailTokens.purpose, purpose), sql`${emailTokens.usedAt} IS NULL`));
}

/** Spends a TOTP time step: true when it is newer than the last one used (a code works once). */
export async function claimTotpStep(db: Db, factorId: string, step: number): Promise<boolean> {
  const res = await db
    .update(totpFactors)
    .set({ lastUsedStep: step })
    .where(and(eq(totpFactors.id, factorId), sql`(${totpFactors.lastUsedStep} IS NULL OR ${totpFactors.lastUsedStep} < ${step})`))
    .returning({ id: totpFactors.id });
  return res.length === 1;
}

/** Marks a user's e-mail verified: true when this call did it (it was not verified before). */
export async function markUserVerified(db: Db, userId: string, nowIso: string): Promise<boolean> {
  const res = await db
    .update(users)
    .set({ emailVerifiedAt: nowIso, updatedAt: nowIso })
    .where(and(eq(users.id, userId), sql`${users.emailVerifiedAt} IS NULL`));
  return (res.meta?.changes ?? 0) === 1;
}

/**
 * A reset token for the account with this e-mail, in one statement (nothing is inserted when there is none, and
 * nothing else differs): true when a token was issued.
 */
export async function insertResetTokenFor(db: Db, t: { id: string; email: string; tokenHash: string; expiresAt: number }): Promise<boolean> {
  const issued = await db.all<{ user_id: string }>(sql`
    INSERT INTO email_tokens (id, user_id, purpose, token_hash, expires_at, payload)
    SELECT ${t.id}, id, 'reset_password', ${t.tokenHash}, ${t.expiresAt}, NULL FROM users WHERE email = ${t.email}
    RETURNING user_id`);
  return issued.length > 0;
}
