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
import { createOnceMemo } from '../../lib/version-memo';
import type { ImageSize, RenderedCard, Renderer } from './renderer';
import { installWasmShim, placeFilename } from './wasm-shim';

/**
 * How long a render waits for the engines another request is starting (ms). They start once per isolate
 * (resvg refuses a second initWasm), so after this the render fails (the route serves the fallback image)
 * rather than waiting on a promise that belongs to another, perhaps cancelled, request.
 */
export const RENDERER_JOIN_WAIT_MS = 5_000;

/** Inter regular and bold as bundled (.woff bytes): the owner kit embeds the same fonts in its PDFs. */
export const INTER_FONTS = { regular: inter400 as unknown as ArrayBuffer, bold: inter700 as unknown as ArrayBuffer };

const engines = createOnceMemo<Renderer>({ joinWaitMs: RENDERER_JOIN_WAIT_MS, afterWait: 'fail' });

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
    fonts: INTER_FONTS,
  });
}

/**
 * Renders a card: the PNG and the texts it draws. The engines start once per isolate (a failed start is retried).
 * `size` defaults to the share card's 1200 × 630 (the owner kit renders its Instagram images here too).
 */
export async function renderCard(element: ReactNode, size?: ImageSize): Promise<RenderedCard> {
  return (await engines.get(start)).render(element, size);
}

/** An SVG drawn as a PNG at its own size, and whether anything was painted (Renderer.rasterize). */
export async function rasterizeSvg(svg: string): Promise<{ png: Uint8Array; painted: boolean }> {
  return (await engines.get(start)).rasterize(svg);
}
