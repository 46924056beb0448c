/**
 * satori shapes text with HarfBuzz, an Emscripten build that (1) compiles its embedded wasm bytes with
 * WebAssembly.instantiate(bytes) as soon as satori is imported, and (2) compiles a tiny module per
 * JS callback with new WebAssembly.Module(bytes) (Emscripten's addFunction). Workers forbid compiling
 * from bytes at run time ("Wasm code generation disallowed by embedder"); a Module that wrangler
 * compiled at build time from a .wasm import is allowed. So, before satori is imported (import this
 * module first), exactly those byte strings are answered with the same wasm precompiled from
 * ./wasm/*.wasm (written by scripts/satori-harfbuzz-wasm.mjs from the installed satori; a unit test
 * keeps them equal). Every other call passes through unchanged.
 */
import fnIiiii from './wasm/fn-iiiii.wasm';
import fnVi from './wasm/fn-vi.wasm';
import fnViiiffffffi from './wasm/fn-viiiffffffi.wasm';
import fnViiiffffi from './wasm/fn-viiiffffi.wasm';
import fnViiiffi from './wasm/fn-viiiffi.wasm';
import fnViiii from './wasm/fn-viiii.wasm';
import harfbuzz from './wasm/harfbuzz.wasm';
import { bytesOf, callbackSignature } from './wasm-signature';

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
  if (!(source instanceof OriginalModule) && bytesOf(source)?.byteLength === HARFBUZZ_BYTES) {
    return WebAssembly.instantiate(harfbuzz, imports).then((instance) => ({ module: harfbuzz, instance }));
  }
  return originalInstantiate(source, imports);
}

function Module(this: unknown, bytes: BufferSource) {
  const b = bytesOf(bytes);
  const sig = b ? callbackSignature(b) : null;
  const pre = sig ? CALLBACKS[sig] : undefined;
  if (pre) return pre;
  return new OriginalModule(bytes);
}
Module.prototype = OriginalModule.prototype;
Object.assign(Module, { exports: OriginalModule.exports, imports: OriginalModule.imports, customSections: OriginalModule.customSections });

const marked = WebAssembly as unknown as { quizkvallShim?: boolean };
if (!marked.quizkvallShim) {
  marked.quizkvallShim = true;
  WebAssembly.instantiate = instantiate as typeof WebAssembly.instantiate;
  WebAssembly.Module = Module as unknown as typeof WebAssembly.Module;
}

/**
 * HarfBuzz's Emscripten loader, run while satori is imported, reads `self.location.href` for its script
 * directory when `__filename` is undefined and WorkerGlobalScope exists — workerd has no
 * `self.location`, so it throws. Its wasm is embedded (answered above), so the path is never used: a
 * placeholder `__filename` exists only while satori is imported; render.ts removes it right after.
 */
const g = globalThis as { __filename?: string };
export const placedFilename = typeof g.__filename === 'undefined';
if (placedFilename) g.__filename = '/satori-harfbuzz.js';

export function removePlaceholderFilename(): void {
  if (placedFilename && g.__filename === '/satori-harfbuzz.js') delete g.__filename;
}
