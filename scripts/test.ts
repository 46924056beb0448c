/**
 * `npm test`: every tier, overlapped where the machine has room (issue 27).
 *
 * Run one after another, the tiers left a core idle for a third of the time: the unit tier waits on the backup
 * drill's wrangler calls (61 s of CPU in 64 s on two cores), lint is one thread, the integration tier keeps
 * ~80 % of two cores busy, and each e2e run first waits ~15 s for its app. Here:
 *
 *   1. lint, unit and build start together;
 *   2. once the build is done: the integration tier, and both e2e apps start in the background (they serve the
 *      build; an app that has started sits idle until its stories come);
 *   3. once lint, unit and integration have passed: the e2e stories on the first app;
 *   4. then the import and Lighthouse stories on the second app, with the machine to themselves (as before).
 *
 * A job's output is printed whole when it ends (so parallel jobs do not interleave), with its time; a summary
 * table ends the run. A failed job lets the jobs already running finish (their failures are worth seeing too)
 * but starts nothing new. Each tier can still be run alone (`npm run lint`, `npm run test:unit`, … ; see
 * docs/development.md "Test tiers").
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { APP_START_TIMEOUT_MS, type RunningApp, startApp } from '../test/e2e/support/app';
import { runningPin, testNow } from '../test/e2e/support/clock';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const started = performance.now(); // elapsed time only: nothing here reads the calendar
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

interface Result {
  name: string;
  ok: boolean;
  ms: number;
}
const results: Result[] = [];
const children = new Set<number>();
const apps: RunningApp[] = [];

function note(line: string) {
  process.stdout.write(`[npm test ${seconds(performance.now() - started).padStart(5)}] ${line}\n`);
}

/** Runs `npm run <script>` with its output held until it ends, then printed whole. */
function run(name: string, script: string, env: Record<string, string> = {}): Promise<boolean> {
  const t0 = performance.now();
  note(`${name}: started (npm run ${script})`);
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', '--silent', script], {
      cwd: root,
      env: { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? (process.stdout.isTTY ? '1' : '0'), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    if (child.pid) children.add(child.pid);
    const out: Buffer[] = [];
    child.stdout.on('data', (d: Buffer) => out.push(d));
    child.stderr.on('data', (d: Buffer) => out.push(d));
    child.on('close', (code) => {
      if (child.pid) children.delete(child.pid);
      const ms = performance.now() - t0;
      const ok = code === 0;
      results.push({ name, ok, ms });
      process.stdout.write(`\n──── ${name}: ${ok ? 'passed' : `FAILED (exit ${code})`} in ${seconds(ms)} ────\n`);
      process.stdout.write(Buffer.concat(out));
      note(`${name}: ${ok ? 'passed' : 'FAILED'} (${seconds(ms)})`);
      resolve(ok);
    });
  });
}

/** An e2e app for a later stage, started now; its stories get its address and clock through the environment. */
async function app(label: string): Promise<Record<string, string>> {
  const clockNow = runningPin(testNow(), new Date()); // the one read of the wall clock: the running pin's anchor
  const t0 = performance.now();
  const a = await startApp({ CLOCK_NOW: clockNow }, { label });
  apps.push(a);
  note(`${label} app: up on ${a.baseURL} (${seconds(performance.now() - t0)})`);
  return { E2E_APP_URL: a.baseURL, E2E_CLOCK_NOW: clockNow };
}

function stopAll() {
  for (const pid of children) {
    try {
      process.kill(-pid, 'SIGTERM');
    } catch {
      /* gone */
    }
  }
  for (const a of apps) a.stop();
}

function finish(): never {
  stopAll();
  const width = Math.max(...results.map((r) => r.name.length));
  process.stdout.write('\n');
  for (const r of results) process.stdout.write(`  ${r.ok ? '✓' : '✗'} ${r.name.padEnd(width)}  ${seconds(r.ms).padStart(6)}\n`);
  const ok = results.every((r) => r.ok);
  process.stdout.write(`npm test: ${ok ? 'passed' : 'FAILED'} in ${seconds(performance.now() - started)}\n`);
  process.exit(ok ? 0 : 1);
}

for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => {
    stopAll();
    process.exit(130);
  });

const lint = run('lint', 'lint');
const unit = run('unit', 'test:unit');
if (!(await run('build', 'build'))) {
  await Promise.all([lint, unit]);
  finish();
}
const integration = run('integration', 'test:integration');
// Started one after the other: an app start is a burst of CPU (bundling, seeding), and the integration tier runs
// beside it. A failed start fails the run like a failed tier.
const appsReady = (async () => {
  const main = await app('e2e-main');
  const alone = await app('e2e-alone');
  return { main, alone };
})().catch((e: unknown) => {
  results.push({ name: 'e2e apps', ok: false, ms: APP_START_TIMEOUT_MS });
  process.stdout.write(`\ne2e apps: ${e instanceof Error ? e.message : String(e)}\n`);
  return null;
});
const early = await Promise.all([lint, unit, integration]);
const ready = await appsReady;
if (!early.every(Boolean) || !ready) finish();

const e2eEnv = { E2E_PREBUILT: '1' };
await run('e2e stories', 'test:e2e:main', { ...e2eEnv, ...ready.main });
if (results.every((r) => r.ok)) await run('e2e import + Lighthouse', 'test:e2e:alone', { ...e2eEnv, ...ready.alone });
finish();
