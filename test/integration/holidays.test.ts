import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { runScheduledNight } from '../jobs-queue';
import { runHolidayAskJob } from '../../worker/features/holidays/service';
import { capturingOutboxQueue, fakeProvider, queueMessages } from '../mail-queue';
import { processMailBatch } from '../../worker/features/follows/service';
import { createMailer, type Mailer } from '../../worker/ports/mailer';
import { expectConsoleError } from '../setup/console';
import { call, callJson, createLocation, createUser, createVenue, snapshot, testDb, testDeps, uniqueTown } from '../factories';

/**
 * Swedish holidays in series (issue 20 §2): the library's dates for 2026 and 2027 in the preview and on
 * stored series, "Hoppa över" (skip = cancel that occurrence) and restore, the nightly
 * "Kör ni quiz på {helgdag}?" mail (once, even when the cron runs twice) and its signed single-use links.
 */
async function ownerAt(clock: string) {
  const user = await createUser({ now: new Date(clock) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city: uniqueTown() });
  return { user, venue, location };
}

async function createSeries(user: { cookie: string }, locationId: string, clock: string, body: Record<string, unknown>) {
  const res = await callJson('/api/owner/quizzes', {
    cookie: user.cookie,
    clock,
    body: { locationId, startTime: '19:00', category: 'allmänbildning', recurring: true, pattern: 'weekly', ...body },
  });
  expect(res.status).toBe(201);
  return res.body.recurrenceId as string;
}

const occurrence = async (rid: string, date: string) =>
  (await testDb().all<Record<string, any>>(sql`SELECT * FROM quizzes WHERE recurrence_id = ${rid} AND date = ${date}`))[0];
const decision = async (rid: string, date: string) =>
  (await testDb().all<Record<string, any>>(sql`SELECT * FROM holiday_decisions WHERE recurrence_id = ${rid} AND date = ${date}`))[0];

describe('preview from the create form', () => {
  it('a weekly Thursday series across Christmas 2026: julafton and nyårsafton suggested as skips', async () => {
    const { user } = await ownerAt('2026-11-23T09:00:00Z');
    const { status, body } = await callJson('/api/owner/series/holidays/preview', {
      cookie: user.cookie,
      clock: '2026-11-23T09:00:00Z',
      body: { date: '2026-12-03', pattern: 'weekly', days: ['torsdag'], until: '2027-01-14' },
    });
    expect(status).toBe(200);
    expect(body.holidays).toEqual([
      { date: '2026-12-24', name: 'julafton', kind: 'eve', suggestSkip: true },
      { date: '2026-12-31', name: 'nyårsafton', kind: 'eve', suggestSkip: true },
    ]);
  });

  it('2027: Friday series — långfredagen (public, not pre-selected), midsommarafton and julafton (eves); up to what is created (180 days)', async () => {
    const { user } = await ownerAt('2026-11-23T09:00:00Z');
    const { body } = await callJson('/api/owner/series/holidays/preview', {
      cookie: user.cookie,
      clock: '2026-11-23T09:00:00Z',
      body: { date: '2027-01-01', pattern: 'weekly', days: ['fredag'], until: '2027-12-31' },
    });
    // A new series is generated 180 days ahead (the cron extends it; later holidays are asked about by mail).
    expect(body.holidays.map((h: any) => `${h.date} ${h.name} ${h.suggestSkip}`)).toEqual([
      '2027-01-01 nyårsdagen false',
      '2027-03-26 långfredagen false',
      '2027-06-25 midsommarafton true',
    ]);
    const late = await callJson('/api/owner/series/holidays/preview', {
      cookie: user.cookie,
      clock: '2026-11-23T09:00:00Z',
      body: { date: '2027-12-03', pattern: 'weekly', days: ['fredag'], until: '2027-12-31' },
    });
    expect(late.body.holidays.map((h: any) => h.date)).toEqual(['2027-12-24', '2027-12-31']);
  });

  it('bad input → 400 naming the field; visitor → 401', async () => {
    const { user } = await ownerAt('2026-11-23T09:00:00Z');
    const bad = await callJson('/api/owner/series/holidays/preview', { cookie: user.cookie, body: { date: '2026-13-40', pattern: 'weekly' } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('date');
    const until = await callJson('/api/owner/series/holidays/preview', { cookie: user.cookie, body: { date: '2026-12-03', until: '2026-12-01' } });
    expect(until.status).toBe(400);
    expect(until.body.error.issues[0].path).toBe('until');
    expect((await callJson('/api/owner/series/holidays/preview', { body: { date: '2026-12-03' } })).status).toBe(401);
  });
});

describe('skip and restore on a stored series', () => {
  it('midsommarafton 2026-06-19: listed, skipped (occurrence cancelled, series kept) and restored', async () => {
    const clock = '2026-06-01T08:00:00Z';
    const { user, location } = await ownerAt(clock);
    const rid = await createSeries(user, location.id, clock, { date: '2026-06-05', days: ['fredag'], until: '2026-07-03' });
    const list = await callJson(`/api/owner/series/${rid}/holidays`, { cookie: user.cookie, clock });
    expect(list.status).toBe(200);
    expect(list.body.holidays).toEqual([
      expect.objectContaining({ date: '2026-06-19', name: 'midsommarafton', kind: 'eve', suggestSkip: true, isCancelled: false, decision: null }),
    ]);

    const skip = await callJson(`/api/owner/series/${rid}/holidays`, { cookie: user.cookie, clock, body: { decisions: [{ date: '2026-06-19', skip: true }] } });
    expect(skip.status).toBe(200);
    expect(skip.body).toEqual({ skipped: 1, kept: 0 });
    expect((await occurrence(rid, '2026-06-19'))!.is_cancelled).toBe(1);
    expect((await occurrence(rid, '2026-06-26'))!.is_cancelled).toBe(0);
    expect((await decision(rid, '2026-06-19'))!.decision).toBe('skip');
    const count = await testDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM quizzes WHERE recurrence_id = ${rid}`);
    expect(count[0]!.n).toBe(5);

    const restore = await callJson(`/api/owner/series/${rid}/holidays`, {
      cookie: user.cookie,
      clock,
      body: { decisions: [{ date: '2026-06-19', skip: false }] },
    });
    expect(restore.body).toEqual({ skipped: 0, kept: 1 });
    expect((await occurrence(rid, '2026-06-19'))!.is_cancelled).toBe(0);
    expect((await decision(rid, '2026-06-19'))!.decision).toBe('run');
    const again = await callJson(`/api/owner/series/${rid}/holidays`, { cookie: user.cookie, clock });
    expect(again.body.holidays[0]).toMatchObject({ isCancelled: false, decision: 'run' });
  });

  it('julafton 2026-12-24 on a Thursday series, and långfredagen 2027-03-26 on a Friday series', async () => {
    const clock = '2026-11-23T09:00:00Z';
    const { user, location } = await ownerAt(clock);
    const thu = await createSeries(user, location.id, clock, { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' });
    const fri = await createSeries(user, location.id, clock, { date: '2027-03-19', days: ['fredag'], until: '2027-04-02' });
    expect((await callJson(`/api/owner/series/${fri}/holidays`, { cookie: user.cookie, clock })).body.holidays.map((h: any) => h.date)).toEqual(['2027-03-26']);
    const r = await callJson(`/api/owner/series/${thu}/holidays`, {
      cookie: user.cookie,
      clock,
      body: {
        decisions: [
          { date: '2026-12-24', skip: true },
          { date: '2026-12-31', skip: false },
        ],
      },
    });
    expect(r.body).toEqual({ skipped: 1, kept: 1 });
    expect((await occurrence(thu, '2026-12-24'))!.is_cancelled).toBe(1);
    expect((await occurrence(thu, '2026-12-31'))!.is_cancelled).toBe(0);
    await callJson(`/api/owner/series/${thu}/holidays`, { cookie: user.cookie, clock, body: { decisions: [{ date: '2026-12-24', skip: false }] } });
    expect((await occurrence(thu, '2026-12-24'))!.is_cancelled).toBe(0);
  });

  it('a date that is no holiday, not in the series or past → 400 naming it, nothing stored', async () => {
    const clock = '2026-12-01T09:00:00Z';
    const { user, location } = await ownerAt(clock);
    const rid = await createSeries(user, location.id, clock, { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' });
    const before = await snapshot(['quizzes', 'holiday_decisions', 'venues']);
    for (const decisions of [
      [{ date: '2026-12-10', skip: true }], // a Thursday, no holiday
      [
        { date: '2026-12-24', skip: true },
        { date: '2026-12-25', skip: true },
      ], // juldagen: not a date of this series
      [{ date: '2026-12-24', skip: 'ja' }],
      [],
    ]) {
      const res = await callJson(`/api/owner/series/${rid}/holidays`, { cookie: user.cookie, clock, body: { decisions } });
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toMatch(/^decisions/);
    }
    const past = await callJson(`/api/owner/series/${rid}/holidays`, {
      cookie: user.cookie,
      clock: '2026-12-26T09:00:00Z',
      body: { decisions: [{ date: '2026-12-24', skip: true }] },
    });
    expect(past.status).toBe(400);
    expect(await snapshot(['quizzes', 'holiday_decisions', 'venues'])).toEqual(before);
  });

  it("someone else's series → 403, a missing one → 404, a visitor → 401", async () => {
    const clock = '2026-11-23T09:00:00Z';
    const { user, location } = await ownerAt(clock);
    const other = await ownerAt(clock);
    const rid = await createSeries(user, location.id, clock, { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' });
    const body = { decisions: [{ date: '2026-12-24', skip: true }] };
    expect((await call(`/api/owner/series/${rid}/holidays`, { cookie: other.user.cookie, clock })).status).toBe(403);
    expect((await call(`/api/owner/series/${rid}/holidays`, { cookie: other.user.cookie, clock, body })).status).toBe(403);
    expect((await call(`/api/owner/series/no-such-series/holidays`, { cookie: user.cookie, clock, body })).status).toBe(404);
    expect((await call(`/api/owner/series/${rid}/holidays`, { clock, body })).status).toBe(401);
    expect((await occurrence(rid, '2026-12-24'))!.is_cancelled).toBe(0);
  });
});

describe('decisions go with their occurrences', () => {
  const decisionsOf = async (rid: string) =>
    (await testDb().all<{ date: string }>(sql`SELECT date FROM holiday_decisions WHERE recurrence_id = ${rid} ORDER BY date`)).map((r) => r.date);

  it('deleting the series, one occurrence or the place deletes the holiday decisions with them', async () => {
    const clock = '2026-11-23T09:00:00Z';
    const { user, venue, location } = await ownerAt(clock);
    const decide = (rid: string) =>
      callJson(`/api/owner/series/${rid}/holidays`, {
        cookie: user.cookie,
        clock,
        body: {
          decisions: [
            { date: '2026-12-24', skip: true },
            { date: '2026-12-31', skip: false },
          ],
        },
      });
    const series = { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' };

    const a = await createSeries(user, location.id, clock, series);
    expect((await decide(a)).status).toBe(200);
    expect(await decisionsOf(a)).toEqual(['2026-12-24', '2026-12-31']);
    expect((await callJson(`/api/owner/series/${a}`, { method: 'DELETE', cookie: user.cookie, clock })).status).toBe(200);
    expect(await decisionsOf(a)).toEqual([]);

    const b = await createSeries(user, location.id, clock, series);
    await decide(b);
    const julafton = await occurrence(b, '2026-12-24');
    expect((await callJson(`/api/owner/quizzes/${julafton!.id}`, { method: 'DELETE', cookie: user.cookie, clock })).status).toBe(200);
    expect(await decisionsOf(b)).toEqual(['2026-12-31']);

    const place2 = await createLocation(venue.id, { city: uniqueTown() });
    const c = await createSeries(user, place2.id, clock, series);
    await decide(c);
    expect((await callJson(`/api/owner/locations/${place2.id}`, { method: 'DELETE', cookie: user.cookie, clock })).status).toBe(200);
    expect(await decisionsOf(c)).toEqual([]);
    expect(await decisionsOf(b)).toEqual(['2026-12-31']); // other series untouched
  });
});

describe('the nightly "Kör ni quiz på {helgdag}?" mail and its signed links', () => {
  const mails = (rid: string) => testDb().all<Record<string, any>>(sql`SELECT * FROM mail_outbox WHERE send_key LIKE ${`holiday-ask:${rid}:%`}`);
  const linksOf = (text: string) => [...text.matchAll(/http:\/\/localhost(\/helgdag\?t=[^\s]+)/g)].map((m) => m[1]!);

  /** The nightly cron through the Worker's scheduled() handler, then its queued tasks (test/jobs-queue.ts). */
  async function runCron(at: string) {
    await runScheduledNight(env as Env, at);
  }

  it('14 days before julafton: one mail even when the cron runs twice (and twice at once); links act once, say what they did', async () => {
    const clock = '2026-11-23T09:00:00Z';
    const { user, location } = await ownerAt(clock);
    const rid = await createSeries(user, location.id, clock, { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' });

    await runCron('2026-12-09T02:15:00Z'); // 15 days before: too early
    expect(await mails(rid)).toHaveLength(0);
    await runCron('2026-12-10T02:15:00Z'); // 14 days before
    await runCron('2026-12-10T02:20:00Z'); // the cron again
    const deps = testDeps({ now: '2026-12-10T03:00:00Z' });
    await Promise.all([runHolidayAskJob(deps, { queue: capturingOutboxQueue() }), runHolidayAskJob(deps, { queue: capturingOutboxQueue() })]);
    const sent = await mails(rid);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.to_email).toBe(user.email);
    expect(sent[0]!.subject).toBe('Kör ni quiz på julafton?');
    expect(sent[0]!.text).toContain('Ja, vi kör');
    expect(sent[0]!.text).toContain('Ställ in');
    const [runLink, skipLink] = linksOf(sent[0]!.text);
    expect(runLink && skipLink).toBeTruthy();
    expect((await decision(rid, '2026-12-24'))!.asked_at).toBeTruthy();

    // GET shows what the link will do and changes nothing (mail scanners prefetch).
    const page = await call(skipLink!, { clock: '2026-12-11T10:00:00Z' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Ställ in');
    expect((await occurrence(rid, '2026-12-24'))!.is_cancelled).toBe(0);

    // Without signing in: "Ställ in" cancels the occurrence and says so; the series goes on.
    const done = await call(skipLink!, { method: 'POST', clock: '2026-12-11T10:00:00Z' });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('är inställt');
    expect((await occurrence(rid, '2026-12-24'))!.is_cancelled).toBe(1);
    expect((await occurrence(rid, '2026-12-31'))!.is_cancelled).toBe(0);
    expect((await decision(rid, '2026-12-24'))!.decision).toBe('skip');

    // Single use: the same link again → 400, nothing changes.
    const reuse = await call(skipLink!, { method: 'POST', clock: '2026-12-11T10:05:00Z' });
    expect(reuse.status).toBe(400);
    expect(await reuse.text()).toContain('redan använts');

    // The other link still works once: "Ja, vi kör" restores the date.
    const run = await call(runLink!, { method: 'POST', clock: '2026-12-12T10:00:00Z' });
    expect(run.status).toBe(200);
    expect(await run.text()).toContain('blir av');
    expect((await occurrence(rid, '2026-12-24'))!.is_cancelled).toBe(0);

    // Decided: later runs ask nothing more.
    await runCron('2026-12-11T02:15:00Z');
    expect(await mails(rid)).toHaveLength(1);
  });

  it('a wrong signature → 400, an expired link → 400, a link of another purpose → 400; nothing changes', async () => {
    const clock = '2026-11-23T09:00:00Z';
    const { user, location } = await ownerAt(clock);
    const rid = await createSeries(user, location.id, clock, { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' });
    const deps = testDeps({ now: '2026-12-17T03:00:00Z' });
    await runHolidayAskJob(deps, { queue: capturingOutboxQueue() });
    const [mail] = await mails(rid);
    const [, skipLink] = linksOf(mail!.text);
    const before = await snapshot(['quizzes', 'holiday_decisions', 'used_links']);

    const tampered = skipLink!.slice(0, -3) + (skipLink!.endsWith('AAA') ? 'BBB' : 'AAA');
    const bad = await call(tampered, { method: 'POST', clock: '2026-12-18T10:00:00Z' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('ogiltig');
    expect((await call(tampered, { clock: '2026-12-18T10:00:00Z' })).status).toBe(400);

    const expired = await call(skipLink!, { method: 'POST', clock: '2026-12-27T10:00:00Z' }); // past the day after the quiz
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('gått ut');

    const wrongPurpose = await call(skipLink!.replace('/helgdag', '/bekrafta-quiz'), { method: 'POST', clock: '2026-12-18T10:00:00Z' });
    expect(wrongPurpose.status).toBe(400);
    expect(await snapshot(['quizzes', 'holiday_decisions', 'used_links'])).toEqual(before);
  });

  it('an occurrence the owner already decided on (the form) is never asked about; the house account is never mailed', async () => {
    const clock = '2026-11-23T09:00:00Z';
    const { user, location } = await ownerAt(clock);
    const rid = await createSeries(user, location.id, clock, { date: '2026-12-03', days: ['torsdag'], until: '2027-01-07' });
    await callJson(`/api/owner/series/${rid}/holidays`, {
      cookie: user.cookie,
      clock,
      body: {
        decisions: [
          { date: '2026-12-24', skip: false },
          { date: '2026-12-31', skip: true },
        ],
      },
    });
    await runHolidayAskJob(testDeps({ now: '2026-12-20T03:00:00Z' }), { queue: capturingOutboxQueue() });
    expect(await mails(rid)).toHaveLength(0);
  });
});

describe('a claimed holiday question never loses its mail (issue 27.3)', () => {
  const mails = (rid: string) => testDb().all<Record<string, any>>(sql`SELECT * FROM mail_outbox WHERE send_key LIKE ${`holiday-ask:${rid}:%`}`);
  const clock = '2027-11-23T09:00:00Z';
  const series = async () => {
    const { user, location } = await ownerAt(clock);
    return { user, rid: await createSeries(user, location.id, clock, { date: '2027-12-03', days: ['fredag'], until: '2028-01-07' }) };
  };
  const depsWith = (now: string, mailer: (db: any, clock: any) => Mailer) => testDeps({ now, ports: { mailer: (db, _config, c) => mailer(db, c) } });

  it('the provider is down: the question is claimed with its mail in the outbox and delivered by the queue once the provider is back', async () => {
    const { user, rid } = await series();
    const provider = fakeProvider();
    provider.state.down = true;
    const queue = capturingOutboxQueue();
    const deps = depsWith('2027-12-10T02:15:00Z', (db, c) => createMailer(db, { apiKey: 'k', from: 'x@test.local', clock: c, fetcher: provider.fetcher }));
    const r = await runHolidayAskJob(deps, { queue });
    expect(r.failed).toBe(0);
    expect((await decision(rid, '2027-12-24'))!.asked_at).toBeTruthy();
    const [row] = await mails(rid);
    expect(row).toMatchObject({ to_email: user.email, subject: 'Kör ni quiz på julafton?', status: 'pending' });
    const bodies = queue.bodies.filter((b) => b.id === row!.id);
    expect(bodies).toHaveLength(1);
    const logged = expectConsoleError(/mail provider answered 503|follow mail .* failed/);
    const first = queueMessages(bodies);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    expect(first[0]).toMatchObject({ acked: false, retried: 30 });
    provider.state.down = false;
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: queueMessages([...bodies, ...bodies], 2) });
    expect((await mails(rid)).map((m) => m.status)).toEqual(['sent']);
    expect(provider.calls.filter((c) => c.to[0] === user.email)).toEqual([
      { to: [user.email], subject: 'Kör ni quiz på julafton?', idempotencyKey: `holiday-ask:${rid}:2027-12-24` },
    ]);
  });

  it('one failing question does not stop the others; it is not claimed, so the next night asks it', async () => {
    const [a, b] = [await series(), await series()];
    const broken = (db: any, c: any): Mailer => {
      const m = createMailer(db, { apiKey: null, from: 'x@test.local', clock: c });
      return {
        ...m,
        sendOnce: (msg, key) => (msg.to === a.user.email ? Promise.reject(new Error('D1 var borta')) : m.sendOnce(msg, key)),
        outbox: (msg, key, when) => {
          if (msg.to === a.user.email) throw new Error('D1 var borta');
          return m.outbox(msg, key, when);
        },
      };
    };
    const logged = expectConsoleError(/holiday question for .* failed/);
    const err = await runHolidayAskJob(depsWith('2027-12-11T02:15:00Z', broken), { queue: capturingOutboxQueue() }).then(
      () => null,
      (e: unknown) => e as Error & { counts?: Record<string, number> },
    );
    logged.verify();
    expect(err?.counts).toMatchObject({ failed: 1 });
    expect(await mails(b.rid)).toHaveLength(1);
    expect((await decision(a.rid, '2027-12-24'))?.asked_at ?? null).toBeNull();
    expect(await mails(a.rid)).toHaveLength(0);
    await runHolidayAskJob(testDeps({ now: '2027-12-12T02:15:00Z' }), { queue: capturingOutboxQueue() });
    expect((await mails(a.rid)).map((m) => m.subject)).toEqual(['Kör ni quiz på julafton?']);
  });
});
