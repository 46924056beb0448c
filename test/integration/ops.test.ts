/**
 * Operations (issue 30 §4–5): GET /api/admin/status (the superadmin's "Drift" tab) and the alert mails.
 * Job names are unique per test (the file shares one database), and every check runs on a pinned clock.
 */
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobRuns } from '../../worker/db/schema';
import { checkAlerts, WEBHOOK_FAILURE_THRESHOLD } from '../../worker/features/ops/alerts';
import type { OpsStatusResponse } from '../../worker/features/ops/contract';
import { newId } from '../../worker/lib/ids';
import { recordJob } from '../../worker/lib/jobs';
import { bumpCounter, OPS_COUNTERS } from '../../worker/lib/ops-counters';
import { callJson, createUser, pinnedClock, testDb, testDeps, unique, type TestUser } from '../factories';

let superadmin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  superadmin = await createUser({ roles: ['admin', 'superadmin'] });
  owner = await createUser();
});

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
    const backup = `backup-${unique('b')}`;
    await run(nightly, '2034-05-09T02:15:00.000Z');
    await run(nightly, '2034-05-10T02:15:00.000Z', { fail: 'no such table: x' });
    await run(backup, '2034-05-10T02:20:00.000Z', { result: { key: 'daily/2034-05-10.sql.gz', bytes: 123456, tables: { users: 3, venues: 4 } } });
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
      error: 'no such table: x',
      daily: true,
      stale: false,
      startedAt: '2034-05-10T02:15:00.000Z',
    });
    expect(body.backup).toMatchObject({ job: backup, bytes: 123456, tables: 2, key: 'daily/2034-05-10.sql.gz' });
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
      expect.arrayContaining(['STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'MAIL_API_KEY', 'MAP_TILE_URL', 'GOOGLE']),
    );
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
    const backup = `backup-${unique('s')}`;
    const NOW = '2036-02-05T12:00:00.000Z';
    await run(job, '2036-02-02T02:15:00.000Z');
    await run(job, '2036-02-03T02:15:00.000Z');
    await run(backup, '2036-02-03T02:30:00.000Z', { result: { bytes: 1, tables: 1 } });
    for (let i = 0; i < WEBHOOK_FAILURE_THRESHOLD; i++) await bumpCounter(testDb(), OPS_COUNTERS.webhookSignature, new Date('2036-02-05T11:00:00Z'));
    await testDb().run(
      sql`INSERT INTO dead_letters (id, queue, message_id, body, attempts, reason) VALUES (${newId()}, 'quizkvall-mail-dlq', ${unique('m')}, '{}', 5, 'test')`,
    );

    await checkAlerts(testDeps({ now: NOW }));
    // (an earlier test's old backup may have opened 'backup-stale' already: one open incident per key either way)
    const open = await testDb().all<{ key: string; summary: string }>(sql`SELECT key, summary FROM ops_incidents WHERE resolved_at IS NULL`);
    expect(open.map((i) => i.key).sort()).toEqual(expect.arrayContaining(['backup-stale', 'dead-letters', 'jobs-stale', 'webhook-signature']));
    expect(new Set(open.map((i) => i.key)).size).toBe(open.length);
    expect(open.find((i) => i.key === 'jobs-stale')!.summary).toContain(job);
    expect(open.find((i) => i.key === 'backup-stale')!.summary).toMatch(/^Senaste säkerhetskopian är \d+ timmar gammal$/);
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
