/**
 * The e2e stories' one clock. No story reads the real date: the app server (wrangler dev, started in
 * global-setup.ts) and every browser context run on the same pinned clock, and every date a story needs
 * is derived from it here.
 *
 *   TEST_NOW      the instant the run pretends it is (ISO, default DEFAULT_TEST_NOW). CI sets it to a
 *                 month end, a DST change and a Sunday (`npm run test:clocks`).
 *   CLOCK_NOW     what the app server gets: `${TEST_NOW}@${wall clock at start}` — a running pinned clock
 *                 (worker/lib/clock.ts createClock), so seconds pass as in production.
 *   appNow()      the app's "now" as a story sees it: the same running clock (from the provided pin).
 *   appToday()    Stockholm's date of appNow(), YYYY-MM-DD.
 *   stockholmDatePlus(n)   appToday() + n calendar days: string arithmetic, so DST-safe.
 *   pinBrowserClock(ctx)   Playwright's clock API: the page's Date starts at appNow() and runs on.
 */
import type { BrowserContext } from 'playwright-core';
import { inject } from 'vitest';
import { addDays, createClock, stockholmDate } from '../../../worker/lib/clock';

/** A Thursday near a month end (2026-11-26 is the day issue 27 saw the date-picker story fail), 10:00 in Stockholm. */
export const DEFAULT_TEST_NOW = '2026-11-26T09:00:00Z';

/** The dates CI runs the clock-reading files at once more (`npm run test:clocks`), each with its reason. */
export const CI_TEST_NOWS = [
  // Month end: Monday 30 November, 22:00 in Stockholm; the next Tuesday is in December.
  { name: 'month end', at: '2026-11-30T21:00:00Z' },
  // DST change: Sunday 25 October 2026, the clocks went back at 03:00 CEST; 02:30 CET is after it.
  { name: 'DST change', at: '2026-10-25T01:30:00Z' },
  // Sunday in Stockholm while UTC still says Saturday (00:30 CET on 1 November = 23:30 UTC on 31 October).
  { name: 'Sunday', at: '2026-10-31T23:30:00Z' },
] as const;

/**
 * The e2e files that read the date, which `npm run test:clocks` runs again at each CI_TEST_NOWS instant.
 * Chosen by what the date changes: the listing's "today", weekday → next date and the date picker's month
 * (public), series across Christmas (holidays), a weekly series from "next Tuesday", its edits and a pause (owner-quizzes), the
 * "Idag/Imorgon" chips (near-me). Stories that only need "some future date" stay out (their dates come from
 * the same helper, which test/unit/e2e-clock.test.ts checks across DST).
 */
export const CLOCK_FILES = ['test/e2e/public.test.ts', 'test/e2e/holidays.test.ts', 'test/e2e/owner-quizzes.test.ts', 'test/e2e/near-me.test.ts'];

/** TEST_NOW, checked; DEFAULT_TEST_NOW when unset. */
export function testNow(env: Record<string, string | undefined> = process.env): string {
  const at = env.TEST_NOW || DEFAULT_TEST_NOW;
  if (Number.isNaN(new Date(at).getTime()) || at.includes('@')) throw new Error(`TEST_NOW is not an ISO instant: ${at}`);
  return at;
}

/** The app server's CLOCK_NOW: `at` pinned at the wall-clock instant `wallNow`, running from there. */
export function runningPin(at: string, wallNow: Date): string {
  return `${at}@${wallNow.toISOString()}`;
}

/** The pin global-setup gave the app server (provided as `clockNow`). */
function pin(): string {
  return inject('clockNow');
}

/** The app's current instant (the running pinned clock the server uses). */
export function appNow(): Date {
  return createClock(pin()).now();
}

/** Stockholm's date of `now` (default: the app's), YYYY-MM-DD. */
export function appToday(now: Date = appNow()): string {
  return stockholmDate(now);
}

/** Stockholm's date `days` calendar days after the date of `now` (default: the app's). DST-safe. */
export function stockholmDatePlus(days: number, now: Date = appNow()): string {
  return addDays(stockholmDate(now), days);
}

/** Pins the browser clock of a context to the app's: `Date` starts at appNow() and runs on, timers fire as usual. */
export async function pinBrowserClock(context: BrowserContext): Promise<void> {
  await context.clock.install({ time: appNow() });
}
