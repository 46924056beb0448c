/**
 * Main-thread blocking of the public pages on a slow phone, measured RELATIVELY (issue 29.13). Lighthouse's
 * absolute score follows this shared machine's load more than the page, so this loads the same pages from two
 * (or more) running apps — say main and a change — alternating, and compares them within one run.
 *
 * Each load is traced in Chromium (a phone-sized viewport, no throttling); every main-thread task from the first
 * contentful paint until 3 s after the page has hydrated (`html[data-hydrated]`, then idle work such as the service
 * worker's registration) is taken at its THREAD time (CPU time: time the thread was descheduled by other processes
 * does not count, which is what makes runs on a loaded machine comparable), multiplied by Lighthouse's mobile CPU
 * slowdown (4, as its simulation does), and TBT is Σ max(0, that − 50 ms).
 *
 *   npx tsx test/bench/tbt.ts http://127.0.0.1:8801 http://127.0.0.1:8802      compare (median of TBT_ROUNDS, default 7)
 *   TBT_TRACE=1 npx tsx test/bench/tbt.ts http://127.0.0.1:8801                 one load per page: what each long task did
 *
 * Knobs: TBT_PATHS (comma-separated, default the bench's four Lighthouse pages on the demo data), TBT_ROUNDS,
 * TBT_RATE (CPU slowdown, default 4). The apps must serve the same data (same seed, same CLOCK_NOW).
 */
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../chromium';

const PATHS = (process.env.TBT_PATHS ?? '/,/quiz/stockholm,/quiz/stockholm/tisdag,/quiz/stockholm/pubologi-soder').split(',');
const ROUNDS = Number(process.env.TBT_ROUNDS ?? 7);
/** Lighthouse's mobile CPU slowdown: task CPU times are multiplied by it, as Lighthouse's simulation does. */
const RATE = Number(process.env.TBT_RATE ?? 4);
const SETTLE_MS = 3_000;
const TRACE_DETAIL = process.env.TBT_TRACE === '1';

interface Load {
  /** Σ max(0, RATE × task CPU time − 50 ms) over the main thread's tasks from the first contentful paint on. */
  tbt: number;
  /** The tasks that count (RATE × CPU ms), longest first. */
  longTasks: number[];
  /** All main-thread task CPU time after the first contentful paint, ms (not scaled). */
  cpu: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  args?: { name?: string; data?: { url?: string; functionName?: string; type?: string; processId?: number } };
}

async function phone(browser: Browser): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: 412, height: 823 },
    deviceScaleFactor: 1.75,
    isMobile: true,
    hasTouch: true,
    locale: 'sv-SE',
    userAgent: 'Mozilla/5.0 (Linux; Android 11; moto g power (2022)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
  });
  return { context, page: await context.newPage() };
}

/** Resolves once the page has set html[data-hydrated] (one evaluate: no polling on the page's main thread). */
const HYDRATED = `new Promise((done) => {
  const ok = () => document.documentElement.dataset.hydrated === 'true';
  if (ok()) return done(true);
  new MutationObserver((_, o) => { if (ok()) { o.disconnect(); done(true); } }).observe(document.documentElement, { attributes: true });
})`;

/**
 * The page's renderer main thread: the CrRendererMain thread of the process the browser committed `url` to. Not
 * simply the busiest renderer: a browser window has renderers of its own (Chromium 156 renders the omnibox popups as
 * WebUI pages, chrome://omnibox-popup.top-chrome), and one of those, busier than the page, was measured instead now
 * and then (a 230 ms "v8.evaluateModule" of omnibox_popup_aim.html; test/chromium.ts now switches it off).
 */
function mainThread(events: TraceEvent[], url: string): TraceEvent[] {
  const committed = events.find((e) => e.name === 'FrameCommittedInBrowser' && e.args?.data?.url === url)?.args?.data?.processId;
  if (committed === undefined) throw new Error(`the trace does not say which renderer ${url} was committed to`);
  const thread = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain' && e.pid === committed);
  if (!thread) throw new Error(`no main thread in renderer ${committed} of the trace of ${url}`);
  return events.filter((e) => e.pid === thread.pid && e.tid === thread.tid);
}

async function traced(browser: Browser, url: string): Promise<{ main: TraceEvent[]; fcp: number }> {
  const { context, page } = await phone(browser);
  try {
    // Lighthouse's own categories for its main-thread tasks (RunTask lives in the disabled-by-default one).
    await browser.startTracing(page, {
      categories: [
        'toplevel',
        'devtools.timeline',
        'disabled-by-default-devtools.timeline',
        'loading',
        'blink.user_timing',
        ...(TRACE_DETAIL ? ['v8.execute'] : []),
      ],
    });
    await page.goto(url, { waitUntil: 'load' });
    await page.evaluate(HYDRATED);
    await page.waitForTimeout(SETTLE_MS);
    const events = (JSON.parse(String(await browser.stopTracing())) as { traceEvents: TraceEvent[] }).traceEvents;
    const main = mainThread(events, url);
    const paints = events.filter((e) => e.name === 'firstContentfulPaint');
    const fcp = (paints.find((e) => e.pid === main[0]?.pid) ?? paints.at(-1))?.ts;
    if (fcp === undefined) throw new Error(`no firstContentfulPaint in the trace of ${url}`);
    return { main, fcp };
  } finally {
    await context.close();
  }
}

async function load(browser: Browser, url: string): Promise<Load> {
  const { main, fcp } = await traced(browser, url);
  const cpu = main.filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.ts + (e.dur ?? 0) >= fcp).map((e) => (e.tdur ?? e.dur ?? 0) / 1000);
  const scaled = cpu.map((ms) => ms * RATE);
  return {
    tbt: Math.round(scaled.reduce((n, ms) => n + Math.max(0, ms - 50), 0)),
    longTasks: scaled
      .filter((ms) => ms > 50)
      .sort((a, b) => b - a)
      .map(Math.round),
    cpu: Math.round(cpu.reduce((n, ms) => n + ms, 0)),
  };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function compare(bases: string[]) {
  const browser = await launchChromium();
  try {
    // One thrown-away load per app: the first load of a fresh Chromium is slower (cold caches).
    for (const b of bases) await load(browser, `${b}${PATHS[0]}`);
    const runs = new Map<string, Load[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const path of PATHS) {
        // Alternate the order each round so that neither app always goes first.
        for (const b of round % 2 ? [...bases].reverse() : bases) {
          const r = await load(browser, `${b}${path}`);
          const key = `${b} ${path}`;
          runs.set(key, [...(runs.get(key) ?? []), r]);
          process.stderr.write(`[tbt] round ${round + 1} ${key}: TBT ${r.tbt} ms, long tasks [${r.longTasks.join(', ')}], CPU ${r.cpu} ms\n`);
        }
      }
    }
    console.log(
      `\n${ROUNDS} rounds, median (min–max) per page. TBT = Σ max(0, ${RATE} × task CPU time − 50 ms) from FCP until ${SETTLE_MS / 1000} s after hydration; CPU = main-thread task CPU ms in that window\n`,
    );
    console.log(`| page | ${bases.map((b) => `${b} TBT ms | CPU ms`).join(' | ')} |`);
    console.log(`|---|${bases.map(() => '---:|---:').join('|')}|`);
    for (const path of PATHS) {
      const cells = bases.map((b) => {
        const rs = runs.get(`${b} ${path}`)!;
        const tbts = rs.map((r) => r.tbt);
        return `${median(tbts)} (${Math.min(...tbts)}–${Math.max(...tbts)}) | ${median(rs.map((r) => r.cpu))}`;
      });
      console.log(`| ${path} | ${cells.join(' | ')} |`);
    }
  } finally {
    await browser.close();
  }
}

/** The scheduler's own wrappers around a task's work: looked through. */
const WRAPPERS = /^(ThreadControllerImpl::|BlinkScheduler_|SequenceManager|TaskAnnotator|SimpleWatcher|Receive mojo|RunNormalPriorityTask|HandleInputEvent)/;

/** One load per page: each task that counts, and what inside it took the CPU time (TBT_TRACE=1). */
async function trace(base: string) {
  const browser = await launchChromium();
  try {
    await load(browser, `${base}${PATHS[0]}`);
    for (const path of PATHS) {
      const { main, fcp } = await traced(browser, `${base}${path}`);
      const xs = main.filter((e) => e.ph === 'X').sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
      const tasks = xs.filter((e) => e.name === 'RunTask' && e.ts + (e.dur ?? 0) >= fcp && ((e.tdur ?? 0) / 1000) * RATE > 50);
      console.log(`\n${path}: ${tasks.length} tasks over 50 ms at ×${RATE}`);
      for (const t of tasks) {
        // The task's direct children, summed by name and script.
        const inside = xs.filter((e) => e !== t && !WRAPPERS.test(e.name) && e.ts >= t.ts && e.ts + (e.dur ?? 0) <= t.ts + t.dur!);
        const top = inside.filter((e) => !inside.some((p) => p !== e && p.ts <= e.ts && p.ts + p.dur! >= e.ts + e.dur! && (p.ts < e.ts || p.dur! > e.dur!)));
        const by = new Map<string, number>();
        for (const e of top) {
          const d = e.args?.data;
          const key = `${e.name}${d?.type ? `:${d.type}` : ''}${d?.url ? ` ${d.url.replace(/^https?:\/\/[^/]+/, '')}` : ''}${d?.functionName ? ` ${d.functionName}` : ''}`;
          by.set(key, (by.get(key) ?? 0) + (e.tdur ?? e.dur ?? 0));
        }
        const parts = [...by]
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([k, d]) => `${k} ${((d / 1000) * RATE).toFixed(0)}`);
        console.log(`  +${((t.ts - fcp) / 1000).toFixed(0)} ms, ${(((t.tdur ?? 0) / 1000) * RATE).toFixed(0)} ms: ${parts.join(' · ')}`);
      }
    }
  } finally {
    await browser.close();
  }
}

const bases = process.argv.slice(2);
if (bases.length === 0) throw new Error('usage: tsx test/bench/tbt.ts <base URL> [<base URL>…]');
await (TRACE_DETAIL ? trace(bases[0]!) : compare(bases));
