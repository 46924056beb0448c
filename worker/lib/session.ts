/**
 * Cookie sessions (Pilcrow / Lucia style). The cookie holds `id.secret`; only SHA-256(secret) is stored.
 * Sliding expiry: 30 days, renewed when less than 15 days remain.
 */
import { and, eq, lt, ne } from 'drizzle-orm';
import { changes } from '../db/batch';
import type { Db } from '../db/client';
import { sessions, userRoles, users, type Role, type SessionRow } from '../db/schema';
import { randomToken } from './ids';
import { hashesEqual, hashToken } from './tokens';

export const SESSION_COOKIE = 'qk_session';
export const SESSION_TTL_MS = 30 * 24 * 3600 * 1000;
const RENEW_WHEN_LEFT_MS = 15 * 24 * 3600 * 1000;

export interface ValidatedSession {
  session: SessionRow;
  user: { id: string; email: string; roles: Role[] };
  /** True when the expiry moved and the cookie must be re-sent. */
  renewed: boolean;
}

export async function createSession(db: Db, userId: string, now: Date, opts: { mfaPending?: boolean } = {}): Promise<{ token: string; session: SessionRow }> {
  const id = randomToken(15);
  const secret = randomToken(25);
  const [session] = await db
    .insert(sessions)
    .values({
      id,
      secretHash: hashToken(secret),
      userId,
      expiresAt: now.getTime() + SESSION_TTL_MS,
      mfaPending: opts.mfaPending ?? false,
    })
    .returning();
  return { token: `${id}.${secret}`, session: session! };
}

export async function validateSessionToken(db: Db, token: string, now: Date): Promise<ValidatedSession | null> {
  const [id, secret] = token.split('.');
  if (!id || !secret || id.length > 64 || secret.length > 128) return null;
  const rows = await db
    .select({ session: sessions, user: { id: users.id, email: users.email } })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(eq(sessions.id, id))
    .limit(1);
  const row = rows[0];
  if (!row || !hashesEqual(row.session.secretHash, hashToken(secret))) return null;
  if (row.session.expiresAt <= now.getTime()) {
    await db.delete(sessions).where(eq(sessions.id, id));
    return null;
  }
  let renewed = false;
  let session = row.session;
  if (session.expiresAt - now.getTime() < RENEW_WHEN_LEFT_MS) {
    const expiresAt = now.getTime() + SESSION_TTL_MS;
    await db.update(sessions).set({ expiresAt }).where(eq(sessions.id, id));
    session = { ...session, expiresAt };
    renewed = true;
  }
  const roles = await db.select({ role: userRoles.role }).from(userRoles).where(eq(userRoles.userId, row.user.id));
  return { session, user: { ...row.user, roles: roles.map((r) => r.role) }, renewed };
}

export async function invalidateSession(db: Db, sessionId: string): Promise<void> {
  await db.delete(sessions).where(eq(sessions.id, sessionId));
}

/** Ends every session of a user, except `keepSessionId` (used after a password change). */
export async function invalidateUserSessions(db: Db, userId: string, keepSessionId?: string): Promise<void> {
  await db.delete(sessions).where(keepSessionId ? and(eq(sessions.userId, userId), ne(sessions.id, keepSessionId)) : eq(sessions.userId, userId));
}

/** Nightly: removes expired sessions; returns how many (no trigger on sessions, so meta.changes is exact). */
export async function deleteExpiredSessions(db: Db, now: Date): Promise<number> {
  return changes(await db.delete(sessions).where(lt(sessions.expiresAt, now.getTime())));
}
