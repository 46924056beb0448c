/**
 * The app under a bench (`npm run bench` and the backup drill): `npm start`'s script on a free port with its own
 * persisted state and a built web folder, started detached so the whole process group stops together.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..');

export interface BenchApp {
  child: ChildProcess;
  /** The last 200 chunks of its output: shown when it fails to start or dies during a run. */
  logs: string[];
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

/** Starts the app (no build: `assets` is a built web folder) and waits until /api/health answers, at most `startMs`. */
export async function startApp(port: number, persist: string, assets: string, startMs = 180_000): Promise<BenchApp> {
  const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), PERSIST_DIR: persist, ASSETS_DIR: assets, SKIP_BUILD: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const logs: string[] = [];
  const keep = (d: unknown) => {
    logs.push(String(d));
    if (logs.length > 200) logs.splice(0, logs.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const deadline = Date.now() + startMs;
  for (;;) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { child, logs };
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`app did not start:\n${logs.join('').slice(-3000)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** SIGTERM to the app's process group; waits for it to exit, at most `waitMs`. */
export async function stopApp(child: ChildProcess, waitMs = 10_000) {
  if (!child.pid || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((r) => setTimeout(r, waitMs))]);
}
