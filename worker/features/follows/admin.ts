/** Superadmin views of the follow mail (issue 17): counts only, never addresses, and the parked queue messages. */
import type { Deps } from '../../ports/deps';
import type { FollowStatsResponse } from './contract';
import * as q from './queries';

/** Superadmin: counts only, never addresses. */
export async function followStats(deps: Pick<Deps, 'db' | 'clock'>): Promise<FollowStatsResponse> {
  const since = new Date(deps.clock.now().getTime() - 7 * 24 * 3600 * 1000).toISOString();
  return q.followStats(deps.db, since);
}

export async function listDeadLetters(deps: Pick<Deps, 'db'>) {
  const rows = await q.newestDeadLetters(deps.db, 200);
  return rows.map((r) => ({
    id: r.id,
    queue: r.queue,
    messageId: r.messageId,
    body: readDeadLetterBody(r.body),
    attempts: r.attempts,
    reason: r.reason,
    createdAt: r.createdAt,
  }));
}

/**
 * A stored body as JSON. Issue 27.4: a body cut at DEAD_LETTER_BODY_MAX (consumer.ts) is no JSON, and parsing it
 * made the whole list a 500; rows stored before the fix come back as their text.
 */
function readDeadLetterBody(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return { truncated: text };
  }
}
