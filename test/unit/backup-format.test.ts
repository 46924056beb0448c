/**
 * The backup format (worker/lib/backup-format.mjs, issue 26.1): every value survives write → parse → insert
 * exactly, no statement spans a line, and the reader splits by statements (so older files with raw line
 * breaks inside literals still restore). Runs on node:sqlite, the same SQLite family as D1.
 */
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { droppedRows, insertStatement, literal, pageSql, parseBackup, restoreStatements, tableLine, textLiteral } from '../../worker/lib/backup-format.mjs';

const SCHEMA = `CREATE TABLE t (id INTEGER PRIMARY KEY, a ANY, b TEXT, c BLOB, d REAL, e INTEGER) STRICT`;
const COLS = ['id', 'a', 'b', 'c', 'd', 'e'];
const TEXTS = [
  'rad ett\nrad två',
  'crlf\r\nbara cr\r',
  'NUL\u0000efter',
  "citat ' '' \"dq\" ); DROP TABLE t; --",
  'INSERT INTO "t" VALUES (1);\nINSERT INTO x',
  '\u2028\u2029\u0085\ufeff\t\u007f',
  "🍺 åäö 中文 \\ X'00'",
  '',
  'vanlig text',
];

function dump(db: DatabaseSync): string {
  const rows = db.prepare(pageSql('t', COLS, null)).all() as Array<Record<string, unknown>>;
  return `${[tableLine('t', rows.length), ...rows.map((r) => insertStatement('t', COLS, r))].join('\n')}\n`;
}
const exact = (db: DatabaseSync) =>
  db
    .prepare(`SELECT id, typeof(a) || hex(a) AS a, typeof(b) || hex(b) AS b, hex(c) AS c, printf('%!.20e', d) AS d, CAST(e AS TEXT) AS e FROM t ORDER BY id`)
    .all();

describe('backup format', () => {
  it('round-trips line breaks, CR, NUL, U+2028, quotes, emoji, blobs, 64-bit integers and reals exactly', () => {
    const src = new DatabaseSync(':memory:');
    src.exec(SCHEMA);
    const ins = src.prepare('INSERT INTO t (a, b, c, d, e) VALUES (?, ?, ?, ?, ?)');
    TEXTS.forEach(
      (s, i) =>
        void ins.run(s, s, new Uint8Array([0, 10, 13, 39, 255, i]), [0.1 + 0.2, 1e300, -0, 5e-324, 3][i % 5]!, [9007199254740993n, -(2n ** 63n), 0n][i % 3]!),
    );
    ins.run(7, null, null, 2.0, null);
    ins.run(1.5, null, new Uint8Array(0), null, 1);

    const text = dump(src);
    expect(text).not.toContain('\u0000');
    expect(text).not.toMatch(/[\r\u2028\u2029]/);
    const lines = text.trimEnd().split('\n');
    expect(lines.slice(1).every((l) => /^INSERT INTO "t" \(.*\);$/.test(l))).toBe(true);
    expect(lines).toHaveLength(TEXTS.length + 3);
    expect(text).toContain("'vanlig text'"); // plain text stays readable

    const dst = new DatabaseSync(':memory:');
    dst.exec(SCHEMA);
    const parsed = parseBackup(text);
    expect(parsed.tables).toEqual([{ name: 't', count: TEXTS.length + 2 }]);
    for (const s of parsed.statements) dst.exec(s);
    expect(exact(dst)).toEqual(exact(src));
  });

  it('splits by statements, not lines: a legacy file with raw line breaks and ; inside literals', () => {
    const legacy = `-- Quizkväll D1 backup\n-- table t 2\nINSERT INTO "t" ("id", "b") VALUES (1, 'a;\nINSERT INTO fake\n-- no comment');\nINSERT INTO "t" ("id", "b") VALUES (2, 'x''y');\n`;
    const { tables, statements } = parseBackup(legacy);
    expect(tables).toEqual([{ name: 't', count: 2 }]);
    expect(statements).toEqual([
      `INSERT INTO "t" ("id", "b") VALUES (1, 'a;\nINSERT INTO fake\n-- no comment');`,
      `INSERT INTO "t" ("id", "b") VALUES (2, 'x''y');`,
    ]);
    expect(() => parseBackup(`INSERT INTO "t" ("id") VALUES ('cut`)).toThrow(/unterminated/);
    expect(() => parseBackup(`INSERT INTO "t" ("id") VALUES (1)`)).toThrow(/no ;/);
  });

  it('writes text that is not valid UTF-8 byte for byte and rejects values it does not know', () => {
    expect(literal('tC3')).toBe("CAST(X'C3' AS TEXT)");
    expect(literal('i-12')).toBe('-12');
    expect(literal(2)).toBe('2.0');
    expect(literal('r9e999')).toBe('9e999');
    expect(() => literal('i1; DROP')).toThrow();
    expect(() => literal('tZZ')).toThrow();
    expect(() => literal({})).toThrow();
  });

  it('restore: rows without a parent are dropped before commit (a cascade child with them), counted per table; the rest is kept', () => {
    const db = new DatabaseSync(':memory:');
    db.exec(`PRAGMA foreign_keys = ON;
      CREATE TABLE p (id TEXT PRIMARY KEY);
      CREATE TABLE c (id TEXT PRIMARY KEY, p_id TEXT NOT NULL REFERENCES p(id) ON DELETE CASCADE, note TEXT);
      CREATE TABLE g (id TEXT PRIMARY KEY, c_id TEXT NOT NULL REFERENCES c(id) ON DELETE CASCADE)`);
    // c2's parent p9 was written after p was read: c2 (multi-line) and its child g2 are the orphan and what goes with it.
    const backup = [
      tableLine('p', 1),
      `INSERT INTO "p" ("id") VALUES ('p1');`,
      tableLine('c', 2),
      `INSERT INTO "c" ("id", "p_id", "note") VALUES ('c1', 'p1', ${textLiteral('rad\n')});`,
      `INSERT INTO "c" ("id", "p_id", "note") VALUES ('c2', 'p9', 'x');`,
      tableLine('g', 2),
      `INSERT INTO "g" ("id", "c_id") VALUES ('g1', 'c1');`,
      `INSERT INTO "g" ("id", "c_id") VALUES ('g2', 'c2');`,
    ].join('\n');
    const { tables, statements } = restoreStatements(backup, [], []);
    db.exec('BEGIN');
    for (const st of statements) db.exec(st);
    db.exec('COMMIT'); // deferred foreign keys: throws if any orphan were left
    const count = (t: string) => (db.prepare(`SELECT count(*) AS n FROM ${t}`).get() as { n: number }).n;
    expect(
      droppedRows(
        tables,
        tables.map((t) => count(t.name)),
      ),
    ).toEqual({ c: 1, g: 1 });
    expect(db.prepare(`SELECT id, note FROM c`).get()).toMatchObject({ id: 'c1', note: 'rad\n' });
    expect(db.prepare(`SELECT id FROM g`).get()).toMatchObject({ id: 'g1' });
    expect(() => droppedRows([{ name: 'p', count: 1 }], [2])).toThrow(/fler rader/);
  });
});
