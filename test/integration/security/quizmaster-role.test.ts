/**
 * The quizmaster role in the authorization matrix (issue 48.3): an account that claimed owner A's profile and is
 * assigned to A's series. It may read and edit its own profile and act for the assigned series
 * (isAssignedQuizmaster, which the results check uses); on every route where another owner is refused (route-table's
 * `other: 403` cells, on A's objects: editing the quiz, the series, the business, buying promotion …) it is refused
 * too, and nothing changes. Removing the assignment removes the right.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { quizmasterAssignments, quizmasters } from '../../../worker/db/schema';
import { isAssignedQuizmaster } from '../../../worker/lib/quizmaster-access';
import { call, createUser, snapshot, testDb, unique } from '../../factories';
import { objectId, ROUTES, targetFor } from './route-table';
import { CLOCK, CLOCK_DATE, createWorld, GUARDED_TABLES } from './world';

describe('quizmaster role', () => {
  it('edits only its own profile, acts only for the assigned series, and is refused wherever another owner is', async () => {
    const world = await createWorld();
    const { a, b } = world;
    const qm = await createUser({ now: CLOCK_DATE });
    const db = testDb();
    await db.batch([
      db.update(quizmasters).set({ userId: qm.id }).where(eq(quizmasters.id, a.quizmasterId)),
      db.insert(quizmasterAssignments).values({ unitKey: a.seriesId, quizmasterId: a.quizmasterId, venueId: a.venueId }),
    ]);

    expect(await isAssignedQuizmaster(db, qm.id, a.seriesQuizId)).toBe(true);
    expect(await isAssignedQuizmaster(db, qm.id, a.quizId)).toBe(false);
    expect(await isAssignedQuizmaster(db, qm.id, b.seriesQuizId)).toBe(false);

    const me = await call('/api/quizmaster/me', { cookie: qm.cookie, clock: CLOCK });
    expect(me.status).toBe(200);
    expect((await me.json<any>()).id).toBe(a.quizmasterId);
    const edited = await call('/api/quizmaster/me', { method: 'PATCH', body: { bio: 'Min presentation' }, cookie: qm.cookie, clock: CLOCK });
    expect(edited.status).toBe(200);

    // Every cell that refuses owner B on A's objects refuses the quizmaster as well, changing nothing.
    // (The quizmaster's own routes, /api/quizmaster/me…, refuse owners but are this account's: checked above.)
    const refused = Object.entries(ROUTES).filter(([key, spec]) => spec.expect.other === 403 && !key.includes(' /api/quizmaster/'));
    expect(refused.length).toBeGreaterThan(30);
    const before = await snapshot(GUARDED_TABLES);
    const problems: string[] = [];
    // Each route twice: on A's objects as the table names them, and with the single quiz replaced by the assigned
    // series' occurrence (editing the assigned quiz itself is refused too).
    // A night's results on the assigned series are the quizmaster's to post and read (issue 48.3, wired into
    // authorizeResultsPost; quizmasters.test.ts posts them): on A's other objects they stay refused.
    const RESULTS = new Set(['PUT /api/owner/quizzes/:quizId/results', 'GET /api/owner/quizzes/:quizId/results']);
    const cases = refused.flatMap(([key, spec]) => (RESULTS.has(key) ? [false] : [false, true]).map((assigned) => ({ key, spec, assigned })));
    await Promise.all(
      cases.map(async ({ key, spec, assigned }) => {
        const base = targetFor(world, unique('m'));
        const t = assigned ? { ...base, quizId: base.seriesQuizId } : base;
        const method = key.slice(0, key.indexOf(' '));
        const path = spec.path ? spec.path(t) : key.slice(key.indexOf(' ') + 1).replace(':id', encodeURIComponent(objectId(spec.object, t) ?? ''));
        const res = await call(path, {
          method,
          body: spec.body ? spec.body(t) : method === 'GET' || method === 'DELETE' ? undefined : {},
          cookie: qm.cookie,
          clock: CLOCK,
          headers: spec.headers,
        });
        if (res.status !== 403) problems.push(`${key} → ${path}: expected 403, got ${res.status} ${(await res.text()).slice(0, 160)}`);
      }),
    );
    expect(problems).toEqual([]);
    expect(await snapshot(GUARDED_TABLES)).toEqual(before);
    for (const key of ['PATCH /api/owner/quizzes/:id', 'PUT /api/owner/quizzes/:id/quizmaster', 'POST /api/promotion/checkout'])
      expect(ROUTES[key]?.expect.other, key).toBe(403);

    // The owner removes the assignment: the right is gone at once.
    const removed = await call(`/api/owner/quizzes/${a.seriesQuizId}/quizmaster/assignment`, { method: 'DELETE', cookie: a.user.cookie, clock: CLOCK });
    expect(removed.status).toBe(200);
    expect(await isAssignedQuizmaster(db, qm.id, a.seriesQuizId)).toBe(false);
  });
});
