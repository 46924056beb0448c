/**
 * Ports on the context (issue 14 item 4). Every run of the Worker — an HTTP request, a cron run, a
 * queue batch, a workflow instance — builds one `Deps`: the database, the parsed config, the clock and
 * the ports (mailer, payments, Google), each created once for that run. Services take `(deps, input)`
 * and never create a port or read the wall clock themselves.
 *
 * Tests use the same door as production: `createApp(ports)` (worker/app.ts) or `createDeps(…, ports)`
 * with fakes in place of the production factories below; there is no module-level override.
 */
import type { Db } from '../db/client';
import type { Config } from '../env';
import type { Clock } from '../lib/clock';
import { createProductionCalendarFetcher, type CalendarFetcher } from './calendar-fetch';
import { createGooglePort, type GooglePort } from './google';
import { createLocalHumanCheck, createTurnstile, refuseAllHumanCheck, type HumanCheck } from './human-check';
import { createMailer, type Mailer } from './mailer';
import { createPayments, type PaymentsPort } from './payments';
import { createPushPort, type PushPort } from './push';
import { createMailQueue, type MailQueuePort, type QueueBindings } from './queue';

export interface Deps {
  db: Db;
  config: Config;
  /** Europe/Stockholm clock of this run (pinned by CLOCK_NOW / x-clock-now; a cron run's scheduled instant). */
  clock: Clock;
  mailer: Mailer;
  payments: PaymentsPort;
  /** Null when Google sign-in is not configured (GOOGLE_CLIENT_ID / GOOGLE_CLIENT_SECRET empty). */
  google: GooglePort | null;
  /** The human check of public forms (Turnstile, or the local stand-in without a secret outside production). */
  humanCheck: HumanCheck;
  /** Outbound fetching of owners' calendar addresses (calendar sync, issue 31.2). */
  calendar: CalendarFetcher;
  /** Web Push (issue 32); null when no VAPID keys are configured (production without the secrets). */
  push: PushPort | null;
  /** The mail queue's producer (env.MAIL_QUEUE): outbox deliveries and follow mails are enqueued here. */
  mailQueue: MailQueuePort;
}

/** How each port is made from the run's database, config and clock. Tests replace any of them. */
export interface PortFactories {
  mailer(db: Db, config: Config, clock: Clock): Mailer;
  payments(config: Config): PaymentsPort;
  google(config: Config): GooglePort | null;
  humanCheck(config: Config): HumanCheck;
  calendar(config: Config): CalendarFetcher;
  push(config: Config): PushPort | null;
  mailQueue(bindings: QueueBindings): MailQueuePort;
}

export const productionPorts: PortFactories = {
  mailer: (db, config, clock) => createMailer(db, { apiKey: config.mailApiKey, from: config.mailFrom, clock }),
  payments: (config) => createPayments(config),
  google: (config) => {
    const { clientId, clientSecret } = config.google;
    if (!clientId || !clientSecret) return null;
    return createGooglePort({ clientId, clientSecret, redirectUri: `${config.appUrl}/api/auth/google/callback` });
  },
  humanCheck: (config) => {
    if (config.turnstile.secretKey) return createTurnstile({ secret: config.turnstile.secretKey });
    return config.isDev ? createLocalHumanCheck() : refuseAllHumanCheck;
  },
  calendar: (config) => createProductionCalendarFetcher(config),
  push: (config) => (config.vapid ? createPushPort({ vapid: config.vapid }) : null),
  mailQueue: (bindings) => createMailQueue(bindings),
};

/** One run's deps. Ports are made on first use (a public page never builds a Stripe or Google client), then kept. */
/** `env`: the run's bindings the queue producer is made from (a request's, a cron's, the consumer's). */
export function createDeps(base: { db: Db; config: Config; clock: Clock; env?: QueueBindings }, ports: PortFactories = productionPorts): Deps {
  let mailer: Mailer | undefined;
  let payments: PaymentsPort | undefined;
  let google: GooglePort | null | undefined;
  let humanCheck: HumanCheck | undefined;
  let calendar: CalendarFetcher | undefined;
  let push: PushPort | null | undefined;
  let mailQueue: MailQueuePort | undefined;
  return {
    db: base.db,
    config: base.config,
    clock: base.clock,
    get mailer() {
      mailer ??= ports.mailer(base.db, base.config, base.clock);
      return mailer;
    },
    get payments() {
      payments ??= ports.payments(base.config);
      return payments;
    },
    get google() {
      if (google === undefined) google = ports.google(base.config);
      return google;
    },
    get humanCheck() {
      humanCheck ??= ports.humanCheck(base.config);
      return humanCheck;
    },
    get calendar() {
      calendar ??= ports.calendar(base.config);
      return calendar;
    },
    get push() {
      if (push === undefined) push = ports.push(base.config);
      return push;
    },
    get mailQueue() {
      mailQueue ??= ports.mailQueue(base.env);
      return mailQueue;
    },
  };
}
