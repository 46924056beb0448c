/**
 * What a claimed quizmaster may do beyond their own profile (issue 48.3): act for the series or single quizzes
 * they are assigned to (post results, issue 46). An assignment is a `quizmaster_assignments` row for the quiz's
 * series (recurrence_id) or the single quiz (id), of the profile the account claimed, at the quiz's own business.
 * Removing the assignment (or the account's claim) removes the right at once: nothing is cached.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** The key a quiz's quizmaster link and assignments are stored under: its series, or the quiz itself. */
export const unitKeyOf = (q: { id: string; recurrenceId: string | null }): string => q.recurrenceId ?? q.id;

/** Whether `userId` is the claimed quizmaster assigned to the series (or single quiz) of `quizId`. One indexed read. */
export async function isAssignedQuizmaster(db: Db, userId: string, quizId: string): Promise<boolean> {
  const rows = await db.all<{ ok: number }>(sql`
    SELECT 1 AS ok FROM quizzes q
      CROSS JOIN locations l ON l.id = q.location_id
      CROSS JOIN quizmaster_assignments a ON a.unit_key = coalesce(q.recurrence_id, q.id) AND a.venue_id = l.venue_id
      CROSS JOIN quizmasters p ON p.id = a.quizmaster_id
    WHERE q.id = ${quizId} AND p.user_id = ${userId}
    LIMIT 1`);
  return rows.length > 0;
}
