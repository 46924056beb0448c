/** Ports on the context (issue 14.4): one run's deps make each port once, on first use, through the factories given. */
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client';
import { parseConfig } from '../env';
import { createClock } from '../lib/clock';
import { createDeps, productionPorts, type PortFactories } from './deps';
import type { GooglePort } from './google';
import type { Mailer } from './mailer';
import type { PaymentsPort } from './payments';
import type { PushPort } from './push';

const config = parseConfig({ APP_ENV: 'test', APP_URL: 'http://localhost' } as unknown as Env);
const db = {} as Db;
const clock = createClock('2030-03-05T10:00:00Z');

function counting(): { ports: PortFactories; made: Record<string, number> } {
  const made = { mailer: 0, payments: 0, google: 0, humanCheck: 0, calendar: 0, push: 0, mailQueue: 0 };
  /** A factory that counts its calls. */
  const counted =
    <T>(name: keyof typeof made, make: () => T) =>
    () => {
      made[name]++;
      return make();
    };
  return {
    made,
    ports: {
      mailer: counted('mailer', () => ({ send: async () => {}, sendOnce: async () => 'sent' }) as unknown as Mailer),
      payments: counted('payments', () => ({ kind: 'local' }) as PaymentsPort),
      google: counted('google', () => ({ authorizationUrl: () => new URL('https://example.test') }) as unknown as GooglePort),
      humanCheck: counted('humanCheck', () => ({ verify: async () => true })),
      calendar: counted('calendar', () => ({ fetchText: async () => '' })),
      push: counted('push', () => ({ publicKey: 'k' }) as unknown as PushPort),
      mailQueue: counted('mailQueue', () => ({ send: async () => {}, sendBatch: async () => {} })),
    },
  };
}

describe('createDeps', () => {
  it('makes no port until it is used, then the same one for the whole run', () => {
    const { ports, made } = counting();
    const deps = createDeps({ db, config, clock }, ports);
    expect(made).toEqual({ mailer: 0, payments: 0, google: 0, humanCheck: 0, calendar: 0, push: 0, mailQueue: 0 });
    expect(deps.mailer).toBe(deps.mailer);
    expect(deps.payments).toBe(deps.payments);
    expect(deps.google).toBe(deps.google);
    expect(deps.humanCheck).toBe(deps.humanCheck);
    expect(deps.calendar).toBe(deps.calendar);
    expect(deps.push).toBe(deps.push);
    expect(deps.mailQueue).toBe(deps.mailQueue);
    expect(made).toEqual({ mailer: 1, payments: 1, google: 1, humanCheck: 1, calendar: 1, push: 1, mailQueue: 1 });
  });

  it('hands the run its own clock and config', () => {
    const deps = createDeps({ db, config, clock }, counting().ports);
    expect(deps.clock.today()).toBe('2030-03-05');
    expect(deps.config.appUrl).toBe('http://localhost');
  });

  it('production: no Google without GOOGLE_CLIENT_ID/SECRET, the local payments port without a Stripe key', () => {
    const deps = createDeps({ db, config, clock }, productionPorts);
    expect(deps.google).toBeNull();
    expect(deps.payments.kind).toBe('local');
    const withGoogle = createDeps({ db, config: { ...config, google: { clientId: 'id', clientSecret: 'secret' } }, clock });
    expect(withGoogle.google?.authorizationUrl('s', 'v'.repeat(43)).searchParams.get('redirect_uri')).toBe('http://localhost/api/auth/google/callback');
  });

  it("production: the mail queue is the run's MAIL_QUEUE binding, and without one it refuses to enqueue", async () => {
    const sent: unknown[] = [];
    const binding = { send: async (b: unknown) => void sent.push(b), sendBatch: async () => {} } as unknown as Queue;
    expect(createDeps({ db, config, clock, env: { MAIL_QUEUE: binding } }).mailQueue).toBe(binding);
    await expect(createDeps({ db, config, clock }).mailQueue.send({ type: 'outbox', id: 'x' })).rejects.toThrow('MAIL_QUEUE binding missing');
  });

  it('a fake remembered a google: null answer (not asked again)', () => {
    let asked = 0;
    const deps = createDeps(
      { db, config, clock },
      {
        ...productionPorts,
        google: () => {
          asked++;
          return null;
        },
      },
    );
    expect(deps.google).toBeNull();
    expect(deps.google).toBeNull();
    expect(asked).toBe(1);
  });
});
