/**
 * satori shapes text with HarfBuzz, an Emscripten build that (1) compiles its embedded wasm bytes with
 * WebAssembly.instantiate(bytes) as soon as satori is imported, and (2) compiles a tiny module per
 * JS callback with new WebAssembly.Module(bytes) (Emscripten's addFunction). Workers forbid compiling
 * from bytes at run time ("Wasm code generation disallowed by embedder"); a Module that wrangler
 * compiled at build time from a .wasm import is allowed. So, before satori is imported
 * (installWasmShim(), called by render.ts right before it loads the lazy renderer), exactly those byte
 * strings are answered with the same wasm precompiled from ./wasm/*.wasm (written by
 * scripts/satori-harfbuzz-wasm.mjs from the installed satori; a unit test keeps them equal). Every other
 * call passes through unchanged.
 *
 * The lazy bundle (scripts/build-lazy-modules.mjs) does not carry satori's embedded 373 KB copy at all:
 * its base64 is replaced by HARFBUZZ_PLACEHOLDER, which is answered here like the real bytes.
 */
import fnIiiii from './wasm/fn-iiiii.wasm';
import fnVi from './wasm/fn-vi.wasm';
import fnViiiffffffi from './wasm/fn-viiiffffffi.wasm';
import fnViiiffffi from './wasm/fn-viiiffffi.wasm';
import fnViiiffi from './wasm/fn-viiiffi.wasm';
import fnViiii from './wasm/fn-viiii.wasm';
import harfbuzz from './wasm/harfbuzz.wasm';
import { bytesOf, callbackSignature, isHarfbuzzPlaceholder } from './wasm-signature';

/** Byte length of wasm/harfbuzz.wasm: how satori's embedded copy is recognised. */
export const HARFBUZZ_BYTES = 381_964;

/** The callback modules by signature, as Emscripten's convertJsFunctionToWasm builds them. */
const CALLBACKS: Record<string, WebAssembly.Module> = {
  vi: fnVi,
  viiii: fnViiii,
  iiiii: fnIiiii,
  viiiffi: fnViiiffi,
  viiiffffi: fnViiiffffi,
  viiiffffffi: fnViiiffffffi,
};

const originalInstantiate = WebAssembly.instantiate.bind(WebAssembly) as (s: unknown, i?: WebAssembly.Imports) => Promise<unknown>;
const OriginalModule = WebAssembly.Module;

function instantiate(source: unknown, imports?: WebAssembly.Imports) {
  const bytes = source instanceof OriginalModule ? null : bytesOf(source);
  if (bytes && (bytes.byteLength === HARFBUZZ_BYTES || isHarfbuzzPlaceholder(bytes))) {
    return WebAssembly.instantiate(harfbuzz, imports).then((instance) => ({ module: harfbuzz, instance }));
  }
  return originalInstantiate(source, imports);
}

function Module(this: unknown, bytes: BufferSource) {
  const b = bytesOf(bytes);
  const sig = b ? callbackSignature(b) : null;
  const pre = sig ? CALLBACKS[sig] : undefined;
  if (pre) return pre;
  // Workers' types declare Module abstract (no compiling from bytes at run time); other bytes still go to it unchanged.
  return Reflect.construct(OriginalModule, [bytes]) as WebAssembly.Module;
}
Module.prototype = OriginalModule.prototype;
Object.assign(Module, { exports: OriginalModule.exports, imports: OriginalModule.imports, customSections: OriginalModule.customSections });

/** Patches WebAssembly.instantiate / WebAssembly.Module once per isolate (idempotent). */
export function installWasmShim(): void {
  const marked = WebAssembly as unknown as { quizkvallShim?: boolean };
  if (marked.quizkvallShim) return;
  marked.quizkvallShim = true;
  WebAssembly.instantiate = instantiate as typeof WebAssembly.instantiate;
  WebAssembly.Module = Module as unknown as typeof WebAssembly.Module;
}

/**
 * HarfBuzz's Emscripten loader, run while satori is imported, reads `self.location.href` for its script
 * directory when `__filename` is undefined and WorkerGlobalScope exists — workerd has no
 * `self.location`, so it throws. Its wasm is embedded (answered above), so the path is never used: a
 * placeholder `__filename` exists only while satori is imported (render.ts: set right before the
 * lazy import, removed right after).
 */
const g = globalThis as { __filename?: string };
const PLACEHOLDER_FILENAME = '/satori-harfbuzz.js';

/** Sets the placeholder if `__filename` is undefined; returns the function that removes it again. */
export function placeFilename(): () => void {
  if (typeof g.__filename !== 'undefined') return () => {};
  g.__filename = PLACEHOLDER_FILENAME;
  return () => {
    if (g.__filename === PLACEHOLDER_FILENAME) delete g.__filename;
  };
}
