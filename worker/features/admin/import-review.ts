/** "Granska" (issue 21): the superadmin's answer to a near-duplicate row of an import job. */
import { abortUnlessClaimed, claimLost, runBatch, type BatchStatement } from '../../db/batch';
import { bumpDataVersion } from '../../lib/data-version';
import { conflict, notFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { createStatements, ensureHouseUser, planSlugs } from './import';
import { ImportRowSchema } from './import-contract';
import { reviewItemAt, type ImportDeps } from './import-job';
import type { ImportReviewItem, ReviewAction } from './import-job-contract';
import * as q from './queries';

/**
 * "Slå ihop": the row's quiz night joins the existing business (a new place there with the row's
 * series, unless a place at that address exists — then the series goes there). "Skapa ny": the row
 * becomes its own business as any other row. Either way once: the conditional update of the review
 * row is in the same batch, and a second answer is a 409.
 */
export async function resolveReview(deps: ImportDeps, input: { id: string; rowNo: number; action: ReviewAction }): Promise<ImportReviewItem> {
  const { db } = deps;
  const { id, rowNo, action } = input;
  const ctx = { today: deps.clock.today(), nowIso: deps.clock.now().toISOString(), houseEmail: deps.config.houseAccountEmail };
  const r = await q.importRowAt(db, id, rowNo);
  if (!r?.data) throw notFound('Raden finns inte att granska');
  if (r.result !== 'review') throw conflict('Raden är redan granskad');
  const parsed = ImportRowSchema.safeParse(JSON.parse(r.data));
  if (!parsed.success) throw conflict('Raden är ogiltig');
  const row = parsed.data;
  const claim = (result: 'merged' | 'created', venueId: string) => q.reviewClaimStatement(db, { jobId: id, rowNo, result, venueId, nowIso: ctx.nowIso });
  const counter = (col: 'created' | 'merged') => q.reviewCounterStatement(db, id, col);
  let stmts: BatchStatement[];
  if (action === 'merge') {
    const target = r.venueId ? await q.businessIdIfExists(db, r.venueId) : undefined;
    if (!target) throw conflict('Den befintliga verksamheten finns inte längre – välj Skapa ny');
    const claimStmt = claim('merged', target.id);
    const houseId = await ensureHouseUser(db, ctx.houseEmail);
    stmts = [...createStatements(db, row, { venueId: target.id, slug: '', houseId, today: ctx.today, nowIso: ctx.nowIso, locationOnly: true }).stmts];
    stmts = [claimStmt, ...stmts, counter('merged'), bumpDataVersion(db)];
  } else {
    const venueId = newId();
    const [slug] = await planSlugs(db, [row]);
    const houseId = await ensureHouseUser(db, ctx.houseEmail);
    const claimStmt = claim('created', venueId);
    stmts = [
      claimStmt,
      ...createStatements(db, row, { venueId, slug: slug!, houseId, today: ctx.today, nowIso: ctx.nowIso }).stmts,
      counter('created'),
      bumpDataVersion(db),
    ];
  }
  // The claim runs first; if another answer won, it changes no row and the guard fails the whole batch.
  stmts.splice(1, 0, abortUnlessClaimed(db));
  await runBatch(db, stmts).catch((err) => {
    throw claimLost(err) ? conflict('Raden är redan granskad') : err;
  });
  return reviewItemAt({ db }, { id, rowNo });
}
