/**
 * A lighter Worker (issue 19 §6). The deployed bundle (wrangler deploy --dry-run, minified) stays
 * ≤ 1.5 MB raw, and the two import patterns that made it 3 MB cannot come back unnoticed:
 * - `import { z } from 'zod'`: esbuild (wrangler's bundler) cannot tree-shake a re-exported namespace,
 *   so it pulled every zod locale and the JSON-schema code (~690 KB); `import * as z from 'zod'` is
 *   shaken (zod's own recommended form).
 * - a static value import of the Stripe SDK (`import Stripe from 'stripe'`): it is loaded on first
 *   use through `loadStripe()` in worker/ports/payments.ts (type imports are fine).
 * The share renderer (satori + resvg) and the Stripe SDK are lazy modules (worker/lazy/): uploaded
 * beside the main module and imported on first use, so none of their bytes may be in the main module.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLE_TARGET_BYTES, bundleMarkdown, measureBundle, moduleOf } from '../bench/bundle';

const root = join(import.meta.dirname, '..', '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { recursive: true })
    .map(String)
    .filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => join(dir, f));
}

describe('worker bundle', () => {
  const files = [...sourceFiles('worker'), ...sourceFiles('web')];

  it("no `import { z } from 'zod'` (use `import * as z from 'zod'`)", () => {
    const bad = files.filter((f) => /import\s*\{[^}]*\bz\b[^}]*\}\s*from\s*['"]zod['"]/.test(readFileSync(join(root, f), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('satori and resvg are imported only by the lazy renderer (worker/features/share/renderer.ts)', () => {
    // Their .wasm files are fine anywhere: a binary module adds no JavaScript to the main module.
    const engine = /^\s*import\s+(?!type\b)[^;]*from\s*['"](satori|@resvg\/resvg-wasm)(\/[^'"]*)?['"]/gm;
    const bad = files.filter(
      (f) =>
        f !== join('worker', 'features', 'share', 'renderer.ts') &&
        [...readFileSync(join(root, f), 'utf8').matchAll(engine)].some((m) => !m[2]?.endsWith('.wasm')),
    );
    expect(bad).toEqual([]);
  });

  it('the Stripe SDK is never imported statically (only `import type`, or loadStripe())', () => {
    const bad = files.filter((f) => /^\s*import\s+(?!type\b)[^;]*from\s*['"]stripe(\/[^'"]*)?['"]/m.test(readFileSync(join(root, f), 'utf8')));
    expect(bad).toEqual([]);
  });

  it('module names in the bundle report', () => {
    expect(moduleOf('../../main/node_modules/zod/v4/core/util.js')).toBe('zod');
    expect(moduleOf('../../main/node_modules/@oslojs/crypto/dist/sha1.js')).toBe('@oslojs/crypto');
    expect(moduleOf('worker/features/listing/queries.ts')).toBe('worker/features/listing');
    expect(moduleOf('web/components/listing/Card.tsx')).toBe('web/components');
  });

  it(`the deployed bundle is ≤ ${BUNDLE_TARGET_BYTES / 1024 / 1024} MB raw`, { timeout: 180_000 }, () => {
    const report = measureBundle({ startupRuns: 0 });
    console.log(bundleMarkdown(report, 10));
    expect(report.main.bytes).toBeLessThanOrEqual(BUNDLE_TARGET_BYTES);
    // The report attributes the bytes: the largest entries are real packages, not unknown code.
    expect(report.mainByModule[0]!.name).not.toMatch(/glue|\?/);
    // The lazy modules are separate files, and what they carry is not in the main module too.
    expect(report.chunks.map((c) => c.file).sort()).toEqual(['share-renderer.bundle.js', 'stripe.bundle.js']);
    const inMain = new Set(report.mainByModule.filter((e) => e.bytes > 1024).map((e) => e.name));
    for (const pkg of ['satori', 'harfbuzzjs', '@shuding/opentype.js', 'stripe']) {
      expect(inMain.has(pkg), `${pkg} in the main module`).toBe(false);
      expect(
        report.chunksByModule.some((e) => e.name === pkg),
        `${pkg} in a lazy module`,
      ).toBe(true);
    }
    // satori's embedded HarfBuzz base64 (~500 KB) is not shipped again: wasm/harfbuzz.wasm is used.
    expect(report.chunksByModule.find((e) => e.name === 'harfbuzzjs')!.bytes).toBeLessThan(150 * 1024);
  });
});
