/**
 * PNG rendering of share cards: JSX → SVG with satori (layout by its yoga wasm), SVG → PNG with resvg
 * (wasm). The engines themselves (~1 MB of JavaScript) live in a lazy module (renderer.ts, pre-bundled
 * into worker/lazy/share-renderer.bundle.js) loaded on the first render, so the Worker's main module —
 * what every cold start parses — does not carry them (README "Speed at scale", lazy modules).
 *
 * Workers may not compile WebAssembly from bytes at run time, so every engine gets a WebAssembly.Module
 * that wrangler made of an imported .wasm file at build time: they are imported here (separate binary
 * modules: they add no JavaScript to the main module) and handed to the renderer; satori's HarfBuzz is
 * answered by wasm-shim.ts. Fonts are bundled (Inter .woff: satori cannot read woff2); no network.
 */
import resvgWasm from '@resvg/resvg-wasm/index_bg.wasm';
import yogaWasm from 'satori/layout.wasm';
import inter400 from '@fontsource/inter/files/inter-latin-400-normal.woff';
import inter700 from '@fontsource/inter/files/inter-latin-700-normal.woff';
import type { ReactNode } from 'react';
import { loadShareRenderer } from '../../lazy';
import type { Renderer } from './renderer';
import { installWasmShim, placeFilename } from './wasm-shim';

let ready: Promise<Renderer> | null = null;

async function start(): Promise<Renderer> {
  // satori's HarfBuzz compiles its wasm while the module is evaluated: the shim must be in place first.
  installWasmShim();
  const removeFilename = placeFilename();
  let mod: Awaited<ReturnType<typeof loadShareRenderer>>;
  try {
    mod = await loadShareRenderer();
  } finally {
    removeFilename();
  }
  return mod.createRenderer({
    yoga: yogaWasm,
    resvg: resvgWasm,
    fonts: { regular: inter400 as unknown as ArrayBuffer, bold: inter700 as unknown as ArrayBuffer },
  });
}

/** The renderer, once per isolate (a failed start is retried on the next render). */
function renderer(): Promise<Renderer> {
  ready ??= start().catch((e: unknown) => {
    ready = null;
    throw e;
  });
  return ready;
}

export async function renderPng(element: ReactNode): Promise<Uint8Array> {
  return (await renderer()).renderPng(element);
}
