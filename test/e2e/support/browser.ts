/**
 * Shared helpers for the browser stories: one Chromium per test file, a fresh context per test,
 * axe checks, and reading mail from the dev outbox.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults } from 'axe-core';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { WEEKDAYS } from '../../../worker/lib/swedish';
import { launchStoryChromium } from '../../chromium';
import { APP_HOOK_TIMEOUT_MS, startApp, type RunningApp } from './app';
import { pinBrowserClock } from './clock';
import { retryConnectionResets } from './network';
import { scanForEnglish } from './swedish-only';

/** Set by ownApp for the stories of one file: a worker runs its files one after another, and ownApp clears it after its file. */
let ownBaseURL: string | undefined;

/** The app this file's stories run on: the run's shared app (./global-setup.ts), or the file's own (ownApp). */
export function baseURL(): string {
  return ownBaseURL ?? inject('baseURL');
}

/**
 * Call in a test file whose stories must not share an app with the others: they run on an app of their own
 * (./app.ts), started before the file on the run's clock pin (so appNow() and the browser clocks still agree) and
 * stopped after it. The import story: under `wrangler dev` the import Workflow's steps run in the same process as
 * every request, so a 2 000-row import would starve the stories of a shared app.
 */
export function ownApp(label: string): void {
  let app: RunningApp | undefined;
  beforeAll(async () => {
    app = await startApp({ CLOCK_NOW: inject('clockNow') }, { label, workerBundle: inject('workerBundle') });
    ownBaseURL = app.baseURL;
  }, APP_HOOK_TIMEOUT_MS);
  afterAll(() => {
    ownBaseURL = undefined;
    app?.stop();
  });
}

/** Call in a test file: launches Chromium once for the file; returns a getter for it. */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchStoryChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('browser not launched');
    return browser;
  };
}

/**
 * A new isolated context and page, its clock pinned to the app's (./clock.ts). Page errors and console errors fail the test (an unexpected
 * console.error is a bug), except network noise the test expects.
 */
/** A fresh client address per browser context: a random /64 of the IPv6 documentation prefix (2001:db8::/32). */
export function clientAddress(): string {
  const hex = () => Math.floor(Math.random() * 0x10000).toString(16);
  return `2001:db8:${hex()}:${hex()}::1`;
}

export async function newPage(
  browser: Browser,
  opts: {
    javaScriptEnabled?: boolean;
    allowConsoleErrors?: RegExp;
    context?: BrowserContextOptions;
    /** false only for a page that reads no date and measures real paint/resource timing (the fake clock replaces `performance`). */
    pinClock?: boolean;
    /**
     * 'allow' for the stories about the installed app (pwa.test.ts). Elsewhere the service worker is blocked: every
     * new context would install it and precache its shell again (~0.25 s of Chromium CPU and a dozen requests to the
     * app per context, ~100 contexts a run), and no other story reads what it does.
     */
    serviceWorkers?: 'allow' | 'block';
  } = {},
): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const context = await browser.newContext({
    baseURL: baseURL(),
    locale: 'sv-SE',
    timezoneId: 'Europe/Stockholm',
    javaScriptEnabled: opts.javaScriptEnabled ?? true,
    // Every browser is its own client, as two phones would be: wrangler dev keeps a CF-Connecting-IP the
    // client sent (Cloudflare sets it in production), and every per-client limit (the counting beacon's 60
    // requests a minute, the mail-sending endpoints) would otherwise count all stories of a run, two files
    // at a time, against 127.0.0.1 — a story's last beacon was refused with 429 and its click read 0.
    extraHTTPHeaders: { 'cf-connecting-ip': clientAddress() },
    serviceWorkers: opts.serviceWorkers ?? 'block',
    ...opts.context,
  });
  // page.request shares the context's request context: a reset keep-alive connection is retried (./network.ts).
  retryConnectionResets(context.request);
  if (opts.pinClock !== false) await pinBrowserClock(context);
  const errors: string[] = [];
  // Swedish only (issue 29.8): English UI words anywhere on a page or dialog fail the story.
  await scanForEnglish(context, errors);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() !== 'error') return;
    const text = m.text();
    // Expected 4xx answers to our own API show up as console errors in Chromium.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    if (opts.allowConsoleErrors?.test(text)) return;
    // Chromium's "Failed to load resource" names no URL; its location does (a 500 is then traceable in .e2e/logs).
    const where = m.location().url;
    errors.push(`console: ${text}${where && !text.includes(where) ? ` (${where})` : ''}`);
  });
  return { context, page, errors };
}

/** How long a child frame may take to answer before the accessibility check leaves it out. */
const FRAME_WAIT_MS = 1_000;

/** `work`'s value, or undefined when `ms` passes first (the late answer or failure is dropped). */
async function answered<T>(work: Promise<T>, ms?: number): Promise<T | undefined> {
  if (ms === undefined) return work;
  work.catch(() => undefined);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** axe-core's browser build, read once per test file. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * axe: no serious or critical violations. axe-core is loaded into each frame of the page that lacks it (a
 * same-origin iframe is checked through the page's own run) and run once in the page, asking for violations only.
 *
 * Not `@axe-core/playwright`: its `analyze()` finishes every check in a new page of the story's context (a new tab
 * and renderer, axe compiled twice, the story's init scripts run again) — 2.2–2.8 s a check against 0.6–0.9 s here,
 * on the Stockholm page (2026-11-27, issue 27), and the suite checks ~50 pages.
 */
export async function expectAccessible(page: Page): Promise<void> {
  for (const frame of page.frames()) {
    if (frame.isDetached()) continue;
    // A frame that has no document to run in yet (a lazy iframe that is not shown) never answers an evaluate; like
    // @axe-core/playwright, give a child frame a second and leave it out (axe then reports it as not tested).
    const main = frame === page.mainFrame();
    const loaded = await answered(
      frame.evaluate(() => typeof (window as { axe?: unknown }).axe === 'object'),
      main ? undefined : FRAME_WAIT_MS,
    );
    if (loaded === false) await answered(frame.evaluate(AXE_SOURCE), main ? undefined : FRAME_WAIT_MS);
  }
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document, o: object): Promise<AxeResults> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, help: v.help, impact: v.impact ?? null, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} (${v.targets.join(', ')})`)).toEqual([]);
}

export interface OutboxMail {
  to: string;
  subject: string;
  text: string;
  links: string[];
}

/** Newest mail to `to` from /dev/mail.json, waiting for it to arrive. */
export async function waitForMail(to: string, subjectIncludes?: string, timeoutMs = 10_000): Promise<OutboxMail> {
  const deadline = performance.now() + timeoutMs; // elapsed time, not a date
  for (;;) {
    const mails = (await (await fetch(`${baseURL()}/dev/mail.json`)).json()) as OutboxMail[];
    const hit = mails.find((m) => m.to === to.toLowerCase() && (!subjectIncludes || m.subject.includes(subjectIncludes)));
    if (hit) return hit;
    if (performance.now() > deadline) throw new Error(`no mail to ${to}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A fresh unique tag for names in a story (random, not the clock: stories never read the real date). */
export function stamp(): string {
  return randomUUID().replace(/-/g, '').slice(0, 10);
}

/** A fresh unique e-mail address for a story. */
export function uniqueEmail(prefix = 'e2e'): string {
  return `${prefix}-${stamp()}@test.local`;
}

/** Waits until React has hydrated the server-rendered page (PublicApp sets the marker in an effect). */
export async function hydrated(page: Page): Promise<void> {
  await page.waitForSelector('html[data-hydrated="true"]');
}

/** The first venue page a city page links to (`/quiz/{city}/{venue}`, not one of its weekday pages), or undefined. */
export function venuePathIn(cityHtml: string, citySlug: string): string | undefined {
  const weekdays = new Set<string>(WEEKDAYS.map((w) => w.slug));
  for (const m of cityHtml.matchAll(new RegExp(`href="(/quiz/${citySlug}/([a-z0-9-]+))"`, 'g'))) if (!weekdays.has(m[2]!)) return m[1];
  return undefined;
}

/** The listing's exact count line, "Visar X av Y quiz". */
export const COUNT_LINE = /Visar (\d+) av (\d+) quiz/;

/** [X, Y] of the first exact count line on the page, or [-1, -1] when there is none (yet). */
export async function shown(page: Page): Promise<[number, number]> {
  const text = (await page.getByText(COUNT_LINE).first().textContent()) ?? '';
  const m = COUNT_LINE.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : [-1, -1];
}
