/**
 * One Workflow step of an import job (issue 21): its records are planned by the one planner (planRecords)
 * and written BATCH_ROWS at a time, each batch with the records' import_rows rows and the job's progress.
 */
import { runBatch, type BatchStatement } from '../../db/batch';
import { stockholmDate } from '../../lib/clock';
import { chunks } from '../../lib/chunks';
import { bumpDataVersion } from '../../lib/data-version';
import { createStatements, ensureHouseUser, planRecords, planSlugs } from './import';
import { readChunk } from './import-files';
import type { ImportDeps } from './import-job';
import * as q from './queries';

/** Records per db.batch inside a step (4 statements each + the progress update + version bump). */
export const BATCH_ROWS = 20;

export interface ChunkResult {
  chunk: number;
  skipped: number;
  created: number;
  duplicate: number;
  invalid: number;
  review: number;
}

/**
 * One Workflow step: records [chunk × STEP_ROWS, +STEP_ROWS). Safe to run any number of times, also
 * concurrently: records that already have their import_rows row are skipped, and each batch inserts
 * the import_rows rows of its records, so a batch racing another run fails as a whole on the key.
 * What happens to each record is planRecords' decision (the same planner as every preview).
 */
export async function processImportChunk(deps: ImportDeps, input: { bucket: R2Bucket; id: string; chunk: number }): Promise<ChunkResult> {
  const { db } = deps;
  const { bucket, id, chunk } = input;
  const ctx = { houseEmail: deps.config.houseAccountEmail, nowIso: deps.clock.now().toISOString() };
  const job = await q.importJobById(db, id);
  if (!job) throw new Error(`import job ${id} not found`);
  const res: ChunkResult = { chunk, skipped: 0, created: 0, duplicate: 0, invalid: 0, review: 0 };
  const slice = await readChunk(bucket, job.rowsKey, chunk);
  if (!slice.length) return res;
  const done = await q.importedRowNos(db, id, slice[0]!.line, slice[slice.length - 1]!.line);
  const todo = slice.filter((r) => !done.has(r.line));
  res.skipped = slice.length - todo.length;
  if (!todo.length) return res;

  // The job's date (set by "Importera"); a job without one imports from today in Stockholm.
  const today = job.today ?? stockholmDate(deps.clock.now());
  const houseId = await ensureHouseUser(db, ctx.houseEmail);
  const plan = await planRecords(db, todo, { nearDuplicates: true });
  const news = plan.flatMap((p) => (p.kind === 'new' ? [p] : []));
  const slugs = await planSlugs(
    db,
    news.map((p) => p.row),
  );
  const slugOf = new Map(news.map((p, i) => [p.line, slugs[i]!]));

  type Planned = { kind: 'created' | 'duplicate' | 'invalid' | 'review'; stmts: BatchStatement[] };
  const planned: Planned[] = plan.map((p) => {
    const rowOf = (result: Planned['kind'], venueId: string | null = null, data: string | null = null) =>
      q.importRowStatement(db, { jobId: id, rowNo: p.line, result, message: p.message, venueId, data });
    switch (p.kind) {
      case 'invalid':
        return { kind: 'invalid', stmts: [rowOf('invalid')] };
      case 'duplicate':
        return { kind: 'duplicate', stmts: [rowOf('duplicate')] };
      case 'review':
        return { kind: 'review', stmts: [rowOf('review', p.match.venueId, JSON.stringify(p.raw))] };
      case 'new': {
        const { venueId } = p;
        const { stmts } = createStatements(db, p.row, { venueId, slug: slugOf.get(p.line)!, houseId, today, nowIso: ctx.nowIso });
        return { kind: 'created', stmts: [...stmts, rowOf('created', venueId)] };
      }
      default:
        return p satisfies never;
    }
  });

  for (const part of chunks(planned, BATCH_ROWS)) {
    const n = (k: Planned['kind']) => part.filter((p) => p.kind === k).length;
    const counts = { created: n('created'), duplicate: n('duplicate'), invalid: n('invalid'), review: n('review') };
    const progress = q.progressStatement(db, id, { processed: part.length, ...counts }, ctx.nowIso);
    const stmts: BatchStatement[] = [...part.flatMap((p) => p.stmts), progress];
    if (counts.created) stmts.push(bumpDataVersion(db));
    await runBatch(db, stmts);
    res.created += counts.created;
    res.duplicate += counts.duplicate;
    res.invalid += counts.invalid;
    res.review += counts.review;
  }
  return res;
}
