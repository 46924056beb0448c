/**
 * Operations alerts by e-mail (issue 30 §5, issue 42 item 4). `checkAlerts` judges the same facts the "Drift"
 * tab shows and keeps one ops_incidents row per ongoing problem, under a stable key:
 *
 *   job-failed:{job}   the newest finished or interrupted run of a scheduled job failed (a run that has
 *                      only started changes nothing: the incident closes when a later run succeeds)
 *   jobs-stale         a scheduled job has not started within MISSED_START_GRACE_MINUTES of its trigger
 *                      (worker/jobs/schedule.ts), or an unscheduled daily job has not run for STALE_HOURS
 *                      (one incident for all of them)
 *   backup             the backup failed or was interrupted, did not start when due, or none has succeeded
 *                      for STALE_HOURS (since the newest success, or since the first deploy): one cause, one
 *                      incident, closed by a successful backup
 *   dead-letters       the mail queue's dead-letter table is not empty
 *   webhook-signature  Stripe webhook signature failures in the last 24 h reached WEBHOOK_FAILURE_THRESHOLD
 *
 * A problem that starts opens an incident (the partial unique index allows one open per key, so two
 * concurrent checks open one); when it ends the incident is resolved. The incident's change and its mails
 * (one outbox row per superadmin: "Driftlarm: …" on open, "Åtgärdat: …" on close) are ONE D1 batch, so a
 * change is never stored without its mails; the mail queue delivers each row on its own with retries, and
 * every check enqueues again what is still undelivered after 10 minutes (OPS_MAIL_KEYS). Run by every cron
 * invocation (worker/index.ts → worker/jobs/ops-alerts.ts).
 */
import { changes, type BatchStatement } from '../../db/batch';
import { redact } from '../../lib/log';
import { counterTotal, deleteOldCounters, OPS_COUNTERS } from '../../lib/ops-counters';
import { superadminEmails } from '../../lib/superadmins';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import { redeliverOutbox, type OutboxMail, withNotices } from '../../ports/mailer';
import { BACKUP_JOB } from '../backup/service';
import type { JobSchedule, OpsJobStatus } from './contract';
import { alertMail, recoveryMail, stockholmTime } from './mail';
import { deadLetterCount, deleteIncidentsResolvedBefore, incidentOpen, incidentResolvedAt, openIncident, openIncidents, resolveIncident } from './queries';
import { backupStatus, firstRunReader, HOUR, jobStatuses, missedStart, neverStarted, ON_DEMAND_JOBS, STALE_HOURS } from './checks';

export const ALERT_JOB = 'ops-alerts';
/** Signature failures within 24 h that make an incident (a few are normal: probes, a rotated secret). */
export const WEBHOOK_FAILURE_THRESHOLD = 20;
/** Resolved incidents are kept this long for the "Drift" tab. */
const INCIDENT_RETENTION_DAYS = 90;
/** Send-key prefixes of the alert and recovery mails. */
export const OPS_MAIL_KEYS = ['ops-alert:', 'ops-recovery:'] as const;
/** Keys of an earlier version that may still be open: each is judged (and closed) as its successor. */
const FORMER_KEYS: Readonly<Record<string, string>> = { 'backup-stale': 'backup', [`job-failed:${BACKUP_JOB}`]: 'backup' };
const judgedAs = (key: string) => FORMER_KEYS[key] ?? key;

/** The backup's problem now, if any (see the key list above). */
async function backupProblem(
  deps: Pick<Deps, 'db'>,
  now: Date,
  schedule: JobSchedule,
  status: OpsJobStatus | undefined,
  firstRun: () => Promise<string | null>,
): Promise<string | null> {
  if (status?.failing) return redact(`Jobbet ${BACKUP_JOB} misslyckades: ${status.error ?? 'okänt fel'}`).slice(0, 300);
  const crons = schedule.get(BACKUP_JOB);
  const due = crons ? await missedStart(crons, now, status?.startedAt ?? null, firstRun) : null;
  if (due) return `Säkerhetskopieringen startade inte ${stockholmTime(due.toISOString())} som planerat`;
  const last = await backupStatus(deps, now);
  const since = last?.at ?? (await firstRun());
  if (!since) return null;
  const hours = (now.getTime() - Date.parse(since)) / HOUR;
  if (hours <= STALE_HOURS) return null;
  return last
    ? `Senaste lyckade säkerhetskopian är ${Math.floor(hours)} timmar gammal`
    : `Ingen säkerhetskopia har lyckats på de ${Math.floor(hours)} timmarna sedan första driftsättningen`;
}

/** The problems present now: key → Swedish summary. */
export async function currentProblems(deps: Pick<Deps, 'db' | 'clock'>, schedule: JobSchedule): Promise<Map<string, string>> {
  const { db, clock } = deps;
  const now = clock.now();
  const firstRun = firstRunReader(deps);
  const problems = new Map<string, string>();
  const all = await jobStatuses(deps, now, schedule, firstRun);
  const jobs = all.filter((j) => j.job !== ALERT_JOB && !ON_DEMAND_JOBS.has(j.job));
  for (const j of jobs) {
    if (j.failing && j.job !== BACKUP_JOB) problems.set(`job-failed:${j.job}`, redact(`Jobbet ${j.job} misslyckades: ${j.error ?? 'okänt fel'}`).slice(0, 300));
  }
  const others = new Map([...schedule].filter(([job]) => job !== BACKUP_JOB));
  const stale = [
    ...jobs.filter((j) => j.stale && j.job !== BACKUP_JOB).map((j) => j.job),
    ...(await neverStarted(now, others, new Set(all.map((j) => j.job)), firstRun)),
  ];
  if (stale.length) problems.set('jobs-stale', `Jobb har inte startat i tid: ${stale.join(', ')}`.slice(0, 300));
  const backup = await backupProblem(
    deps,
    now,
    schedule,
    all.find((j) => j.job === BACKUP_JOB),
    firstRun,
  );
  if (backup) problems.set('backup', backup);
  const dead = await deadLetterCount(db);
  if (dead > 0) problems.set('dead-letters', `${dead} meddelanden ligger i dead-letter-kön`);
  const failures = await counterTotal(db, OPS_COUNTERS.webhookSignature, new Date(now.getTime() - 23 * HOUR));
  if (failures >= WEBHOOK_FAILURE_THRESHOLD) problems.set('webhook-signature', `${failures} Stripe-webhooks med ogiltig signatur senaste dygnet`);
  return problems;
}

const recipientKey = (email: string) => hashToken(email.toLowerCase()).slice(0, 16);

export interface AlertCheckResult extends Record<string, unknown> {
  opened: string[];
  resolved: string[];
  open: number;
  /** Outbox rows written (alerts and recoveries). */
  mailed: number;
  /** Undelivered alert mails put on the queue again. */
  redelivered: number;
}

export async function checkAlerts(deps: Deps, schedule: JobSchedule): Promise<AlertCheckResult> {
  const { db, clock, config, mailer } = deps;
  const nowIso = clock.now().toISOString();
  const problems = await currentProblems(deps, schedule);
  const before = await openIncidents(db);
  const covered = new Set(before.map((i) => judgedAs(i.key)));
  const toOpen = [...problems].filter(([key]) => !covered.has(key)).map(([key, summary]) => ({ id: `${key}@${nowIso}`, key, summary }));
  const toResolve = before.filter((i) => !problems.has(judgedAs(i.key)));
  const recipients = await superadminEmails(db, config.superadminEmails);

  // One batch: each incident change, then its mails, written only where that change holds in the batch
  // (a concurrent check that opened or closed it first gets no second mail; the send keys dedupe as well).
  const changesOf: BatchStatement[] = [];
  const mails: OutboxMail[] = [];
  for (const inc of toOpen) {
    // OR IGNORE: the partial unique index (one open incident per key) makes a concurrent second check a no-op.
    changesOf.push(openIncident(db, { ...inc, openedAt: nowIso }));
    for (const to of recipients) {
      const message = alertMail(to, { summary: inc.summary, openedAt: nowIso, appUrl: config.appUrl });
      mails.push(mailer.outbox(message, `ops-alert:${inc.id}:${recipientKey(to)}`, incidentOpen(inc.id)));
    }
  }
  for (const inc of toResolve) {
    changesOf.push(resolveIncident(db, inc.id, nowIso));
    for (const to of recipients) {
      const message = recoveryMail(to, { summary: inc.summary, openedAt: inc.opened_at, resolvedAt: nowIso, appUrl: config.appUrl });
      mails.push(mailer.outbox(message, `ops-recovery:${inc.id}:${recipientKey(to)}`, incidentResolvedAt(inc.id, nowIso)));
    }
  }
  const opened: string[] = [];
  const resolved: string[] = [];
  let mailed = 0;
  if (changesOf.length) {
    // Stored together; the mails the queue must deliver are enqueued at once (a failed enqueue is logged; the
    // next check's sweep below enqueues the rows again).
    const batch = await withNotices(db, changesOf, mails, deps.mailQueue);
    // (ops_incidents has no triggers: meta.changes is exact)
    const changed = (i: number) => changes(batch.results[i]) > 0;
    opened.push(...toOpen.filter((_, i) => changed(i)).map((inc) => inc.key));
    resolved.push(...toResolve.filter((_, i) => changed(toOpen.length + i)).map((inc) => inc.key));
    mailed = batch.mailed;
  }
  // Alert mails the queue did not deliver (enqueue failed, or dead-lettered) go on it again.
  const redelivered = await redeliverOutbox(db, deps.mailQueue, OPS_MAIL_KEYS).catch((err: unknown) => {
    console.error('ops alert mails could not be enqueued again', err);
    return 0;
  });
  const open = (await openIncidents(db)).length;
  await deleteOldCounters(db, clock.now());
  await deleteIncidentsResolvedBefore(db, new Date(clock.now().getTime() - INCIDENT_RETENTION_DAYS * 86_400_000).toISOString());
  return { opened, resolved, open, mailed, redelivered };
}
