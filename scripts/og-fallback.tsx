/**
 * Generates the static brand image served when a share card fails to render
 * (worker/features/share/fallback.png, committed). Run once after changing the card template:
 *   npx tsx scripts/og-fallback.tsx
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { initWasm, Resvg } from '@resvg/resvg-wasm';
import satori from 'satori';
import * as React from 'react';

// tsx compiles JSX the classic way here: React must be in scope, also for the card module.
(globalThis as { React?: unknown }).React = React;
const { ShareCard } = await import('../worker/features/share/card');

const require = createRequire(import.meta.url);
const file = (p: string) => readFileSync(require.resolve(p));

await initWasm(file('@resvg/resvg-wasm/index_bg.wasm'));
const svg = await satori(
  <ShareCard data={{ kicker: 'Pubquiz och quizkvällar i hela Sverige', title: 'Hitta kvällens quiz', lines: [], empty: 'quizkvall.se' }} />,
  {
    width: 1200,
    height: 630,
    fonts: [
      { name: 'Inter', data: file('@fontsource/inter/files/inter-latin-400-normal.woff'), weight: 400, style: 'normal' },
      { name: 'Inter', data: file('@fontsource/inter/files/inter-latin-700-normal.woff'), weight: 700, style: 'normal' },
    ],
  },
);
const png = new Resvg(svg, { fitTo: { mode: 'width', value: 1200 } }).render().asPng();
writeFileSync(new URL('../worker/features/share/fallback.png', import.meta.url), png);
console.log(`fallback.png: ${png.length} bytes`);
