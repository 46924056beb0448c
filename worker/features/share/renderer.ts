/**
 * The share-card engines (satori: JSX → SVG, laid out by its yoga wasm and shaped by HarfBuzz; resvg:
 * SVG → PNG) — the heavy part of issue 16 (~1 MB of JavaScript). NOT imported by the Worker's main
 * module: scripts/build-lazy-modules.mjs pre-bundles this file into worker/lazy/share-renderer.bundle.js,
 * an additional module that render.ts loads with a dynamic import() on the first share image
 * (README "Speed at scale", lazy modules). It imports no .wasm or font: render.ts passes the
 * precompiled modules and fonts in, and installs wasm-shim.ts before this module is evaluated
 * (satori's HarfBuzz starts while it is imported).
 */
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori, { init as initSatori } from 'satori/standalone';
import type { ReactNode } from 'react';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface RendererAssets {
  /** satori's yoga layout engine, precompiled (satori/layout.wasm). */
  yoga: WebAssembly.Module;
  /** resvg, precompiled (@resvg/resvg-wasm/index_bg.wasm). */
  resvg: WebAssembly.Module;
  /** Inter regular and bold (.woff: satori cannot read woff2). */
  fonts: { regular: ArrayBuffer; bold: ArrayBuffer };
}

export interface RenderedCard {
  png: Uint8Array;
  /** Every text satori laid out, in document order: what the card says (tests read it). */
  texts: string[];
}

/** An image's size in pixels; the share card's (1200 × 630) unless given (the owner kit's Instagram images). */
export interface ImageSize {
  width: number;
  height: number;
}

export interface Renderer {
  render(element: ReactNode, size?: ImageSize): Promise<RenderedCard>;
  /**
   * An SVG drawn as a PNG at its own size (the quizmaster photo's resize: a raster <image> in an SVG). `painted` is
   * false when nothing was drawn: resvg skips an <image> it cannot decode (WebP, broken bytes) without an error.
   */
  rasterize(svg: string): { png: Uint8Array; painted: boolean };
}

/** The engines' start, once per isolate or process: resvg refuses a second initWasm (two renderers in one bench run). */
let engines: Promise<unknown> | null = null;

/** A renderer; the first one starts both wasm engines, every later one shares them. */
export async function createRenderer(assets: RendererAssets): Promise<Renderer> {
  engines ??= Promise.all([initSatori(assets.yoga), initWasm(assets.resvg)]).catch((err) => {
    engines = null;
    throw err;
  });
  await engines;
  const fonts = [
    { name: 'Inter', data: assets.fonts.regular, weight: 400 as const, style: 'normal' as const },
    { name: 'Inter', data: assets.fonts.bold, weight: 700 as const, style: 'normal' as const },
  ];
  return {
    async render(element, size = { width: CARD_WIDTH, height: CARD_HEIGHT }) {
      const texts: string[] = [];
      const svg = await satori(element, {
        width: size.width,
        height: size.height,
        fonts,
        onNodeDetected: (node) => {
          if (node.textContent) texts.push(node.textContent);
        },
      });
      const resvg = new Resvg(svg, { fitTo: { mode: 'width', value: size.width }, font: { loadSystemFonts: false } });
      const png = resvg.render();
      try {
        return { png: png.asPng(), texts };
      } finally {
        png.free();
        resvg.free();
      }
    },
    rasterize(svg) {
      const resvg = new Resvg(svg, { font: { loadSystemFonts: false } });
      const image = resvg.render();
      try {
        const pixels = image.pixels;
        let painted = false;
        for (let i = 3; i < pixels.length && !painted; i += 4) painted = pixels[i] !== 0;
        return { png: image.asPng(), painted };
      } finally {
        image.free();
        resvg.free();
      }
    },
  };
}
