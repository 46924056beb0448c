/**
 * Jobs are observable (ARCHITECTURE.md "Wave 2"): every nightly task writes a job_runs row (start,
 * end, status, counts, error) through recordJob; a failing task is recorded as failed and does not stop
 * the others; the superadmin reads the newest 50 runs at GET /api/admin/jobs.
 */
import { createExecutionContext, createMessageBatch, createScheduledController, getQueueResult, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import worker from '../../worker/index';
import { eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { deadLetters, jobRuns, mailOutbox, quizzes, sessions } from '../../worker/db/schema';
import { SERIES_JOB } from '../../worker/features/series/service';
import { ALERT_DELAY_SECONDS, enqueueNightly, JOBS_QUEUE_NAME, NIGHTLY_TASKS, runListingDay, SERIES_PAGES_PER_UNIT } from '../../worker/jobs/nightly';
import { processJobsBatch } from '../../worker/jobs/jobs-queue';
import { calendarFeeds } from '../../worker/db/schema';
import { capturingJobsQueue, drainJobs, runNightly } from '../jobs-queue';
import { newId } from '../../worker/lib/ids';
import { countingD1, newD1Stats } from '../../worker/db/client';
import { callJson, createLocation, createQuiz, createUser, createVenue, testDb, testDeps, unique, type TestUser, uniqueTown } from '../factories';
import { expectConsoleError } from '../setup/console';
import { capturingOutboxQueue, fakeProvider, queueMessages } from '../mail-queue';
import { processMailBatch, setReminders } from '../../worker/features/follows/service';
import { updateLocation, updateVenue } from '../../worker/features/venues/service';
import type { Db } from '../../worker/db/client';
import { AppError } from '../../worker/lib/errors';
import { reportQuiz } from '../../worker/features/feedback/report';
import { CLAIMED_MAIL_KEYS } from '../../worker/jobs/owner-mail';
import { createMailer, redeliverOutbox } from '../../worker/ports/mailer';

// Before every session the factories create (they expire 30 days after the real now), so the nightly
// clean-up at this instant removes only the session planted below.
const NIGHT = '2020-02-04T02:15:00.000Z';
const NIGHTLY_JOBS = [
  'listing-day',
  'sessions',
  'rate-limits',
  'analytics-seen',
  'email-tokens',
  'mail-outbox',
  'promotion-holds',
  SERIES_JOB,
  'calendar-sync',
];

let superadmin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  superadmin = await createUser({ roles: ['admin', 'superadmin'] });
  owner = await createUser();
});

/** Runs started in the second of `at` (a night's clock starts at its instant and advances in real time). */
async function runsInSecondOf(at: string) {
  return testDb()
    .select()
    .from(jobRuns)
    .where(sql`${jobRuns.startedAt} LIKE ${`${at.slice(0, 19)}%`}`)
    .orderBy(sql`rowid`);
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
    await testDb()
      .insert(sessions)
      .values({ id: newId(), secretHash: 'x', userId: owner.id, expiresAt: Date.parse(NIGHT) - 1000 });
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

  it('the cron only enqueues: one message per task, the alert check delayed; nothing has run yet (issue 42.2)', async () => {
    const at = '2021-05-06T02:15:00.000Z';
    const queue = capturingJobsQueue();
    expect(await enqueueNightly(env, new Date(at), queue)).toMatchObject({ enqueued: NIGHTLY_TASKS.length });
    expect(queue.sent.map((m) => m.body)).toEqual(NIGHTLY_TASKS.map((name) => ({ type: 'nightly-task', name, at })));
    expect(queue.sent.filter((m) => m.delaySeconds).map((m) => [m.body, m.delaySeconds])).toEqual([
      [{ type: 'nightly-task', name: 'ops-alerts', at }, ALERT_DELAY_SECONDS],
    ]);
    // Only the cron's own row: the tasks run when the queue delivers their messages.
    expect((await runsInSecondOf(at)).map((r) => [r.job, r.status, JSON.parse(r.result!)])).toEqual([['nightly', 'done', { enqueued: NIGHTLY_TASKS.length }]]);
    // A queue that refuses: the cron's run is recorded as failed (the alert check reports it).
    const failedAt = '2021-05-07T02:15:00.000Z';
    await expect(enqueueNightly(env, new Date(failedAt), capturingJobsQueue({ failing: true }))).rejects.toThrow('queue unavailable');
    expect((await runsInSecondOf(failedAt)).map((r) => [r.job, r.status])).toEqual([['nightly', 'failed']]);
  });

  it('each task is its own message: a failing one is recorded as failed and retried, the others are done', async () => {
    const at = '2021-05-08T02:15:00.000Z';
    // A due feed, so the calendar-sync task has something to enqueue, on a queue that refuses.
    const venue = await createVenue(owner.id);
    const location = await createLocation(venue.id, { city: uniqueTown() });
    const feedId = newId();
    await testDb()
      .insert(calendarFeeds)
      .values({ id: feedId, locationId: location.id, url: `https://k.example.se/${unique('f')}.ics` });
    const messages = queueMessages([
      { type: 'nightly-task', name: 'sessions', at },
      { type: 'nightly-task', name: 'calendar-sync', at },
      { type: 'nightly-task', name: 'no-such-task', at },
      { type: 'nightly-task', name: 'rate-limits', at },
      { hello: 'not a job' },
    ]);
    const errors = expectConsoleError(/nightly task calendar-sync failed|nightly task no-such-task failed|cannot be read/);
    for (const m of messages) await processJobsBatch(env, { queue: JOBS_QUEUE_NAME, messages: [m] }, { jobsQueue: capturingJobsQueue({ failing: true }) });
    errors.verify();
    expect(messages.map((m) => [m.acked, m.retried])).toEqual([
      [true, null],
      [false, 60],
      [false, 60],
      [true, null],
      [false, 60],
    ]);
    const rows = Object.fromEntries((await runsInSecondOf(at)).map((r) => [r.job, r]));
    expect(Object.keys(rows).sort()).toEqual(['calendar-sync', 'rate-limits', 'sessions']);
    expect(rows['calendar-sync']).toMatchObject({ status: 'failed', result: JSON.stringify({ error: 'queue unavailable' }) });
    expect(rows.sessions!.status).toBe('done');
    expect(rows['rate-limits']!.status).toBe('done');
    // The retry (attempt 2) with the queue back: done, the feed enqueued.
    const queue = capturingJobsQueue();
    const [retry] = queueMessages([messages[1]!.body], 2);
    await processJobsBatch(env, { queue: JOBS_QUEUE_NAME, messages: [retry!] }, { jobsQueue: queue });
    expect(retry!.acked).toBe(true);
    expect(queue.sent.length).toBeGreaterThanOrEqual(1);
    expect(queue.sent.every((m) => m.body.type === 'calendar-sync' && m.body.at === at)).toBe(true);
    // Gone again: later nightly runs of this file must not fetch it (no network in tests).
    await testDb().delete(calendarFeeds).where(eq(calendarFeeds.id, feedId));
  });
});

describe('the Worker queue() handler routes the jobs queues (issue 42.2)', () => {
  it('production and staging jobs queues run their units; their dead-letter queues are recorded', async () => {
    const at = '2021-05-09T02:15:00.000Z';
    for (const queue of ['quizkvall-jobs', 'quizkvall-staging-jobs']) {
      const id = unique('job');
      const batch = createMessageBatch(queue, [{ id, timestamp: new Date(at), attempts: 1, body: { type: 'nightly-task', name: 'rate-limits', at } }]);
      const ctx = createExecutionContext();
      await worker.queue!(batch as never, env, ctx);
      expect((await getQueueResult(batch, ctx)).explicitAcks, queue).toEqual([id]);
    }
    expect((await runsInSecondOf(at)).map((r) => [r.job, r.status])).toEqual([
      ['rate-limits', 'done'],
      ['rate-limits', 'done'],
    ]);
    const dead = unique('dead');
    const batch = createMessageBatch('quizkvall-jobs-dlq', [
      { id: dead, timestamp: new Date(at), attempts: 4, body: { type: 'calendar-sync', feedId: 'x', at } },
    ]);
    const ctx = createExecutionContext();
    await worker.queue!(batch as never, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([dead]);
    const [row] = await testDb().select().from(deadLetters).where(eq(deadLetters.messageId, dead));
    expect(row).toMatchObject({ queue: 'quizkvall-jobs-dlq', attempts: 4 });
  });
});

describe('the scheduled handler (issue 27.4)', () => {
  it('an unknown cron string runs nothing: it is logged and recorded as a failed `cron` run', async () => {
    const at = '2019-03-04T05:06:07.000Z';
    const logged = expectConsoleError(/unknown cron trigger "\* \* \* \* \*"/);
    const ctx = createExecutionContext();
    await worker.scheduled!(createScheduledController({ scheduledTime: new Date(at), cron: '* * * * *' }), env as Env, ctx);
    await waitOnExecutionContext(ctx);
    logged.verify();
    // Nothing else ran (the nightly tasks would each have written a row at this instant); the operations
    // alert check runs after every cron invocation, known or not (worker/index.ts), and records its own run.
    const rows = (await testDb().select().from(jobRuns).where(sql`${jobRuns.startedAt} LIKE '2019-03-04T05:06%'`)).filter((r) => r.job !== 'ops-alerts');
    expect(rows.map((r) => [r.job, r.status])).toEqual([['cron', 'failed']]);
    expect(JSON.parse(rows[0]!.result!).error).toBe('unknown cron trigger "* * * * *"');
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

describe('owner mail written with its claim (issue 27.3)', () => {
  it('mail-redeliver puts claimed mail the queue did not deliver back on it: 10 minutes to 7 days old, unsent, of the claimed kinds only', async () => {
    const db = testDb();
    const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000).toISOString();
    const row = (key: string, createdAt: string, status: 'pending' | 'sent' | 'failed') => ({
      id: newId(),
      toEmail: `${unique('m')}@example.se`,
      subject: 'Hej',
      text: 'Hej',
      sendKey: key,
      status,
      createdAt,
      updatedAt: createdAt,
    });
    const due = [
      row(`freshness:${unique('v')}:2030-01-01:1`, minutesAgo(11), 'pending'),
      row(`holiday-ask:${unique('r')}:2030-12-24`, minutesAgo(60 * 30), 'failed'),
      row(`quiz-reports:${unique('u')}:9`, minutesAgo(60), 'pending'),
    ];
    const notDue = [
      row(`freshness:${unique('v')}:2030-01-01:2`, minutesAgo(2), 'pending'), // its own delivery is still under way
      row(`freshness:${unique('v')}:2030-01-01:3`, minutesAgo(8 * 24 * 60), 'failed'), // stale
      row(`holiday-ask:${unique('r')}:2030-12-31`, minutesAgo(30), 'sent'),
      row(`reminder:${unique('f')}:q`, minutesAgo(30), 'failed'), // "Ikväll" mail: never late
    ];
    await db.insert(mailOutbox).values([...due, ...notDue]);
    const queue = capturingOutboxQueue();
    await redeliverOutbox(db, queue, CLAIMED_MAIL_KEYS);
    const ids = new Set(queue.bodies.map((b) => b.id));
    for (const r of due) expect(ids.has(r.id), r.sendKey).toBe(true);
    for (const r of notDue) expect(ids.has(r.id), r.sendKey).toBe(false);
    expect(queue.bodies.every((b) => b.type === 'outbox')).toBe(true);
    // The queue itself down: the task fails (recorded), nothing is lost (the rows stay for the next night).
    const logged = expectConsoleError(/mail queue refused/);
    await expect(redeliverOutbox(db, capturingOutboxQueue({ failing: true }), CLAIMED_MAIL_KEYS)).rejects.toThrow(/refused/);
    logged.verify();
  });

  it('the third report with the provider down still answers, and its mail waits in the outbox for the queue', async () => {
    const owner = await createUser();
    const venue = await createVenue(owner.id);
    const location = await createLocation(venue.id, { city: uniqueTown() });
    const quiz = await createQuiz(location.id, { date: '2046-01-03' });
    const provider = fakeProvider();
    provider.state.down = true;
    const deps = testDeps({
      now: '2046-01-01T10:00:00Z',
      ports: { mailer: (db, _c, clock) => createMailer(db, { apiKey: 'k', from: 'x@test.local', clock, fetcher: provider.fetcher }) },
    });
    const queue = capturingOutboxQueue();
    for (let i = 0; i < 3; i++) await reportQuiz(deps, { quizId: quiz.id, reason: 'fel-tid', clientKey: unique('ip'), queue });
    const mails = await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, owner.email));
    expect(mails.map((m) => [m.status, m.text.startsWith('Hej!\n\n3 besökare har')])).toEqual([['pending', true]]);
    expect(queue.bodies).toEqual([{ type: 'outbox', id: mails[0]!.id }]);
    expect(provider.calls).toEqual([]);
  });
});

describe('GET /api/admin/dead-letters (issue 27.4)', () => {
  it('a body longer than 4 000 characters is kept cut and marked as such; rows cut before the fix no longer make the list a 500', async () => {
    const big = { type: 'nonsense', pad: 'x'.repeat(5000) };
    const [poison] = queueMessages([big]);
    await processMailBatch(testDeps(), { queueName: 'quizkvall-mail', messages: [poison!] });
    const oldId = `old-${unique()}`;
    await testDb()
      .insert(deadLetters)
      .values({ id: newId(), queue: 'quizkvall-mail', messageId: oldId, body: JSON.stringify(big).slice(0, 4000), attempts: 6, reason: 'x' });
    const list = await callJson('/api/admin/dead-letters', { cookie: superadmin.cookie });
    expect(list.status).toBe(200);
    const byId = new Map(list.body.deadLetters.map((d: { messageId: string; body: unknown }) => [d.messageId, d.body]));
    for (const id of [poison!.id, oldId]) {
      const body = byId.get(id) as { truncated: string };
      expect(body.truncated.startsWith('{"type":"nonsense","pad":"xxx')).toBe(true);
      expect(body.truncated).toHaveLength(4000);
    }
  });
});

describe('a row deleted between the write and its answer (issue 27.4)', () => {
  /** The test db, where `method` first runs `before` (another request deleting the row at that moment). */
  const racing = (method: 'all' | 'batch', before: () => Promise<unknown>): Db =>
    new Proxy(testDb(), {
      get(target, prop) {
        const value = Reflect.get(target, prop, target);
        if (prop === method)
          return async (...args: unknown[]) => {
            await before();
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const status = (p: Promise<unknown>) =>
    p.then(
      () => 200,
      (e: unknown) => (e instanceof AppError ? e.status : 500),
    );

  it('pausing reminders of a follow deleted meanwhile → 404, not 500', async () => {
    const user = await createUser();
    const venue = await createVenue(user.id);
    const location = await createLocation(venue.id, { city: uniqueTown() });
    const followId = newId();
    await testDb().run(sql`INSERT INTO follows (id, user_id, kind, location_id, target_key, reminders, confirmed_at)
      VALUES (${followId}, ${user.id}, 'place', ${location.id}, ${`place:${location.id}`}, 1, '2030-01-01T00:00:00.000Z')`);
    const db = racing('all', () => testDb().run(sql`DELETE FROM follows WHERE id = ${followId}`));
    expect(await status(setReminders({ ...testDeps(), db }, { owner: { userId: user.id }, followId, reminders: false }))).toBe(404);
  });

  it('saving a business or a place deleted after the ownership check → 404, not 500', async () => {
    const user = await createUser();
    const actor = { id: user.id, email: user.email, roles: ['admin' as const] };
    const venue = await createVenue(user.id);
    const location = await createLocation(venue.id, { city: uniqueTown() });
    const placeDb = racing('batch', () => testDb().run(sql`DELETE FROM locations WHERE id = ${location.id}`));
    const place = { name: 'Ny', address: 'Gata 1', city: 'Racestad', phone: '', website: '', latitude: null, longitude: null };
    expect(await status(updateLocation({ ...testDeps(), db: placeDb }, actor, { ...place, locationId: location.id } as never))).toBe(404);
    const venueDb = racing('batch', () => testDb().run(sql`DELETE FROM venues WHERE id = ${venue.id}`));
    const body = { name: venue.name, description: '', address: '', city: '', phone: '', website: '', isPublic: true };
    expect(await status(updateVenue({ ...testDeps(), db: venueDb }, actor, { ...body, venueId: venue.id } as never))).toBe(404);
  });
});

// Last in the file: its far-future nightly run also ends every session the tests above use.
describe('nightly mail-outbox clean-up (data minimisation)', () => {
  it('deletes outbox rows (addresses, texts) older than 30 days by the database time, keeps newer ones and their send keys, whatever the pinned clock', async () => {
    const db = testDb();
    const daysAgo = (d: number) => new Date(Date.now() - d * 86_400_000).toISOString();
    const row = (key: string | null, createdAt: string, status: 'sent' | 'failed' = 'sent') => ({
      id: newId(),
      toEmail: `${unique('m')}@example.se`,
      subject: 'Ikväll',
      text: 'Hej',
      sendKey: key,
      status,
      createdAt,
      updatedAt: createdAt,
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

// Keep last: its night (2046) deletes every session the factories made.
describe('the series extension in bounded units (issue 42.2)', () => {
  it(`handles at most ${SERIES_PAGES_PER_UNIT} pages of 25 series per invocation and continues in a message of its own`, async () => {
    const venue = await createVenue(owner.id);
    const location = await createLocation(venue.id, { city: uniqueTown() });
    const count = SERIES_PAGES_PER_UNIT * 25 + 1;
    // Weekly series with one occurrence each, tomorrow (a Tuesday in 2046): every one needs extending.
    const rows = Array.from({ length: count }, () => ({
      id: newId(),
      locationId: location.id,
      date: '2046-01-02',
      startTime: '19:00:00',
      category: 'allmänbildning' as const,
      isRecurring: true,
      recurrenceId: newId(),
      recurrencePattern: 'weekly' as const,
      recurrenceDays: JSON.stringify(['tisdag']),
    }));
    for (let i = 0; i < rows.length; i += 5)
      await testDb()
        .insert(quizzes)
        .values(rows.slice(i, i + 5));
    const night = '2046-01-01T02:15:00.000Z';
    // The task's message through the consumer, its D1 statements counted (each statement of a batch too).
    const stats = newD1Stats();
    const queue = capturingJobsQueue();
    const [first] = queueMessages([{ type: 'nightly-task', name: SERIES_JOB, at: night }]);
    await processJobsBatch({ ...env, DB: countingD1(env.DB, stats) } as Env, { queue: JOBS_QUEUE_NAME, messages: [first!] }, { jobsQueue: queue });
    expect(first!.acked).toBe(true);
    console.log(`series extension unit (${count - 1} series): ${stats.statements} D1 statements`);
    expect(stats.statements).toBeLessThan(1000);
    // The rest continues in a message of its own.
    expect(queue.sent.map((m) => m.body)).toEqual([{ type: 'nightly-task', name: SERIES_JOB, at: night }]);
    expect((await drainJobs(env, queue)).map((o) => o.outcome)).toEqual(['done']);
    const runs = await testDb()
      .select()
      .from(jobRuns)
      .where(sql`${jobRuns.job} = ${SERIES_JOB} AND ${jobRuns.startedAt} LIKE '2046-01-01%'`)
      .orderBy(sql`rowid`);
    expect(runs.map((r) => [r.status, JSON.parse(r.result!).processed])).toEqual([
      ['running', count - 1],
      ['done', 1],
    ]);
    const [n] = await testDb().all<{ n: number }>(sql`
      SELECT COUNT(DISTINCT recurrence_id) AS n FROM quizzes WHERE location_id = ${location.id} AND date > '2046-01-02'`);
    expect(n!.n).toBe(count);
  }, 60_000);
});
