/**
 * Calendar sync for owners (issue 31.2): preview, accept, nightly and "Synka nu" syncs, idempotent by
 * UID; owner edits kept; the purchase guard respected; hostile feeds refused. Outbound HTTP goes through
 * the calendar port with a strict fake fetch (an unexpected address fails the test): no network.
 */
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { calendarFeeds, jobRuns, quizzes } from '../../worker/db/schema';
import {
  CALENDAR_MESSAGES,
  MAX_CALENDAR_FEEDS_PER_ACCOUNT,
  MAX_CALENDAR_FEEDS_PER_BUSINESS,
  MAX_OCCURRENCES_PER_FEED,
} from '../../worker/features/calendar-sync/contract';
import { claimFeedAttempt, feedIdsToSync } from '../../worker/features/calendar-sync/queries';
import { processJobsBatch } from '../../worker/jobs/jobs-queue';
import { JOBS_QUEUE_NAME } from '../../worker/jobs/nightly';
import { extendSeries } from '../../worker/features/series/service';
import { newId } from '../../worker/lib/ids';
import { countingD1, newD1Stats } from '../../worker/db/client';
import { hostileCalendar } from '../fixtures/hostile-calendar';
import { runNightly } from '../jobs-queue';
import { createCalendarFetcher, isPrivateHost, type FetchFn } from '../../worker/ports/calendar-fetch';
import { productionPorts } from '../../worker/ports/deps';
import { call, callJson, createLocation, createUser, createVenue, snapshot, testDb, unique, uniqueTown } from '../factories';
import { capturingOutboxQueue, queueMessages } from '../mail-queue';
import { testApp } from '../test-app';
import { buy } from './promotion-support';

// Tuesday 2030-03-05, 10:00 in Stockholm.
const NOW = '2030-03-05T09:00:00Z';
const FEED = 'https://kalender.example.se/pub.ics';

type Route = (init: RequestInit) => Response | Promise<Response>;
/** A strict fake fetch: only the listed addresses answer; anything else fails the test. */
function fakeWeb(routes: Record<string, Route>) {
  const calls: string[] = [];
  const fetchFn: FetchFn = async (url, init) => {
    calls.push(url);
    const route = routes[url];
    if (!route) throw new Error(`unexpected fetch of ${url}`);
    return route(init);
  };
  return { fetchFn, calls };
}

function appWith(routes: Record<string, Route>, opts: { timeoutMs?: number } = {}) {
  const web = fakeWeb(routes);
  const app = testApp({ calendar: () => createCalendarFetcher(web.fetchFn, { allowPrivate: false, timeoutMs: opts.timeoutMs }) });
  return { app, calls: web.calls };
}

const ics = (...events: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...events, 'END:VCALENDAR'].join('\r\n');
const ev = (...lines: string[]) => ['BEGIN:VEVENT', 'DTSTAMP:20300101T000000Z', ...lines, 'END:VEVENT'].join('\r\n');
const text =
  (body: string, headers: Record<string, string> = {}) =>
  () =>
    new Response(body, { headers: { 'content-type': 'text/calendar', ...headers } });

const weekly = (...extra: string[]) =>
  ev('UID:tisdag@puben', 'SUMMARY:Tisdagsquiz', 'DTSTART;TZID=Europe/Stockholm:20300305T190000', 'RRULE:FREQ=WEEKLY;COUNT=6', ...extra);
const biweekly = ev('UID:torsdag@puben', 'SUMMARY:Musikquiz', 'DTSTART:20300307T190000Z', 'RRULE:FREQ=WEEKLY;INTERVAL=2;COUNT=3');
const single = ev('UID:jul@puben', 'SUMMARY:Julquiz', 'DTSTART:20300320T170000Z');
const monthly = ev('UID:manad@puben', 'SUMMARY:Månadsquiz', 'DTSTART:20300305T180000Z', 'RRULE:FREQ=MONTHLY');

async function owner() {
  const user = await createUser({ now: new Date(NOW) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city: uniqueTown() });
  return { user, venue, location };
}
type Owner = Awaited<ReturnType<typeof owner>>;

const base = (o: Owner) => `/api/owner/locations/${o.location.id}/calendar-feeds`;
const quizzesOf = (locationId: string) => testDb().select().from(quizzes).where(eq(quizzes.locationId, locationId)).orderBy(quizzes.date, quizzes.startTime);

async function accept(o: Owner, app: ReturnType<typeof appWith>['app'], url = FEED) {
  const res = await callJson(base(o), { app, cookie: o.user.cookie, clock: NOW, body: { url } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.feed as { id: string; lastStatus: string; lastResult: Record<string, any> };
}

describe('preview', () => {
  it('shows the events that would become quizzes and what is not understood, and stores nothing', async () => {
    const o = await owner();
    const { app } = appWith({ [FEED]: text(ics(weekly('EXDATE;TZID=Europe/Stockholm:20300319T190000'), biweekly, single, monthly)) });
    const before = await snapshot(['quizzes', 'calendar_feeds', 'calendar_sync_items']);
    const res = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url: FEED } });
    expect(res.status).toBe(200);
    const kinds = Object.fromEntries(res.body.events.map((e: any) => [e.uid, [e.kind, e.firstDate, e.startTime, e.occurrences, e.excludedDates]]));
    expect(kinds).toEqual({
      'tisdag@puben': ['weekly', '2030-03-05', '19:00', 5, ['2030-03-19']],
      'torsdag@puben': ['biweekly', '2030-03-07', '20:00', 3, []],
      'jul@puben': ['single', '2030-03-20', '18:00', 1, []],
    });
    expect(res.body.notUnderstood).toEqual([
      { uid: 'manad@puben', title: 'Månadsquiz', reason: 'Upprepningen stöds inte (bara varje vecka eller varannan vecka)' },
    ]);
    expect(await snapshot(['quizzes', 'calendar_feeds', 'calendar_sync_items'])).toEqual(before);
  });

  it('says the language each event will have (a LANGUAGE parameter, else svenska) and the day it was made (issue 44.5)', async () => {
    const o = await owner();
    const english = ev('UID:eng@puben', 'SUMMARY;LANGUAGE=en-GB:Pub quiz', 'DTSTART;TZID=Europe/Stockholm:20300306T200000', 'RRULE:FREQ=WEEKLY;COUNT=3');
    const { app } = appWith({ [FEED]: text(ics(english, single)) });
    const res = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url: FEED } });
    expect(res.status).toBe(200);
    expect(Object.fromEntries(res.body.events.map((e: any) => [e.uid, e.languages]))).toEqual({ 'eng@puben': ['en'], 'jul@puben': ['sv'] });
    expect(res.body.today).toBe('2030-03-05');
  });

  it('bad address: 400 naming the field, nothing fetched', async () => {
    const o = await owner();
    const { app, calls } = appWith({});
    const res = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url: 'ftp://x' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('Kalenderadress');
    expect(calls).toEqual([]);
  });
});

describe('keep syncing', () => {
  it('accept creates the quizzes in Stockholm time; an edit, a removal and an EXDATE follow on "Synka nu"; idempotent', async () => {
    const o = await owner();
    let feed = ics(weekly(), biweekly, single);
    const { app } = appWith({ [FEED]: () => new Response(feed) });
    const created = await accept(o, app);
    expect(created.lastStatus).toBe('ok');
    expect(created.lastResult).toMatchObject({ created: 6 + 3 + 1, updated: 0, cancelled: 0 });
    let rows = await quizzesOf(o.location.id);
    expect(rows.filter((q) => q.title === 'Tisdagsquiz').map((q) => [q.date, q.startTime, q.recurrencePattern])).toEqual(
      ['2030-03-05', '2030-03-12', '2030-03-19', '2030-03-26', '2030-04-02', '2030-04-09'].map((d) => [d, '19:00:00', 'weekly']),
    );
    // 19:00 UTC is 20:00 in Stockholm in March before the switch to summer time (2030-03-31), 21:00 after.
    expect(rows.filter((q) => q.title === 'Musikquiz').map((q) => [q.date, q.startTime, q.recurrencePattern])).toEqual([
      ['2030-03-07', '20:00:00', 'biweekly'],
      ['2030-03-21', '20:00:00', 'biweekly'],
      ['2030-04-04', '21:00:00', 'biweekly'],
    ]);
    expect(rows.find((q) => q.title === 'Julquiz')).toMatchObject({ date: '2030-03-20', startTime: '18:00:00', isRecurring: false });

    const sync = async () => {
      const res = await callJson(`${base(o)}/${created.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.feed;
    };
    // Unchanged feed: nothing changes.
    const again = await sync();
    expect(again.lastResult).toMatchObject({ created: 0, updated: 0, cancelled: 0 });
    expect(await quizzesOf(o.location.id)).toEqual(rows);

    // The owner edits one Tuesday by hand; the calendar then moves every Tuesday to 19:30, drops
    // 2030-03-26 (EXDATE) and removes the single event.
    const mine = rows.find((q) => q.date === '2030-04-02')!;
    const patch = await callJson(`/api/owner/quizzes/${mine.id}`, {
      app,
      method: 'PATCH',
      cookie: o.user.cookie,
      clock: NOW,
      body: { date: mine.date, startTime: '18:00', category: 'allmänbildning' },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    feed = ics(
      // An EXDATE names the start exactly as the rule now produces it (19:30).
      weekly('EXDATE;TZID=Europe/Stockholm:20300326T193000').replace(
        'DTSTART;TZID=Europe/Stockholm:20300305T190000',
        'DTSTART;TZID=Europe/Stockholm:20300305T193000',
      ),
      biweekly,
    );
    const after = await sync();
    expect(after.lastResult).toMatchObject({ created: 0, updated: 4, cancelled: 2, keptOwnerEdits: 1 });
    rows = await quizzesOf(o.location.id);
    const tuesdays = rows.filter((q) => q.title === 'Tisdagsquiz').map((q) => [q.date, q.startTime, q.isCancelled]);
    expect(tuesdays).toEqual([
      ['2030-03-05', '19:30:00', false],
      ['2030-03-12', '19:30:00', false],
      ['2030-03-19', '19:30:00', false],
      ['2030-03-26', '19:00:00', true],
      ['2030-04-02', '18:00:00', false],
      ['2030-04-09', '19:30:00', false],
    ]);
    expect(rows.find((q) => q.title === 'Julquiz')!.isCancelled).toBe(true);
    // And once more: stable.
    expect((await sync()).lastResult).toMatchObject({ created: 0, updated: 0, cancelled: 0, keptOwnerEdits: 1 });

    // The list on the place shows the last sync.
    const list = await callJson(base(o), { app, cookie: o.user.cookie, clock: NOW });
    expect(list.body.feeds).toHaveLength(1);
    expect(list.body.feeds[0]).toMatchObject({ url: FEED, lastStatus: 'ok', lastError: null });
  });

  it('LANGUAGE on SUMMARY sets the quiz language (issue 31.3); a change in the calendar follows, the owner’s own choice is kept', async () => {
    const o = await owner();
    const english = (lang: string) =>
      ev('UID:eng@puben', `SUMMARY;LANGUAGE=${lang}:Pub quiz`, 'DTSTART;TZID=Europe/Stockholm:20300306T200000', 'RRULE:FREQ=WEEKLY;COUNT=3');
    let feed = ics(english('en-GB'), single);
    const { app } = appWith({ [FEED]: () => new Response(feed) });
    const created = await accept(o, app);
    let rows = await quizzesOf(o.location.id);
    expect(rows.map((q) => [q.title, q.language])).toEqual([
      ['Pub quiz', 'en'],
      ['Pub quiz', 'en'],
      ['Julquiz', 'sv'],
      ['Pub quiz', 'en'],
    ]);
    // The owner says one evening is in both languages; the calendar then marks the series Swedish.
    const mine = rows.find((q) => q.date === '2030-03-13')!;
    const patch = await callJson(`/api/owner/quizzes/${mine.id}`, {
      app,
      method: 'PATCH',
      cookie: o.user.cookie,
      clock: NOW,
      body: { date: mine.date, startTime: '20:00', category: 'allmänbildning', language: 'both' },
    });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    feed = ics(english('sv'), single);
    const res = await callJson(`${base(o)}/${created.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
    expect(res.body.feed.lastResult).toMatchObject({ updated: 2, keptOwnerEdits: 1 });
    rows = await quizzesOf(o.location.id);
    expect(rows.filter((q) => q.title === 'Pub quiz').map((q) => [q.date, q.language])).toEqual([
      ['2030-03-06', 'sv'],
      ['2030-03-13', 'both'],
      ['2030-03-20', 'sv'],
    ]);
  });

  it('a quiz the owner deleted is not recreated; removing the address keeps the quizzes', async () => {
    const o = await owner();
    const { app } = appWith({ [FEED]: text(ics(single)) });
    const feed = await accept(o, app);
    const [quiz] = await quizzesOf(o.location.id);
    expect((await callJson(`/api/owner/quizzes/${quiz!.id}`, { app, method: 'DELETE', cookie: o.user.cookie, clock: NOW })).status).toBe(200);
    const res = await callJson(`${base(o)}/${feed.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
    expect(res.body.feed.lastResult).toMatchObject({ created: 0 });
    expect(await quizzesOf(o.location.id)).toEqual([]);
    expect((await callJson(`${base(o)}/${feed.id}`, { app, method: 'DELETE', cookie: o.user.cookie, clock: NOW })).status).toBe(200);
    expect((await callJson(base(o), { app, cookie: o.user.cookie, clock: NOW })).body.feeds).toEqual([]);
  });

  it('a sync does not move or cancel a quiz with an open order: the change is skipped and reported', async () => {
    const o = await owner();
    let feed = ics(single);
    const { app } = appWith({ [FEED]: () => new Response(feed) });
    const created = await accept(o, app);
    const [quiz] = await quizzesOf(o.location.id);
    const bought = await buy({ user: o.user, venue: o.venue, quiz: quiz! }, 'recommended', NOW);
    expect(bought.status, JSON.stringify(bought.body)).toBe(201);
    feed = ics(single.replace('DTSTART:20300320T170000Z', 'DTSTART:20300321T170000Z'));
    const moved = await callJson(`${base(o)}/${created.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
    expect(moved.body.feed.lastStatus).toBe('partial');
    expect(moved.body.feed.lastResult.skipped).toEqual([
      {
        date: '2030-03-20',
        title: 'Julquiz',
        reason: 'Det finns en pågående betalning för det här quizet. Vänta tills den är klar eller avbruten innan du flyttar det till ett annat datum.',
      },
    ]);
    feed = ics();
    const removed = await callJson(`${base(o)}/${created.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
    expect(removed.body.feed.lastResult.skipped).toHaveLength(1);
    expect(await quizzesOf(o.location.id)).toEqual([quiz]);
  });

  it('an occurrence moved onto a sibling date of its series is skipped and reported, not a 500', async () => {
    const o = await owner();
    const rule = ev('UID:krock@puben', 'SUMMARY:Krock', 'DTSTART;TZID=Europe/Stockholm:20300305T190000', 'RRULE:FREQ=WEEKLY;COUNT=3');
    let feed = ics(rule);
    const { app } = appWith({ [FEED]: () => new Response(feed) });
    const created = await accept(o, app);
    feed = ics(
      rule,
      ev('UID:krock@puben', 'SUMMARY:Krock', 'RECURRENCE-ID;TZID=Europe/Stockholm:20300312T190000', 'DTSTART;TZID=Europe/Stockholm:20300319T200000'),
    );
    const res = await callJson(`${base(o)}/${created.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.feed.lastResult.skipped).toEqual([{ date: '2030-03-12', title: 'Krock', reason: CALENDAR_MESSAGES.dateTaken('2030-03-19') }]);
    expect((await quizzesOf(o.location.id)).map((q) => q.date)).toEqual(['2030-03-05', '2030-03-12', '2030-03-19']);
  });

  it('the nightly job syncs every feed, records a bad address on its feed and writes a job_runs row', async () => {
    const o = await owner();
    const routes: Record<string, Route> = { [FEED]: text(ics(single)) };
    const { app } = appWith(routes);
    const feed = await accept(o, app);
    routes[FEED] = () => new Response('not found', { status: 404 });
    const web = fakeWeb(routes);
    const night = '2030-03-06T02:15:00Z';
    const result = await runNightly(
      { ...(env as unknown as Env), CLOCK_NOW: night } as Env,
      new Date(night),
      { ...productionPorts, calendar: () => createCalendarFetcher(web.fetchFn, { allowPrivate: false }) },
      capturingOutboxQueue(),
    );
    expect(result.failed).toEqual([]);
    const [row] = await testDb().select().from(calendarFeeds).where(eq(calendarFeeds.id, feed.id));
    expect(row).toMatchObject({ lastStatus: 'failed', lastError: CALENDAR_MESSAGES.httpStatus(404), lastSyncedAt: '2030-03-06T02:15:00.000Z' });
    const [run] = await testDb()
      .select()
      .from(jobRuns)
      .where(and(eq(jobRuns.job, 'calendar-sync'), eq(jobRuns.startedAt, '2030-03-06T02:15:00.000Z')));
    expect(run).toMatchObject({ status: 'done' });
    // The task only enqueues: one message per feed (every feed of this file's earlier tests too), each synced
    // in its own invocation (their addresses answer 404 or are unknown to the fake web now).
    const enqueued = JSON.parse(run!.result!).enqueued as number;
    expect(enqueued).toBeGreaterThanOrEqual(1);
    expect(result.sent.filter((m) => m.type === 'calendar-sync')).toHaveLength(enqueued);
    expect(result.outcomes.filter((o) => o.unit.startsWith('calendar-sync:')).map((o) => o.outcome)).toEqual(Array(enqueued).fill('failed'));
    // The quiz stays as it was when the address fails.
    expect(await quizzesOf(o.location.id)).toHaveLength(1);
  });

  it(`at most ${MAX_CALENDAR_FEEDS_PER_BUSINESS} addresses per business; the same address twice is refused`, async () => {
    const o = await owner();
    const second = await createLocation(o.venue.id, { city: uniqueTown() });
    const routes: Record<string, Route> = {};
    for (let i = 0; i <= MAX_CALENDAR_FEEDS_PER_BUSINESS; i++) routes[`https://k.example.se/${i}.ics`] = text(ics());
    const { app } = appWith(routes);
    for (let i = 0; i < MAX_CALENDAR_FEEDS_PER_BUSINESS; i++) {
      const loc = i % 2 ? second.id : o.location.id;
      const res = await callJson(`/api/owner/locations/${loc}/calendar-feeds`, {
        app,
        cookie: o.user.cookie,
        clock: NOW,
        body: { url: `https://k.example.se/${i}.ics` },
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const dup = await callJson(base(o), { app, cookie: o.user.cookie, clock: NOW, body: { url: 'https://k.example.se/0.ics' } });
    expect(dup.status).toBe(409);
    expect(dup.body.error.message).toBe(CALENDAR_MESSAGES.duplicate);
    const over = await callJson(base(o), {
      app,
      cookie: o.user.cookie,
      clock: NOW,
      body: { url: `https://k.example.se/${MAX_CALENDAR_FEEDS_PER_BUSINESS}.ics` },
    });
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe(CALENDAR_MESSAGES.tooMany);
  });
});

describe('hostile feeds', () => {
  const previewWith = async (routes: Record<string, Route>, url = FEED, opts: { timeoutMs?: number } = {}) => {
    const o = await owner();
    const { app, calls } = appWith(routes, opts);
    const before = await snapshot(['quizzes', 'calendar_feeds']);
    const res = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url } });
    expect(await snapshot(['quizzes', 'calendar_feeds'])).toEqual(before);
    return { ...res, calls };
  };

  it('huge: the download stops past 1 MB (declared or streamed)', async () => {
    const declared = await previewWith({ [FEED]: () => new Response('x', { headers: { 'content-length': '5000000' } }) });
    expect(declared.status).toBe(400);
    expect(declared.body.error.issues).toEqual([{ path: 'url', message: CALENDAR_MESSAGES.tooLarge }]);
    let pulled = 0;
    const endless = () =>
      new Response(
        new ReadableStream({
          pull(controller) {
            pulled++;
            controller.enqueue(new TextEncoder().encode('X'.repeat(64 * 1024)));
          },
        }),
      );
    const streamed = await previewWith({ [FEED]: endless });
    expect(streamed.status).toBe(400);
    expect(streamed.body.error.issues[0].message).toBe(CALENDAR_MESSAGES.tooLarge);
    expect(pulled).toBeLessThan(40);
  });

  it('slow: a body that never ends is cut off by the timeout', async () => {
    const stalled = () =>
      new Response(
        new ReadableStream({
          start(c) {
            c.enqueue(new TextEncoder().encode('BEGIN:VCALENDAR\r\n'));
          },
        }),
      );
    const res = await previewWith({ [FEED]: stalled }, FEED, { timeoutMs: 100 });
    expect(res.status).toBe(400);
    expect(res.body.error.issues[0].message).toBe(CALENDAR_MESSAGES.timeout);
    const hanging = (init: RequestInit) => new Promise<Response>((_, reject) => init.signal?.addEventListener('abort', () => reject(new Error('aborted'))));
    const res2 = await previewWith({ [FEED]: hanging }, FEED, { timeoutMs: 100 });
    expect(res2.body.error.issues[0].message).toBe(CALENDAR_MESSAGES.timeout);
  });

  it('malformed: not a calendar', async () => {
    for (const body of ['<html><body>Hej</body></html>', 'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:nonsense', '\u0000\u0001']) {
      const res = await previewWith({ [FEED]: text(body) });
      expect(res.status, body).toBe(400);
      expect(res.body.error.issues[0].message).toBe(CALENDAR_MESSAGES.notIcs);
    }
  });

  it('10 000 events: bounded to the occurrence limit', async () => {
    const many = Array.from({ length: 10_000 }, (_, i) => `BEGIN:VEVENT\r\nUID:e${i}\r\nDTSTART:20300${(i % 9) + 1}10T180000Z\r\nEND:VEVENT`);
    const o = await owner();
    const { app } = appWith({ [FEED]: text(ics(...many)) });
    const feed = await accept(o, app);
    expect(feed.lastResult).toMatchObject({ truncated: true });
    expect(await quizzesOf(o.location.id)).toHaveLength(MAX_OCCURRENCES_PER_FEED);
  }, 60_000);

  it('a redirect to a private address is not followed; http and private addresses are refused before any fetch', async () => {
    for (const target of [
      'https://127.0.0.1/x.ics',
      'http://169.254.169.254/latest/meta-data',
      'https://[::1]/x',
      'https://localhost/x',
      'https://10.0.0.5/cal.ics',
    ]) {
      const res = await previewWith({ [FEED]: () => new Response(null, { status: 302, headers: { location: target } }) });
      expect(res.status, target).toBe(400);
      expect(res.calls, target).toEqual([FEED]);
      expect([CALENDAR_MESSAGES.privateAddress, CALENDAR_MESSAGES.notHttps]).toContain(res.body.error.issues[0].message);
    }
    for (const url of ['http://kalender.example.se/x.ics', 'https://192.168.1.1/x.ics', 'https://intranet/x.ics']) {
      const res = await previewWith({}, url);
      expect(res.status, url).toBe(400);
      expect(res.calls).toEqual([]);
    }
    // Redirect loops end.
    const loop = await previewWith({ [FEED]: () => new Response(null, { status: 301, headers: { location: FEED } }) });
    expect(loop.body.error.issues[0].message).toBe(CALENDAR_MESSAGES.redirects);
  });

  // Called with URL.hostname, which WHATWG URL has already normalised (https://0x7f.1/ → 127.0.0.1).
  it('isPrivateHost', () => {
    for (const h of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '192.168.0.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '[::1]',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      'localhost',
      'a.localhost',
      'x.internal',
      '2130706433',
    ])
      expect(isPrivateHost(h), h).toBe(true);
    for (const h of ['calendar.google.com', 'outlook.office365.com', '8.8.8.8', '2a00:1450::1']) expect(isPrivateHost(h), h).toBe(false);
  });
});

describe('text and dates from a calendar (issue 43.5)', () => {
  // C0 and C1 controls (BEL, ESC, NEL …): what must never reach a page, a mail or an .ics file.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (written as \u escapes)
  const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

  it('BEL, ESC and NEL in SUMMARY and DESCRIPTION are removed before anything is stored; the quiz, its page and its .ics file are clean', async () => {
    const o = await owner();
    const dirty = ev(
      'UID:bel@puben',
      'SUMMARY:Quiz\u0007kva\u0308ll \u001b[31mröd\u0085runda',
      'DESCRIPTION:Rad ett\u0085rad två\u0007\u001b',
      'DTSTART:20300320T170000Z',
    );
    const { app } = appWith({ [FEED]: text(ics(dirty)) });
    const preview = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url: FEED } });
    expect(preview.status).toBe(200);
    expect(preview.body.events.map((e: { title: string }) => e.title)).toEqual(['Quizkväll [31mröd runda']);
    const feed = await accept(o, app);
    expect(feed.lastResult).toMatchObject({ created: 1, notUnderstood: 0 });
    const [quiz] = await quizzesOf(o.location.id);
    expect(quiz).toMatchObject({ title: 'Quizkväll [31mröd runda', description: 'Rad ett rad två' });
    const file = await call(`/api/calendar/quiz/${quiz!.id}.ics`, { clock: NOW });
    expect(file.status).toBe(200);
    const body = await file.text();
    expect(body).toContain('Quizkväll [31mröd runda');
    expect(body.replace(/\r\n/g, '')).not.toMatch(CONTROL);
    const page = await call(`/quiz/${o.location.citySlug}/${o.venue.slug}`, { clock: NOW });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Quizkväll');
    expect(html.replace(/[\r\n\t]/g, '')).not.toMatch(CONTROL);
  });

  it('a date or time that does not exist is not understood, by name (not rolled over into another date); the other events are kept', async () => {
    const o = await owner();
    const feedText = ics(
      single,
      ev('UID:feb99@puben', 'SUMMARY:Februariquiz', 'DTSTART:20300299T190000'),
      ev('UID:issue@puben', 'SUMMARY:Trasig', 'DTSTART:20301399T256199'),
      ev('UID:hour25@puben', 'SUMMARY:Sent', 'DTSTART;TZID=Europe/Stockholm:20300320T250000'),
      weekly('EXDATE;TZID=Europe/Stockholm:20300332T190000'),
      ev('UID:until@puben', 'SUMMARY:Tills', 'DTSTART:20300306T190000', 'RRULE:FREQ=WEEKLY;UNTIL=20300631T000000Z'),
    );
    const { app } = appWith({ [FEED]: text(feedText) });
    const preview = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url: FEED } });
    expect(preview.status).toBe(200);
    expect(preview.body.events.map((e: { uid: string }) => e.uid)).toEqual(['jul@puben']);
    const reason = (property: string) => `Händelsen har ett ogiltigt datum eller klockslag (${property})`;
    expect(preview.body.notUnderstood).toEqual([
      { uid: 'feb99@puben', title: 'Februariquiz', reason: reason('DTSTART') },
      { uid: 'issue@puben', title: 'Trasig', reason: reason('DTSTART') },
      { uid: 'hour25@puben', title: 'Sent', reason: reason('DTSTART') },
      { uid: 'tisdag@puben', title: 'Tisdagsquiz', reason: reason('EXDATE') },
      { uid: 'until@puben', title: 'Tills', reason: reason('UNTIL') },
    ]);
    const feed = await accept(o, app);
    expect(feed.lastResult).toMatchObject({ created: 1, notUnderstood: 5 });
    expect((await quizzesOf(o.location.id)).map((q) => [q.date, q.title])).toEqual([['2030-03-20', 'Julquiz']]);
  });
});

describe('authorization', () => {
  it("someone else's place: 403, nothing fetched", async () => {
    const o = await owner();
    const other = await createUser({ now: new Date(NOW) });
    const { app, calls } = appWith({});
    const res = await callJson(`${base(o)}/preview`, { app, cookie: other.cookie, clock: NOW, body: { url: FEED } });
    expect(res.status).toBe(403);
    expect(calls).toEqual([]);
    expect((await testDb().all(sql`SELECT 1 FROM calendar_feeds WHERE location_id = ${o.location.id}`)).length).toBe(0);
  });
});

describe('the night at real size (issue 42.2)', () => {
  const portsWith = (fetchFn: FetchFn) => ({ ...productionPorts, calendar: () => createCalendarFetcher(fetchFn, { allowPrivate: false }) });
  const nightEnv = (night: string) => ({ ...(env as unknown as Env), CLOCK_NOW: night }) as Env;

  it('the hostile calendar (2 000 open-ended weekly rules from 1990): the preview answers with a Swedish message on the address field', async () => {
    const o = await owner();
    const { app } = appWith({ [FEED]: text(hostileCalendar()) });
    const before = await snapshot(['quizzes', 'calendar_feeds']);
    const res = await callJson(`${base(o)}/preview`, { app, cookie: o.user.cookie, clock: NOW, body: { url: FEED } });
    expect(res.status).toBe(400);
    expect(res.body.error.issues).toEqual([{ path: 'url', message: CALENDAR_MESSAGES.tooManyRules }]);
    expect(res.body.error.message).toBe(`Kalenderadress: ${CALENDAR_MESSAGES.tooManyRules}`);
    expect(await snapshot(['quizzes', 'calendar_feeds'])).toEqual(before);
  });

  it('with it accepted, "Synka nu" and the nightly sync record the message on the feed, and the night still finishes calendar sync, freshness and the alert check', async () => {
    const o = await owner();
    const routes: Record<string, Route> = { [FEED]: text(ics(single)) };
    const { app } = appWith(routes);
    const feed = await accept(o, app);
    routes[FEED] = text(hostileCalendar());
    const now = await callJson(`${base(o)}/${feed.id}/sync`, { app, cookie: o.user.cookie, clock: NOW, body: {} });
    expect(now.status).toBe(200);
    expect(now.body.feed).toMatchObject({ lastStatus: 'failed', lastError: CALENDAR_MESSAGES.tooManyRules });

    const night = '2030-03-07T02:15:00.000Z';
    const web = fakeWeb(routes);
    const result = await runNightly(nightEnv(night), new Date(night), portsWith(web.fetchFn), capturingOutboxQueue());
    expect(result.failed).toEqual([]);
    expect(result.outcomes.find((x) => x.unit === `calendar-sync:${feed.id}`)).toMatchObject({ outcome: 'failed' });
    const [row] = await testDb().select().from(calendarFeeds).where(eq(calendarFeeds.id, feed.id));
    expect(row).toMatchObject({ lastStatus: 'failed', lastError: CALENDAR_MESSAGES.tooManyRules, lastSyncedAt: night, attemptedAt: night });
    const runs = await testDb().select().from(jobRuns).where(eq(jobRuns.startedAt, night));
    const status = Object.fromEntries(runs.map((r) => [r.job, r.status]));
    expect(status).toMatchObject({ 'calendar-sync': 'done', freshness: 'done', 'holiday-ask': 'done', 'ops-alerts': 'done', nightly: 'done' });
    // The single quiz synced before stays as it was.
    expect(await quizzesOf(o.location.id)).toHaveLength(1);
  }, 60_000);

  it('a feed is marked attempted before its fetch: one whose run was killed goes to the back of the line, and its redelivery that night does nothing', async () => {
    const o = await owner();
    const urls = ['a', 'b', 'c'].map((x) => `https://k.example.se/${unique(x)}.ics`);
    const routes = Object.fromEntries(urls.map((u) => [u, text(ics(single))]));
    const { app } = appWith(routes);
    const ids: string[] = [];
    for (const url of urls) ids.push((await accept(o, app, url)).id);
    const [killed, second, third] = ids as [string, string, string];
    // Night 1: the first feed's sync starts (marked attempted), then the runtime kills the invocation.
    const night1 = '2030-03-08T02:15:00.000Z';
    expect(await claimFeedAttempt(testDb(), killed, night1, night1)).not.toBeNull();
    // The queue delivers the message again that night: nothing is fetched.
    const web = fakeWeb(routes);
    const [again] = queueMessages([{ type: 'calendar-sync', feedId: killed, at: night1 }], 2);
    const outcomes = await processJobsBatch(
      nightEnv('2030-03-08T02:40:00.000Z'),
      { queue: JOBS_QUEUE_NAME, messages: [again!] },
      { ports: portsWith(web.fetchFn) },
    );
    expect(outcomes.map((x) => x.outcome)).toEqual(['already-attempted']);
    expect(again!.acked).toBe(true);
    expect(web.calls).toEqual([]);
    // The next night the killed feed comes after the others (the old order, by last sync, put it first: it never synced).
    const order = await feedIdsToSync(testDb(), 100_000);
    expect(order.indexOf(killed)).toBeGreaterThan(order.indexOf(second));
    expect(order.indexOf(killed)).toBeGreaterThan(order.indexOf(third));
    // That night's message syncs it (attempted before the night began).
    const night2 = '2030-03-09T02:15:00.000Z';
    const [next] = queueMessages([{ type: 'calendar-sync', feedId: killed, at: night2 }]);
    expect(
      (await processJobsBatch(nightEnv(night2), { queue: JOBS_QUEUE_NAME, messages: [next!] }, { ports: portsWith(web.fetchFn) })).map((x) => x.outcome),
    ).toEqual(['ok']);
    expect(web.calls).toEqual([urls[0]]);
  });

  it(`at most ${MAX_CALENDAR_FEEDS_PER_ACCOUNT} addresses per account, over all its businesses; two adds at once cannot pass the limit together`, async () => {
    const user = await createUser({ now: new Date(NOW) });
    const places = [];
    for (let i = 0; i < 3; i++) places.push(await createLocation((await createVenue(user.id)).id, { city: uniqueTown() }));
    // Nine feeds already: five on the first business, four on the second.
    for (let i = 0; i < MAX_CALENDAR_FEEDS_PER_ACCOUNT - 1; i++)
      await testDb()
        .insert(calendarFeeds)
        .values({ id: newId(), locationId: places[i < MAX_CALENDAR_FEEDS_PER_BUSINESS ? 0 : 1]!.id, url: `https://k.example.se/${unique('f')}.ics` });
    const urls = ['x', 'y', 'z'].map((x) => `https://k.example.se/${unique(x)}.ics`);
    const { app } = appWith(Object.fromEntries(urls.map((u) => [u, text(ics())])));
    const add = (place: { id: string }, url: string) =>
      callJson(`/api/owner/locations/${place.id}/calendar-feeds`, { app, cookie: user.cookie, clock: NOW, body: { url } });
    // The tenth (at the limit), twice at once on two businesses: exactly one is stored.
    const both = await Promise.all([add(places[1]!, urls[0]!), add(places[2]!, urls[1]!)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 409]);
    const refused = both.find((r) => r.status === 409)!;
    expect(refused.body.error.message).toBe(CALENDAR_MESSAGES.tooManyForAccount);
    // One past the limit, on a business with no feed of its own.
    const over = await add(places[2]!, urls[2]!);
    expect(over.status).toBe(409);
    expect(over.body.error.message).toBe(CALENDAR_MESSAGES.tooManyForAccount);
    const [n] = await testDb().all<{ n: number }>(sql`
      SELECT COUNT(*) AS n FROM calendar_feeds f JOIN locations l ON l.id = f.location_id JOIN venues v ON v.id = l.venue_id WHERE v.user_id = ${user.id}`);
    expect(n!.n).toBe(MAX_CALENDAR_FEEDS_PER_ACCOUNT);
  });

  it('one feed is one bounded unit: D1 statements and fetches of a night, far below the per-invocation limits (docs/jobs.md)', async () => {
    const o = await owner();
    // Eight weekly rules from 1990: 8 × 26 weeks, cut to the 200-quiz limit.
    const rules = (uid: string, hour: number) =>
      Array.from({ length: 8 }, (_, i) =>
        ev(`UID:${uid}${i}@puben`, `SUMMARY:Quiz ${i}`, `DTSTART:199001${String(1 + i).padStart(2, '0')}T${hour}0000Z`, 'RRULE:FREQ=WEEKLY'),
      );
    const url = `https://k.example.se/${unique('full')}.ics`;
    const routes: Record<string, Route> = { [url]: text(ics(...rules('r', 18))) };
    const feedId = newId();
    await testDb().insert(calendarFeeds).values({ id: feedId, locationId: o.location.id, url });
    let day = 10;
    /** One night's unit for the feed: D1 statements (each statement of a batch counted), round trips and fetches. */
    const unit = async () => {
      const night = `2030-03-${day++}T02:15:00.000Z`;
      const stats = newD1Stats();
      let batches = 0;
      let batched = 0;
      const counted = countingD1((env as unknown as Env).DB, stats);
      const db = new Proxy(counted, {
        get(target, prop) {
          if (prop === 'batch')
            return (stmts: D1PreparedStatement[]) => {
              batches++;
              batched += stmts.length;
              return target.batch(stmts);
            };
          const value = Reflect.get(target, prop) as unknown;
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      const web = fakeWeb(routes);
      const [m] = queueMessages([{ type: 'calendar-sync', feedId, at: night }]);
      const [out] = await processJobsBatch(
        { ...nightEnv(night), DB: db } as Env,
        { queue: JOBS_QUEUE_NAME, messages: [m!] },
        { ports: portsWith(web.fetchFn) },
      );
      return { outcome: out!.outcome, statements: stats.statements, roundTrips: stats.statements - batched + batches, fetches: web.calls.length };
    };
    const created = await unit();
    expect(created.outcome).toBe('ok');
    expect(await quizzesOf(o.location.id)).toHaveLength(MAX_OCCURRENCES_PER_FEED);
    const unchanged = await unit();
    routes[url] = text(ics(...rules('r', 19)));
    const allMoved = await unit();
    routes[url] = text(ics(...rules('n', 19)));
    const allReplaced = await unit();
    routes[url] = text(hostileCalendar());
    const hostile = await unit();
    expect(hostile.outcome).toBe('failed');
    const figures = { created, unchanged, allMoved, allReplaced, hostile };
    console.log(`calendar feed unit: ${JSON.stringify(figures)}`);
    for (const f of Object.values(figures)) {
      expect(f.statements).toBeLessThanOrEqual(600);
      expect(f.roundTrips).toBeLessThanOrEqual(20);
      expect(f.fetches).toBe(1);
    }
  }, 60_000);
});

describe('facts the calendar never gave, and the real end of a rule (issue 44.3)', () => {
  it('synced quizzes store price and category as unknown: "Pris ej angivet", no badge, not in the Gratis filter', async () => {
    const o = await owner();
    const { app } = appWith({ [FEED]: text(ics(weekly(), single)) });
    await accept(o, app);
    const rows = await quizzesOf(o.location.id);
    expect(rows.length).toBe(7);
    for (const q of rows) expect([q.price, q.category]).toEqual([null, null]);
    const city = o.location.citySlug;
    const list = async (q: string) => (await callJson(`/api/listing?city=${city}${q}`, { app, clock: NOW })).body as { items: any[]; total: number };
    const all = await list('');
    expect(all.items.length).toBe(2);
    for (const item of all.items) expect(item).toMatchObject({ price: null, categoryLabel: null });
    expect(await list('&price=gratis')).toMatchObject({ items: [], total: 0 });
    expect(await list('&price=max50')).toMatchObject({ items: [], total: 0 });
    expect(await list('&category=allmanbildning')).toMatchObject({ items: [], total: 0 });
  });

  it('a series ends at its rule’s last date (COUNT or UNTIL, even past the horizon), an open rule never; the extension job leaves a synced series to the sync', async () => {
    const o = await owner();
    const count40 = ev('UID:fyrtio@puben', 'SUMMARY:Fyrtio', 'DTSTART;TZID=Europe/Stockholm:20300307T190000', 'RRULE:FREQ=WEEKLY;COUNT=40');
    const untilDec = ev('UID:dec@puben', 'SUMMARY:Till december', 'DTSTART;TZID=Europe/Stockholm:20300306T190000', 'RRULE:FREQ=WEEKLY;UNTIL=20301231T220000Z');
    const open = ev('UID:alltid@puben', 'SUMMARY:Alltid', 'DTSTART;TZID=Europe/Stockholm:20300308T190000', 'RRULE:FREQ=WEEKLY');
    const { app } = appWith({ [FEED]: text(ics(weekly(), count40, untilDec, open)) });
    await accept(o, app);
    const rows = await quizzesOf(o.location.id);
    const untilOf = (title: string) => [...new Set(rows.filter((q) => q.title === title).map((q) => q.recurrenceUntil))];
    // COUNT=6 within the horizon: its sixth Tuesday. COUNT=40 past it: 39 weeks after 7 March. UNTIL: the last Wednesday before it.
    expect(untilOf('Tisdagsquiz')).toEqual(['2030-04-09']);
    expect(untilOf('Fyrtio')).toEqual(['2030-12-05']);
    expect(untilOf('Till december')).toEqual(['2030-12-25']);
    expect(untilOf('Alltid')).toEqual([null]);
    // The dates themselves stop at the sync horizon; the nightly sync adds the rest, the extension job does not.
    const lastUntil = rows.filter((q) => q.title === 'Till december').at(-1)!;
    expect(lastUntil.date < '2030-12-25').toBe(true);
    expect(await extendSeries(testDb(), lastUntil.recurrenceId!, '2030-03-05', '2030-12-31')).toBe(0);
    expect(await extendSeries(testDb(), rows.find((q) => q.title === 'Alltid')!.recurrenceId!, '2030-03-05', '2030-12-31')).toBe(0);
    // The owner's series view says so.
    const mine = await callJson('/api/owner/series', { app, cookie: o.user.cookie, clock: NOW });
    expect(mine.status).toBe(200);
    const summary = (mine.body.series as Array<{ recurrenceId: string; until: string | null }>).find((s) => s.recurrenceId === lastUntil.recurrenceId);
    expect(summary?.until).toBe('2030-12-25');
  });
});
