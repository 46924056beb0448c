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
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .innerJoin(userRoles, eq(userRoles.userId, users.id))
    .where(eq(userRoles.role, 'superadmin'));
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
