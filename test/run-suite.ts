/**
 * `npm test`: every tier, in this order, stopping after the first step that fails.
 *
 *   1. lint, and beside it the migrated test database (test/prepare.ts)
 *   2. unit
 *   3. build (dist/client, served by the e2e apps)
 *   4. Lighthouse, and beside it the integration tier at idle priority (below)
 *   5. the e2e stories
 *
 * Step 4 (issue 27: suite time). Lighthouse audits one page at a time: ~90 s in which it keeps about one of two cores
 * busy. Its LCP ratios follow the machine's load, so it used to run alone, after everything else, with a core idle.
 * Now the integration tier (~330 s of CPU, no browser) runs beside it under SCHED_IDLE (`chrt --idle 0`): the kernel
 * gives it only CPU that nothing else wants, so the audits see an all but idle machine and the tier takes the idle
 * core. When Lighthouse ends, the tier goes back to normal priority. On a busy machine the idle core is not there and
 * the tier would starve (its tests have 60 s timeouts): a watchdog puts it back to normal priority when it got less
 * than STARVED_CPU_S of CPU in the last WATCH_WINDOW_S. (SCHED_IDLE yields only within its autogroup, i.e. its
 * session: busy work of other sessions shares the CPU with the tier as usual.) Leaving SCHED_IDLE needs root or a
 * RLIMIT_NICE that reaches nice 0 (sched(7), mayLeaveIdle); without that, or without `chrt` and /proc (not Linux),
 * step 4 runs the two one after the other.
 *
 * Prints each step's wall time at the end. Single tiers: `npm run test:unit`, `test:integration`, `test:e2e`, ….
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The watchdog's window and the CPU a tier must get in it to stay at idle priority. An idle core gives it ~20 s in
 * that window; Lighthouse's own app start (seed, bundle, Miniflare: ~10 s on both cores) must not count as a busy
 * machine; and a starved tier is back at normal priority well inside its tests' 60 s timeouts.
 */
export const WATCH_WINDOW_S = 20;
export const STARVED_CPU_S = 2;
const TICKS_PER_S = 100; // USER_HZ on Linux

interface Step {
  name: string;
  seconds: number;
  code: number;
}
const steps: Step[] = [];

/** utime + stime + cutime + cstime (ticks) and the parent of one /proc/<pid>/stat line. */
export function parseStat(line: string): { ppid: number; ticks: number } | undefined {
  const end = line.lastIndexOf(')');
  if (end < 0) return undefined;
  const f = line.slice(end + 2).split(' ');
  // After "pid (comm) ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime cstime
  const n = (i: number) => Number(f[i]);
  return { ppid: n(1), ticks: n(11) + n(12) + n(13) + n(14) };
}

/** Every live process below `rootPid` (itself included), with its CPU ticks. */
function processTree(rootPid: number): Map<number, number> {
  const stats = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const s = parseStat(readFileSync(`/proc/${name}/stat`, 'utf8'));
      if (s) stats.set(Number(name), s);
    } catch {
      // gone meanwhile
    }
  }
  const tree = new Map<number, number>();
  if (stats.has(rootPid)) tree.set(rootPid, stats.get(rootPid)!.ticks);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, s] of stats)
      if (!tree.has(pid) && tree.has(s.ppid)) {
        tree.set(pid, s.ticks);
        grew = true;
      }
  }
  return tree;
}

/**
 * Whether this process may take a SCHED_IDLE child back to normal priority: root, or a RLIMIT_NICE that allows nice 0
 * (`Max nice priority` ≥ 20 in /proc/self/limits); CAP_SYS_NICE alone is not looked for.
 */
export function mayLeaveIdle(uid: number, limits: string): boolean {
  if (uid === 0) return true;
  const m = /^Max nice priority\s+(\S+)/m.exec(limits);
  return m !== null && (m[1] === 'unlimited' || Number(m[1]) >= 20);
}

function idlePriorityAvailable(): boolean {
  if (process.platform !== 'linux' || !existsSync('/proc/self/limits')) return false;
  if (spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status !== 0) return false;
  return mayLeaveIdle(process.getuid?.() ?? -1, readFileSync('/proc/self/limits', 'utf8'));
}

/**
 * Starved: over the last `windowS` seconds of samples (seconds since start, CPU seconds of the tree), the tree got
 * less than `minCpuS` of CPU. Needs a full window of samples first.
 */
export function starved(samples: ReadonlyArray<{ t: number; cpu: number }>, windowS = WATCH_WINDOW_S, minCpuS = STARVED_CPU_S): boolean {
  const last = samples.at(-1);
  if (!last) return false;
  const first = samples.find((s) => s.t >= last.t - windowS);
  if (!first || last.t - first.t < windowS * 0.9) return false;
  return last.cpu - first.cpu < minCpuS;
}

function run(name: string, args: string[], opts: { env?: Record<string, string>; idle?: boolean; quiet?: boolean } = {}) {
  const started = performance.now();
  const [cmd, cmdArgs] = opts.idle ? ['chrt', ['--idle', '0', npm, ...args]] : [npm, args];
  const child = spawn(cmd, cmdArgs, {
    cwd: root,
    env: { ...process.env, ...opts.env },
    stdio: opts.quiet ? ['ignore', 'pipe', 'pipe'] : 'inherit',
  });
  const output: Buffer[] = [];
  child.stdout?.on('data', (d: Buffer) => output.push(d));
  child.stderr?.on('data', (d: Buffer) => output.push(d));
  const done = new Promise<number>((resolve) =>
    // 'close', not 'exit': a quiet step's pipes may still hold output when the process has exited.
    child.on('close', (code, signal) => {
      const step = { name, seconds: Math.round((performance.now() - started) / 1000), code: code ?? (signal ? 1 : 0) };
      steps.push(step);
      // A quiet step's output comes out whole when it ends, not interleaved with the step beside it.
      if (output.length) process.stdout.write(Buffer.concat(output));
      resolve(step.code);
    }),
  );
  return { child, done };
}

/** Back to SCHED_OTHER for every thread of every process of the tree (threads and children made later inherit it). */
function leaveIdle(child: ChildProcess, why: string) {
  if (!child.pid) return;
  let moved = 0;
  for (const pid of processTree(child.pid).keys())
    if (spawnSync('chrt', ['--other', '--all-tasks', '--pid', '0', String(pid)], { stdio: 'ignore' }).status === 0) moved++;
  console.log(`\n[npm test] integration back to normal priority (${why}; ${moved} processes)\n`);
}

/** Step 4: Lighthouse at normal priority, the integration tier beside it at idle priority (see the top). */
export async function lighthouseBesideIntegration(): Promise<boolean> {
  if (!idlePriorityAvailable()) {
    console.log('[npm test] no way back from idle priority here (chrt, root or RLIMIT_NICE): Lighthouse, then integration');
    return (await run('integration', ['run', 'test:integration']).done) === 0 && (await run('lighthouse', ['run', 'test:lighthouse'], { env: E2E }).done) === 0;
  }
  const integration = run('integration (beside Lighthouse, idle priority)', ['run', 'test:integration'], { idle: true });
  const lighthouse = run('lighthouse', ['run', 'test:lighthouse'], { env: E2E, quiet: true });
  let idle = true;
  const samples: Array<{ t: number; cpu: number }> = [];
  const started = performance.now();
  const watch = setInterval(() => {
    if (!idle || !integration.child.pid) return;
    let ticks = 0;
    for (const t of processTree(integration.child.pid).values()) ticks += t;
    samples.push({ t: (performance.now() - started) / 1000, cpu: ticks / TICKS_PER_S });
    if (starved(samples)) {
      idle = false;
      leaveIdle(integration.child, `less than ${STARVED_CPU_S} s of CPU in ${WATCH_WINDOW_S} s: the machine is busy`);
    }
  }, 1000);
  const lhCode = await lighthouse.done;
  if (idle) {
    idle = false;
    leaveIdle(integration.child, 'Lighthouse has finished');
  }
  clearInterval(watch);
  const integrationCode = await integration.done;
  return lhCode === 0 && integrationCode === 0;
}

const E2E = { E2E_PREBUILT: '1' };

async function main(): Promise<number> {
  const prepare = run('test database (beside lint)', ['run', 'test:prepare'], { quiet: true });
  const lint = await run('lint', ['run', 'lint']).done;
  if ((await prepare.done) !== 0 || lint !== 0) return 1;
  if ((await run('unit', ['run', 'test:unit']).done) !== 0) return 1;
  if ((await run('build', ['run', 'build']).done) !== 0) return 1;
  if (!(await lighthouseBesideIntegration())) return 1;
  if ((await run('e2e stories', ['run', 'test:e2e:stories'], { env: E2E }).done) !== 0) return 1;
  return 0;
}

const invokedAs = process.argv[1] ?? '';
if (invokedAs.endsWith('run-suite.ts')) {
  const started = performance.now();
  const code = await main();
  console.log(`\n[npm test] ${code === 0 ? 'all green' : 'FAILED'} in ${Math.round((performance.now() - started) / 1000)} s`);
  for (const s of steps) console.log(`  ${s.code === 0 ? 'ok  ' : 'FAIL'} ${String(s.seconds).padStart(4)} s  ${s.name}`);
  process.exit(code);
}
