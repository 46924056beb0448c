/**
 * Issue 28.7: the browser cache policy and the strong ETag each have one home (worker/lib/cache.ts).
 * Before, lib/cache.ts sent `max-age=0, must-revalidate` and middleware/http-cache.ts overrode it with
 * 60 s, and both computed the SHA-1 ETag. Read from the source (comments stripped), so a second copy
 * anywhere under worker/ fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listSources(path) : [path];
  });
}

const ROOT = resolve(__dirname, '../..');
const HOME = 'worker/lib/cache.ts';

function code(path: string): string {
  return readFileSync(path, 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:])\/\/.*$/gm, '$1');
}

const sources = listSources(join(ROOT, 'worker'))
  .filter((p) => /\.(ts|tsx)$/.test(p) && !p.endsWith('.d.ts') && !/\.test\.tsx?$/.test(p))
  .map((p) => ({ path: relative(ROOT, p), code: code(p) }));

describe('one home for the browser cache policy and the ETag', () => {
  it(`only ${HOME} writes a public Cache-Control value (max-age / must-revalidate / stale-while-revalidate)`, () => {
    const writers = sources.filter((s) => /max-age=|must-revalidate|stale-while-revalidate=/.test(s.code)).map((s) => s.path);
    expect(writers).toEqual([HOME]);
  });

  it(`only ${HOME} computes a body's SHA-1 (the strong ETag)`, () => {
    const hashers = sources.filter((s) => /digest\(\s*['"]SHA-1['"]/.test(s.code)).map((s) => s.path);
    expect(hashers).toEqual([HOME]);
  });
});
