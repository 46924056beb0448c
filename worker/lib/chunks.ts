/**
 * The one home for splitting work into bounded pieces (issue 28.7). D1 allows at most 100 bound
 * parameters per statement (ARCHITECTURE.md "Scale"), so a key list goes into `IN (…)` in chunks of
 * `IN_LIST_CHUNK` (room left for the statement's other parameters) and a multi-row insert takes
 * `rowsPerInsert(parametersPerRow)` rows; a compound SELECT built from a list takes at most
 * `D1_MAX_COMPOUND_TERMS` arms per statement (issue 43.1). Other platform caps (a Queue's sendBatch, R2's bulk delete) use
 * `chunks` with their own size.
 */

/** D1's cap on bound parameters in one statement. */
export const D1_MAX_BOUND_PARAMETERS = 100;

/**
 * D1's cap on the terms of one compound SELECT (`a UNION ALL b …`): five run, six fail with "too many terms in
 * compound SELECT" (measured in workerd, issue 43.1). A multi-row `VALUES` list is not limited by it.
 */
export const D1_MAX_COMPOUND_TERMS = 5;

/** D1's cap on one statement's SQL text, in bytes ("statement too long" above it). */
export const D1_MAX_SQL_BYTES = 100_000;

/** Keys per `IN (…)` list: under the cap, with room for a few more parameters in the same statement. */
export const IN_LIST_CHUNK = 90;

/** A Queue's sendBatch takes at most this many messages. */
export const QUEUE_SEND_BATCH_MAX = 100;

/** R2's bulk delete takes at most this many keys. */
export const R2_DELETE_MAX_KEYS = 1000;

/** `items` in consecutive pieces of at most `size` (the last may be shorter); none for an empty list. */
export function chunks<T>(items: readonly T[], size: number): T[][] {
  if (!(size >= 1)) throw new Error(`chunk size must be at least 1, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** Rows of `parametersPerRow` bound parameters one INSERT may carry beside `reserved` other parameters. */
export function rowsPerInsert(parametersPerRow: number, reserved = 0): number {
  return Math.max(1, Math.floor((D1_MAX_BOUND_PARAMETERS - reserved) / parametersPerRow));
}

/** Runs `read` once per chunk of `keys` (one statement each, in order) and concatenates the rows. */
export async function readInChunks<K, R>(keys: readonly K[], read: (part: K[]) => Promise<readonly R[]>, size = IN_LIST_CHUNK): Promise<R[]> {
  const out: R[] = [];
  for (const part of chunks(keys, size)) out.push(...(await read(part)));
  return out;
}
