/**
 * The nightly backup drill at real size (issue 42.1), part of `npm run bench` (BENCH_BACKUP=0 skips it) and
 * runnable alone: `npx tsx test/bench/backup-drill.ts [series]` (default BACKUP_DRILL_SERIES weekly series).
 *
 * A local D1 with the scale seed (`db:seed --scale`: one weekly series of 26 dates per venue), multi-line text in
 * venues, quizzes, mail and feedback, and one row without its parent (a password of no user: what a backup gets
 * when a child is written after its parent's table was read) → the app on `wrangler dev` (scripts/start.mjs)
 * → the backup cron fired as Cloudflare would (/cdn-cgi/handler/scheduled) → its job_runs row waited for
 * (status, bytes, upload parts, tables, rows per table) → app stopped → `db:restore --from-r2 <key>` into a
 * fresh database (the migrated template plus a copy of the app's local R2) → every table compared by row count
 * and a hash of its typed values: identical, apart from the orphan the restore reports and the run's own
 * job_runs row (running when the backup read it).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { migratedDatabase } from '../migrated-db';
import { type BenchApp, freePort, startApp, stopApp } from './app';

const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
/** About Sweden's quiz scene: 3 000 weekly series (78 000 quiz rows), ~5 upload parts of 8 MiB. */
export const BACKUP_DRILL_SERIES = 3000;
/** Rows per series in the scale seed (worker/db/seed.ts buildScaleSeed: 26 dates a venue). */
const DATES_PER_SERIES = 26;
const UPLOAD_PART_BYTES = 8 * 1024 * 1024;
const MULTI_LINE = 'Rad ett\nRad två\r\nCRLF\rbara CR | NUL\u0000efter | LS\u2028PS\u2029 | citat \' "dq" ); -- 🍺 åäö';
const ORPHAN = { table: 'password_credentials', userId: 'drill-ghost-user' };

export interface BackupDrillResult {
  series: number;
  quizRows: number;
  /** The run's job_runs result (what the status page shows) and how long the cron's run took. */
  status: string;
  key: string;
  bytes: number;
  uploadParts: number;
  tables: number;
  rows: number;
  backupSeconds: number;
  restoreSeconds: number;
  /** Rows the restore dropped per table (its report), and tables that differ other than by those. */
  dropped: Record<string, number>;
  differing: string[];
  /** The restore's report line. */
  report: string;
}

function log(msg: string) {
  process.stderr.write(`[backup drill] ${msg}\n`);
}

function sh(cmd: string, args: string[], env: Record<string, string> = {}): string {
  return execFileSync(cmd, args, {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
}

/** The local D1's SQLite file under a --persist-to folder. */
function openDb(persist: string): DatabaseSync {
  const d = join(persist, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const f = readdirSync(d).find((n) => n.endsWith('.sqlite') && n !== 'metadata.sqlite');
  if (!f) throw new Error(`no D1 file in ${d}`);
  return new DatabaseSync(join(d, f));
}

/** Multi-line text in the tables people write to, and the orphan. */
function addHostileRows(db: DatabaseSync) {
  db.exec('PRAGMA foreign_keys = ON');
  db.prepare(`UPDATE venues SET description = description || ? WHERE rowid % 7 = 0`).run(`\n${MULTI_LINE}`);
  db.prepare(`UPDATE quizzes SET description = description || ? WHERE rowid % 97 = 0`).run(`\n${MULTI_LINE}`);
  const mail = db.prepare(`INSERT INTO mail_outbox (id, to_email, subject, text, html, status) VALUES (?, ?, ?, ?, ?, 'sent')`);
  const fb = db.prepare(`INSERT INTO feedback (id, category, title, description) VALUES (?, 'other', ?, ?)`);
  for (let i = 0; i < 500; i++) {
    mail.run(`drill-mail-${i}`, `gast${i}@example.se`, `Påminnelse ${i}`, `Hej!\n\n${MULTI_LINE} ${i}`, `<p>${MULTI_LINE}</p>\n<p>${i}</p>`);
    fb.run(`drill-fb-${i}`, `Titel ${i}`, `${MULTI_LINE}\n${i}`);
  }
  db.exec('PRAGMA foreign_keys = OFF');
  db.prepare(`INSERT INTO ${ORPHAN.table} (user_id, hash) VALUES (?, 'pbkdf2-sha256$1$x$y')`).run(ORPHAN.userId);
}

/** Per table: row count and a hash of every row's typed values (the run's own job_runs row and the orphan left out). */
function tableHashes(db: DatabaseSync, runId: string): Record<string, string> {
  const names = (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>)
    .map((t) => t.name)
    .filter((n) => !/^(sqlite_|_cf_|d1_migrations$|listing_search|listing_series_fts|listing_series_words)/.test(n));
  const out: Record<string, string> = {};
  for (const t of names) {
    const cols = (db.prepare(`SELECT name FROM pragma_table_xinfo('${t}')`).all() as Array<{ name: string }>).map((c) => `"${c.name}"`);
    const expr = cols.map((c) => `typeof(${c}) || ':' || CASE typeof(${c}) WHEN 'real' THEN printf('%!.20e', ${c}) ELSE hex(${c}) END`).join(` || '|' || `);
    const where = t === 'job_runs' ? ` WHERE id <> '${runId}'` : t === ORPHAN.table ? ` WHERE user_id <> '${ORPHAN.userId}'` : '';
    const hash = createHash('sha256');
    let n = 0;
    for (const r of db.prepare(`SELECT ${expr} AS r FROM "${t}"${where} ORDER BY 1`).iterate() as Iterable<{ r: string }>) {
      hash.update(r.r).update('\n');
      n++;
    }
    out[t] = `${n}:${hash.digest('hex').slice(0, 16)}`;
  }
  return out;
}

/** The backup run's job_runs row once it has ended (polled through wrangler, as the bench polls its jobs). */
async function waitForBackupRun(persist: string, app: BenchApp, timeoutMs: number) {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`the app exited during the backup:\n${app.logs.join('').slice(-3000)}`);
    try {
      const out = sh(bin('wrangler'), [
        'd1',
        'execute',
        'DB',
        '--local',
        '--persist-to',
        persist,
        '--json',
        '--command',
        `SELECT id, status, result, CAST(round((julianday(finished_at) - julianday(started_at)) * 86400) AS INTEGER) AS s FROM job_runs WHERE job = 'backup' AND status <> 'running' ORDER BY started_at DESC LIMIT 1`,
      ]);
      const [row] = (JSON.parse(out) as Array<{ results: Array<{ id: string; status: string; result: string; s: number }> }>)[0]?.results ?? [];
      if (row) return row;
    } catch {
      // A second process on the app's local D1 can be refused for a moment while the app writes: ask again.
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
  throw new Error(`no backup run ended within ${timeoutMs / 1000} s:\n${app.logs.join('').slice(-3000)}`);
}

export async function backupDrill(opts: { series?: number; assets?: string } = {}): Promise<BackupDrillResult> {
  const series = opts.series ?? BACKUP_DRILL_SERIES;
  const quizRows = series * DATES_PER_SERIES;
  const tmp = mkdtempSync(join(tmpdir(), 'qk-backup-drill-'));
  const persist = join(tmp, 'app');
  const fresh = join(tmp, 'fresh');
  let assets = opts.assets;
  if (!assets) {
    assets = join(tmp, 'client');
    mkdirSync(assets, { recursive: true });
    writeFileSync(join(assets, 'index.html'), '<!doctype html><title>drill</title>');
  }
  try {
    log(`${series} weekly series (${quizRows} quiz rows): migrated template + scale seed`);
    cpSync(migratedDatabase(root), persist, { recursive: true });
    sh(bin('tsx'), [join(root, 'scripts', 'seed.ts'), '--scale', String(quizRows), '--persist-to', persist]);
    let db = openDb(persist);
    addHostileRows(db);
    db.close();

    const port = await freePort();
    log(`starting the app on 127.0.0.1:${port}`);
    const app = await startApp(port, persist, assets);
    let run: Awaited<ReturnType<typeof waitForBackupRun>>;
    const t0 = performance.now();
    try {
      const res = await fetch(`http://127.0.0.1:${port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent('45 1 * * *')}`);
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`the scheduled handler answered ${res.status}`);
      log('backup cron fired; waiting for its job_runs row');
      run = await waitForBackupRun(persist, app, 900_000);
    } finally {
      await stopApp(app.child);
    }
    const backupSeconds = run.s ?? Math.round((performance.now() - t0) / 1000);
    const result = JSON.parse(run.result) as {
      key?: string;
      bytes?: number;
      uploadParts?: number;
      tables?: number;
      rows?: number;
      tableRows?: Record<string, number>;
      error?: string;
    };
    log(`backup ${run.status} in ${backupSeconds} s: ${run.result.slice(0, 300)}`);
    if (run.status !== 'done' || !result.key) throw new Error(`the backup run ${run.status}: ${run.result}`);

    db = openDb(persist);
    const before = tableHashes(db, run.id);
    db.close();

    // A fresh database (schema and reference rows only) beside a copy of the app's local R2, then the restore as
    // the runbook gives it.
    cpSync(migratedDatabase(root), fresh, { recursive: true });
    cpSync(join(persist, 'v3', 'r2'), join(fresh, 'v3', 'r2'), { recursive: true });
    const t1 = performance.now();
    const out = sh('node', [join(root, 'scripts', 'd1-backup.mjs'), 'restore', '--from-r2', result.key, '--persist-to', fresh]);
    const restoreSeconds = Math.round((performance.now() - t1) / 100) / 10;
    const report = out.trim().split('\n').at(-1) ?? '';
    log(`restore in ${restoreSeconds} s: ${report}`);
    db = openDb(fresh);
    const after = tableHashes(db, run.id);
    db.close();
    const dropped: Record<string, number> = {};
    for (const m of report.matchAll(/(\w+) (\d+)(?=[,.])/g)) dropped[m[1]!] = Number(m[2]);
    const differing = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter((t) => before[t] !== after[t]);
    return {
      series,
      quizRows,
      status: run.status,
      key: result.key,
      bytes: result.bytes ?? 0,
      uploadParts: result.uploadParts ?? 0,
      tables: result.tables ?? 0,
      rows: result.rows ?? 0,
      backupSeconds,
      restoreSeconds,
      dropped,
      differing,
      report,
    };
  } finally {
    if (process.env.BACKUP_DRILL_KEEP === '1') log(`kept ${tmp}`);
    else rmSync(tmp, { recursive: true, force: true });
  }
}

/** The drill's targets, as the bench's checks. */
export function backupDrillChecks(r: BackupDrillResult): Array<{ target: string; measured: string; ok: boolean }> {
  return [
    {
      target: 'nightly backup by the cron on wrangler dev: done, ≥ 3 upload parts of 8 MiB',
      measured: `${r.status}, ${(r.bytes / 1024 / 1024).toFixed(1)} MiB in ${r.uploadParts} parts, ${r.backupSeconds} s`,
      ok: r.status === 'done' && r.uploadParts >= 3 && r.uploadParts === Math.ceil(r.bytes / UPLOAD_PART_BYTES),
    },
    {
      target: 'restore of that R2 object: every table identical but the orphan it reports',
      measured: `${r.differing.length ? `differs: ${r.differing.join(', ')}` : 'identical'}; dropped ${JSON.stringify(r.dropped)}; ${r.restoreSeconds} s`,
      ok: r.differing.length === 0 && JSON.stringify(r.dropped) === JSON.stringify({ [ORPHAN.table]: 1 }),
    },
  ];
}

export function backupDrillMarkdown(r: BackupDrillResult): string {
  return [
    '| weekly series | quiz rows | backup (cron → done) | object | upload parts | tables | rows | restore (`db:restore --from-r2`) | dropped (orphans) | tables differing |',
    '|---|---|---|---|---|---|---|---|---|---|',
    `| ${r.series.toLocaleString('sv-SE')} | ${r.quizRows.toLocaleString('sv-SE')} | ${r.backupSeconds} s, ${r.status} | ${(r.bytes / 1024 / 1024).toFixed(1)} MiB | ${r.uploadParts} | ${r.tables} | ${r.rows.toLocaleString('sv-SE')} | ${r.restoreSeconds} s | ${Object.entries(
      r.dropped,
    )
      .map(([t, n]) => `${t} ${n}`)
      .join(', ')} | ${r.differing.length ? r.differing.join(', ') : 'none'} |`,
  ].join('\n');
}

if (process.argv[1]?.endsWith('backup-drill.ts')) {
  const r = await backupDrill({ series: process.argv[2] ? Number(process.argv[2]) : undefined });
  const checks = backupDrillChecks(r);
  process.stdout.write(`\n${backupDrillMarkdown(r)}\n\n${checks.map((c) => `${c.ok ? 'ok  ' : 'MISS'} ${c.target}: ${c.measured}`).join('\n')}\n`);
  if (checks.some((c) => !c.ok)) process.exitCode = 1;
}
