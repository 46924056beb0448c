/**
 * The superadmin's "Drift" view (issue 30 §4) and the facts the alert check (alerts.ts) judges. No Hono:
 * the route hands in the deps and which secrets are present (names only, never values).
 */
import type { Deps } from '../../ports/deps';
import { stockholmInstant } from '../../lib/clock';
import { counterHours, counterTotal, OPS_COUNTERS } from '../../lib/ops-counters';
import type { OpsBackupStatus, OpsCheck, OpsIncident, OpsJobStatus, OpsStatusResponse } from './contract';
import { importJobsByStatus, lastWebhook, latestTwoRunsPerJob, mailCounts, newestBackupRun, openIncidents, recentResolvedIncidents, type IncidentRow, type JobRunLite } from './queries';

/** A job counts as daily when its last two runs are at most this many hours apart (listing-day runs twice a night). */
export const DAILY_GAP_HOURS = 30;
/** A daily job, or the newest backup, older than this is an incident (issue 30 §5: "has not run for 26 h"). */
export const STALE_HOURS = 26;
/** Jobs started by a person (the CSV import), never expected on a schedule. */
export const ON_DEMAND_JOBS: ReadonlySet<string> = new Set(['import']);
/** How far back the job list looks: a job silent for longer has been removed. */
const JOB_WINDOW_DAYS = 30;

const HOUR = 3_600_000;

/** Secrets the Worker can see are set (names only), from the route's env. */
export type SecretPresence = Record<'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'GOOGLE_CLIENT_SECRET' | 'MAIL_API_KEY' | 'LINK_SIGNING_SECRET', boolean>;

export function secretPresence(env: Partial<Record<keyof SecretPresence, string | undefined>>): SecretPresence {
  const has = (v: string | undefined) => !!v && v.trim() !== '';
  return {
    STRIPE_SECRET_KEY: has(env.STRIPE_SECRET_KEY),
    STRIPE_WEBHOOK_SECRET: has(env.STRIPE_WEBHOOK_SECRET),
    GOOGLE_CLIENT_SECRET: has(env.GOOGLE_CLIENT_SECRET),
    MAIL_API_KEY: has(env.MAIL_API_KEY),
    LINK_SIGNING_SECRET: has(env.LINK_SIGNING_SECRET),
  };
}

function parse(text: string | null): Record<string, unknown> {
  if (!text) return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** The latest run of every job seen in the last JOB_WINDOW_DAYS, with its cadence and staleness at `now`. */
export async function jobStatuses(deps: Pick<Deps, 'db'>, now: Date): Promise<OpsJobStatus[]> {
  const rows = await latestTwoRunsPerJob(deps.db, new Date(now.getTime() - JOB_WINDOW_DAYS * 24 * HOUR).toISOString());
  const byJob = new Map<string, JobRunLite[]>();
  for (const r of rows) byJob.set(r.job, [...(byJob.get(r.job) ?? []), r]);
  return [...byJob.entries()].map(([job, [last, prev]]) => {
    const startedAt = Date.parse(last!.started_at);
    const daily = !ON_DEMAND_JOBS.has(job) && !!prev && startedAt - Date.parse(prev.started_at) <= DAILY_GAP_HOURS * HOUR;
    const error = last!.status === 'failed' ? String(parse(last!.result).error ?? 'okänt fel') : null;
    return {
      job,
      status: last!.status,
      startedAt: last!.started_at,
      finishedAt: last!.finished_at,
      ms: last!.finished_at ? Date.parse(last!.finished_at) - startedAt : null,
      error,
      daily,
      stale: daily && now.getTime() - startedAt > STALE_HOURS * HOUR,
    };
  });
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/**
 * The newest finished backup, from its job_runs row (the nightly backup records one per run). Its result
 * is read leniently: `bytes` (or `size`), `tables` (a count, a list or a map of table → rows) and `key`.
 */
export async function backupStatus(deps: Pick<Deps, 'db'>, now: Date): Promise<OpsBackupStatus | null> {
  const run = await newestBackupRun(deps.db);
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
    tables,
    key: typeof r.key === 'string' ? r.key : null,
  };
}

/** Configuration the Worker can check itself (the placeholder database id is checked by setup:cloudflare). */
export function configChecks(deps: Pick<Deps, 'config'>, secrets: SecretPresence): OpsCheck[] {
  const { config } = deps;
  const check = (key: string, ok: boolean, level: OpsCheck['level'], message: string): OpsCheck => ({ key, ok, level, message });
  return [
    check('LINK_SIGNING_SECRET', secrets.LINK_SIGNING_SECRET, 'fel', 'LINK_SIGNING_SECRET saknas: länkar i e-post (bevakningar, avregistrering) fungerar inte.'),
    check('STRIPE_SECRET_KEY', secrets.STRIPE_SECRET_KEY, 'fel', 'STRIPE_SECRET_KEY saknas: betalningar går inte till Stripe.'),
    check('STRIPE_WEBHOOK_SECRET', secrets.STRIPE_WEBHOOK_SECRET, 'fel', 'STRIPE_WEBHOOK_SECRET saknas: Stripes webhook kan inte verifieras.'),
    check('MAIL_API_KEY', secrets.MAIL_API_KEY, 'fel', 'MAIL_API_KEY saknas: e-post sparas bara i utkorgen och skickas inte.'),
    check('GOOGLE', !!config.google.clientId && secrets.GOOGLE_CLIENT_SECRET, 'varning', 'Google-inloggning är inte konfigurerad (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET).'),
    check('MAP_TILE_URL', !!config.mapTileUrl, 'fel', 'MAP_TILE_URL saknas: kartan kan inte visas.'),
    check('MAP_TILE_PROVIDER', !/(^|\/\/)tile\.openstreetmap\.org\//.test(config.mapTileUrl), 'varning', 'Kartan använder OpenStreetMaps egna kartbilder, som inte är till för mycket trafik: välj en leverantör i MAP_TILE_URL.'),
    check('SUPERADMIN_EMAILS', config.superadminEmails.length > 0, 'varning', 'SUPERADMIN_EMAILS är tom: driftlarm går bara till konton med rollen superadmin.'),
    check('APP_URL', config.appUrl.startsWith('https://') || config.isDev, 'fel', 'APP_URL är inte en https-adress.'),
  ];
}

const incident = (r: IncidentRow): OpsIncident => ({ key: r.key, summary: r.summary, openedAt: r.opened_at, resolvedAt: r.resolved_at });

export async function opsStatus(deps: Pick<Deps, 'db' | 'config' | 'clock'>, input: { secrets: SecretPresence }): Promise<OpsStatusResponse> {
  const { db, clock } = deps;
  const now = clock.now();
  const startOfToday = stockholmInstant(clock.today());
  const hours = await counterHours(db, OPS_COUNTERS.serverErrors, new Date(now.getTime() - 23 * HOUR));
  const hook = await lastWebhook(db);
  return {
    generatedAt: now.toISOString(),
    jobs: await jobStatuses(deps, now),
    mail: await mailCounts(db),
    imports: await importJobsByStatus(db),
    backup: await backupStatus(deps, now),
    webhook: {
      lastReceivedAt: hook?.receivedAt ?? null,
      lastType: hook?.type ?? null,
      signatureFailuresToday: await counterTotal(db, OPS_COUNTERS.webhookSignature, startOfToday),
    },
    serverErrors: { last24h: hours.reduce((n, h) => n + h.count, 0), hours },
    checks: configChecks(deps, input.secrets),
    incidents: { open: (await openIncidents(db)).map(incident), recent: (await recentResolvedIncidents(db)).map(incident) },
  };
}
