/**
 * The CPU cost of one share-card render (issue 26.4): the Worker's own renderer (satori → SVG → resvg →
 * PNG, worker/features/share/renderer.ts) and card template (card.tsx), run in Node on cards whose
 * texts all differ (no render reuses another's layout), each timed with process.cpuUsage() (user +
 * system CPU of this process, so waiting is not counted). The engines are started first and not timed.
 * This is the cost every uncached `/og/*` request used to pay, and what the R2 card store and the
 * per-client render limit now bound (docs/features/share-card-cost.md).
 *
 *   npx tsx test/bench/og-render.ts          (OG_BENCH_RENDERS=60 by default)
 *
 * `npm run bench` runs it first and puts the row into results.md (test/bench/run.ts).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { ShareCard, type CardData } from '../../worker/features/share/card';
import { createRenderer } from '../../worker/features/share/renderer';

const require = createRequire(import.meta.url);

export interface OgRenderCost {
  renders: number;
  medianCpuMs: number;
  p99CpuMs: number;
  maxCpuMs: number;
  /** Engine start (lazy module + wasm), once per isolate: not part of the per-render figures. */
  startCpuMs: number;
  pngBytesMedian: number;
}

const bytes = (specifier: string) => {
  const b = readFileSync(require.resolve(specifier));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};

function cpuMs(since: NodeJS.CpuUsage): number {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
}

function pick(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

/** A realistic card: city title, three dated lines with venue names; `i` makes every text unique. */
function cardOf(i: number): CardData {
  const cities = ['Göteborg', 'Stockholm', 'Malmö', 'Örebro', 'Umeå', 'Västerås'];
  const city = `${cities[i % cities.length]} ${i}`;
  return {
    kicker: 'Pubquiz och quizkvällar',
    title: i % 3 === 0 ? `Quiz på tisdag i ${city}` : i % 3 === 1 ? `Quiz i ${city}` : `Bryggeriet & Krogen ${i} – quiz med Åsa Öberg`,
    lines: [
      `tis ${1 + (i % 28)} dec 19:00 · Puben ${i}`,
      `ons ${2 + (i % 27)} dec 19:30 · Kvarterskrogen ${i}`,
      `tors ${3 + (i % 26)} dec 20:00 · Ölstugan ${i}, ${city}`,
    ],
  };
}

export async function measureOgRender(renders = Number(process.env.OG_BENCH_RENDERS ?? 60)): Promise<OgRenderCost> {
  const t0 = process.cpuUsage();
  const renderer = await createRenderer({
    yoga: await WebAssembly.compile(bytes('satori/layout.wasm')),
    resvg: await WebAssembly.compile(bytes('@resvg/resvg-wasm/index_bg.wasm')),
    fonts: { regular: bytes('@fontsource/inter/files/inter-latin-400-normal.woff'), bold: bytes('@fontsource/inter/files/inter-latin-700-normal.woff') },
  });
  // The first render also warms satori's font and layout caches: counted with the start.
  await renderer.render(ShareCard({ data: cardOf(-1) }));
  const startCpuMs = cpuMs(t0);
  const times: number[] = [];
  const sizes: number[] = [];
  for (let i = 0; i < renders; i++) {
    const t = process.cpuUsage();
    const { png } = await renderer.render(ShareCard({ data: cardOf(i) }));
    times.push(cpuMs(t));
    sizes.push(png.byteLength);
  }
  times.sort((a, b) => a - b);
  sizes.sort((a, b) => a - b);
  return { renders, medianCpuMs: pick(times, 50), p99CpuMs: pick(times, 99), maxCpuMs: times.at(-1)!, startCpuMs, pngBytesMedian: pick(sizes, 50) };
}

export function ogRenderMarkdown(r: OgRenderCost): string {
  return [
    '| share card render (CPU, Node, one card at a time) | renders | median ms | p99 ms | max ms | engine start ms | PNG bytes (median) |',
    '|---|---:|---:|---:|---:|---:|---:|',
    `| satori + resvg, 1200×630 | ${r.renders} | ${r.medianCpuMs.toFixed(1)} | ${r.p99CpuMs.toFixed(1)} | ${r.maxCpuMs.toFixed(1)} | ${r.startCpuMs.toFixed(0)} | ${r.pngBytesMedian} |`,
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureOgRender();
  process.stdout.write(`Measured ${new Date().toISOString()} (${process.platform}/${process.arch}, Node ${process.version})\n\n${ogRenderMarkdown(r)}\n`);
}
