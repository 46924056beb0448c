/**
 * The claim guard (issue 45.5, worker/db/batch.ts abortUnlessClaimed / claimLost): right after a claim in one
 * D1 batch it fails the whole batch when the claim changed no row, and only then; rows changed by triggers do
 * not count as the claim's.
 */
import { and, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { abortUnlessClaimed, claimLost, runBatch } from '../../worker/db/batch';
import { profiles, quizzes } from '../../worker/db/schema';
import { createOwnerWithPlace, createQuiz, testDb } from '../factories';

describe('abortUnlessClaimed', () => {
  it('lets the batch through when the claim changed a row, and fails all of it (recognised by claimLost) when not', async () => {
    const db = testDb();
    const { user } = await createOwnerWithPlace();
    const claim = () =>
      db
        .update(profiles)
        .set({ firstName: 'Vinnare' })
        .where(and(eq(profiles.userId, user.id), isNull(profiles.firstName)));
    const next = () => db.update(profiles).set({ lastName: 'Efter' }).where(eq(profiles.userId, user.id));
    await runBatch(db, [claim(), abortUnlessClaimed(db), next()]);
    await db.update(profiles).set({ lastName: null }).where(eq(profiles.userId, user.id));
    const err = await runBatch(db, [claim(), abortUnlessClaimed(db), next()]).then(
      () => null,
      (e: unknown) => e,
    );
    expect(claimLost(err)).toBe(true);
    const [row] = await db.select().from(profiles).where(eq(profiles.userId, user.id));
    expect(row).toMatchObject({ firstName: 'Vinnare', lastName: null });
  });

  it('counts only the claim, never the rows its triggers change (quizzes fire the listing triggers)', async () => {
    const db = testDb();
    const { location } = await createOwnerWithPlace();
    const quiz = await createQuiz(location.id);
    const claim = () =>
      db
        .update(quizzes)
        .set({ title: 'Tagen' })
        .where(and(eq(quizzes.id, quiz.id), isNull(quizzes.title)));
    await runBatch(db, [claim(), abortUnlessClaimed(db)]);
    await expect(runBatch(db, [claim(), abortUnlessClaimed(db)]).catch((e: unknown) => claimLost(e))).resolves.toBe(true);
  });

  it('claimLost recognises only its own error, on the error or a cause below it', async () => {
    const err = await testDb()
      .run(sql`SELECT json_extract('{}', 'other')`)
      .then(
        () => null,
        (e: unknown) => e,
      );
    expect(err).not.toBeNull();
    expect(claimLost(err)).toBe(false);
    expect(claimLost(new Error('NOT NULL constraint failed: tips.id'))).toBe(false);
    expect(claimLost(new Error('D1_ERROR', { cause: new Error("bad JSON path: 'claim-lost'") }))).toBe(true);
    expect(claimLost(undefined)).toBe(false);
  });
});
