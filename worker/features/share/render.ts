/**
 * PNG rendering of share cards: JSX → SVG with satori (layout by its yoga wasm), SVG → PNG with resvg
 * (wasm). Workers may not compile WebAssembly from bytes at run time, so both engines get the
 * WebAssembly.Module that wrangler made of the imported .wasm file at build time (`satori/standalone`
 * + `init`, resvg's `initWasm`; satori's HarfBuzz through wasm-shim.ts). Fonts are bundled (Inter .woff: satori cannot read woff2); no network.
 */
// Must come first: lets satori's HarfBuzz start inside workerd (see wasm-shim.ts).
import { removePlaceholderFilename } from './wasm-shim';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import resvgWasm from '@resvg/resvg-wasm/index_bg.wasm';
import satori, { init as initSatori } from 'satori/standalone';
import yogaWasm from 'satori/layout.wasm';
import inter400 from '@fontsource/inter/files/inter-latin-400-normal.woff';
import inter700 from '@fontsource/inter/files/inter-latin-700-normal.woff';
import type { ReactNode } from 'react';

removePlaceholderFilename();

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

let ready: Promise<void> | null = null;

/** Both wasm engines, once per isolate (a failed start is retried on the next render). */
function engines(): Promise<void> {
  ready ??= Promise.all([initSatori(yogaWasm), initWasm(resvgWasm)]).then(
    () => undefined,
    (e: unknown) => {
      ready = null;
      throw e;
    },
  );
  return ready;
}

export async function renderPng(element: ReactNode): Promise<Uint8Array> {
  await engines();
  const svg = await satori(element, {
    width: CARD_WIDTH,
    height: CARD_HEIGHT,
    fonts: [
      { name: 'Inter', data: inter400 as unknown as ArrayBuffer, weight: 400, style: 'normal' },
      { name: 'Inter', data: inter700 as unknown as ArrayBuffer, weight: 700, style: 'normal' },
    ],
  });
  const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: CARD_WIDTH }, font: { loadSystemFonts: false } });
  const png = resvg.render();
  try {
    return png.asPng();
  } finally {
    png.free();
    resvg.free();
  }
}
