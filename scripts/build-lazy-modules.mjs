#!/usr/bin/env node
/**
 * Pre-bundles the Worker's lazy modules into worker/lazy/*.bundle.js (README "Speed at scale", lazy
 * modules). wrangler's esbuild never splits code, so a dynamic import() of a package stays inside the
 * main module; a file under `base_dir` (wrangler.toml) that matches a module rule is instead uploaded as
 * its own module (`find_additional_modules`) and a dynamic import() of it is loaded at run time.
 *
 * Runs as wrangler's [build] command (so before `wrangler dev` / `npm start`, `wrangler deploy` and the
 * bundle bench's `wrangler deploy --dry-run`) and from vitest.config.ts (integration tests); ~1 s.
 * Output is gitignored; it is rewritten only when its content changes (no needless reloads in dev).
 *
 *   share-renderer.bundle.js  worker/features/share/renderer.ts: satori/standalone + resvg's JS. The
 *                             HarfBuzz wasm satori embeds as base64 (~500 KB of text) is replaced by a
 *                             short placeholder that wasm-shim.ts answers with the precompiled
 *                             wasm/harfbuzz.wasm (the build fails if the embedded copy differs from it).
 *   stripe.bundle.js          the Stripe SDK's workerd build (worker/ports/payments.ts).
 *   calendar-parser.bundle.js worker/features/calendar-sync/ics.ts: reading .ics feeds with ical.js (sync).
 *   calendar-writer.bundle.js worker/features/calendar/ics.ts: writing .ics with ical-generator (feeds).
 *   csv-parser.bundle.js      worker/lib/csv-parse.ts: reading CSV with papaparse (the admin import).
 *   kit-renderer.bundle.js    worker/features/kit/renderer.ts: the owner kit's PDFs with pdf-lib + fontkit, QR codes (uqr).
 *   react-server.bundle.js    worker/lib/react-server.ts: react-dom/server (embeds, link pages). Its `react`
 *                             is the main module's, read from globalThis (hostReactPlugin; worker/lib/ssr.ts).
 *   public-app.bundle.js      worker/features/pages/public-app.tsx: the public pages' tree (web/pages/PublicApp)
 *                             with its own react-dom/server, on the main module's React as above.
 *
 * Each bundle is self-contained: whatever its entry imports (a contract's constants, lib/clock) is
 * bundled into it as a copy, so a class it defines is another class than the main module's — an error
 * class the main module tests with instanceof lives in the lazy entry only and is read from the loaded
 * module (docs/decisions/0017-lazy-module-rule.md).
 *
 * Same esbuild settings as wrangler's (conditions workerd/worker/browser, ES2022, minified, names kept,
 * NODE_ENV=production), with a linked source map for readable stack traces and the bundle report.
 */
import { build } from 'esbuild';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'worker', 'lazy');

/** Must equal HARFBUZZ_PLACEHOLDER_TEXT in worker/features/share/wasm-signature.ts. */
export const HARFBUZZ_PLACEHOLDER_TEXT = 'quizkvall:wasm/harfbuzz.wasm';

/** satori's standalone build with its embedded HarfBuzz base64 replaced by the placeholder's. */
export function stripEmbeddedHarfbuzz(text, expectedWasm) {
  const found = [...text.matchAll(/[A-Za-z0-9+/]{100000,}={0,2}/g)].filter(
    (m) => Buffer.from(m[0].slice(0, 8), 'base64').subarray(0, 4).toString('hex') === '0061736d',
  );
  if (found.length !== 1) throw new Error(`build-lazy-modules: expected one embedded wasm in satori, found ${found.length}`);
  const m = found[0];
  if (!Buffer.from(m[0], 'base64').equals(expectedWasm)) {
    throw new Error(
      'build-lazy-modules: satori embeds a different HarfBuzz than worker/features/share/wasm/harfbuzz.wasm — run `node scripts/satori-harfbuzz-wasm.mjs`',
    );
  }
  return text.slice(0, m.index) + Buffer.from(HARFBUZZ_PLACEHOLDER_TEXT).toString('base64') + text.slice(m.index + m[0].length);
}

const stripHarfbuzzPlugin = {
  name: 'strip-embedded-harfbuzz',
  setup(b) {
    b.onLoad({ filter: /[\\/]satori[\\/]dist[\\/]standalone\.js$/ }, (args) => {
      const wasm = readFileSync(join(ROOT, 'worker', 'features', 'share', 'wasm', 'harfbuzz.wasm'));
      return { contents: stripEmbeddedHarfbuzz(readFileSync(args.path, 'utf8'), wasm), loader: 'js' };
    });
  },
};

/** Must equal HOST_REACT in worker/lib/ssr.ts. */
export const HOST_REACT_KEY = 'quizkvall:react';

/**
 * `react` inside a lazy bundle is the main module's React (worker/lib/ssr.ts sets it before loading the bundle):
 * hooks dispatch through React's shared internals, so a renderer with its own copy of React breaks every hook.
 */
const hostReactPlugin = {
  name: 'host-react',
  setup(b) {
    b.onResolve({ filter: /^react$/ }, () => ({ path: 'react', namespace: 'host-react' }));
    b.onLoad({ filter: /.*/, namespace: 'host-react' }, () => ({
      contents: `const React = globalThis[Symbol.for(${JSON.stringify(HOST_REACT_KEY)})];
if (!React) throw new Error('react-server bundle: load it through reactServer() (worker/lib/ssr.ts)');
module.exports = React;`,
      loader: 'js',
    }));
  },
};

const common = {
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  mainFields: ['browser', 'module', 'main'],
  conditions: ['workerd', 'worker', 'browser'],
  target: 'es2022',
  minify: true,
  keepNames: true,
  sourcemap: 'linked',
  sourcesContent: false,
  legalComments: 'none',
  // Node built-ins are provided by workerd (nodejs_compat), as for the main module.
  external: ['node:*'],
  // As wrangler defines it for the main module (NODE_ENV, else production). The React renderer is built in both modes
  // instead (nodeEnv below), so it never depends on who built last.
  define: { 'process.env.NODE_ENV': JSON.stringify(process.env.NODE_ENV || 'production') },
  logLevel: 'warning',
  write: false,
  absWorkingDir: ROOT,
};

export const LAZY_MODULES = [
  { out: 'share-renderer.bundle.js', entryPoints: [join(ROOT, 'worker', 'features', 'share', 'renderer.ts')], plugins: [stripHarfbuzzPlugin] },
  {
    out: 'stripe.bundle.js',
    stdin: { contents: "export { default } from 'stripe';", resolveDir: ROOT, sourcefile: 'stripe-entry.js', loader: 'js' },
    plugins: [],
  },
  { out: 'calendar-parser.bundle.js', entryPoints: [join(ROOT, 'worker', 'features', 'calendar-sync', 'ics.ts')], plugins: [] },
  { out: 'calendar-writer.bundle.js', entryPoints: [join(ROOT, 'worker', 'features', 'calendar', 'ics.ts')], plugins: [] },
  { out: 'csv-parser.bundle.js', entryPoints: [join(ROOT, 'worker', 'lib', 'csv-parse.ts')], plugins: [] },
  { out: 'kit-renderer.bundle.js', entryPoints: [join(ROOT, 'worker', 'features', 'kit', 'renderer.ts')], plugins: [] },
  // The renderer in both of React's builds, one file each: it must match the main module's React, and a folder serves
  // `wrangler dev` / the e2e apps (production) and the integration tier (development) at the same time — one file
  // rebuilt in either mode broke the other (npm test runs Lighthouse's app beside the integration tier).
  {
    out: 'react-server.bundle.js',
    entryPoints: [join(ROOT, 'worker', 'lib', 'react-server.ts')],
    plugins: [hostReactPlugin],
    nodeEnv: 'production',
  },
  {
    out: 'react-server-dev.bundle.js',
    entryPoints: [join(ROOT, 'worker', 'lib', 'react-server.ts')],
    plugins: [hostReactPlugin],
    nodeEnv: 'development',
  },
  // The public pages' tree (web/pages/PublicApp and its components) with its own react-dom/server, both builds.
  {
    out: 'public-app.bundle.js',
    entryPoints: [join(ROOT, 'worker', 'features', 'pages', 'public-app.tsx')],
    plugins: [hostReactPlugin],
    nodeEnv: 'production',
  },
  {
    out: 'public-app-dev.bundle.js',
    entryPoints: [join(ROOT, 'worker', 'features', 'pages', 'public-app.tsx')],
    plugins: [hostReactPlugin],
    nodeEnv: 'development',
  },
];

/** Builds every lazy module; writes a file only when its bytes change. Returns the paths written. */
export async function buildLazyModules() {
  const written = [];
  for (const { out, nodeEnv, ...opts } of LAZY_MODULES) {
    const outfile = join(OUT, out);
    const define = nodeEnv ? { 'process.env.NODE_ENV': JSON.stringify(nodeEnv) } : common.define;
    const result = await build({ ...common, ...opts, define, outfile });
    for (const file of result.outputFiles) {
      if (existsSync(file.path) && readFileSync(file.path).equals(Buffer.from(file.contents))) continue;
      writeFileSync(file.path, file.contents);
      written.push(relative(ROOT, file.path));
    }
  }
  return written;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const t = performance.now();
  const written = await buildLazyModules();
  console.log(`[lazy modules] ${written.length ? `wrote ${written.join(', ')}` : 'up to date'} (${Math.round(performance.now() - t)} ms)`);
}
