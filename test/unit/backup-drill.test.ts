/**
 * Backup drill (issue 21): a fresh local D1 with demo data + a small scale catalogue → `db:backup`
 * → the database folder deleted → `db:restore` → every table's row count and content checksum equal,
 * and both search indexes (FTS5, rebuilt on restore) find what they found before.
 * Runs the real scripts and wrangler (Node), ~30–60 s.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const dir = mkdtempSync(join(tmpdir(), 'qk-drill-'));
const persist = join(dir, 'state');
const file = join(dir, 'backup.sql');

const sh = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
function query<T = Record<string, unknown>>(sql: string): T[][] {
  const out = sh(bin('wrangler'), ['d1', 'execute', 'DB', '--local', '--persist-to', persist, '--json', '--command', sql]);
  return (JSON.parse(out) as Array<{ results: T[] }>).map((r) => r.results);
}

/** Row count + SHA-256 of the rows (sorted, so insertion order does not matter) of every table. */
function state() {
  const [tables] = query<{ name: string }>(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' AND name NOT LIKE 'listing_search%' ORDER BY name`);
  const names = tables!.map((t) => t.name);
  const rows = query(names.map((n) => `SELECT * FROM "${n}"`).join('; '));
  return Object.fromEntries(
    names.map((n, i) => {
      const lines = rows[i]!.map((r) => JSON.stringify(r)).sort();
      return [n, `${lines.length}:${createHash('sha256').update(lines.join('\n')).digest('hex').slice(0, 16)}`];
    }),
  );
}

function searches() {
  const [tri, words, listing] = query<{ id: number }>(
    [
      // The search indexes' rowid is the unit's search key (migration 0020); its low 30 bits are the unit's id.
      `SELECT rowid & 1073741823 AS id FROM listing_search WHERE listing_search MATCH '"quiz"' ORDER BY rowid`,
      `SELECT rowid & 1073741823 AS id FROM listing_search_words WHERE listing_search_words MATCH 'k*' ORDER BY rowid`,
      `SELECT s.id FROM listing_series s JOIN listing_search f ON f.rowid & 1073741823 = s.id WHERE listing_search MATCH '"pub"' ORDER BY s.id`,
    ].join('; '),
  );
  return { tri: tri!.map((r) => r.id), words: words!.map((r) => r.id), listing: listing!.map((r) => r.id) };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('backup drill', () => {
  it('backup → wipe → restore gives the same tables and the same search results', () => {
    sh(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist]);
    sh(bin('tsx'), ['scripts/seed.ts', '--persist-to', persist]);
    // The scale seed brings its own house account (its fixed id would clash with the demo's by e-mail).
    sh(bin('tsx'), ['scripts/seed.ts', '--scale', '300', '--persist-to', persist], { HOUSE_ACCOUNT_EMAIL: 'skala-hus@example.se' });
    const before = state();
    const found = searches();
    expect(Number(before.quizzes!.split(':')[0])).toBeGreaterThan(300);
    expect(found.tri.length).toBeGreaterThan(0);
    expect(found.words.length).toBeGreaterThan(0);

    sh('node', ['scripts/d1-backup.mjs', 'backup', '--persist-to', persist, '--out', file]);
    const sql = readFileSync(file, 'utf8');
    expect(sql).not.toMatch(/INSERT INTO "listing_(search|series_fts|series_words|dates)/);
    expect(sql).toMatch(/^-- table quizzes \d+$/m);

    rmSync(persist, { recursive: true, force: true });
    expect(existsSync(persist)).toBe(false);
    sh('node', ['scripts/d1-backup.mjs', 'restore', file, '--persist-to', persist]);

    expect(state()).toEqual(before);
    expect(searches()).toEqual(found);
  }, 300_000);
});
