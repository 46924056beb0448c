/**
 * Swedish words for the ids the superadmin panel shows (issue 44.8): job names (`job_runs.job`), city slugs,
 * ISO weeks, the mail queue's names and message types. Read-only and pure, so the panel (web) and the Worker (e.g.
 * an alert's text) can both use them; an id without a word is shown as it is. test/unit/admin-labels.test.ts
 * checks that every job name the Worker records has a word here.
 */
import { townCentre } from './gazetteer';

/** `job_runs.job` → what the superadmin reads. */
export const JOB_LABELS: Readonly<Record<string, string>> = {
  backup: 'Säkerhetskopia',
  'calendar-sync': 'Kalendersynk',
  cron: 'Schemalagd start',
  'listing-day': 'Ny dag i listan',
  sessions: 'Rensa utgångna inloggningar',
  'rate-limits': 'Rensa försöksräknare',
  'analytics-seen': 'Rensa besöksräknare',
  'email-tokens': 'Rensa e-postlänkar',
  'mail-outbox': 'Rensa gammal e-post',
  'mail-redeliver': 'Skicka om fastnad e-post',
  'promotion-holds': 'Släpp utgångna reservationer',
  'series-extension': 'Förläng serier',
  'holiday-ask': 'Helgdagsfrågor',
  freshness: 'Påminn om aktuella uppgifter',
  'ops-alerts': 'Driftlarm',
  nightly: 'Nattens start',
  'follow-cleanup': 'Rensa obekräftade bevakningar',
  'follow-reminders': 'Påminnelser',
  'follow-digest': 'Veckosammanfattning',
  'follow-mail-batch': 'Skicka bevakningsmejl',
  'follow-mail-dead-letters': 'Olevererade mejl',
  import: 'Import',
  'rsvp-sweep': 'Vi kommer: erbjud lediga bord',
  'rsvp-offer': 'Vi kommer: erbjud ett ledigt bord',
  'rsvp-privacy': 'Vi kommer: radera gamla e-postadresser',
};

export const jobLabel = (job: string): string => JOB_LABELS[job] ?? job;

/** A city slug as its name: the gazetteer's ("goteborg" → "Göteborg"), else the slug with a capital and spaces. */
export function cityLabel(slug: string): string {
  if (!slug) return '–';
  const town = townCentre(slug);
  if (town) return town.name;
  const words = slug.replace(/-/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** "2026-W48" → "vecka 48", or "vecka 48, 2025" when the week's year is not `thisYear`; anything else as it is. */
export function weekLabel(isoWeek: string, thisYear: number): string {
  const m = /^(\d{4})-W(\d{2})$/.exec(isoWeek);
  if (!m) return isoWeek;
  const week = `vecka ${Number(m[2])}`;
  return Number(m[1]) === thisYear ? week : `${week}, ${m[1]}`;
}

/** The mail queue's names (wrangler.toml [[queues.consumers]]). */
export const QUEUE_LABELS: Readonly<Record<string, string>> = {
  'quizkvall-mail': 'E-postkön',
  'quizkvall-mail-dlq': 'E-postkön (dead letters)',
};

/** The mail queue's message types (worker/features/follows/queue.ts). */
export const MESSAGE_TYPE_LABELS: Readonly<Record<string, string>> = {
  confirm: 'Bekräftelse av bevakning',
  reminder: 'Påminnelse',
  digest: 'Veckosammanfattning',
  push: 'Påminnelse i telefonen',
  outbox: 'Utgående mejl',
};

export const queueLabel = (queue: string): string => QUEUE_LABELS[queue] ?? queue;
export const messageTypeLabel = (type: string): string => MESSAGE_TYPE_LABELS[type] ?? type;
