import { describe, expect, it } from 'vitest';
import { chunks, D1_MAX_BOUND_PARAMETERS, IN_LIST_CHUNK, readInChunks, rowsPerInsert } from './chunks';
import { QUIZ_INSERT_COLUMNS, QUIZ_ROWS_PER_INSERT } from '../db/batch';

describe('chunks (the one home of bounded pieces, issue 28.7)', () => {
  it('splits in order, the last piece shorter, nothing for nothing', () => {
    expect(chunks([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunks([], 90)).toEqual([]);
    expect(() => chunks([1], 0)).toThrow();
  });

  it("keeps every statement under D1's 100 bound parameters", () => {
    expect(IN_LIST_CHUNK).toBeLessThan(D1_MAX_BOUND_PARAMETERS);
    expect(rowsPerInsert(19)).toBe(5);
    expect(QUIZ_INSERT_COLUMNS).toBeGreaterThanOrEqual(20);
    expect(QUIZ_ROWS_PER_INSERT * QUIZ_INSERT_COLUMNS).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMETERS);
    expect(rowsPerInsert(4, 20)).toBe(20);
  });

  it('reads each chunk once and concatenates in order', async () => {
    const asked: number[][] = [];
    const keys = Array.from({ length: 200 }, (_, i) => i);
    const rows = await readInChunks(keys, async (part) => {
      asked.push(part);
      return part.map((k) => k * 2);
    });
    expect(asked.map((p) => p.length)).toEqual([90, 90, 20]);
    expect(rows).toEqual(keys.map((k) => k * 2));
  });
});
