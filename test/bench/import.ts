/**
 * Import throughput bench (issue 21): `npx tsx test/bench/import.ts` (not part of `npm run bench`'s
 * listing table). Builds the web app (unless SKIP_BUILD=1), starts the real app (scripts/start.mjs:
 * wrangler dev with the local Workflow engine, R2 and D1) on a fresh database with the demo data,
 * signs in as the demo superadmin, uploads a BENCH_IMPORT_ROWS-row CSV (default 20 000; each row a
 * business + place + weekly series of ~26 dates), presses "Importera" and polls the job until done.
 * Prints and writes test/bench/import-results.json: upload+preview time, import time, rows/s, quiz
 * rows/s; fails if the job does not end 'done' with every row processed exactly once (counters and the
 * report: one line per file line). This is the home of the full 20 000-row run (issue 27.5); the suite's
 * import-jobs.test.ts runs a 2 000-row crash-and-resume without timing.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { KNOWN_TOWNS } from '../fixtures/towns';

const root = join(import.meta.dirname, '..', '..');
const ROWS = Number(process.env.BENCH_IMPORT_ROWS ?? 20_000);

const port = await new Promise<number>((resolve) => {
  const s = createServer();
  s.listen(0, '127.0.0.1', () => {
    const a = s.address();
    s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
  });
});
const persist = mkdtempSync(join(tmpdir(), 'qk-import-bench-'));
const base = `http://127.0.0.1:${port}`;
const child = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
  cwd: root,
  env: { ...process.env, PORT: String(port), PERSIST_DIR: persist },
  stdio: ['ignore', 'pipe', 'pipe'],
  detached: true,
});
let logs = '';
child.stdout?.on('data', (d) => (logs = (logs + d).slice(-4000)));
child.stderr?.on('data', (d) => (logs = (logs + d).slice(-4000)));

async function main() {
  for (const deadline = Date.now() + 180_000; ; ) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {
      /* starting */
    }
    if (Date.now() > deadline) throw new Error(`app did not start:\n${logs}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const headers = { origin: base };
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@quizkvall.local', password: 'quizkvall-admin' }),
  });
  if (!login.ok) throw new Error(`login ${login.status}`);
  const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  const lines = ['name,address,city,weekday,start_time'];
  for (let i = 0; i < ROWS; i++) lines.push(`Benchkrog ${i},Gatan ${i},${KNOWN_TOWNS[i % 400]},${['måndag', 'tisdag', 'onsdag', 'torsdag'][i % 4]},19:00`);
  const t0 = performance.now();
  const up = await fetch(`${base}/api/admin/import/jobs?name=bench.csv`, {
    method: 'POST',
    headers: { ...headers, cookie, 'content-type': 'text/csv' },
    body: lines.join('\n'),
  });
  if (up.status !== 201) throw new Error(`upload ${up.status} ${await up.text()}`);
  const job = (await up.json()) as { id: string; totalRows: number };
  const tUpload = performance.now() - t0;
  const t1 = performance.now();
  const start = await fetch(`${base}/api/admin/import/jobs/${job.id}/start`, {
    method: 'POST',
    headers: { ...headers, cookie, 'content-type': 'application/json' },
    body: '{}',
  });
  if (!start.ok) throw new Error(`start ${start.status}`);
  let view: { status: string; processedRows: number; totalRows: number; counts: Record<string, number> };
  for (;;) {
    await new Promise((r) => setTimeout(r, 1000));
    view = (await (await fetch(`${base}/api/admin/import/jobs/${job.id}`, { headers: { cookie } })).json()) as typeof view;
    process.stdout.write(`\r${view.processedRows} av ${view.totalRows} rader`);
    if (view.status === 'done' || view.status === 'failed') break;
  }
  const tImport = performance.now() - t1;
  // Exactly once, as the suite's 2 000-row run proves it: one report line per file line, none twice.
  const report = await (await fetch(`${base}/api/admin/import/jobs/${job.id}/report`, { headers: { cookie } })).text();
  const reportRows = report
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n')
    .slice(1)
    .map((l) => Number(l.split(',')[0]));
  const distinctRows = new Set(reportRows).size;
  const result = {
    date: new Date().toISOString(),
    rows: ROWS,
    status: view.status,
    processed: view.processedRows,
    counts: view.counts,
    reportRows: reportRows.length,
    distinctRows,
    uploadAndPreviewMs: Math.round(tUpload),
    importMs: Math.round(tImport),
    rowsPerSecond: Math.round((view.processedRows / tImport) * 1000),
    loadAverage: loadavg()[0],
  };
  console.log(`\n${JSON.stringify(result, null, 2)}`);
  writeFileSync(join(import.meta.dirname, 'import-results.json'), `${JSON.stringify(result, null, 2)}\n`);
  if (view.status !== 'done' || view.processedRows !== ROWS || reportRows.length !== ROWS || distinctRows !== ROWS)
    throw new Error('import did not complete exactly');
}

try {
  await main();
} finally {
  try {
    process.kill(-child.pid!, 'SIGTERM');
  } catch {
    /* gone */
  }
  rmSync(persist, { recursive: true, force: true });
}
