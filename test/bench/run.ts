/**
 * npm run bench — speed at scale (issue 8).
 *
 * For each catalogue size (1 000, 10 000, 100 000 quiz rows) this seeds a separate local D1
 * (`db:seed --scale N` into its own --persist-to folder), starts the real app (scripts/start.mjs with
 * PORT / PERSIST_DIR / ASSETS_DIR) on loopback, and measures with autocannon:
 *   - the listing API first page: no filter, city, city + weekday, free text;
 *   - a city page and a venue page, uncached (a unique query parameter per request misses the edge
 *     cache, whose key includes the sorted query) and cached (the same URL again);
 *   - a static file of about the same byte size served by the same server: the physical floor.
 * Prints a table (p50, p99, requests/s, errors), checks the targets as ratios inside one run, and
 * writes test/bench/results.json (+ results.md, the table the README shows). Lighthouse LCP of each
 * public page is measured on the largest catalogue.
 *
 * Knobs (env): BENCH_SIZES=1000,10000,100000  BENCH_DURATION=3 (s of latency sampling per row)  BENCH_CONNECTIONS=50
 * BENCH_LIGHTHOUSE=0 to skip Lighthouse. Everything runs on 127.0.0.1.
 */
import autocannon from 'autocannon';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLighthouse, type LighthouseResult } from './lighthouse';

const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const SIZES = (process.env.BENCH_SIZES ?? '1000,10000,100000').split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
const DURATION_S = Number(process.env.BENCH_DURATION ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const LATENCY_CONNECTIONS = 2;
const TIMEOUT_S = 30;
const LIGHTHOUSE = process.env.BENCH_LIGHTHOUSE !== '0';
/** Static floor files: 4 KB … ~256 KB in steps of 1.25×; the one nearest the page's size is used. */
const FLOOR_SIZES = Array.from({ length: 20 }, (_, i) => Math.round(4096 * 1.25 ** i)).filter((n) => n <= 300_000);

export interface Measurement {
  name: string;
  kind: 'listing' | 'page-uncached' | 'page-cached' | 'static';
  path: string;
  p50: number;
  p99: number;
  reqPerSec: number;
  requests: number;
  errors: number;
  non2xx: number;
  bytesPerResponse: number;
}
interface SizeResult {
  quizRows: number;
  city: string;
  venue: string;
  weekday: string;
  search: string;
  measurements: Measurement[];
}

function log(msg: string) {
  process.stderr.write(`[bench] ${msg}\n`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

function run(cmd: string, args: string[], env: Record<string, string> = {}) {
  execFileSync(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } });
}

function d1Json<T>(persist: string, command: string): T[] {
  const out = execFileSync(bin('wrangler'), ['d1', 'execute', 'DB', '--local', '--persist-to', persist, '--json', '--command', command], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return (JSON.parse(out) as Array<{ results: T[] }>)[0]?.results ?? [];
}

async function startApp(port: number, persist: string, assets: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), PERSIST_DIR: persist, ASSETS_DIR: assets, SKIP_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logs: string[] = [];
  child.stdout?.on('data', (d) => logs.push(String(d)));
  child.stderr?.on('data', (d) => logs.push(String(d)));
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`app did not start:\n${logs.join('').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

async function stopApp(child: ChildProcess) {
  if (!child.pid || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
}

/**
 * autocannon stops sending at the end of a run, but the server still works off what it accepted; wait
 * until a health check is quick again so one row's backlog is not measured in the next row.
 */
let settleMs = 60;
async function healthBaseline(base: string) {
  const times: number[] = [];
  for (let i = 0; i < 7; i++) {
    const t = performance.now();
    await fetch(`${base}/api/health`).then((r) => r.arrayBuffer());
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  settleMs = Math.max(20, 3 * times[3]!);
}
async function settle(base: string) {
  const deadline = Date.now() + 5_000;
  let quick = 0;
  while (Date.now() < deadline && quick < 3) {
    const t = performance.now();
    await fetch(`${base}/api/health`).then((r) => r.arrayBuffer()).catch(() => undefined);
    quick = performance.now() - t < settleMs ? quick + 1 : 0;
    await new Promise((r) => setTimeout(r, 100));
  }
}

let bust = 0;
/**
 * One row of the table, in two bounded runs:
 *  - latency: LATENCY_CONNECTIONS connections for DURATION_S seconds, so p50/p99 are the cost of a
 *    request rather than time spent queueing behind 49 others;
 *  - load: CONNECTIONS connections sending one request each at once (bounded count, not duration),
 *    which must all succeed (2xx within TIMEOUT_S): the "zero errors at 50 connections" target.
 */
async function measure(base: string, name: string, kind: Measurement['kind'], path: string, opts: { unique?: boolean } = {}): Promise<Measurement> {
  const sep = path.includes('?') ? '&' : '?';
  const requests = opts.unique
    ? [{ method: 'GET' as const, path, setupRequest: (req: { path?: string }) => ({ ...req, path: `${path}${sep}_b=${++bust}` }) }]
    : [{ method: 'GET' as const, path }];
  const cfg = { url: base, requests, timeout: TIMEOUT_S, headers: { accept: 'text/html,application/json' } };
  await fetch(`${base}${path}${opts.unique ? `${sep}_b=warm${++bust}` : ''}`).then((r) => r.arrayBuffer());
  await settle(base);
  const lat = await autocannon({ ...cfg, connections: LATENCY_CONNECTIONS, duration: DURATION_S });
  await settle(base);
  const load = await autocannon({ ...cfg, connections: CONNECTIONS, amount: CONNECTIONS });
  await settle(base);
  const total = lat.requests.total;
  return {
    name,
    kind,
    path,
    p50: total ? lat.latency.p50 : NaN,
    p99: total ? lat.latency.p99 : NaN,
    reqPerSec: Math.round((load.requests.total * 1000) / Math.max(new Date(load.finish).getTime() - new Date(load.start).getTime(), 1)),
    requests: total + load.requests.total,
    errors: lat.errors + lat.timeouts + lat.non2xx + load.errors + load.timeouts + load.non2xx + Math.max(0, CONNECTIONS - load.requests.total - load.errors - load.timeouts),
    non2xx: lat.non2xx + load.non2xx,
    bytesPerResponse: total ? Math.round(lat.throughput.total / total) : 0,
  };
}

async function benchSize(quizRows: number, tmp: string, assets: string): Promise<{ result: SizeResult; lighthouse?: LighthouseResult[] }> {
  const persist = join(tmp, `state-${quizRows}`);
  log(`${quizRows} quiz rows: migrate + seed`);
  run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', '--persist-to', persist]);
  run(bin('tsx'), [join(root, 'scripts', 'seed.ts'), '--scale', String(quizRows), '--persist-to', persist]);
  // The page targets: the city of the first venue, that venue, a weekday it has quizzes on, a word in many venue names.
  const [pick] = d1Json<{ city: string; venue: string; w: number }>(
    persist,
    "SELECT l.city_slug AS city, v.slug AS venue, (SELECT q.weekday FROM quizzes q WHERE q.location_id = l.id ORDER BY q.date DESC LIMIT 1) AS w FROM venues v JOIN locations l ON l.venue_id = v.id WHERE v.is_public = 1 ORDER BY v.rowid LIMIT 1",
  );
  if (!pick) throw new Error('scale seed produced no venue');
  const weekday = ['sondag', 'mandag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lordag'][pick.w]!;
  const search = 'ankaret';
  const port = await freePort();
  log(`${quizRows} quiz rows: starting app on 127.0.0.1:${port}`);
  const app = await startApp(port, persist, assets);
  const base = `http://127.0.0.1:${port}`;
  try {
    const cityPage = `/quiz/${pick.city}`;
    const venuePage = `/quiz/${pick.city}/${pick.venue}`;
    const combinedPage = `/quiz/${pick.city}/${weekday}`;
    for (const p of [cityPage, venuePage, combinedPage]) {
      const res = await fetch(base + p);
      if (res.status !== 200) log(`warning: ${p} answered ${res.status}`);
      await res.arrayBuffer();
    }
    await healthBaseline(base);
    const pageBytes = (await (await fetch(base + cityPage)).arrayBuffer()).byteLength;
    const floor = FLOOR_SIZES.reduce((a, b) => (Math.abs(b - pageBytes) < Math.abs(a - pageBytes) ? b : a));
    const m: Measurement[] = [];
    const step = async (name: string, kind: Measurement['kind'], path: string, unique = false) => {
      log(`${quizRows}: ${name} ${path}${unique ? ' (unique query per request)' : ''}`);
      m.push(await measure(base, name, kind, path, { unique }));
    };
    // Without ".html": the assets server redirects *.html to the extension-less path.
    await step('static floor', 'static', `/bench/floor-${floor}`);
    await step('city page cached', 'page-cached', cityPage);
    await step('venue page cached', 'page-cached', venuePage);
    await step('listing: no filter', 'listing', '/api/listing', true);
    await step('listing: city', 'listing', `/api/listing?city=${pick.city}`, true);
    await step('listing: city + weekday', 'listing', `/api/listing?city=${pick.city}&weekday=${weekday}`, true);
    await step('listing: free text', 'listing', `/api/listing?search=${search}`, true);
    await step('city page uncached', 'page-uncached', cityPage, true);
    await step('venue page uncached', 'page-uncached', venuePage, true);
    let lighthouse: LighthouseResult[] | undefined;
    if (LIGHTHOUSE && quizRows === Math.max(...SIZES)) {
      log(`${quizRows}: Lighthouse (mobile) on /, city, combined and venue pages`);
      lighthouse = await runLighthouse([`${base}/`, base + cityPage, base + combinedPage, base + venuePage]).catch((e) => {
        log(`Lighthouse failed: ${String(e)}`);
        return undefined;
      });
    }
    return { result: { quizRows, city: pick.city, venue: pick.venue, weekday, search, measurements: m }, lighthouse };
  } finally {
    await stopApp(app);
  }
}

interface Check {
  target: string;
  measured: string;
  ok: boolean;
}

function checks(results: SizeResult[]): Check[] {
  const out: Check[] = [];
  const small = results.find((r) => r.quizRows === Math.min(...SIZES));
  const large = results.find((r) => r.quizRows === Math.max(...SIZES));
  if (small && large && small !== large) {
    for (const m of large.measurements.filter((x) => x.kind === 'listing' || x.kind === 'page-uncached')) {
      const base = small.measurements.find((x) => x.name === m.name);
      if (!base) continue;
      const ratio = m.p50 / Math.max(base.p50, 0.001);
      out.push({ target: `${m.name}: p50 @${large.quizRows} ≤ 1.5 × p50 @${small.quizRows}`, measured: `${m.p50} / ${base.p50} ms = ${ratio.toFixed(2)}×`, ok: Number.isFinite(ratio) && ratio <= 1.5 });
    }
  }
  for (const r of results) {
    const floor = r.measurements.find((x) => x.kind === 'static');
    for (const m of r.measurements.filter((x) => x.kind === 'page-cached')) {
      if (!floor) continue;
      const ratio = m.p50 / Math.max(floor.p50, 0.001);
      out.push({ target: `${m.name} @${r.quizRows}: p50 ≤ 1.3 × static p50`, measured: `${m.p50} / ${floor.p50} ms = ${ratio.toFixed(2)}×`, ok: Number.isFinite(ratio) && ratio <= 1.3 });
    }
    const errs = r.measurements.reduce((n, m) => n + m.errors, 0);
    out.push({ target: `zero errors @${r.quizRows} with ${CONNECTIONS} connections`, measured: `${errs} errors`, ok: errs === 0 });
  }
  return out;
}

function table(results: SizeResult[]): string {
  const lines = ['| rows | endpoint | p50 ms | p99 ms | req/s @50 | errors @50 | bytes |', '|---:|---|---:|---:|---:|---:|---:|'];
  for (const r of results) {
    const ms = (v: number) => (Number.isFinite(v) ? String(v) : 'no answer');
    for (const m of r.measurements) lines.push(`| ${r.quizRows.toLocaleString('sv-SE')} | ${m.name} | ${ms(m.p50)} | ${ms(m.p99)} | ${m.reqPerSec} | ${m.errors} | ${m.bytesPerResponse} |`);
  }
  return lines.join('\n');
}

async function main() {
  const started = new Date();
  const tmp = mkdtempSync(join(tmpdir(), 'quizkvall-bench-'));
  const assets = join(tmp, 'client');
  try {
    log('building the web app into a private folder');
    run(bin('vite'), ['build', '--logLevel', 'warn', '--outDir', assets, '--emptyOutDir']);
    mkdirSync(join(assets, 'bench'), { recursive: true });
    for (const size of FLOOR_SIZES) {
      const head = '<!doctype html><html lang="sv"><head><meta charset="utf-8"><title>golv</title></head><body><p>';
      const tail = '</p></body></html>\n';
      const filler = 'Quizkväll statisk golvfil. '.repeat(Math.ceil(size / 20));
      writeFileSync(join(assets, 'bench', `floor-${size}.html`), (head + filler).slice(0, size - tail.length) + tail);
    }
    const results: SizeResult[] = [];
    let lighthouse: LighthouseResult[] | undefined;
    for (const size of SIZES) {
      const r = await benchSize(size, tmp, assets);
      results.push(r.result);
      if (r.lighthouse) lighthouse = r.lighthouse;
    }
    const cks = checks(results);
    const md = [
      `Measured ${started.toISOString().slice(0, 10)} on ${process.platform}/${process.arch}, local \`wrangler dev\` (workerd + local D1), p50/p99 from ${LATENCY_CONNECTIONS} connections × ${DURATION_S} s per row; req/s and errors from ${CONNECTIONS} simultaneous connections (one request each, ${TIMEOUT_S} s timeout). Load average at start: ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores.`,
      '',
      table(results),
      '',
      '| target | measured | met |',
      '|---|---|---|',
      ...cks.map((c) => `| ${c.target} | ${c.measured} | ${c.ok ? 'yes' : '**no**'} |`),
      ...(lighthouse
        ? [
            '',
            `Lighthouse (mobile preset) at ${Math.max(...SIZES).toLocaleString('sv-SE')} rows:`,
            '',
            '| page | performance | accessibility | best practices | SEO | LCP ms |',
            '|---|---:|---:|---:|---:|---:|',
            ...lighthouse.map((l) => `| ${new URL(l.url).pathname} | ${l.scores.performance} | ${l.scores.accessibility} | ${l.scores['best-practices']} | ${l.scores.seo} | ${l.lcpMs} |`),
          ]
        : []),
    ].join('\n');
    process.stdout.write(`\n${md}\n`);
    writeFileSync(
      join(root, 'test', 'bench', 'results.json'),
      JSON.stringify({ measuredAt: started.toISOString(), connections: CONNECTIONS, durationS: DURATION_S, sizes: results, checks: cks, lighthouse: lighthouse ?? null }, null, 2) + '\n',
    );
    writeFileSync(join(root, 'test', 'bench', 'results.md'), md + '\n');
    const missed = cks.filter((c) => !c.ok);
    if (missed.length) {
      process.stdout.write(`\n${missed.length} target(s) missed.\n`);
      process.exitCode = 1;
    } else process.stdout.write('\nAll targets met.\n');
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
