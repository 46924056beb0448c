/**
 * scripts/serve-bundle.mjs lists a `wrangler deploy --dry-run` bundle's modules for Miniflare (the e2e apps): the
 * entry first (Miniflare takes the first module as the main one), each file under the type wrangler uploads it as,
 * and nothing that is not a module (the source map, the README wrangler writes).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error plain .mjs script without types
import { bundleModules } from '../../scripts/serve-bundle.mjs';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('bundleModules', () => {
  it('puts index.js first and types the lazy modules, the wasm and the data files; skips the map and the README', () => {
    dir = mkdtempSync(join(tmpdir(), 'quizkvall-bundle-'));
    mkdirSync(dir, { recursive: true });
    for (const name of ['a1-fallback.png', 'b2-inter.woff', 'c3-layout.wasm', 'index.js', 'index.js.map', 'README.md', 'stripe.bundle.js'])
      writeFileSync(join(dir, name), '');
    const modules = (bundleModules(dir) as Array<{ type: string; path: string }>).map((m) => [m.type, m.path.slice(dir!.length + 1)]);
    expect(modules).toEqual([
      ['ESModule', 'index.js'],
      ['Data', 'a1-fallback.png'],
      ['Data', 'b2-inter.woff'],
      ['CompiledWasm', 'c3-layout.wasm'],
      ['ESModule', 'stripe.bundle.js'],
    ]);
  });
});
