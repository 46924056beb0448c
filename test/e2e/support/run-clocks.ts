/**
 * `npm run test:clocks`: the e2e stories that read the date, run once more at each of CI's pinned instants
 * (a month end, a DST change, a Sunday — CI_TEST_NOWS in ./clock.ts). Each run is one vitest e2e run with
 * TEST_NOW set: its own app server pinned there, the browsers too. Runs one after another (two cores).
 *
 *   npm run test:clocks                      all three dates
 *   npm run test:clocks -- 2026-10-25T01:30:00Z   one instant of your choice
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { CI_TEST_NOWS, CLOCK_FILES } from './clock';

const root = join(import.meta.dirname, '..', '..', '..');
const vitest = join(root, 'node_modules', '.bin', 'vitest');
const asked = process.argv.slice(2).filter((a) => a !== '--');
const runs = asked.length ? asked.map((at) => ({ name: at, at })) : CI_TEST_NOWS;

let failed = 0;
for (const run of runs) {
  const started = performance.now();
  console.log(`\n▶ e2e at TEST_NOW=${run.at} (${run.name}): ${CLOCK_FILES.join(' ')}`);
  const r = spawnSync(vitest, ['run', '--config', 'vitest.e2e.config.ts', ...CLOCK_FILES], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TEST_NOW: run.at },
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(0);
  console.log(`◀ ${run.name}: ${r.status === 0 ? 'passed' : 'FAILED'} in ${seconds} s`);
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
