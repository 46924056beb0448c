/**
 * Lean public pages (issue 8 §4):
 *  - first-load JavaScript of a public page ≤ 100 KB gzipped: the public entry (web/public-entry.tsx)
 *    and the page's React tree (web/pages/hydrate.tsx, which the entry imports on a task of its own) plus every
 *    chunk they import statically, from a real production build (Vite/Rolldown output with
 *    the module list of every chunk), and no owner/admin module among them;
 *  - the scripts a served public page actually loads are exactly that set, started by the inline boot
 *    script after the first paint (issue 19 §1: nothing in the HTML fetches JS or CSS while it paints);
 *  - HTML of a city page ≤ 60 KB gzipped with 12 cards (demo data, Stockholm);
 *  - chunks are named after their contents (vite.config.ts: `vendor-*` groups, `shell`, folder-qualified names).
 */
import { gzipSync } from 'node:zlib';
import { relative, resolve } from 'node:path';
import { build, type Rollup } from 'vite';
import { beforeAll, describe, expect, it } from 'vitest';
import { HYDRATION_MODULE } from '../../worker/lib/assets';
import { addDays } from '../../worker/lib/clock';
import { registerVerifiedOwner } from './support/auth';
import { baseURL, newPage, stamp, sharedBrowser } from './support/browser';
import { appToday } from './support/clock';
import { STORY_TOWNS } from './support/towns';

const PUBLIC_JS_BUDGET_GZ = 100 * 1024;
const CITY_PAGE_HTML_BUDGET_GZ = 60 * 1024;
/** Source folders that only signed-in owners and the superadmin may download. */
const PRIVATE_SOURCES = [
  /^web\/routes\/(?!NotFound)/,
  /^web\/components\/(venues|quizzes|promotion|takeover|account|admin|superadmin|auth)\//,
  /^web\/main\.tsx$/,
];

const root = resolve(import.meta.dirname, '..', '..');
const gz = (s: string | Uint8Array) => gzipSync(typeof s === 'string' ? Buffer.from(s) : s, { level: 9 }).length;

interface Closure {
  files: string[];
  gzBytes: number;
  modules: Array<{ id: string; bytes: number }>;
  /** Module id → the file of the closure it is in. */
  byModule: Map<string, string>;
}
let closure: Closure;

beforeAll(async () => {
  // Vitest sets NODE_ENV=test, which would make Vite bundle React's development build.
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  let out: Rollup.RollupOutput | Rollup.RollupOutput[];
  try {
    out = (await build({
      configFile: resolve(root, 'vite.config.ts'),
      mode: 'production',
      logLevel: 'silent',
      build: { write: false, emptyOutDir: false },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
  } finally {
    process.env.NODE_ENV = nodeEnv;
  }
  const outputs = (Array.isArray(out) ? out : [out]).flatMap((o) => o.output);
  const chunks = new Map(outputs.filter((o): o is Rollup.OutputChunk => o.type === 'chunk').map((c) => [c.fileName, c]));
  const entry = [...chunks.values()].find((c) => c.isEntry && c.facadeModuleId?.endsWith('web/public-entry.tsx'));
  if (!entry) throw new Error('no public-entry chunk in the build');
  // The page's React tree is a dynamic import of the entry (evaluated on a task of its own, issue 29.13) that every
  // page loads: it counts as first-load JavaScript.
  const hydration = [...chunks.values()].find((c) => c.facadeModuleId?.endsWith(`web/${HYDRATION_MODULE}`));
  if (!hydration || !entry.dynamicImports.includes(hydration.fileName)) throw new Error(`the public entry does not import ${HYDRATION_MODULE}`);
  const seen = new Set<string>();
  const walk = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const dep of chunks.get(file)?.imports ?? []) walk(dep);
  };
  walk(entry.fileName);
  walk(hydration.fileName);
  const files = [...seen];
  const byModule = new Map<string, string>();
  const modules = files.flatMap((f) =>
    Object.entries(chunks.get(f)!.modules).map(([id, m]) => {
      const rel = relative(root, id.replace(/^\0/, ''));
      byModule.set(rel, f);
      return { id: rel, bytes: m.renderedLength };
    }),
  );
  closure = { files, gzBytes: files.reduce((n, f) => n + gz(chunks.get(f)!.code), 0), modules, byModule };
}, 180_000);

describe('public first-load JavaScript', () => {
  const browser = sharedBrowser();
  it(`is at most ${PUBLIC_JS_BUDGET_GZ / 1024} KB gzipped (entry + static imports)`, () => {
    const biggest = [...closure.modules].sort((a, b) => b.bytes - a.bytes).slice(0, 12);
    const report = `${(closure.gzBytes / 1024).toFixed(1)} KB gz in ${closure.files.join(', ')}; biggest modules (raw bytes): ${biggest.map((m) => `${m.id} ${m.bytes}`).join(', ')}`;
    console.info(`[budget] public JS: ${report}`);
    expect(closure.gzBytes, report).toBeLessThanOrEqual(PUBLIC_JS_BUDGET_GZ);
  });

  it('its chunks are named after their contents (issue 28.9): the entry, the shared shell, vendor-react', () => {
    const names = closure.files.map((f) => f.replace(/^assets\//, '').replace(/-[\w-]{8}\.js$/, ''));
    expect(names).toEqual(expect.arrayContaining(['public', 'shell', 'vendor-react']));
    // React lives in vendor-react only; the old catch-all chunk named after the first module it met is gone.
    expect(names).not.toContain('NotFound');
    const reactOutside = closure.modules.filter(
      (m) => /node_modules\/(react|react-dom|scheduler)\//.test(m.id) && !closure.byModule.get(m.id)!.includes('vendor-react'),
    );
    expect(reactOutside.map((m) => m.id)).toEqual([]);
  });

  it('contains no owner or admin module', () => {
    const leaked = closure.modules.map((m) => m.id).filter((id) => PRIVATE_SOURCES.some((re) => re.test(id)));
    expect(leaked).toEqual([]);
  });

  it('a served public page loads exactly the entry and its static imports, none of them before the first paint', async () => {
    const html = await (await fetch(`${baseURL()}/`)).text();
    // Issue 19 §1: nothing in the HTML fetches JavaScript or CSS while the page paints — no module
    // script, no modulepreload, no stylesheet link (the CSS the page uses is inlined) …
    expect(html).not.toMatch(/<script[^>]*\ssrc=/);
    expect(html).not.toMatch(/<link rel="(modulepreload|stylesheet|preload)"[^>]*\.(js|css)"/);
    expect(html).toMatch(/<style>[^<]*\.bg-slate-50\{/);
    // … the one inline boot script names the entry and its static imports; the utilities the inlined CSS left out wait
    // in a template (issue 29.13), class rules only.
    const boot = html.match(/<script data-src="\/([^"]+)" data-preload="([^"]*)">/);
    expect(boot, 'boot script').not.toBeNull();
    const scripts = [boot![1]!];
    const preloads = boot![2]!
      .split(' ')
      .filter(Boolean)
      .map((h) => h.replace(/^\//, ''));
    expect(html).toMatch(/<template id="qk-later-css">@layer utilities\{\.[^<]+\}<\/template>/);
    // The served build (the e2e server's own) has the same shape: one entry + its preloaded imports.
    const manifest = (await (await fetch(`${baseURL()}/manifest.json`)).json()) as Record<string, { file: string; imports?: string[] }>;
    const served = new Set<string>();
    const walk = (key: string) => {
      const e = manifest[key];
      if (!e || served.has(e.file)) return;
      expect(e.file.endsWith('.js'), e.file).toBe(true);
      served.add(e.file);
      e.imports?.forEach(walk);
    };
    walk('public-entry.tsx');
    walk(HYDRATION_MODULE);
    expect(scripts[0]).toBe(manifest['public-entry.tsx']!.file);
    // Nothing outside the entry's and the page tree's static closures is named (no owner chunk, no map, no stray script) …
    for (const f of [...scripts, ...preloads]) expect(served, `${f} is not a static import of the public entry or ${HYDRATION_MODULE}`).toContain(f);
    // … and every chunk of the closure is preloaded with the entry, or the browser finds it one round trip late.
    const notPreloaded = [...served].filter((f) => !scripts.includes(f) && !preloads.includes(f));
    expect(notPreloaded, 'not modulepreloaded by the boot script').toEqual([]);
    let total = 0;
    for (const f of served) total += gz(new Uint8Array(await (await fetch(`${baseURL()}/${f}`)).arrayBuffer()));
    console.info(`[budget] served public first-load JS: ${(total / 1024).toFixed(1)} KB gz in ${served.size} files`);
    expect(total).toBeLessThanOrEqual(PUBLIC_JS_BUDGET_GZ);
  });

  it('the page hydrates after its first paint and is then interactive', async () => {
    // Real paint and resource timing: Playwright's fake clock would replace `performance` (no date is read here).
    const { page, context } = await newPage(browser(), { pinClock: false });
    try {
      await page.goto(`${baseURL()}/quiz/stockholm`);
      await page.waitForSelector('html[data-hydrated="true"]', { timeout: 15_000 });
      // The boot script added the entry, its imports and the later utilities to <head>. No stylesheet is linked: the
      // whole sheet arriving (the boot script's before issue 29.13, or Vite's preload helper on hydration, when the
      // public chunks had it as a dependency) restyled the whole page in one long task.
      const head = await page.evaluate(() => ({
        modules: document.querySelectorAll('head script[type="module"]').length,
        preloads: document.querySelectorAll('head link[rel="modulepreload"]').length,
        links: [...document.querySelectorAll('link[rel="stylesheet"]')].map((l) => l.getAttribute('href')),
        styles: document.querySelectorAll('head style').length,
        later: document.querySelector('head style:last-of-type')?.textContent?.startsWith('@layer utilities{') ?? false,
      }));
      expect(head.modules).toBe(1);
      expect(head.preloads).toBeGreaterThan(0);
      expect(head.links).toEqual([]);
      expect(head.styles).toBe(2);
      expect(head.later).toBe(true);
      // The module started after the first contentful paint (paint timing of the same page).
      const order = await page.evaluate(() => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        const entry = performance.getEntriesByType('resource').find((r) => /\/assets\/public-[^/]+\.js$/.test(r.name));
        return { fcp, entryStart: entry?.startTime ?? NaN };
      });
      expect(order.entryStart, JSON.stringify(order)).toBeGreaterThanOrEqual(order.fcp);
    } finally {
      await context.close();
    }
  });

  it('loading and hydrating a public page constructs no Intl date format (issue 29.13)', async () => {
    // The first Intl.DateTimeFormat of a page loads the browser's locale and time-zone data: ~40–100 ms of a
    // phone's main thread in one task. The cards' dates (worker/lib/swedish.ts) are written without it, and the
    // Google Kalender link (UTC times) is computed when its menu opens (AddToCalendar).
    const { page, context } = await newPage(browser(), { pinClock: false });
    try {
      await page.addInitScript(() => {
        const w = window as unknown as { __intl: string[] };
        w.__intl = [];
        const record = () => w.__intl.push(String(new Error('Intl.DateTimeFormat').stack).split('\n').slice(3, 6).join(' | '));
        Intl.DateTimeFormat = new Proxy(Intl.DateTimeFormat, {
          construct: (target, args) => {
            record();
            return Reflect.construct(target, args) as object;
          },
          apply: (target, self, args) => {
            record();
            return Reflect.apply(target, self, args) as unknown;
          },
        });
      });
      for (const path of ['/', '/quiz/stockholm', '/quiz/stockholm/tisdag', '/quiz/stockholm/pubologi-soder']) {
        await page.goto(`${baseURL()}${path}`);
        await page.waitForSelector('html[data-hydrated="true"]', { timeout: 15_000 });
        await page.waitForTimeout(300); // the effects right after hydration
        expect(await page.evaluate(() => (window as unknown as { __intl: string[] }).__intl), path).toEqual([]);
      }
    } finally {
      await context.close();
    }
  });

  it('a click on a button before hydration is held and replayed once the page has hydrated', async () => {
    const { page, context } = await newPage(browser());
    try {
      // The entry arrives a second late: the click surely lands before hydration.
      await page.route(/\/assets\/public-[^/]+\.js$/, async (route) => {
        await new Promise((r) => setTimeout(r, 1000));
        await route.continue();
      });
      await page.goto(`${baseURL()}/quiz/stockholm`, { waitUntil: 'domcontentloaded' });
      const card = page.getByRole('button', { name: /^Visa detaljer om / }).first();
      const name = ((await card.getAttribute('aria-label')) ?? '').replace(/^Visa detaljer om /, '');
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated ?? null)).toBeNull();
      await card.click();
      await page.getByRole('dialog', { name }).waitFor({ timeout: 15_000 });
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated)).toBe('true');
    } finally {
      await context.close();
    }
  });

  it('text typed into "Sök" before hydration reaches the listing once the page has hydrated', async () => {
    const { page, context } = await newPage(browser());
    try {
      await page.route(/\/assets\/public-[^/]+\.js$/, async (route) => {
        await new Promise((r) => setTimeout(r, 1000));
        await route.continue();
      });
      await page.goto(`${baseURL()}/quiz/stockholm`, { waitUntil: 'domcontentloaded' });
      const cards = page.getByRole('button', { name: /^Visa detaljer om / });
      const first = ((await cards.first().getAttribute('aria-label')) ?? '').replace(/^Visa detaljer om /, '');
      const before = await cards.count();
      expect(before).toBeGreaterThan(1);
      expect(await page.evaluate(() => document.documentElement.dataset.hydrated ?? null)).toBeNull();
      await page.getByLabel('Sök').fill(first);
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true', undefined, { timeout: 15_000 });
      // Without the announcement React keeps its empty search and every card stays.
      await expect.poll(() => cards.count(), { timeout: 15_000 }).toBeLessThan(before);
      expect(await page.getByLabel('Sök').inputValue()).toBe(first);
    } finally {
      await context.close();
    }
  });
});

describe('city page HTML', () => {
  const browser = sharedBrowser();
  it(`is at most ${CITY_PAGE_HTML_BUDGET_GZ / 1024} KB gzipped with 12 cards`, async () => {
    // A fresh owner fills a town of their own with 13 quizzes (full descriptions), so the first page holds 12 cards.
    const { page, context } = await newPage(browser());
    await registerVerifiedOwner(page);
    const post = async (path: string, data: unknown) => {
      const r = await page.request.post(path, { data, headers: { origin: baseURL() } });
      if (!r.ok()) throw new Error(`${path}: ${r.status()} ${await r.text()}`);
      return (await r.json()) as { id: string };
    };
    const town = STORY_TOWNS.budgets;
    const venue = await post('/api/owner/venues', { name: `Budgetpuben ${stamp()}` });
    const place = await post(`/api/owner/venues/${venue.id}/locations`, { name: 'Budgetpuben', address: 'Storgatan 1', city: town });
    const { today } = (await (await fetch(`${baseURL()}/api/health`)).json()) as { today: string };
    expect(today).toBe(appToday());
    for (let i = 1; i <= 13; i++) {
      await post('/api/owner/quizzes', {
        locationId: place.id,
        date: addDays(today, i),
        startTime: '19:00',
        category: 'allmänbildning',
        quizmaster: 'Budget Mästare',
        teamSize: 6,
        price: 40,
        description: 'Klassiskt pubquiz med sex ronder, bildrunda, musikrunda och final. Boka bord i god tid, det blir ofta fullt.',
        recurring: false,
      });
    }
    await context.close();
    const slug = town.toLowerCase().replace(/ /g, '-');
    const res = await fetch(`${baseURL()}/quiz/${slug}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    const cards = (html.match(/<article\b/g) ?? []).length;
    expect(cards).toBe(12);
    const bytes = gz(html);
    console.info(`[budget] city page /quiz/${slug}: ${html.length} bytes raw, ${(bytes / 1024).toFixed(1)} KB gz, ${cards} cards`);
    expect(bytes).toBeLessThanOrEqual(CITY_PAGE_HTML_BUDGET_GZ);
  });
});
