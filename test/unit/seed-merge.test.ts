/**
 * The demo seed's inserts go to `wrangler d1 execute --file` merged (worker/db/seed.ts mergeInserts, issue 27): the
 * same rows in the same order, in a fraction of the statements.
 */
import { describe, expect, it } from 'vitest';
import { buildDemoSeed, MERGE_MAX_ROWS, mergeInserts } from '../../worker/db/seed';

const ins = (table: string, cols: string, values: string) => `INSERT OR IGNORE INTO ${table} (${cols}) VALUES (${values});`;

describe('mergeInserts', () => {
  it('merges consecutive single-row inserts into one table with the same columns, in order', () => {
    expect(mergeInserts([ins('a', 'x, y', "1, 'p'"), ins('a', 'x, y', "2, 'q'"), ins('a', 'x, y', "3, 'r'")])).toEqual([
      "INSERT OR IGNORE INTO a (x, y) VALUES (1, 'p'), (2, 'q'), (3, 'r');",
    ]);
  });

  it('never merges across another table, other columns or another statement: the order of writes stays', () => {
    const input = [
      ins('a', 'x', '1'),
      ins('b', 'x', '2'),
      ins('a', 'x', '3'),
      ins('a', 'x, y', '4, 5'),
      'UPDATE a SET x = 0;',
      ins('a', 'x, y', '6, 7'),
      ins('a', 'x, y', '8, 9'),
    ];
    expect(mergeInserts(input)).toEqual([
      ins('a', 'x', '1'),
      ins('b', 'x', '2'),
      ins('a', 'x', '3'),
      ins('a', 'x, y', '4, 5'),
      'UPDATE a SET x = 0;',
      'INSERT OR IGNORE INTO a (x, y) VALUES (6, 7), (8, 9);',
    ]);
  });

  it('keeps quoted text whole, even with parentheses, semicolons and line breaks inside', () => {
    const odd = "'a (b); c\nd', 'it''s'";
    expect(mergeInserts([ins('t', 'p, q', odd), ins('t', 'p, q', "'x', 'y'")])).toEqual([`INSERT OR IGNORE INTO t (p, q) VALUES (${odd}), ('x', 'y');`]);
  });

  it('starts a new statement after MERGE_MAX_ROWS rows', () => {
    const rows = Array.from({ length: MERGE_MAX_ROWS * 2 + 1 }, (_, i) => ins('a', 'x', String(i)));
    const out = mergeInserts(rows);
    expect(out).toHaveLength(3);
    expect(out.map((s) => s.split('), (').length)).toEqual([MERGE_MAX_ROWS, MERGE_MAX_ROWS, 1]);
    expect(out.join(' ')).toContain(`(${MERGE_MAX_ROWS * 2})`);
  });

  it('the demo seed: every row of the row-by-row statements is still there, in far fewer statements', () => {
    const seed = buildDemoSeed('2026-11-26', { superadminHash: 'h1', ownerHash: 'h2', houseEmail: 'house@test.local' });
    const rows = (statements: string[]) => statements.join('\n').match(/\('seed-[^']*'/g)?.length ?? 0;
    expect(seed.length).toBeLessThan(250);
    expect(rows(seed)).toBeGreaterThan(1300);
    for (const s of seed) expect(s.length).toBeLessThan(100_000); // D1's statement limit
  });
});
