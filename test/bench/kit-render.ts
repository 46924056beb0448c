/**
 * The CPU cost of one owner-kit render (issue 48.7): the Worker's own code run in Node — the PDFs with pdf-lib
 * (worker/features/kit/renderer.ts: Inter embedded as subsets, the QR code drawn) and the Instagram images with the
 * share engines (satori + resvg, images.tsx) — on items whose texts all differ, each timed with process.cpuUsage()
 * (this process's CPU, so waiting is not counted). The engines are started first and not timed. A stored item (R2)
 * costs none of this (docs/features/owner-kit.md).
 *
 *   npx tsx test/bench/kit-render.ts          (KIT_BENCH_RENDERS=20 per item by default; KIT_BENCH_OUT=dir writes one of each)
 *
 * `npm run bench` runs it after the share cards and puts the rows into results.md (test/bench/run.ts).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { KitData } from '../../worker/features/kit/data';
import { nextQuizImage, renderKitPdf, topThreeImage } from '../../worker/features/kit/renderer';
import { createRenderer } from '../../worker/features/share/renderer';

const require = createRequire(import.meta.url);
const bytes = (specifier: string) => {
  const b = readFileSync(require.resolve(specifier));
  return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
};
const cpuMs = (since: NodeJS.CpuUsage) => {
  const d = process.cpuUsage(since);
  return (d.user + d.system) / 1000;
};
const pick = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

export const KIT_BENCH_ITEMS = ['poster', 'tent', 'post', 'story', 'top3-post', 'top3-story'] as const;
export type KitBenchItem = (typeof KIT_BENCH_ITEMS)[number];

export interface KitRenderCost {
  item: KitBenchItem;
  renders: number;
  medianCpuMs: number;
  p99CpuMs: number;
  maxCpuMs: number;
  bytesMedian: number;
}

/** A realistic item; `i` makes every text unique. */
export function kitDataOf(i: number): KitData {
  const url = `https://quizkvall.se/quiz/stockholm/bryggeriet-och-krogen-${i}?src=affisch`;
  return {
    when: i % 2 ? 'Varje tisdag 19:00' : 'Varannan torsdag och söndag 20:30',
    title: i % 3 ? `Musikquiz ${i}` : null,
    venueName: `Bryggeriet & Krogen ${i} – Åsa Öbergs kvarterskrog`,
    place: `Götgatan ${i}, Stockholm`,
    price: `${40 + (i % 5) * 10} kr`,
    teamSize: 'Max 6 per lag',
    language: i % 2 ? 'Svenska' : 'Svenska och engelska',
    dates: Array.from({ length: 6 }, (_, d) => `tisdag ${1 + ((i + d * 7) % 28)} december`),
    url,
    urlText: url.replace('https://', ''),
    night: {
      date: `tisdag ${1 + (i % 28)} december`,
      rows: [
        { rank: 1, team: `Quizzly Bears ${i}`, score: `${50 + (i % 7)} p` },
        { rank: 2, team: `Besserwissrarna från Söder ${i}`, score: '45,5 p' },
        { rank: 2, team: `Lag Ö ${i}`, score: '45,5 p' },
      ],
    },
  };
}

export async function measureKitRender(renders = Number(process.env.KIT_BENCH_RENDERS ?? 20)): Promise<{ startCpuMs: number; rows: KitRenderCost[] }> {
  const fonts = { regular: bytes('@fontsource/inter/files/inter-latin-400-normal.woff'), bold: bytes('@fontsource/inter/files/inter-latin-700-normal.woff') };
  const t0 = process.cpuUsage();
  const renderer = await createRenderer({
    yoga: await WebAssembly.compile(bytes('satori/layout.wasm')),
    resvg: await WebAssembly.compile(bytes('@resvg/resvg-wasm/index_bg.wasm')),
    fonts,
  });
  const render = async (item: KitBenchItem, data: KitData): Promise<Uint8Array> => {
    if (item === 'poster' || item === 'tent') return renderKitPdf(item, data, fonts);
    const image = item === 'top3-post' ? topThreeImage('post', data) : item === 'top3-story' ? topThreeImage('story', data) : nextQuizImage(item, data);
    return (await renderer.render(image.element, image.size)).png;
  };
  // The first render of each item warms pdf-lib's and satori's caches: counted with the start.
  for (const item of KIT_BENCH_ITEMS) await render(item, kitDataOf(-1));
  const startCpuMs = cpuMs(t0);
  const out = process.env.KIT_BENCH_OUT;
  if (out) mkdirSync(out, { recursive: true });
  const rows: KitRenderCost[] = [];
  for (const item of KIT_BENCH_ITEMS) {
    const times: number[] = [];
    const sizes: number[] = [];
    for (let i = 0; i < renders; i++) {
      const t = process.cpuUsage();
      const b = await render(item, kitDataOf(i));
      times.push(cpuMs(t));
      sizes.push(b.byteLength);
      if (out && i === 0) writeFileSync(join(out, `${item}.${item === 'poster' || item === 'tent' ? 'pdf' : 'png'}`), b);
    }
    times.sort((a, b) => a - b);
    sizes.sort((a, b) => a - b);
    rows.push({ item, renders, medianCpuMs: pick(times, 50), p99CpuMs: pick(times, 99), maxCpuMs: times.at(-1)!, bytesMedian: pick(sizes, 50) });
  }
  return { startCpuMs, rows };
}

const LABELS: Record<KitBenchItem, string> = {
  poster: 'A4 poster, PDF (pdf-lib, Inter subsets, QR)',
  tent: 'A6 table tent, PDF',
  post: 'Instagram post, PNG 1080×1080 (satori + resvg)',
  story: 'Instagram story, PNG 1080×1920',
  'top3-post': "Last night's top 3, post PNG 1080×1080",
  'top3-story': "Last night's top 3, story PNG 1080×1920",
};

export function kitRenderMarkdown(r: { startCpuMs: number; rows: KitRenderCost[] }): string {
  return [
    `| owner kit render (CPU, Node, one at a time; engines started in ${r.startCpuMs.toFixed(0)} ms) | renders | median ms | p99 ms | max ms | bytes (median) |`,
    '|---|---:|---:|---:|---:|---:|',
    ...r.rows.map(
      (x) => `| ${LABELS[x.item]} | ${x.renders} | ${x.medianCpuMs.toFixed(1)} | ${x.p99CpuMs.toFixed(1)} | ${x.maxCpuMs.toFixed(1)} | ${x.bytesMedian} |`,
    ),
  ].join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const r = await measureKitRender();
  process.stdout.write(`Measured ${new Date().toISOString()} (${process.platform}/${process.arch}, Node ${process.version})\n\n${kitRenderMarkdown(r)}\n`);
}
