/**
 * An import's files in R2 (issue 21): the original bytes, and the parsed records as one JSON object per
 * Workflow step, so a step reads its STEP_ROWS records and not the whole file (issue 27.4).
 */
import { chunks } from '../../lib/chunks';
import type { ImportRecord } from './import';

/** Records per Workflow step: 4 statements each → ≤ 400 D1 statements + a few reads per step. */
export const STEP_ROWS = 100;

/**
 * The parsed records live in R2 as one object per Workflow step (`{rows_key}-{chunk}.json`, STEP_ROWS
 * records each), so a step reads its 100 records, not the whole file (issue 27.4). Jobs uploaded
 * before that kept one `rows.json` (rows_key ends in .json): read whole and sliced.
 */
export const rowsKeyOf = (id: string) => `imports/${id}/rows`;
const chunkKeyOf = (rowsKey: string, chunk: number) => `${rowsKey}-${chunk}.json`;
export const fileKeyOf = (id: string) => `imports/${id}/original.csv`;
/** Parallel R2 writes at upload (a Worker keeps at most 6 connections open). */
const PUT_CONCURRENCY = 6;

export async function readChunk(bucket: R2Bucket, rowsKey: string, chunk: number): Promise<ImportRecord[]> {
  if (rowsKey.endsWith('.json')) {
    const whole = await bucket.get(rowsKey);
    if (!whole) throw new Error(`import file ${rowsKey} missing`);
    return ((await whole.json()) as ImportRecord[]).slice(chunk * STEP_ROWS, (chunk + 1) * STEP_ROWS);
  }
  const obj = await bucket.get(chunkKeyOf(rowsKey, chunk));
  if (!obj) throw new Error(`import rows ${chunkKeyOf(rowsKey, chunk)} missing`);
  return (await obj.json()) as ImportRecord[];
}

/** Stores the upload: the original file, then its records in STEP_ROWS pieces (PUT_CONCURRENCY writes at a time). */
export async function storeImportFiles(bucket: R2Bucket, id: string, input: { bytes: Uint8Array; fileName: string; records: ImportRecord[] }): Promise<void> {
  await bucket.put(fileKeyOf(id), input.bytes, { httpMetadata: { contentType: 'text/csv' }, customMetadata: { fileName: input.fileName } });
  const steps = chunks(input.records, STEP_ROWS).map((rows, c) => ({ rows, c }));
  for (const parallel of chunks(steps, PUT_CONCURRENCY)) {
    await Promise.all(
      parallel.map(({ rows, c }) => bucket.put(chunkKeyOf(rowsKeyOf(id), c), JSON.stringify(rows), { httpMetadata: { contentType: 'application/json' } })),
    );
  }
}
