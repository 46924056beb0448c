/**
 * Extracts the HarfBuzz WebAssembly that satori embeds as base64 (satori ≥ 0.6x shapes text with it)
 * into worker/features/share/wasm/harfbuzz.wasm, so the Worker can import it as a precompiled
 * WebAssembly.Module: Workers refuse to compile WebAssembly from bytes at run time. Also writes the
 * tiny modules Emscripten's addFunction() compiles to put a JS callback into the function table, one
 * per signature HarfBuzz uses (wasm/fn-<signature>.wasm). Run after
 * upgrading satori (a unit test checks that the file matches the installed satori):
 *   node scripts/satori-harfbuzz-wasm.mjs
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export function embeddedHarfbuzz() {
  const require = createRequire(import.meta.url);
  const file = join(dirname(require.resolve('satori/package.json')), 'dist', 'standalone.js');
  const text = readFileSync(file, 'utf8');
  const found = [...text.matchAll(/[A-Za-z0-9+/]{100000,}={0,2}/g)]
    .map((m) => Buffer.from(m[0], 'base64'))
    .filter((b) => b.subarray(0, 4).toString('hex') === '0061736d');
  if (found.length !== 1) throw new Error(`expected one embedded wasm in ${file}, found ${found.length}`);
  return found[0];
}

/** The signatures harfbuzzjs passes to addFunction() (free, draw callbacks, buffer message). */
export const CALLBACK_SIGNATURES = ['vi', 'viiii', 'iiiii', 'viiiffi', 'viiiffffi', 'viiiffffffi'];

/** The bytes Emscripten's convertJsFunctionToWasm builds for a signature (module importing e.f, exporting f). */
export function callbackModule(sig) {
  const code = { i: 127, p: 127, j: 126, f: 125, d: 124, e: 111 };
  const vec = (a) => [(a.length % 128) | 128, a.length >> 7, ...a];
  const types = (s) => vec(Array.from(s, (c) => code[c]));
  return Uint8Array.of(
    0,
    97,
    115,
    109,
    1,
    0,
    0,
    0,
    1,
    ...vec([1, 96, ...types(sig.slice(1)), ...types(sig[0] === 'v' ? '' : sig[0])]),
    2,
    7,
    1,
    1,
    101,
    1,
    102,
    0,
    0,
    7,
    5,
    1,
    1,
    102,
    0,
    0,
  );
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = new URL('../worker/features/share/wasm/', import.meta.url);
  const wasm = embeddedHarfbuzz();
  writeFileSync(new URL('harfbuzz.wasm', dir), wasm);
  console.log(`harfbuzz.wasm: ${wasm.length} bytes`);
  for (const sig of CALLBACK_SIGNATURES) writeFileSync(new URL(`fn-${sig}.wasm`, dir), callbackModule(sig));
}
