import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { runningPin, testNow } from './clock';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    /** The app server's CLOCK_NOW (`<TEST_NOW>@<wall clock at start>`); read it through ./clock.ts. */
    clockNow: string;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

let child: ChildProcess | undefined;
let dir: string | undefined;

/**
 * Starts `npm start` (scripts/start.mjs) on a free port with a fresh database and its own asset build,
 * its clock pinned to TEST_NOW and running from there (./clock.ts); the demo seed is relative to that day.
 * E2E_PREBUILT=1 (set by `npm test`, which has just run `npm run build`) serves dist/client as built
 * instead of building again: one Vite build per `npm test`, not one per e2e run.
 */
export async function setup(project: TestProject) {
  const port = await freePort();
  dir = mkdtempSync(join(tmpdir(), 'quizkvall-e2e-'));
  const root = join(import.meta.dirname, '..', '..', '..');
  const logs: string[] = [];
  // The one read of the wall clock: it anchors the running pin (server and browsers run on from TEST_NOW).
  const clockNow = runningPin(testNow(), new Date());
  child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      PERSIST_DIR: join(dir, 'state'),
      ...(process.env.E2E_PREBUILT === '1' ? { SKIP_BUILD: '1' } : { ASSETS_DIR: join(dir, 'client'), SKIP_BUILD: '' }),
      CLOCK_NOW: clockNow,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout?.on('data', (d) => logs.push(String(d)));
  child.stderr?.on('data', (d) => logs.push(String(d)));
  const baseURL = `http://127.0.0.1:${port}`;
  // Build + 20 migrations + seed + wrangler dev: ~40 s on an idle 2-core machine, several times that when
  // both cores are busy (the suite must still pass then). A real-time wait, not a date.
  const deadline = Date.now() + 240_000;
  for (;;) {
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) {
      throw new Error(`app did not start on ${baseURL}:\n${logs.join('').slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  project.provide('baseURL', baseURL);
  project.provide('clockNow', clockNow);
}

export async function teardown() {
  if (child?.pid) {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      /* already gone */
    }
  }
  if (dir) rmSync(dir, { recursive: true, force: true });
}
