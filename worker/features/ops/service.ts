/**
 * The superadmin's "Drift" view (issue 30 §4); the facts it shares with the alert check are in checks.ts. No Hono:
 * the route hands in the deps and which secrets are present (names only, never values).
 */
import { DEV_VAPID } from '../../env';
import type { Deps } from '../../ports/deps';
import { stockholmInstant } from '../../lib/clock';
import { counterHours, counterTotal, OPS_COUNTERS } from '../../lib/ops-counters';
import { backupStatus, HOUR, jobStatuses, turnstileState, vapidState, type TurnstileState, type VapidState } from './checks';
import type { JobSchedule, OpsCheck, OpsIncident, OpsStatusResponse } from './contract';
import { importJobsByStatus, lastWebhook, mailCounts, openIncidents, recentResolvedIncidents, type IncidentRow } from './queries';
import { LONGEST_LINK_DAYS } from '../../lib/signed-link';
import { countText } from '../../lib/swedish';

/** Secrets the Worker can see are set (names only), from the route's env. */
export type SecretPresence = Record<
  'STRIPE_SECRET_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'GOOGLE_CLIENT_SECRET' | 'MAIL_API_KEY' | 'LINK_SIGNING_SECRET' | 'LINK_SIGNING_SECRET_PREVIOUS',
  boolean
>;

export function secretPresence(env: Partial<Record<keyof SecretPresence, string | undefined>>): SecretPresence {
  const has = (v: string | undefined) => !!v && v.trim() !== '';
  return {
    STRIPE_SECRET_KEY: has(env.STRIPE_SECRET_KEY),
    STRIPE_WEBHOOK_SECRET: has(env.STRIPE_WEBHOOK_SECRET),
    GOOGLE_CLIENT_SECRET: has(env.GOOGLE_CLIENT_SECRET),
    MAIL_API_KEY: has(env.MAIL_API_KEY),
    LINK_SIGNING_SECRET: has(env.LINK_SIGNING_SECRET),
    LINK_SIGNING_SECRET_PREVIOUS: has(env.LINK_SIGNING_SECRET_PREVIOUS),
  };
}

const TURNSTILE_CHECK: Record<Exclude<TurnstileState, 'ok' | 'local'>, { key: string; level: OpsCheck['level']; message: string }> = {
  missing: { key: 'TURNSTILE_SECRET_KEY', level: 'fel', message: 'TURNSTILE_SECRET_KEY saknas: alla tips från besökare avvisas (den mänskliga kontrollen).' },
  malformed: {
    key: 'TURNSTILE_SECRET_KEY',
    level: 'fel',
    message: 'TURNSTILE_SECRET_KEY ser inte ut som en Turnstile-nyckel: alla tips från besökare avvisas.',
  },
  'test-key': {
    key: 'TURNSTILE_SECRET_KEY',
    level: 'varning',
    message: 'TURNSTILE_SECRET_KEY är en av Turnstiles testnycklar: den mänskliga kontrollen skyddar inte (bara för staging).',
  },
  'no-site-key': {
    key: 'TURNSTILE_SITE_KEY',
    level: 'fel',
    message: 'TURNSTILE_SITE_KEY saknas: tipsformuläret visar ingen mänsklig kontroll och alla tips avvisas.',
  },
};

const VAPID_CHECK: Record<Exclude<VapidState, 'ok'>, { level: OpsCheck['level']; message: string }> = {
  off: { level: 'varning', message: 'Push-påminnelser är avstängda: VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY saknas.' },
  invalid: { level: 'fel', message: 'VAPID_PUBLIC_KEY / VAPID_PRIVATE_KEY är inte ett giltigt P-256-par: push-påminnelser kan inte skickas.' },
  'dev-pair': { level: 'fel', message: 'VAPID-nycklarna är utvecklingsparet från koden (offentligt): skapa ett eget par.' },
};

/** Configuration the Worker can check itself (the placeholder database id is checked by setup:cloudflare). */
export async function configChecks(deps: Pick<Deps, 'config'>, secrets: SecretPresence): Promise<OpsCheck[]> {
  const { config } = deps;
  const check = (key: string, ok: boolean, level: OpsCheck['level'], message: string): OpsCheck => ({ key, ok, level, message });
  const turnstile = turnstileState(config);
  const tsProblem = turnstile === 'ok' || turnstile === 'local' ? null : TURNSTILE_CHECK[turnstile];
  const vapid = await vapidState(config, DEV_VAPID.publicKey);
  const vapidProblem = vapid === 'ok' ? null : VAPID_CHECK[vapid];
  return [
    // Both Turnstile keys are listed; at most one problem (the first one the human check would hit).
    check('TURNSTILE_SECRET_KEY', tsProblem?.key !== 'TURNSTILE_SECRET_KEY', tsProblem?.level ?? 'fel', tsProblem?.message ?? 'TURNSTILE_SECRET_KEY är satt.'),
    check('TURNSTILE_SITE_KEY', tsProblem?.key !== 'TURNSTILE_SITE_KEY', tsProblem?.level ?? 'fel', tsProblem?.message ?? 'TURNSTILE_SITE_KEY är satt.'),
    check('VAPID', !vapidProblem, vapidProblem?.level ?? 'varning', vapidProblem?.message ?? 'VAPID-nycklarna är ett giltigt P-256-par.'),
    check(
      'LINK_SIGNING_SECRET',
      secrets.LINK_SIGNING_SECRET,
      'fel',
      'LINK_SIGNING_SECRET saknas: länkar i e-post (bevakningar, avregistrering) fungerar inte.',
    ),
    check('STRIPE_SECRET_KEY', secrets.STRIPE_SECRET_KEY, 'fel', 'STRIPE_SECRET_KEY saknas: betalningar går inte till Stripe.'),
    check('STRIPE_WEBHOOK_SECRET', secrets.STRIPE_WEBHOOK_SECRET, 'fel', 'STRIPE_WEBHOOK_SECRET saknas: Stripes webhook kan inte verifieras.'),
    check('MAIL_API_KEY', secrets.MAIL_API_KEY, 'fel', 'MAIL_API_KEY saknas: e-post sparas bara i utkorgen och skickas inte.'),
    check(
      'GOOGLE',
      !!config.google.clientId && secrets.GOOGLE_CLIENT_SECRET,
      'varning',
      'Google-inloggning är inte konfigurerad (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET).',
    ),
    check('MAP_TILE_URL', !!config.mapTileUrl, 'fel', 'MAP_TILE_URL saknas: kartan kan inte visas.'),
    check(
      'MAP_TILE_PROVIDER',
      !/(^|\/\/)tile\.openstreetmap\.org\//.test(config.mapTileUrl),
      'varning',
      'Kartan använder OpenStreetMaps egna kartbilder, som inte är till för mycket trafik: välj en leverantör i MAP_TILE_URL.',
    ),
    check(
      'SUPERADMIN_EMAILS',
      config.superadminEmails.length > 0,
      'varning',
      'SUPERADMIN_EMAILS är tom: driftlarm går bara till konton med rollen superadmin.',
    ),
    // A rotation under way: the old secret should go once the links signed with it have expired (LONGEST_LINK_DAYS).
    check(
      'LINK_SIGNING_SECRET_PREVIOUS',
      !secrets.LINK_SIGNING_SECRET_PREVIOUS,
      'varning',
      `LINK_SIGNING_SECRET_PREVIOUS är satt (ett byte av länknyckeln pågår): ta bort den ${countText(LONGEST_LINK_DAYS, 'dag', 'dagar')} efter bytet.`,
    ),
    check('APP_URL', config.appUrl.startsWith('https://') || config.isDev, 'fel', 'APP_URL är inte en https-adress.'),
  ];
}

const incident = (r: IncidentRow): OpsIncident => ({ key: r.key, summary: r.summary, openedAt: r.opened_at, resolvedAt: r.resolved_at });

/** `schedule`: when each scheduled job is due (worker/jobs/schedule.ts, handed in by the route). */
export async function opsStatus(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  input: { secrets: SecretPresence; schedule: JobSchedule },
): Promise<OpsStatusResponse> {
  const { db, clock } = deps;
  const now = clock.now();
  const startOfToday = stockholmInstant(clock.today());
  const hours = await counterHours(db, OPS_COUNTERS.serverErrors, new Date(now.getTime() - 23 * HOUR));
  const hook = await lastWebhook(db);
  return {
    generatedAt: now.toISOString(),
    jobs: await jobStatuses(deps, now, input.schedule),
    mail: await mailCounts(db),
    imports: await importJobsByStatus(db),
    backup: await backupStatus(deps, now),
    webhook: {
      lastReceivedAt: hook?.receivedAt ?? null,
      lastType: hook?.type ?? null,
      signatureFailuresToday: await counterTotal(db, OPS_COUNTERS.webhookSignature, startOfToday),
    },
    serverErrors: { last24h: hours.reduce((n, h) => n + h.count, 0), hours },
    checks: await configChecks(deps, input.secrets),
    incidents: { open: (await openIncidents(db)).map(incident), recent: (await recentResolvedIncidents(db)).map(incident) },
  };
}

// The alert check (alerts.ts) is part of this service's surface: the cron entry reaches it from here.
export { ALERT_JOB, checkAlerts, type AlertCheckResult } from './alerts';
export type { JobSchedule } from './contract';
