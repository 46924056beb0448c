/**
 * Jobs are observable (ARCHITECTURE.md "Wave 2"): every nightly task writes a job_runs row (start,
 * end, status, counts, error) through recordJob; a failing task is recorded as failed and does not stop
 * the others; the superadmin reads the newest 50 runs at GET /api/admin/jobs.
 */
import { env } from 'cloudflare:workers';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { jobRuns, mailOutbox, sessions } from '../../worker/db/schema';
import { SERIES_JOB } from '../../worker/features/series/service';
import { runListingDay, runNightly, runTasks } from '../../worker/jobs/nightly';
import { createClock } from '../../worker/lib/clock';
import { newId } from '../../worker/lib/ids';
import { recordJob } from '../../worker/lib/jobs';
import { callJson, createUser, testDb, unique, type TestUser } from '../factories';
import { expectConsoleError } from '../setup/console';

// Before every session the factories create (they expire 30 days after the real now), so the nightly
// clean-up at this instant removes only the session planted below.
const NIGHT = '2020-02-04T02:15:00.000Z';
const NIGHTLY_JOBS = ['listing-day', 'sessions', 'rate-limits', 'analytics-seen', 'email-tokens', 'mail-outbox', 'promotion-holds', SERIES_JOB];

let superadmin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  superadmin = await createUser({ roles: ['admin', 'superadmin'] });
  owner = await createUser();
});

async function runsAt(startedAt: string) {
  return testDb().select().from(jobRuns).where(eq(jobRuns.startedAt, startedAt));
}

describe('the listing-day cron (00:05 Stockholm)', () => {
  it('moves the listing to the Stockholm date of its run — 22:05 UTC is 00:05 the next day in summer — ', async () => {
    await runListingDay(env, new Date('2031-06-01T22:05:00.000Z'));
    const [state] = await testDb().all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`);
    expect(state!.today).toBe('2031-06-02');
    const rows = await testDb().select().from(jobRuns).where(sql`${jobRuns.job} = 'listing-day' AND ${jobRuns.startedAt} LIKE '2031-06-01T22:05%'`);
    expect(rows.map((r) => r.status)).toEqual(['done']);
    // In winter 23:05 UTC is 00:05; 22:05 UTC is still the day before (a no-op once the day has moved on).
    await runListingDay(env, new Date('2031-12-01T22:05:00.000Z'));
    expect((await testDb().all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`))[0]!.today).toBe('2031-12-01');
    await runListingDay(env, new Date('2031-12-01T23:05:00.000Z'));
    expect((await testDb().all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`))[0]!.today).toBe('2031-12-02');
  });
});

describe('the nightly run', () => {
  it('writes one finished job_runs row per task with its counts', async () => {
    await testDb().insert(sessions).values({ id: newId(), secretHash: 'x', userId: owner.id, expiresAt: Date.parse(NIGHT) - 1000 });
    const result = await runNightly(env, new Date(NIGHT));
    expect(result.failed).toEqual([]);
    const rows = await testDb()
      .select()
      .from(jobRuns)
      .where(sql`${jobRuns.startedAt} LIKE '2020-02-04T02:15%' AND ${inArray(jobRuns.job, NIGHTLY_JOBS)}`);
    expect(rows.map((r) => r.job).sort()).toEqual([...NIGHTLY_JOBS].sort());
    for (const row of rows) {
      expect(row.status, row.job).toBe('done');
      expect(row.finishedAt! >= row.startedAt, row.job).toBe(true);
    }
    const counts = Object.fromEntries(rows.map((r) => [r.job, JSON.parse(r.result!)]));
    expect(counts.sessions.deleted).toBeGreaterThanOrEqual(1);
    expect(counts['rate-limits']).toHaveProperty('deleted');
    expect(counts['analytics-seen']).toHaveProperty('deleted');
    expect(counts['email-tokens']).toHaveProperty('deleted');
    expect(counts['mail-outbox']).toHaveProperty('deleted');
    expect(counts['promotion-holds']).toHaveProperty('released');
    expect(counts[SERIES_JOB]).toMatchObject({ today: '2020-02-04', processed: expect.any(Number) });
    // The listing's stored columns are brought to the night's date (issue 19 §2).
    expect(counts['listing-day']).toHaveProperty('units');
    const [state] = await testDb().all<{ today: string }>(sql`SELECT today FROM listing_state WHERE id = 1`);
    expect(state!.today).toBe('2020-02-04');
  });

  it('records a failing task as failed with its error and still runs the tasks after it', async () => {
    const db = testDb();
    const at = '2021-05-06T07:08:09.000Z';
    const clock = createClock(at);
    const [ok1, bad, ok2] = [unique('job-a'), unique('job-b'), unique('job-c')];
    const ran: string[] = [];
    const task = (name: string, fn: () => Promise<Record<string, unknown>>) => [name, () => recordJob(db, clock, name, fn)] as const;
    const errors = expectConsoleError(/nightly task job-b.* failed/);
    const result = await runTasks([
      task(ok1, async () => (ran.push(ok1), { n: 1 })),
      task(bad, async () => {
        ran.push(bad);
        throw new Error('D1 var borta');
      }),
      task(ok2, async () => (ran.push(ok2), { n: 2 })),
    ]);
    errors.verify();
    expect(ran).toEqual([ok1, bad, ok2]);
    expect(result.failed).toEqual([bad]);
    const rows = Object.fromEntries((await runsAt(at)).map((r) => [r.job, r]));
    expect(rows[ok1]).toMatchObject({ status: 'done', finishedAt: at, result: JSON.stringify({ n: 1 }) });
    expect(rows[bad]).toMatchObject({ status: 'failed', finishedAt: at, result: JSON.stringify({ error: 'D1 var borta' }) });
    expect(rows[ok2]).toMatchObject({ status: 'done', finishedAt: at, result: JSON.stringify({ n: 2 }) });
  });
});

describe('GET /api/admin/jobs', () => {
  it('shows the superadmin the newest 50 runs, newest first, with parsed counts and errors', async () => {
    const db = testDb();
    const job = unique('listed');
    // 55 runs in the far future so they are the newest rows of the table.
    const rows = Array.from({ length: 55 }, (_, i) => ({
      id: newId(),
      job,
      status: i === 54 ? ('failed' as const) : ('done' as const),
      startedAt: `2099-01-01T00:00:${String(i).padStart(2, '0')}.000Z`,
      finishedAt: `2099-01-01T00:00:${String(i).padStart(2, '0')}.500Z`,
      result: i === 54 ? JSON.stringify({ error: 'boom' }) : JSON.stringify({ deleted: i }),
    }));
    // ≤ 100 bound parameters per statement (D1): 6 per row.
    for (let i = 0; i < rows.length; i += 10) await db.insert(jobRuns).values(rows.slice(i, i + 10));
    const { status, body, res } = await callJson('/api/admin/jobs', { cookie: superadmin.cookie });
    expect(status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(body.runs).toHaveLength(50);
    expect(body.runs[0]).toMatchObject({ job, status: 'failed', startedAt: '2099-01-01T00:00:54.000Z', result: { error: 'boom' } });
    expect(body.runs[1]).toMatchObject({ job, status: 'done', result: { deleted: 53 } });
    expect(body.runs[49].startedAt).toBe('2099-01-01T00:00:05.000Z');
  });

  it('is refused to visitors (401) and owners (403)', async () => {
    expect((await callJson('/api/admin/jobs')).status).toBe(401);
    const asOwner = await callJson('/api/admin/jobs', { cookie: owner.cookie });
    expect(asOwner.status).toBe(403);
    expect(asOwner.body.error.message).toBe('User is not a superadmin');
  });
});

// Last in the file: its far-future nightly run also ends every session the tests above use.
describe('nightly mail-outbox clean-up (data minimisation)', () => {
  it('deletes outbox rows (addresses, texts) older than 30 days by the database time, keeps newer ones and their send keys, whatever the pinned clock', async () => {
    const db = testDb();
    const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
    const row = (key: string | null, createdAt: string, status: 'sent' | 'failed' = 'sent') => ({
      id: newId(), toEmail: `${unique('m')}@example.se`, subject: 'Ikväll', text: 'Hej', sendKey: key, status, createdAt, updatedAt: createdAt,
    });
    const old = [row(null, daysAgo(31)), row(`reminder:${unique('f')}:q`, daysAgo(45)), row(`digest:${unique('f')}:w`, daysAgo(31), 'failed')];
    const recent = [row(null, daysAgo(29)), row(`reminder:${unique('f')}:q`, daysAgo(29)), row(`confirm:${unique('r')}`, daysAgo(0))];
    await db.insert(mailOutbox).values([...old, ...recent]);
    const ids = [...old, ...recent].map((r) => r.id);
    const left = async () => (await db.select({ id: mailOutbox.id }).from(mailOutbox).where(inArray(mailOutbox.id, ids))).map((r) => r.id).sort();

    // A run whose clock is far ahead (as with CLOCK_NOW) deletes nothing newer than 30 days of real time.
    expect((await runNightly(env, new Date('2040-06-01T02:15:00Z'))).failed).toEqual([]);
    expect(await left()).toEqual(recent.map((r) => r.id).sort());
    // The key of a mail still within the period keeps a second send out.
    const [kept] = await db.select().from(mailOutbox).where(eq(mailOutbox.id, recent[1]!.id));
    expect(kept!.sendKey).toBe(recent[1]!.sendKey);
    const run = await db.select().from(jobRuns).where(sql`${jobRuns.job} = 'mail-outbox' AND ${jobRuns.startedAt} LIKE '2040-06-01%'`);
    expect(JSON.parse(run[0]!.result!).deleted).toBeGreaterThanOrEqual(old.length);
  });
});
