/**
 * Starting the real app for e2e stories, one home: `npm start`'s script (scripts/start.mjs) on a free loopback port
 * with a fresh database in a private folder. Used by the shared app of every run (./global-setup.ts) and by
 * the stories that need an app of their own (follow.test.ts: a frozen quiz morning).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migratedDatabase } from '../../migrated-db';

/**
 * How long an app may take to answer /api/health: a copy of the migrated database, the seed and the server (beside
 * the seed, the first app of a run builds the Worker) take ~10 s on an idle 2-core machine with Miniflare, ~30 s with
 * wrangler dev, several times that when both cores are busy (the suite must still pass then). A
 * real-time wait, not a date. A hook that starts an app needs at least this plus a margin (APP_HOOK_TIMEOUT_MS).
 */
export const APP_START_TIMEOUT_MS = 240_000;
export const APP_HOOK_TIMEOUT_MS = APP_START_TIMEOUT_MS + 30_000;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

export interface RunningApp {
  baseURL: string;
  stop(): void;
}

/**
 * Starts the app with these extra environment variables and waits until it answers /api/health.
 * `ownBuild`: build the web app into the app's private folder (parallel runs never share dist/); otherwise
 * serve the dist/client of `npm run build` (read only).
 * `workerBundle`: serve the Worker built into this folder on Miniflare directly (scripts/serve-bundle.mjs; an empty
 * folder is built first); without it the app runs on `wrangler dev`, exactly as `npm start` does.
 */
export async function startApp(env: Record<string, string>, opts: { ownBuild?: boolean; label?: string; workerBundle?: string } = {}): Promise<RunningApp> {
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), `${opts.label ?? 'quizkvall-e2e'}-`));
  const root = join(import.meta.dirname, '..', '..', '..');
  cpSync(migratedDatabase(root), join(dir, 'state'), { recursive: true });
  const logs: string[] = [];
  // The app's whole output (wrangler, the Worker's request and error lines) goes to a file as well, so a story that
  // met a 500 can be traced to its route and stack: .e2e/logs/<label>-<port>.log (git-ignored; kept after the run).
  const logDir = join(root, '.e2e', 'logs');
  mkdirSync(logDir, { recursive: true });
  const logFile = createWriteStream(join(logDir, `${opts.label ?? 'app'}-${port}.log`));
  const child: ChildProcess = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      PERSIST_DIR: join(dir, 'state'),
      MIGRATED_DB: '1',
      ...(opts.ownBuild ? { ASSETS_DIR: join(dir, 'client'), SKIP_BUILD: '' } : { SKIP_BUILD: '1' }),
      ...(opts.workerBundle ? { WORKER_BUNDLE: opts.workerBundle } : {}),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (d) => {
      logs.push(String(d));
      logFile.write(d);
    });
  }
  child.on('exit', () => logFile.end());
  const stop = () => {
    if (child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM'); // the whole group: start.mjs, wrangler, workerd
      } catch {
        /* already gone */
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const baseURL = `http://127.0.0.1:${port}`;
  // Elapsed time on the monotonic clock (performance.now), not a date: nothing here reads the calendar.
  const deadline = performance.now() + APP_START_TIMEOUT_MS;
  for (;;) {
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return { baseURL, stop };
    } catch {
      /* not up yet */
    }
    if (performance.now() > deadline || child.exitCode !== null) {
      stop();
      throw new Error(`app did not start on ${baseURL}:\n${logs.join('').slice(-4000)}`);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}
