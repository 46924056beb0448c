/**
 * The facts both the "Drift" tab (service.ts) and the alert check (alerts.ts) judge: each job's latest run,
 * cadence, staleness (a missed start, by worker/jobs/schedule.ts, which the caller hands in) and failure, and
 * the newest successful backup (issue 30 §4–5, issue 42 item 4).
 */
import type { Config } from '../../env';
import { previousFire } from '../../lib/cron';
import { DEFAULT_RUN_LIMIT_MINUTES, interrupted, interruptedError, RUN_LIMIT_MINUTES } from '../../lib/jobs';
import type { Deps } from '../../ports/deps';
import { BACKUP_JOB } from '../backup/service';
import type { JobSchedule, OpsBackupStatus, OpsJobStatus } from './contract';
import { firstRunAt, newestBackupRun, recentRunsPerJob, type JobRunLite, type RunningCutoffs } from './queries';

/** A job counts as daily when its last two runs are at most this many hours apart (listing-day runs twice a night). */
export const DAILY_GAP_HOURS = 30;
/**
 * A daily job without a schedule whose newest run is older than this is an incident, and so is a deployment
 * without a successful backup this long after the newest one, or after the first deploy (issue 42 item 4).
 */
export const STALE_HOURS = 26;
/** A scheduled job (worker/jobs/schedule.ts) that has not started this long after its trigger fired has missed it. */
export const MISSED_START_GRACE_MINUTES = 60;
/** A run started this little before its trigger's instant still counts for it (clock skew). */
const EARLY_START_MINUTES = 5;
/** Jobs started by a person (the CSV import), never expected on a schedule. */
export const ON_DEMAND_JOBS: ReadonlySet<string> = new Set(['import']);
/** How far back the job list looks: a job silent for longer has been removed. */
const JOB_WINDOW_DAYS = 30;

export const HOUR = 3_600_000;
const MINUTE = 60_000;

function parse(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Per job, the start before which a `running` row is past its limit (lib/jobs.ts RUN_LIMIT_MINUTES). */
function runningBefore(now: Date): RunningCutoffs {
  const at = (minutes: number) => new Date(now.getTime() - minutes * MINUTE).toISOString();
  return { byJob: Object.entries(RUN_LIMIT_MINUTES).map(([job, minutes]) => [job, at(minutes)]), otherwise: at(DEFAULT_RUN_LIMIT_MINUTES) };
}

/**
 * The latest instant a job with these triggers was due to start and has not (null: started, or not due
 * since the first deploy). `lastStart`: its newest run's start; `firstRun`: the first deploy (read only
 * when the job has no run to go by).
 */
export async function missedStart(crons: readonly string[], now: Date, lastStart: string | null, firstRun: () => Promise<string | null>): Promise<Date | null> {
  const cutoff = new Date(now.getTime() - MISSED_START_GRACE_MINUTES * MINUTE);
  const fires = crons.map((c) => previousFire(c, cutoff)).filter((d): d is Date => d !== null);
  if (!fires.length) return null;
  const due = new Date(Math.max(...fires.map((d) => d.getTime())));
  if (lastStart && Date.parse(lastStart) >= due.getTime() - EARLY_START_MINUTES * MINUTE) return null;
  if (!lastStart) {
    const first = await firstRun();
    if (!first || Date.parse(first) > due.getTime()) return null;
  }
  return due;
}

/** Reads the first deploy at most once per check. */
export function firstRunReader(deps: Pick<Deps, 'db'>): () => Promise<string | null> {
  let memo: Promise<string | null> | undefined;
  return () => (memo ??= firstRunAt(deps.db));
}

/**
 * The latest run of every job seen in the last JOB_WINDOW_DAYS, with its cadence, staleness and whether it is
 * failing at `now`. A `running` row past its job's limit reads as failed (`interrupted`, lib/jobs.ts). A job
 * is *failing* while its newest settled run (finished or interrupted) failed: a later run that has only
 * started changes nothing until it succeeds.
 */
export async function jobStatuses(deps: Pick<Deps, 'db'>, now: Date, schedule: JobSchedule, firstRun = firstRunReader(deps)): Promise<OpsJobStatus[]> {
  const rows = await recentRunsPerJob(deps.db, new Date(now.getTime() - JOB_WINDOW_DAYS * 24 * HOUR).toISOString(), runningBefore(now));
  const byJob = new Map<string, typeof rows>();
  for (const r of rows) byJob.set(r.job, [...(byJob.get(r.job) ?? []), r]);
  const out: OpsJobStatus[] = [];
  for (const [job, runs] of byJob) {
    const [last, prev] = runs.filter((r) => r.n <= 2);
    const settled = runs.find((r) => r.settled === 1);
    const view = (r: JobRunLite) => ({ ...r, startedAt: r.started_at });
    const killed = interrupted(view(last!), now);
    const settledKilled = !!settled && interrupted(view(settled), now);
    const failing = !!settled && (settled.status === 'failed' || settledKilled);
    const startedAt = Date.parse(last!.started_at);
    const daily = !ON_DEMAND_JOBS.has(job) && !!prev && startedAt - Date.parse(prev.started_at) <= DAILY_GAP_HOURS * HOUR;
    const crons = schedule.get(job);
    const stale = crons ? (await missedStart(crons, now, last!.started_at, firstRun)) !== null : daily && now.getTime() - startedAt > STALE_HOURS * HOUR;
    out.push({
      job,
      status: killed ? 'failed' : last!.status,
      interrupted: killed,
      failing,
      startedAt: last!.started_at,
      finishedAt: last!.finished_at,
      ms: last!.finished_at ? Date.parse(last!.finished_at) - startedAt : null,
      error: !failing ? null : settledKilled ? interruptedError(job) : String(parse(settled!.result).error ?? 'okänt fel'),
      daily,
      stale,
    });
  }
  return out;
}

/** Scheduled jobs with no run in the job window that have missed their latest trigger (listed nowhere else). */
export async function neverStarted(now: Date, schedule: JobSchedule, seen: ReadonlySet<string>, firstRun: () => Promise<string | null>): Promise<string[]> {
  const out: string[] = [];
  for (const [job, crons] of schedule) if (!seen.has(job) && (await missedStart(crons, now, null, firstRun))) out.push(job);
  return out;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** The sum of a table → rows map (null when it is not one). */
function sumOf(v: unknown): number | null {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return null;
  const counts = Object.values(v).map(num);
  return counts.every((n) => n !== null) ? counts.reduce((a, b) => a! + b!, 0) : null;
}

/**
 * The newest successful backup, from its job_runs row (the backup Workflow writes one per run, job BACKUP_JOB).
 * Its result is read leniently: `bytes` (or `size`), `tables` (a count, a list or a map of table → rows),
 * `rows` (or the sum of a table → rows map) and `key`.
 */
export async function backupStatus(deps: Pick<Deps, 'db'>, now: Date): Promise<OpsBackupStatus | null> {
  const run = await newestBackupRun(deps.db, BACKUP_JOB);
  if (!run) return null;
  const r = parse(run.result);
  const tables = Array.isArray(r.tables) ? r.tables.length : r.tables && typeof r.tables === 'object' ? Object.keys(r.tables).length : num(r.tables);
  const at = run.finished_at ?? run.started_at;
  return {
    job: run.job,
    status: run.status,
    at,
    ageHours: Math.round(((now.getTime() - Date.parse(at)) / HOUR) * 10) / 10,
    bytes: num(r.bytes) ?? num(r.size) ?? num(r.totalBytes),
    tables: tables ?? (r.tableRows && typeof r.tableRows === 'object' ? Object.keys(r.tableRows).length : null),
    rows: num(r.rows) ?? sumOf(r.tableRows) ?? sumOf(r.tables),
    key: typeof r.key === 'string' ? r.key : null,
  };
}

/** Turnstile's documented test secrets (always pass, always fail, token spent): for staging, never for real visitors. */
export const TURNSTILE_TEST_SECRET = /^[123]x0{20,}AA$/;
/** A Turnstile secret's shape (`0x` + the key); anything else is refused by siteverify. */
const TURNSTILE_SECRET_SHAPE = /^[0-3]x[\w-]{16,}$/;

export type TurnstileState = 'ok' | 'local' | 'missing' | 'malformed' | 'test-key' | 'no-site-key';

/** What the human check of the public tip form will do with this configuration (worker/ports/human-check.ts). */
export function turnstileState(config: Pick<Config, 'isDev' | 'turnstile'>): TurnstileState {
  const { secretKey, siteKey } = config.turnstile;
  if (!secretKey) return config.isDev ? 'local' : 'missing';
  if (!TURNSTILE_SECRET_SHAPE.test(secretKey)) return 'malformed';
  // Without a site key the form shows no widget and sends the local token, which siteverify refuses.
  if (!siteKey) return 'no-site-key';
  return TURNSTILE_TEST_SECRET.test(secretKey) ? 'test-key' : 'ok';
}

const b64uBytes = (s: string): Uint8Array<ArrayBuffer> | null => {
  if (!/^[A-Za-z0-9_-]+$/.test(s)) return null;
  const bin = atob(
    s
      .replace(/-/g, '+')
      .replace(/_/g, '/')
      .padEnd(Math.ceil(s.length / 4) * 4, '='),
  );
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
};
const b64u = (b: Uint8Array) =>
  btoa(String.fromCharCode(...b))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

export type VapidState = 'ok' | 'off' | 'invalid' | 'dev-pair';

/**
 * Whether the VAPID keys are one P-256 pair (public: the raw uncompressed point, private: its `d`, base64url):
 * a signature made with the private key must verify with the public key. Production without keys: push is off.
 */
export async function vapidState(config: Pick<Config, 'isDev' | 'vapid'>, devPublicKey: string): Promise<VapidState> {
  const v = config.vapid;
  if (!v) return 'off';
  if (!config.isDev && v.publicKey === devPublicKey) return 'dev-pair';
  try {
    const pub = b64uBytes(v.publicKey);
    const d = b64uBytes(v.privateKey);
    if (!pub || !d || pub.length !== 65 || pub[0] !== 4 || d.length !== 32) return 'invalid';
    const alg = { name: 'ECDSA', namedCurve: 'P-256' };
    const jwk = { kty: 'EC', crv: 'P-256', x: b64u(pub.slice(1, 33)), y: b64u(pub.slice(33)), d: v.privateKey };
    const privateKey = await crypto.subtle.importKey('jwk', jwk, alg, false, ['sign']);
    const publicKey = await crypto.subtle.importKey('raw', pub, alg, false, ['verify']);
    const data = new TextEncoder().encode('quizkvall-vapid-check');
    const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, data);
    return (await crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, publicKey, sig, data)) ? 'ok' : 'invalid';
  } catch {
    return 'invalid';
  }
}
