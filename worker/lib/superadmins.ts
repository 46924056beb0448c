/** Who is told about things only a superadmin handles (takeover disputes, operations alerts). */
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { userRoles, users } from '../db/schema';

/** E-mails of every superadmin: configured ones (SUPERADMIN_EMAILS) plus users holding the superadmin role. */
export async function superadminEmails(db: Db, configured: string[]): Promise<string[]> {
  const rows = await db.select({ email: users.email }).from(userRoles).innerJoin(users, eq(users.id, userRoles.userId)).where(eq(userRoles.role, 'superadmin'));
  return [...new Set([...configured.map((e) => e.toLowerCase()), ...rows.map((r) => r.email.toLowerCase())])];
}
