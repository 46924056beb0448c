/**
 * Operations alerts by e-mail (issue 30 §5). `checkAlerts` judges the same facts the "Drift" tab shows and
 * keeps one ops_incidents row per ongoing problem, under a stable key:
 *
 *   job-failed:{job}   the newest run of a scheduled job failed
 *   jobs-stale         a daily job has not run for STALE_HOURS (one incident for all of them)
 *   backup-stale       the newest backup is older than STALE_HOURS
 *   dead-letters       the mail queue's dead-letter table is not empty
 *   webhook-signature  Stripe webhook signature failures in the last 24 h reached WEBHOOK_FAILURE_THRESHOLD
 *
 * A problem that starts opens an incident (the partial unique index allows one open per key, so two
 * concurrent checks open one) and every superadmin gets one alert; when it ends, one recovery mail. Both
 * go through mailer.sendOnce with keys made of the incident id, so no check run ever mails twice, and an
 * alert whose sending failed is retried by the next run. Run by every cron invocation (worker/index.ts).
 */
import { redact } from '../../lib/log';
import { counterTotal, deleteOldCounters, OPS_COUNTERS } from '../../lib/ops-counters';
import { superadminEmails } from '../../lib/superadmins';
import { hashToken } from '../../lib/tokens';
import type { Deps } from '../../ports/deps';
import { alertMail, recoveryMail } from './mail';
import { deadLetterCount, deleteIncidentsResolvedBefore, openIncident, openIncidents, resolveIncident, type IncidentRow } from './queries';
import { backupStatus, jobStatuses, ON_DEMAND_JOBS, STALE_HOURS } from './checks';

export const ALERT_JOB = 'ops-alerts';
/** Signature failures within 24 h that make an incident (a few are normal: probes, a rotated secret). */
export const WEBHOOK_FAILURE_THRESHOLD = 20;
/** Resolved incidents are kept this long for the "Drift" tab. */
const INCIDENT_RETENTION_DAYS = 90;

/** The problems present now: key → Swedish summary. */
export async function currentProblems(deps: Pick<Deps, 'db' | 'clock'>): Promise<Map<string, string>> {
  const { db, clock } = deps;
  const now = clock.now();
  const problems = new Map<string, string>();
  const jobs = (await jobStatuses(deps, now)).filter((j) => j.job !== ALERT_JOB && !ON_DEMAND_JOBS.has(j.job));
  for (const j of jobs) {
    if (j.status === 'failed') problems.set(`job-failed:${j.job}`, redact(`Jobbet ${j.job} misslyckades: ${j.error ?? 'okänt fel'}`).slice(0, 300));
  }
  const stale = jobs.filter((j) => j.stale).map((j) => j.job);
  if (stale.length) problems.set('jobs-stale', `Nattjobb har inte körts på ${STALE_HOURS} timmar: ${stale.join(', ')}`);
  const backup = await backupStatus(deps, now);
  if (backup && backup.ageHours > STALE_HOURS) problems.set('backup-stale', `Senaste säkerhetskopian är ${Math.floor(backup.ageHours)} timmar gammal`);
  const dead = await deadLetterCount(db);
  if (dead > 0) problems.set('dead-letters', `${dead} meddelanden ligger i dead-letter-kön`);
  const failures = await counterTotal(db, OPS_COUNTERS.webhookSignature, new Date(now.getTime() - 23 * 3_600_000));
  if (failures >= WEBHOOK_FAILURE_THRESHOLD) problems.set('webhook-signature', `${failures} Stripe-webhooks med ogiltig signatur senaste dygnet`);
  return problems;
}

const recipientKey = (email: string) => hashToken(email.toLowerCase()).slice(0, 16);

export interface AlertCheckResult extends Record<string, unknown> {
  opened: string[];
  resolved: string[];
  open: number;
  mailed: number;
}

export async function checkAlerts(deps: Deps): Promise<AlertCheckResult> {
  const { db, clock, config, mailer } = deps;
  const nowIso = clock.now().toISOString();
  const problems = await currentProblems(deps);
  const before = await openIncidents(db);
  const openKeys = new Set(before.map((i) => i.key));
  const opened: string[] = [];
  for (const [key, summary] of problems) {
    if (openKeys.has(key)) continue;
    // OR IGNORE: the partial unique index (one open incident per key) makes a concurrent second check a no-op.
    await openIncident(db, { id: `${key}@${nowIso}`, key, summary, openedAt: nowIso });
    opened.push(key);
  }
  const resolved: IncidentRow[] = [];
  for (const inc of before) {
    if (problems.has(inc.key)) continue;
    if (await resolveIncident(db, inc.id, nowIso)) resolved.push({ ...inc, resolved_at: nowIso });
  }
  const recipients = await superadminEmails(db, config.superadminEmails);
  let mailed = 0;
  // Every open incident's alert, every run: sendOnce makes repeats no-ops and retries a failed send.
  const open = await openIncidents(db);
  for (const inc of open) {
    for (const to of recipients) {
      const r = await mailer.sendOnce(
        alertMail(to, { summary: inc.summary, openedAt: inc.opened_at, appUrl: config.appUrl }),
        `ops-alert:${inc.id}:${recipientKey(to)}`,
      );
      if (r === 'sent') mailed++;
    }
  }
  for (const inc of resolved) {
    for (const to of recipients) {
      const r = await mailer.sendOnce(
        recoveryMail(to, { summary: inc.summary, openedAt: inc.opened_at, resolvedAt: inc.resolved_at!, appUrl: config.appUrl }),
        `ops-recovery:${inc.id}:${recipientKey(to)}`,
      );
      if (r === 'sent') mailed++;
    }
  }
  await deleteOldCounters(db, clock.now());
  await deleteIncidentsResolvedBefore(db, new Date(clock.now().getTime() - INCIDENT_RETENTION_DAYS * 86_400_000).toISOString());
  return { opened, resolved: resolved.map((i) => i.key), open: open.length, mailed };
}
