import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startApp, type RunningApp } from './app';
import { runningPin, testNow } from './clock';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The app server's CLOCK_NOW (`<TEST_NOW>@<wall clock at start>`); read it through ./clock.ts. */
    clockNow: string;
    /** The Worker as `wrangler deploy` builds it, served on Miniflare by every app of the run (./app.ts). */
    workerBundle: string;
  }
}

let app: RunningApp | undefined;
let workerBundle: string | undefined;

/**
 * Starts the shared app (./app.ts) with a fresh database and its own asset build, its clock pinned to
 * TEST_NOW and running from there (./clock.ts); the demo seed is relative to that day.
 * E2E_PREBUILT=1 (set by `npm test`, which has just run `npm run build`) serves dist/client as built
 * instead of building again: one Vite build per `npm test`, not one per e2e run.
 */
export async function setup(project: TestProject) {
  // The one read of the wall clock: it anchors the running pin (server and browsers run on from TEST_NOW).
  const clockNow = runningPin(testNow(), new Date());
  // Empty: the shared app builds the Worker into it (beside its seed); the run's other apps serve that build.
  workerBundle = mkdtempSync(join(tmpdir(), 'quizkvall-e2e-worker-'));
  app = await startApp({ CLOCK_NOW: clockNow }, { ownBuild: process.env.E2E_PREBUILT !== '1', workerBundle });
  project.provide('baseURL', app.baseURL);
  project.provide('clockNow', clockNow);
  project.provide('workerBundle', workerBundle);
}

export async function teardown() {
  app?.stop();
  if (workerBundle) rmSync(workerBundle, { recursive: true, force: true });
}
