/**
 * Operations (issue 30 §4–5, issue 42 item 4): GET /api/admin/status (the superadmin's "Drift" tab) and the
 * alert mails. The rules read the whole job history (the first deploy is its earliest row, the backup is one
 * job), so each test starts from empty job_runs, incidents, counters, dead letters and alert mail; every check
 * runs on a pinned clock.
 */
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobRuns } from '../../worker/db/schema';
import { BACKUP_JOB } from '../../worker/features/backup/service';
import { processMailBatch } from '../../worker/features/follows/service';
import { LISTING_DAY_JOB } from '../../worker/features/listing/service';
import { RSVP_SWEEP_JOB } from '../../worker/features/rsvp/service';
import { ALERT_JOB, checkAlerts as check, WEBHOOK_FAILURE_THRESHOLD } from '../../worker/features/ops/alerts';
import type { OpsStatusResponse } from '../../worker/features/ops/contract';
import { configChecks, secretPresence } from '../../worker/features/ops/service';
import { DEV_VAPID, type Config } from '../../worker/env';
import { NIGHTLY_ENQUEUE_JOB } from '../../worker/jobs/nightly';
import { JOB_SCHEDULE, NIGHTLY_JOBS, NIGHTLY_TASKS } from '../../worker/jobs/schedule';
import { newId } from '../../worker/lib/ids';
import { recordJob, RUN_LIMIT_MINUTES } from '../../worker/lib/jobs';
import { bumpCounter, OPS_COUNTERS } from '../../worker/lib/ops-counters';
import { createSession, SESSION_COOKIE } from '../../worker/lib/session';
import type { Deps } from '../../worker/ports/deps';
import { createMailer, type OutboxMessage } from '../../worker/ports/mailer';
import { callJson, createUser, pinnedClock, testDb, testDeps, unique, type TestUser } from '../factories';
import { runNightly } from '../jobs-queue';
import { capturingOutboxQueue, queueMessages } from '../mail-queue';
import { expectConsoleError } from '../setup/console';

let superadmin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  superadmin = await createUser({ roles: ['admin', 'superadmin'] });
  owner = await createUser();
});

beforeEach(async () => {
  await testDb().batch([
    testDb().run(sql`DELETE FROM job_runs`),
    testDb().run(sql`DELETE FROM ops_incidents`),
    testDb().run(sql`DELETE FROM ops_counters`),
    testDb().run(sql`DELETE FROM dead_letters`),
    testDb().run(sql`DELETE FROM payment_events`),
    testDb().run(sql`DELETE FROM mail_outbox WHERE send_key LIKE 'ops-%'`),
  ]);
});

/** The alert check with the real schedule (worker/jobs/schedule.ts), as the cron runs it. */
const checkAlerts = (deps: Deps) => check(deps, JOB_SCHEDULE);

/** A session of the file's superadmin made at the pinned instant (sessions expire relative to the clock). */
async function signedIn(now: string): Promise<string> {
  const { token } = await createSession(testDb(), superadmin.id, new Date(now));
  return `${SESSION_COOKIE}=${token}`;
}

/** A row of `job` as a killed run leaves it (or a chunked run left open on purpose: `result`). */
async function running(job: string, at: string, result: string | null = null) {
  await testDb().insert(jobRuns).values({ id: newId(), job, status: 'running', startedAt: at, result });
}

/** The keys of the open incidents. */
async function openKeys() {
  return (await testDb().all<{ key: string }>(sql`SELECT key FROM ops_incidents WHERE resolved_at IS NULL ORDER BY key`)).map((r) => r.key);
}

/** The Drift tab's data at `now` (signed in as the file's superadmin, with a session made at `now`). */
async function statusAt(now: string) {
  const { status, body } = await callJson<OpsStatusResponse>('/api/admin/status', { cookie: await signedIn(now), clock: now });
  expect(status).toBe(200);
  return body;
}

/** A finished run of `job` at `at` (status and result as given). */
async function run(job: string, at: string, opts: { fail?: string; result?: Record<string, unknown> } = {}) {
  await recordJob(testDb(), pinnedClock(at), job, async () => {
    if (opts.fail) throw new Error(opts.fail);
    return opts.result ?? { ok: 1 };
  }).catch(() => undefined);
}

/** Outbox rows whose send key starts with `prefix`. */
async function mails(prefix: string) {
  return testDb().all<{ to_email: string; subject: string; text: string; send_key: string }>(
    sql`SELECT to_email, subject, text, send_key FROM mail_outbox WHERE send_key LIKE ${`${prefix}%`} ORDER BY send_key`,
  );
}

const recipients = async () => {
  const rows = await testDb().all<{ email: string }>(sql`SELECT u.email FROM users u JOIN user_roles r ON r.user_id = u.id WHERE r.role = 'superadmin'`);
  return new Set([...rows.map((r) => r.email), ...(env.SUPERADMIN_EMAILS ?? '').split(',').filter(Boolean)]).size;
};

describe('GET /api/admin/status', () => {
  it('refuses visitors (401) and owners (403)', async () => {
    expect((await callJson('/api/admin/status')).status).toBe(401);
    expect((await callJson('/api/admin/status', { cookie: owner.cookie })).status).toBe(403);
  });

  it('shows the last run of each job, mail, imports, the newest backup, webhook, 5xx per hour and the config checks', async () => {
    const NOW = '2034-05-10T08:00:00.000Z';
    const nightly = unique('nattjobb');
    await run(nightly, '2034-05-09T02:15:00.000Z');
    await run(nightly, '2034-05-10T02:15:00.000Z', { fail: 'no such table: x' });
    await run(BACKUP_JOB, '2034-05-10T02:20:00.000Z', { result: { key: 'daily/2034-05-10.sql.gz', bytes: 123456, tables: { users: 3, venues: 4 } } });
    await bumpCounter(testDb(), OPS_COUNTERS.serverErrors, new Date('2034-05-10T07:10:00Z'));
    await bumpCounter(testDb(), OPS_COUNTERS.serverErrors, new Date('2034-05-10T07:50:00Z'));
    await bumpCounter(testDb(), OPS_COUNTERS.webhookSignature, new Date('2034-05-10T06:00:00Z'));
    // yesterday in Stockholm: not "today"
    await bumpCounter(testDb(), OPS_COUNTERS.webhookSignature, new Date('2034-05-09T21:30:00Z'));

    // (a session made at the pinned instant: sessions expire relative to the clock)
    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(NOW) });
    const { status, body, res } = await callJson<OpsStatusResponse>('/api/admin/status', { cookie: admin.cookie, clock: NOW });
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('no-store');
    expect(body.jobs.find((j) => j.job === nightly)).toMatchObject({
      status: 'failed',
      interrupted: false,
      failing: true,
      error: 'no such table: x',
      daily: true,
      stale: false,
      startedAt: '2034-05-10T02:15:00.000Z',
    });
    expect(body.backup).toMatchObject({ job: BACKUP_JOB, bytes: 123456, tables: 2, rows: 7, key: 'daily/2034-05-10.sql.gz' });
    expect(body.backup!.ageHours).toBeCloseTo(5.7, 1);
    expect(body.serverErrors).toEqual({ last24h: 2, hours: [{ hour: '2034-05-10T07', count: 2 }] });
    expect(body.webhook.signatureFailuresToday).toBe(1);
    expect(body.mail).toEqual(expect.objectContaining({ pending: expect.any(Number), deadLetters: expect.any(Number) }));
    expect(body.imports).toEqual({ running: expect.any(Array), failed: expect.any(Array) });
    // The test Worker has no secrets: each missing one is a failed check with a Swedish message.
    const link = body.checks.find((c) => c.key === 'LINK_SIGNING_SECRET')!;
    expect(link).toMatchObject({ ok: false, level: 'fel' });
    expect(link.message).toMatch(/saknas/);
    expect(body.checks.map((c) => c.key)).toEqual(
      expect.arrayContaining(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'MAIL_API_KEY', 'MAP_TILE_URL', 'GOOGLE', 'TURNSTILE_SECRET_KEY', 'VAPID']),
    );
  });
});

describe('config checks: Turnstile and VAPID (issue 43.9)', () => {
  const secrets = secretPresence({ LINK_SIGNING_SECRET: 'x', STRIPE_SECRET_KEY: 'x', STRIPE_WEBHOOK_SECRET: 'x', MAIL_API_KEY: 'x' });
  const REAL_SECRET = '0x4AAAAAAAAbCdEfGhIjKlMnOpQrStUvWxYz';
  const REAL_SITE = '0x4AAAAAAAAzYxWvUtSrQp';
  const b64u = (b: ArrayBuffer | Uint8Array) =>
    btoa(String.fromCharCode(...new Uint8Array(b)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '');
  async function newPair() {
    const pair = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
    const raw = (await crypto.subtle.exportKey('raw', pair.publicKey)) as ArrayBuffer;
    const jwk = (await crypto.subtle.exportKey('jwk', pair.privateKey)) as JsonWebKey;
    return { publicKey: b64u(raw), privateKey: jwk.d!, subject: 'mailto:support@quizkvall.se' };
  }
  async function checksWith(config: Partial<Config>) {
    const prod = { appEnv: 'production', isDev: false, isTest: false, appUrl: 'https://quizkvall.se' } as const;
    const list = await configChecks(testDeps({ config: { ...prod, ...config } }), secrets);
    return (key: string) => list.find((c) => c.key === key);
  }
  const good = { turnstile: { siteKey: REAL_SITE, secretKey: REAL_SECRET } };

  it('production: a missing or test Turnstile secret, and a secret without a site key, are reported', async () => {
    const pair = await newPair();
    expect((await checksWith({ ...good, vapid: pair }))('TURNSTILE_SECRET_KEY')).toMatchObject({ ok: true });
    expect((await checksWith({ ...good, vapid: pair }))('TURNSTILE_SITE_KEY')).toMatchObject({ ok: true });
    const missing = (await checksWith({ turnstile: { siteKey: REAL_SITE, secretKey: null }, vapid: pair }))('TURNSTILE_SECRET_KEY')!;
    expect(missing).toMatchObject({ ok: false, level: 'fel' });
    expect(missing.message).toMatch(/saknas.*tips/);
    const testKey = (await checksWith({ turnstile: { siteKey: REAL_SITE, secretKey: '1x0000000000000000000000000000000AA' }, vapid: pair }))(
      'TURNSTILE_SECRET_KEY',
    )!;
    expect(testKey).toMatchObject({ ok: false, level: 'varning' });
    expect((await checksWith({ turnstile: { siteKey: REAL_SITE, secretKey: 'not a key' }, vapid: pair }))('TURNSTILE_SECRET_KEY')).toMatchObject({
      ok: false,
      level: 'fel',
    });
    expect((await checksWith({ turnstile: { siteKey: null, secretKey: REAL_SECRET }, vapid: pair }))('TURNSTILE_SITE_KEY')).toMatchObject({
      ok: false,
      level: 'fel',
    });
    // Outside production the local stand-in answers: nothing to report.
    const dev = await configChecks(testDeps({ config: { turnstile: { siteKey: null, secretKey: null } } }), secrets);
    expect(dev.find((c) => c.key === 'TURNSTILE_SECRET_KEY')).toMatchObject({ ok: true });
  });

  it('production: VAPID keys are a valid P-256 pair, or push is reported off', async () => {
    const a = await newPair();
    const b = await newPair();
    expect((await checksWith({ ...good, vapid: a }))('VAPID')).toMatchObject({ ok: true });
    const off = (await checksWith({ ...good, vapid: null }))('VAPID')!;
    expect(off).toMatchObject({ ok: false, level: 'varning' });
    expect(off.message).toMatch(/avstängda/);
    for (const [label, vapid] of [
      ['mismatched pair', { ...a, privateKey: b.privateKey }],
      ['the public key is not a point', { ...a, publicKey: a.publicKey.slice(0, 40) }],
      ['garbage', { ...a, publicKey: 'åäö', privateKey: '!!' }],
      ['the development pair from the repository', { ...DEV_VAPID, subject: a.subject }],
    ] as const) {
      const check = (await checksWith({ ...good, vapid }))('VAPID')!;
      expect(check, label).toMatchObject({ ok: false, level: 'fel' });
      expect(check.message, label).toMatch(/VAPID/);
    }
  });
});

describe('alert mails', () => {
  it('a failed nightly task sends exactly one alert mail per superadmin, and one recovery mail when it runs again', async () => {
    const job = unique('natt');
    const key = `ops-alert:job-failed:${job}@`;
    const back = `ops-recovery:job-failed:${job}@`;
    const n = await recipients();
    expect(n).toBeGreaterThan(0);
    await run(job, '2035-01-01T02:15:00.000Z');
    await run(job, '2035-01-02T02:15:00.000Z', { fail: 'D1_ERROR: no such column: kim@example.se' });

    const first = await checkAlerts(testDeps({ now: '2035-01-02T02:20:00.000Z' }));
    expect(first.opened).toContain(`job-failed:${job}`);
    const alerts = await mails(key);
    expect(alerts).toHaveLength(n);
    expect(new Set(alerts.map((m) => m.to_email))).toContain(superadmin.email);
    expect(alerts[0]!.subject).toMatch(new RegExp(`^Driftlarm: Jobbet ${job} misslyckades`));
    // the error's e-mail-shaped text is not repeated in the mail
    expect(alerts[0]!.text).not.toContain('kim@example.se');

    // Later checks while the task is still failing (and a second failed night): no new mail.
    await checkAlerts(testDeps({ now: '2035-01-02T06:00:00.000Z' }));
    await run(job, '2035-01-03T02:15:00.000Z', { fail: 'still broken' });
    await checkAlerts(testDeps({ now: '2035-01-03T02:20:00.000Z' }));
    expect(await mails(key)).toHaveLength(n);
    expect(await mails(back)).toHaveLength(0);

    // The task runs again: one recovery mail per superadmin, once.
    await run(job, '2035-01-04T02:15:00.000Z');
    const after = await checkAlerts(testDeps({ now: '2035-01-04T02:20:00.000Z' }));
    expect(after.resolved).toContain(`job-failed:${job}`);
    await checkAlerts(testDeps({ now: '2035-01-04T06:00:00.000Z' }));
    const recoveries = await mails(back);
    expect(recoveries).toHaveLength(n);
    expect(recoveries[0]!.subject).toMatch(/^Åtgärdat: /);
    expect(await mails(key)).toHaveLength(n);

    // The incident is listed as resolved in the Drift tab.
    const admin = await createUser({ roles: ['admin', 'superadmin'], now: new Date('2035-01-04T07:00:00.000Z') });
    const { body } = await callJson<OpsStatusResponse>('/api/admin/status', { cookie: admin.cookie, clock: '2035-01-04T07:00:00.000Z' });
    expect(body.incidents.recent.find((i) => i.key === `job-failed:${job}`)).toMatchObject({ resolvedAt: '2035-01-04T02:20:00.000Z' });
    expect(body.incidents.open.find((i) => i.key === `job-failed:${job}`)).toBeUndefined();
  });

  it('a daily task that has not run for 26 h, a stale backup, dead letters and many webhook signature failures each open one incident', async () => {
    const job = unique('dagligt');
    const NOW = '2036-02-05T12:00:00.000Z';
    await run(job, '2036-02-02T02:15:00.000Z');
    await run(job, '2036-02-03T02:15:00.000Z');
    await run(BACKUP_JOB, '2036-02-03T02:30:00.000Z', { result: { bytes: 1, tables: 1 } });
    // Tonight's backup started (late) and is still within its limit: only the newest success's age is the problem.
    await running(BACKUP_JOB, '2036-02-05T06:30:00.000Z');
    for (let i = 0; i < WEBHOOK_FAILURE_THRESHOLD; i++) await bumpCounter(testDb(), OPS_COUNTERS.webhookSignature, new Date('2036-02-05T11:00:00Z'));
    await testDb().run(
      sql`INSERT INTO dead_letters (id, queue, message_id, body, attempts, reason) VALUES (${newId()}, 'quizkvall-mail-dlq', ${unique('m')}, '{}', 5, 'test')`,
    );

    await checkAlerts(testDeps({ now: NOW }));
    const open = await testDb().all<{ key: string; summary: string }>(sql`SELECT key, summary FROM ops_incidents WHERE resolved_at IS NULL`);
    expect(open.map((i) => i.key).sort()).toEqual(['backup', 'dead-letters', 'jobs-stale', 'webhook-signature']);
    expect(open.find((i) => i.key === 'jobs-stale')!.summary).toContain(job);
    expect(open.find((i) => i.key === 'backup')!.summary).toBe('Senaste lyckade säkerhetskopian är 57 timmar gammal');
    const again = await checkAlerts(testDeps({ now: NOW }));
    expect(again.opened).toEqual([]);
    expect(again.mailed).toBe(0);
  });

  it('a job run by a person (the import) never alerts', async () => {
    await testDb()
      .insert(jobRuns)
      .values({ id: newId(), job: 'import', status: 'failed', startedAt: '2037-01-01T10:00:00.000Z', result: JSON.stringify({ error: 'x' }) });
    const r = await checkAlerts(testDeps({ now: '2037-01-01T10:05:00.000Z' }));
    expect(r.opened).not.toContain('job-failed:import');
  });
});

describe('jobs that never lie (issue 42 item 4)', () => {
  it('a run killed mid-way is failed past its limit (not a second before), raises one alert and closes only when a later run succeeds', async () => {
    const job = unique('dödad');
    const key = `ops-alert:job-failed:${job}@`;
    const n = await recipients();
    await run(job, '2038-03-01T02:15:00.000Z');
    await running(job, '2038-03-02T02:15:00.000Z');
    // A chunked run stopped on purpose has written its counts: never interrupted.
    const paused = unique('pausad');
    await running(paused, '2038-03-02T02:15:00.000Z', JSON.stringify({ processed: 10 }));

    const before = await checkAlerts(testDeps({ now: '2038-03-02T02:44:59.000Z' }));
    expect(before.opened).not.toContain(`job-failed:${job}`);
    expect((await statusAt('2038-03-02T02:44:59.000Z')).jobs.find((j) => j.job === job)).toMatchObject({
      status: 'running',
      interrupted: false,
      failing: false,
    });

    const after = await checkAlerts(testDeps({ now: '2038-03-02T02:45:01.000Z' }));
    expect(after.opened).toContain(`job-failed:${job}`);
    expect(after.opened).not.toContain(`job-failed:${paused}`);
    const body = await statusAt('2038-03-02T03:00:00.000Z');
    expect(body.jobs.find((j) => j.job === job)).toMatchObject({
      status: 'failed',
      interrupted: true,
      failing: true,
      error: 'Avbröts: körningen avslutades inte inom 30 minuter',
    });
    expect(body.jobs.find((j) => j.job === paused)).toMatchObject({ status: 'running', interrupted: false, failing: false });
    // The superadmin's job list (GET /api/admin/jobs) says the same.
    const { body: list } = await callJson<{ runs: Array<{ job: string; status: string; interrupted: boolean }> }>('/api/admin/jobs', {
      cookie: await signedIn('2038-03-02T03:00:00.000Z'),
      clock: '2038-03-02T03:00:00.000Z',
    });
    expect(list.runs.find((r) => r.job === job && r.status !== 'done')).toMatchObject({ status: 'failed', interrupted: true });

    // Later checks, and the next night's run while it is still going: one alert, still open.
    await checkAlerts(testDeps({ now: '2038-03-02T07:00:00.000Z' }));
    await running(job, '2038-03-03T02:15:00.000Z');
    const during = await checkAlerts(testDeps({ now: '2038-03-03T02:20:00.000Z' }));
    expect(during.resolved).not.toContain(`job-failed:${job}`);
    expect(await openKeys()).toContain(`job-failed:${job}`);
    expect(await mails(key)).toHaveLength(n);
    expect(await mails(`ops-recovery:job-failed:${job}@`)).toHaveLength(0);
  });

  it('a failed run stays an incident while the next run is only started; its success closes it with one recovery mail each', async () => {
    const job = unique('natt');
    const n = await recipients();
    await run(job, '2038-04-01T02:15:00.000Z', { fail: 'D1_ERROR: boom' });
    expect((await checkAlerts(testDeps({ now: '2038-04-01T02:20:00.000Z' }))).opened).toContain(`job-failed:${job}`);
    // The next night's run has started (its row is `running`, within its limit).
    await testDb().insert(jobRuns).values({ id: 'next-run', job, status: 'running', startedAt: '2038-04-02T02:15:00.000Z' });
    expect((await checkAlerts(testDeps({ now: '2038-04-02T02:16:00.000Z' }))).resolved).not.toContain(`job-failed:${job}`);
    expect(await mails(`ops-recovery:job-failed:${job}@`)).toHaveLength(0);
    expect((await statusAt('2038-04-02T02:16:00.000Z')).jobs.find((j) => j.job === job)).toMatchObject({
      status: 'running',
      failing: true,
      error: 'D1_ERROR: boom',
    });
    // It succeeds.
    await testDb().update(jobRuns).set({ status: 'done', finishedAt: '2038-04-02T02:17:00.000Z', result: '{}' }).where(sql`id = 'next-run'`);
    expect((await checkAlerts(testDeps({ now: '2038-04-02T02:20:00.000Z' }))).resolved).toContain(`job-failed:${job}`);
    await checkAlerts(testDeps({ now: '2038-04-02T06:00:00.000Z' }));
    expect(await mails(`ops-recovery:job-failed:${job}@`)).toHaveLength(n);
  });

  it('a deployment whose backups never succeed raises one alert: not before 26 h after the first deploy, kept through kills and failures', async () => {
    const n = await recipients();
    // The first deploy: its first cron writes the first job_runs row.
    await run('ops-alerts', '2041-01-01T02:00:00.000Z');
    // The night's backup started on time and is running (within its limit).
    await running(BACKUP_JOB, '2041-01-02T01:45:00.000Z');
    expect((await checkAlerts(testDeps({ now: '2041-01-02T03:59:00.000Z' }))).opened).not.toContain('backup');
    const at26 = await checkAlerts(testDeps({ now: '2041-01-02T04:01:00.000Z' }));
    expect(at26.opened).toContain('backup');
    const [incident] = await testDb().all<{ summary: string }>(sql`SELECT summary FROM ops_incidents WHERE key = 'backup'`);
    expect(incident!.summary).toBe('Ingen säkerhetskopia har lyckats på de 26 timmarna sedan första driftsättningen');
    // Killed (past its 6 h limit), then the next night failed: the same incident, no second alert.
    expect(RUN_LIMIT_MINUTES[BACKUP_JOB]).toBe(360);
    expect((await checkAlerts(testDeps({ now: '2041-01-02T07:46:00.000Z' }))).opened).toEqual(expect.not.arrayContaining(['backup']));
    await run(BACKUP_JOB, '2041-01-03T01:45:00.000Z', { fail: 'R2 refused' });
    expect((await checkAlerts(testDeps({ now: '2041-01-03T02:00:00.000Z' }))).opened).toEqual(expect.not.arrayContaining(['backup']));
    expect(await openKeys()).toContain('backup');
    expect(await mails('ops-alert:backup@')).toHaveLength(n);
    // The next one starts: still open. It succeeds: closed, and the status page shows its size and tables.
    await running(BACKUP_JOB, '2041-01-04T01:45:00.000Z');
    expect((await checkAlerts(testDeps({ now: '2041-01-04T01:50:00.000Z' }))).resolved).not.toContain('backup');
    await testDb()
      .update(jobRuns)
      .set({
        status: 'done',
        finishedAt: '2041-01-04T02:05:00.000Z',
        result: JSON.stringify({ key: 'd1/x.sql', bytes: 25_480_000, rows: 9000, tables: 31, parts: 12 }),
      })
      .where(sql`job = ${BACKUP_JOB} AND started_at = '2041-01-04T01:45:00.000Z'`);
    expect((await checkAlerts(testDeps({ now: '2041-01-04T02:10:00.000Z' }))).resolved).toContain('backup');
    expect(await mails('ops-alert:backup@')).toHaveLength(n);
    expect(await mails('ops-recovery:backup@')).toHaveLength(n);
    expect((await statusAt('2041-01-04T02:10:00.000Z')).backup).toMatchObject({ bytes: 25_480_000, tables: 31, rows: 9000, at: '2041-01-04T02:05:00.000Z' });
  });

  it('a failed backup raises "Jobbet backup misslyckades" once; the next backup starting does not close it, its success does', async () => {
    await run(BACKUP_JOB, '2040-07-01T01:45:00.000Z', { result: { bytes: 1, tables: 1 } });
    await run(BACKUP_JOB, '2040-07-02T01:45:00.000Z', { fail: 'R2 refused the part' });
    const failed = await checkAlerts(testDeps({ now: '2040-07-02T02:00:00.000Z' }));
    expect(failed.opened).toContain('backup');
    const [incident] = await testDb().all<{ summary: string }>(sql`SELECT summary FROM ops_incidents WHERE key = 'backup'`);
    expect(incident!.summary).toBe('Jobbet backup misslyckades: R2 refused the part');
    await running(BACKUP_JOB, '2040-07-03T01:45:00.000Z');
    const started = await checkAlerts(testDeps({ now: '2040-07-03T01:50:00.000Z' }));
    expect(started.resolved).not.toContain('backup');
    expect(started.opened).not.toContain('backup');
    await testDb()
      .update(jobRuns)
      .set({ status: 'done', finishedAt: '2040-07-03T02:00:00.000Z', result: '{"bytes":2,"tables":1}' })
      .where(sql`job = ${BACKUP_JOB} AND status = 'running'`);
    expect((await checkAlerts(testDeps({ now: '2040-07-03T02:05:00.000Z' }))).resolved).toContain('backup');
    expect(await mails('ops-alert:backup@')).toHaveLength(await recipients());
    expect(await mails('ops-recovery:backup@')).toHaveLength(await recipients());
  });

  it('a backup that never starts alerts once its trigger is an hour late, not a minute earlier, and not for a trigger before the first deploy', async () => {
    await run('ops-alerts', '2042-01-01T02:00:00.000Z');
    expect((await checkAlerts(testDeps({ now: '2042-01-02T02:44:00.000Z' }))).opened).not.toContain('backup');
    expect((await checkAlerts(testDeps({ now: '2042-01-02T02:46:00.000Z' }))).opened).toContain('backup');
    const [incident] = await testDb().all<{ summary: string }>(sql`SELECT summary FROM ops_incidents WHERE key = 'backup'`);
    expect(incident!.summary).toBe('Säkerhetskopieringen startade inte 2042-01-02 02:45 som planerat');
  });

  it('a nightly task that has not started an hour after the nightly trigger opens one incident naming it; its start closes it', async () => {
    await run('ops-alerts', '2043-03-10T12:00:00.000Z');
    await run(LISTING_DAY_JOB, '2043-03-10T22:05:00.000Z');
    await run(LISTING_DAY_JOB, '2043-03-10T23:05:00.000Z');
    // The 15-minute RSVP sweep (issue 47) is on time throughout; this test is about the nightly tasks.
    await run(RSVP_SWEEP_JOB, '2043-03-11T03:13:00.000Z');
    expect((await checkAlerts(testDeps({ now: '2043-03-11T03:14:00.000Z' }))).opened).not.toContain('jobs-stale');
    expect((await checkAlerts(testDeps({ now: '2043-03-11T03:16:00.000Z' }))).opened).toContain('jobs-stale');
    const [incident] = await testDb().all<{ summary: string }>(sql`SELECT summary FROM ops_incidents WHERE key = 'jobs-stale'`);
    expect(incident!.summary).toBe(`Jobb har inte startat i tid: ${[LISTING_DAY_JOB, ...NIGHTLY_JOBS].join(', ')}`);
    expect((await checkAlerts(testDeps({ now: '2043-03-11T03:30:00.000Z' }))).opened).not.toContain('jobs-stale');
    // They start late (and one of them is still running): closed.
    for (const job of [LISTING_DAY_JOB, ...NIGHTLY_JOBS.slice(1)]) await run(job, '2043-03-11T03:35:00.000Z');
    await running(NIGHTLY_JOBS[0]!, '2043-03-11T03:35:00.000Z');
    const after = await checkAlerts(testDeps({ now: '2043-03-11T03:40:00.000Z' }));
    expect(after.resolved).toContain('jobs-stale');
    expect((await statusAt('2043-03-11T03:40:00.000Z')).jobs.filter((j) => j.stale)).toEqual([]);
  });

  it('the schedule names every task a nightly run records', async () => {
    await runNightly(env, new Date('2043-06-01T02:15:00.000Z'), undefined, capturingOutboxQueue());
    const rows = await testDb().all<{ job: string }>(sql`SELECT DISTINCT job FROM job_runs WHERE started_at LIKE '2043-06-01T02:15%'`);
    // Every task the cron enqueues records itself, and so does the cron's own enqueue run; the schedule judges all of
    // them but the alert check (which runs after every cron) by the nightly trigger, listing-day by its own too.
    expect(rows.map((r) => r.job).sort()).toEqual([NIGHTLY_ENQUEUE_JOB, ...NIGHTLY_TASKS].sort());
    expect([...NIGHTLY_JOBS, LISTING_DAY_JOB, ALERT_JOB].sort()).toEqual([...NIGHTLY_TASKS].sort());
    for (const job of NIGHTLY_JOBS) expect(JOB_SCHEDULE.get(job)).toEqual(['15 2 * * *']);
  });

  it('alert and recovery mails go through the outbox with the incident change: a refused mail is retried by the queue and does not hold up the others', async () => {
    const job = unique('natt');
    const refused = superadmin.email;
    const calls: string[] = [];
    const provider = { refuse: true };
    const fetcher = (async (_url: string | URL | Request, init?: RequestInit) => {
      const to = (JSON.parse(String(init?.body)) as { to: string[] }).to[0]!;
      if (provider.refuse && to === refused) return new Response('unavailable', { status: 503 });
      calls.push(to);
      return new Response('{"id":"x"}', { status: 200 });
    }) as typeof fetch;
    const queue = capturingOutboxQueue();
    const deps = (now: string) =>
      testDeps({
        now,
        config: { mailApiKey: 'k' },
        ports: {
          mailer: (db, _config, clock) => createMailer(db, { apiKey: 'k', from: 'Quizkväll <no-reply@test.local>', clock, fetcher }),
          mailQueue: () => ({ send: () => Promise.reject(new Error('not used')), sendBatch: (m) => queue.sendBatch(m as Iterable<{ body: OutboxMessage }>) }),
        },
      });
    const n = await recipients();
    expect(n).toBeGreaterThan(1);
    await run(job, '2044-05-01T02:15:00.000Z', { fail: 'boom' });
    await check(deps('2044-05-01T02:20:00.000Z'), new Map());
    await run(job, '2044-05-02T02:15:00.000Z');
    const closed = await check(deps('2044-05-02T02:20:00.000Z'), new Map());
    expect(closed.resolved).toEqual([`job-failed:${job}`]);
    // Nothing was sent inside the check: every row is pending and on the queue.
    const rows = await testDb().all<{ id: string; to_email: string; status: string }>(
      sql`SELECT id, to_email, status FROM mail_outbox WHERE send_key LIKE ${`ops-recovery:job-failed:${job}@%`}`,
    );
    expect(rows).toHaveLength(n);
    expect(rows.every((r) => r.status === 'pending')).toBe(true);
    const bodies = queue.bodies.filter((b) => rows.some((r) => r.id === b.id));
    expect(bodies).toHaveLength(n);

    // The provider refuses one superadmin: that message is retried, the others are delivered.
    const logged = expectConsoleError(/mail provider answered 503|follow mail .* failed/);
    const first = queueMessages(bodies);
    await processMailBatch(deps('2044-05-02T02:21:00.000Z'), { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    const byId = new Map(rows.map((r) => [r.id, r.to_email]));
    for (const m of first) {
      const to = byId.get((m.body as OutboxMessage).id);
      expect({ to, acked: m.acked, retried: m.retried !== null }).toEqual({ to, acked: to !== refused, retried: to === refused });
    }
    expect(calls.filter((to) => to !== refused)).toHaveLength(n - 1);
    // The retry, with the provider back: delivered once.
    provider.refuse = false;
    await processMailBatch(deps('2044-05-02T02:22:00.000Z'), { queueName: 'quizkvall-mail', messages: queueMessages(bodies, 2) });
    const after = await testDb().all<{ status: string }>(sql`SELECT status FROM mail_outbox WHERE send_key LIKE ${`ops-recovery:job-failed:${job}@%`}`);
    expect(after.map((r) => r.status)).toEqual(Array(n).fill('sent'));
    expect(calls.filter((to) => to === refused)).toHaveLength(1);
  });
});

describe('the last Stripe webhook (issue 42 item 5)', () => {
  it('is the newest Stripe event, not the buyer’s own return check (verify: rows)', async () => {
    await testDb().run(
      sql`INSERT INTO payment_events (id, type, order_id, received_at) VALUES ('evt_1', 'checkout.session.completed', 'o1', '2045-01-01T10:00:00.000Z')`,
    );
    await testDb().run(sql`INSERT INTO payment_events (id, type, order_id, received_at) VALUES ('verify:o1', 'verify', 'o1', '2045-01-01T10:05:00.000Z')`);
    const body = await statusAt('2045-01-01T11:00:00.000Z');
    expect(body.webhook).toMatchObject({ lastReceivedAt: '2045-01-01T10:00:00.000Z', lastType: 'checkout.session.completed' });
  });
});
