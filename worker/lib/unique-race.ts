/**
 * Races on unique values (issue 43.2). A pre-check ("is this address taken?") cannot stop two parallel
 * requests: both pass it, both insert, and the unique index fails the second write. That request must
 * answer as it would had it come second — the pre-check's answer (409, or the enumeration-safe answer of
 * registration), never a 500. `onUniqueRace` runs the write and, when D1 reports that constraint, runs
 * the answer instead; any other error goes on.
 */

/**
 * The constraint of a D1 "UNIQUE constraint failed" error (on the error or any `cause` below it), as SQLite
 * names it: `users.email`, or for a key of several columns `user_roles.user_id, user_roles.role`; else null.
 */
export function uniqueViolation(err: unknown): string | null {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    const m = /UNIQUE constraint failed: ([\w.]+(?:, [\w.]+)*)/.exec(String((e as { message?: unknown }).message ?? e));
    if (m) return m[1]!;
  }
  return null;
}

/**
 * Runs `write`; when it fails on a UNIQUE constraint in `constraints` (a parallel request inserted the same
 * value first), returns `onRace()` — what the pre-check would have answered. Other errors are rethrown.
 */
export async function onUniqueRace<T>(write: () => Promise<T>, constraints: readonly string[], onRace: () => T | Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const hit = uniqueViolation(err);
    if (hit === null || !constraints.includes(hit)) throw err;
    return onRace();
  }
}
