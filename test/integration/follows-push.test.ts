/**
 * Push reminders (issue 32): "Påminn mig i telefonen" stores the browser's subscription against one's own
 * follow; the follow mail's queue consumer sends the 08:00 reminder mail and enqueues its push as a message of
 * its own (issue 42.3), which the consumer sends through the push port to a fake push service (on an allowed
 * push-service host, its fetch injected), which checks the VAPID JWT (RFC 8292) and decrypts the aes128gcm
 * payload (RFC 8291). Each push is sent once per subscription and quiz; a 410 removes the subscription.
 * Issue 42.3: only browsers' push services, at most five per follow, rate-limited; a push that fails or never
 * answers retries alone, never holds or stops a mail.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { DEV_LINK_SIGNING_SECRET, DEV_VAPID } from '../../worker/env';
import { processMailBatch, PUSH_SUBSCRIBE_LIMIT, type FollowMessage, type MailQueue, type QueueMessageLike } from '../../worker/features/follows/service';
import { DIGEST_CRON, runFollowMailCron } from '../../worker/jobs/follow-mail';
import { env } from 'cloudflare:workers';
import { createPushPort, type PushPortOptions } from '../../worker/ports/push';
import { MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW } from '../../worker/features/follows/contract';
import { newId } from '../../worker/lib/ids';
import { signLink } from '../../worker/lib/signed-link';
import { fakePushService, newSubscription, type TestSubscription } from '../push-service';
import { expectConsoleError } from '../setup/console';
import { call, callJson, createOwnerWithPlace, createQuiz, createUser, testDb, testDeps, unique, uniqueTown } from '../factories';

/** The one town of this file's push tests (a known town: issue 43.6). */
const PUSH_TOWN = uniqueTown();

const DAY = '2026-03-29';
const AT = `${DAY}T06:00:00Z`;
/** Firebase Cloud Messaging's host: an allowed push service; every fetch to it goes to the fake push service. */
const FCM = 'https://fcm.googleapis.com/fcm/send';
const body = (s: TestSubscription) => ({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } });

async function subscriptionsOf(followId: string) {
  return testDb().all<{ endpoint: string }>(sql`SELECT endpoint FROM push_subscriptions WHERE follow_id = ${followId} ORDER BY endpoint`);
}

async function mailsWithKey(sendKey: string) {
  return testDb().all<{ to_email: string; subject: string }>(sql`SELECT to_email, subject FROM mail_outbox WHERE send_key = ${sendKey}`);
}

type TestMessage = QueueMessageLike & { acked: boolean; retried: boolean };
function messages(bodies: unknown[]): TestMessage[] {
  return bodies.map(
    (b, i): TestMessage => ({
      id: `p${i}-${unique()}`,
      body: b,
      attempts: 1,
      acked: false,
      retried: false,
      ack() {
        this.acked = true;
      },
      retry() {
        this.retried = true;
      },
    }),
  );
}

/** The mail queue's producer as the consumer sees it: what it enqueues (the pushes) is kept here. */
function fakeQueue() {
  const bodies: unknown[] = [];
  return {
    bodies,
    port: {
      async send(b: unknown) {
        bodies.push(b);
      },
      async sendBatch(ms: Iterable<{ body: unknown }>) {
        for (const m of ms) bodies.push(m.body);
      },
    },
  };
}

/** The consumer's deps: the push port on `fetch` (a fake push service), the queue fake, a pinned clock. */
function consumerDeps(now: string, fetch: typeof globalThis.fetch, queue = fakeQueue(), push: Partial<PushPortOptions> = {}) {
  const deps = testDeps({
    now,
    config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET },
    ports: { push: (config) => createPushPort({ vapid: config.vapid!, fetch, ...push }), mailQueue: () => queue.port },
  });
  return { deps, queue };
}

/** Runs what the consumer enqueued (the push messages) as the next batch. */
async function runQueued(deps: ReturnType<typeof testDeps>, queue: ReturnType<typeof fakeQueue>): Promise<TestMessage[]> {
  const batch = messages(queue.bodies.splice(0));
  await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: batch });
  return batch;
}

async function followedPlace() {
  const { location } = await createOwnerWithPlace(PUSH_TOWN);
  const me = await createUser();
  const made = await callJson<{ follow: { id: string } }>('/api/follows', { method: 'POST', cookie: me.cookie, body: { placeId: location.id } });
  expect(made.status).toBe(201);
  return { me, location, followId: made.body.follow.id };
}

describe('push subscriptions of a follow', () => {
  it("one stores a subscription on one's own follow (keys renewed on repeat); someone else's follow is 404; bad input stores nothing", async () => {
    const { me, followId } = await followedPlace();
    const other = await createUser();
    const sub = await newSubscription(`${FCM}/${unique()}`);

    expect((await callJson('/api/follows/push-key')).body).toEqual({ publicKey: DEV_VAPID.publicKey });
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: other.cookie, body: body(sub) })).status).toBe(404);
    const bad = await callJson(`/api/follows/${followId}/push`, {
      method: 'PUT',
      cookie: me.cookie,
      body: { ...body(sub), endpoint: 'http://fcm.googleapis.com/fcm/send/x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('https://');
    expect(bad.body.error.message).toContain('Prenumerationens adress');
    const noKeys = await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: { endpoint: sub.endpoint, keys: 'x' } });
    expect(noKeys.status).toBe(400);
    expect(noKeys.body.error.message).toContain('nycklar saknas');
    expect(await subscriptionsOf(followId)).toEqual([]);

    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(sub) })).status).toBe(200);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(sub) })).status).toBe(200);
    expect(await subscriptionsOf(followId)).toEqual([{ endpoint: sub.endpoint }]);
    expect((await callJson('/api/follows/push', { cookie: me.cookie })).body).toEqual({ followIds: [followId] });
    expect((await callJson('/api/follows/push', { cookie: other.cookie })).body).toEqual({ followIds: [] });

    // "Sluta påminna" from the notification: the wrong endpoint removes nothing, the right one removes it.
    expect((await callJson(`/api/follows/${followId}/push/stop`, { method: 'POST', body: { endpoint: `${FCM}/other` } })).status).toBe(404);
    expect(await subscriptionsOf(followId)).toHaveLength(1);
    expect((await callJson(`/api/follows/${followId}/push/stop`, { method: 'POST', body: { endpoint: sub.endpoint } })).status).toBe(200);
    expect(await subscriptionsOf(followId)).toEqual([]);

    // The account page's "Sluta påminna i telefonen", and the follow's removal, take the subscription along.
    await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(sub) });
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'DELETE', cookie: other.cookie })).status).toBe(404);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'DELETE', cookie: me.cookie })).status).toBe(200);
    expect(await subscriptionsOf(followId)).toEqual([]);
    await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(sub) });
    expect((await callJson(`/api/follows/${followId}`, { method: 'DELETE', cookie: me.cookie })).status).toBe(200);
    expect(await subscriptionsOf(followId)).toEqual([]);
  });
});

describe('which subscriptions are taken, and how many (issue 42.3)', () => {
  const HOSTILE = [
    'https://push.example.test/x', // any https host
    'https://fcm.googleapis.com:8443/fcm/send/x', // a port on an allowed host
    'https://fcm.googleapis.com:80/fcm/send/x',
    'http://fcm.googleapis.com/fcm/send/x', // http
    'https://127.0.0.1/x', // IP literals
    'https://[::1]/x',
    'https://169.254.169.254/latest/meta-data/',
    'https://fcm.googleapis.com.evil.example/fcm/send/x', // look-alikes
    'https://fcm.googleapis.com@evil.example/x',
    'https://evil.example/fcm.googleapis.com/x',
    'https://localhost/x',
  ];

  it("an endpoint off the browsers' push services, on a port, over http or an IP literal is 400 with a Swedish message naming the field, nothing stored (subscribe and stop)", async () => {
    const { me, followId } = await followedPlace();
    const sub = await newSubscription(`${FCM}/${unique('ok')}`);
    for (const endpoint of HOSTILE) {
      const r = await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: { ...body(sub), endpoint } });
      expect(r.status, endpoint).toBe(400);
      expect(r.body.error.message, endpoint).toMatch(
        /^Prenumeration: Prenumerationens adress måste (höra till en webbläsares push-tjänst|vara en https:\/\/-adress)/,
      );
      const stop = await callJson(`/api/follows/${followId}/push/stop`, { method: 'POST', body: { endpoint } });
      expect(stop.status, endpoint).toBe(400);
    }
    expect(await subscriptionsOf(followId)).toEqual([]);
    // The browsers' own services are taken.
    for (const endpoint of [`${FCM}/${unique()}`, `https://updates.push.services.mozilla.com/wpush/v2/${unique()}`, `https://web.push.apple.com/${unique()}`])
      expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: { ...body(sub), endpoint } })).status, endpoint).toBe(
        200,
      );
    expect(await subscriptionsOf(followId)).toHaveLength(3);
  });

  it(`a follow keeps at most ${MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW}: a new phone past that replaces the one renewed longest ago`, async () => {
    const { me, followId } = await followedPlace();
    const phones = [];
    for (let i = 0; i <= MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW; i++) phones.push(await newSubscription(`${FCM}/${i}-${unique('cap')}`));
    const put = (s: TestSubscription, minute: number) =>
      callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(s), clock: `${DAY}T05:${String(minute).padStart(2, '0')}:00Z` });
    for (let i = 0; i < MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW; i++) expect((await put(phones[i]!, i)).status).toBe(200);
    expect(await subscriptionsOf(followId)).toHaveLength(MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW);
    // The first phone renews (it is still in use): the second is now the one renewed longest ago.
    expect((await put(phones[0]!, 10)).status).toBe(200);
    expect(await subscriptionsOf(followId)).toHaveLength(MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW);
    // One past the cap: the new phone is taken, the second phone goes.
    expect((await put(phones[MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW]!, 11)).status).toBe(200);
    const kept = (await subscriptionsOf(followId)).map((r) => r.endpoint);
    expect(kept).toHaveLength(MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW);
    expect(kept).toContain(phones[MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW]!.endpoint);
    expect(kept).toContain(phones[0]!.endpoint);
    expect(kept).not.toContain(phones[1]!.endpoint);
  });

  it(`subscribing is limited to ${PUSH_SUBSCRIBE_LIMIT} an hour per person and follow: one past is 429 and stores nothing; others are not affected`, async () => {
    const { me, followId } = await followedPlace();
    const neighbour = await followedPlace();
    const at = (minute: number) => new Date(Date.parse(`${DAY}T05:00:00Z`) + minute * 60_000).toISOString();
    const put = async (who: { cookie: string }, id: string, minute: number) => {
      const s = await newSubscription(`${FCM}/${unique('rate')}`);
      return { s, r: await callJson(`/api/follows/${id}/push`, { method: 'PUT', cookie: who.cookie, body: body(s), clock: at(minute) }) };
    };
    for (let i = 0; i < PUSH_SUBSCRIBE_LIMIT; i++) expect((await put(me, followId, i)).r.status).toBe(200);
    const before = (await subscriptionsOf(followId)).map((r) => r.endpoint);
    const past = await put(me, followId, PUSH_SUBSCRIBE_LIMIT);
    expect(past.r.status).toBe(429);
    expect(past.r.body.error.message).toMatch(/^För många försök att slå på påminnelser i telefonen\. Försök igen om \d+ minuter\.$/);
    expect((await subscriptionsOf(followId)).map((r) => r.endpoint)).toEqual(before);
    // Someone else's follow is not held by my attempts.
    expect((await put(neighbour.me, neighbour.followId, PUSH_SUBSCRIBE_LIMIT)).r.status).toBe(200);
    // An hour after the last attempt, it works again.
    expect((await put(me, followId, PUSH_SUBSCRIBE_LIMIT + 61)).r.status).toBe(200);
  });
});

describe('the 08:00 reminder as a push (queue consumer → push message → push port → push service)', () => {
  it('sends once per subscription and quiz with a valid VAPID JWT and an aes128gcm payload; a 410 removes the subscription', async () => {
    const { me, location, followId } = await followedPlace();
    const quiz = await createQuiz(location.id, { date: DAY, startTime: '19:30:00', title: 'Musikquiz' });
    const phone = await newSubscription(`${FCM}/${unique('phone')}`);
    const old = await newSubscription(`${FCM}/${unique('old')}`);
    for (const s of [phone, old])
      expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(s) })).status).toBe(200);

    // The push service knows both; the old one is gone (410) once.
    const service = fakePushService([phone, old], (endpoint) => (endpoint === old.endpoint ? 410 : 201));
    const { deps, queue } = consumerDeps(AT, service.fetch);
    const reminder = { type: 'reminder', followId, quizId: quiz.id, date: DAY };
    const first = messages([reminder]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    expect(first[0]!.acked).toBe(true);
    // The mail is sent; the push is a message of its own (nothing pushed yet).
    expect(await mailsWithKey(`reminder:${followId}:${quiz.id}`)).toHaveLength(1);
    expect(service.deliveries).toHaveLength(0);
    expect(queue.bodies).toEqual([{ type: 'push', followId, key: `reminder:${followId}:${quiz.id}`, notice: expect.objectContaining({ followId }) }]);
    const pushed = await runQueued(deps, queue);
    expect(pushed[0]!.acked).toBe(true);

    expect(service.deliveries).toHaveLength(1);
    const [d] = service.deliveries;
    expect(d!.endpoint).toBe(phone.endpoint);
    expect(d!.headers['content-encoding']).toBe('aes128gcm');
    expect(d!.vapid.k).toBe(DEV_VAPID.publicKey);
    expect(d!.vapid.claims).toMatchObject({ aud: 'https://fcm.googleapis.com', sub: 'mailto:support@quizkvall.se' });
    expect(d!.payload).toEqual({
      title: 'Ikväll: pubquiz kl. 19:30',
      body: `${location.name}, ${PUSH_TOWN} – Musikquiz`,
      url: expect.stringMatching(new RegExp(`^/quiz/${PUSH_TOWN.toLowerCase()}/[a-z0-9-]+#quiz-${quiz.id}$`)),
      followId,
      tag: `reminder:${quiz.id}`,
    });
    // No personal data in the notification.
    expect(JSON.stringify(d!.payload)).not.toContain(me.email);
    expect(await subscriptionsOf(followId)).toEqual([{ endpoint: phone.endpoint }]);

    // Redelivery (at-least-once) of the reminder and of its push: nothing is mailed or pushed twice.
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: messages([reminder]) });
    expect(queue.bodies).toHaveLength(1);
    queue.bodies.push(queue.bodies[0]);
    expect((await runQueued(deps, queue)).every((m) => m.acked)).toBe(true);
    expect(service.deliveries).toHaveLength(1);
    expect(await mailsWithKey(`reminder:${followId}:${quiz.id}`)).toHaveLength(1);
  });

  it('a push failing with 500: the mail is sent once, the push message alone is retried; its retry pushes once', async () => {
    const { me, location, followId } = await followedPlace();
    const quiz = await createQuiz(location.id, { date: DAY, startTime: '19:00:00' });
    const phone = await newSubscription(`${FCM}/${unique('flaky')}`);
    await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) });
    let answer = 500;
    const service = fakePushService([phone], () => answer);
    const { deps, queue } = consumerDeps(AT, service.fetch);
    const reminder = { type: 'reminder', followId, quizId: quiz.id, date: DAY };
    const first = messages([reminder]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    expect(first[0]!.acked).toBe(true);

    const logged = expectConsoleError(/push service fcm\.googleapis\.com answered 500/);
    const failed = await runQueued(deps, queue);
    logged.verify();
    expect(failed.map((m) => [m.acked, m.retried])).toEqual([[false, true]]);
    expect(await mailsWithKey(`reminder:${followId}:${quiz.id}`)).toHaveLength(1);

    // The queue redelivers the push message (and, at least once, the reminder too): one mail, one push.
    answer = 201;
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: messages([reminder]) });
    queue.bodies.push(failed[0]!.body);
    expect((await runQueued(deps, queue)).every((m) => m.acked)).toBe(true);
    expect(service.deliveries).toHaveLength(1);
    expect(await mailsWithKey(`reminder:${followId}:${quiz.id}`)).toHaveLength(1);
  });

  it('a mail that fails still enqueues its push; the mail is retried', async () => {
    const { me, location, followId } = await followedPlace();
    const quiz = await createQuiz(location.id, { date: DAY, startTime: '19:00:00' });
    const phone = await newSubscription(`${FCM}/${unique('mailfail')}`);
    await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) });
    const service = fakePushService([phone]);
    const { deps, queue } = consumerDeps(AT, service.fetch);
    const broken = { ...deps, mailer: { ...deps.mailer, sendOnce: () => Promise.reject(new Error('mail provider down')) } };
    const first = messages([{ type: 'reminder', followId, quizId: quiz.id, date: DAY }]);
    const logged = expectConsoleError(/mail provider down/);
    await processMailBatch(broken, { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    expect(first[0]!.retried).toBe(true);
    await runQueued(deps, queue);
    expect(service.deliveries).toHaveLength(1);
  });
});

describe('a push service that never answers holds no one else (issue 42.3)', () => {
  /** A person's pending follow by e-mail (no account) with its confirmation message: someone else's mail. */
  async function someoneElsesConfirmation(locationId: string) {
    const addressId = newId();
    const id = newId();
    const email = `${unique('annan')}@test.local`;
    await testDb().run(sql`INSERT INTO follow_addresses (id, email) VALUES (${addressId}, ${email})`);
    await testDb().run(
      sql`INSERT INTO follows (id, address_id, kind, location_id, target_key) VALUES (${id}, ${addressId}, 'place', ${locationId}, ${`place:${locationId}`})`,
    );
    const requestId = unique('req');
    return { email, message: { type: 'confirm', followId: id, requestId }, sendKey: `confirm:${requestId}` };
  }

  /** A push service whose every push hangs: it never answers; it notices only the port's abort. */
  function hangingService() {
    const state = { calls: 0, inFlight: 0, most: 0 };
    const fetch = ((_input: RequestInfo | URL, init?: RequestInit) => {
      state.calls++;
      state.inFlight++;
      state.most = Math.max(state.most, state.inFlight);
      init?.signal?.addEventListener('abort', () => state.inFlight--);
      return new Promise<Response>(() => {});
    }) as typeof globalThis.fetch;
    return { state, fetch };
  }

  it("the reminder mail and another person's confirmation are sent; the push batch ends at the timeout and retries the push alone", async () => {
    const { me, location, followId } = await followedPlace();
    const quiz = await createQuiz(location.id, { date: DAY, startTime: '19:00:00' });
    const phone = await newSubscription(`${FCM}/${unique('hang')}`);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) })).status).toBe(200);
    const other = await someoneElsesConfirmation(location.id);
    const hang = hangingService();
    const { deps, queue } = consumerDeps(AT, hang.fetch, fakeQueue(), { timeoutMs: 50 });

    const batch = messages([{ type: 'reminder', followId, quizId: quiz.id, date: DAY }, other.message]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: batch });
    expect(batch.map((m) => m.acked)).toEqual([true, true]);
    expect(await mailsWithKey(`reminder:${followId}:${quiz.id}`)).toEqual([{ to_email: me.email, subject: expect.stringMatching(/^Ikväll: pubquiz/) }]);
    expect(await mailsWithKey(other.sendKey)).toEqual([{ to_email: other.email, subject: 'Bekräfta din bevakning på Quizkväll' }]);
    expect(hang.state.calls).toBe(0);

    const logged = expectConsoleError(/push service fcm\.googleapis\.com did not answer within 50 ms/);
    const pushes = await runQueued(deps, queue);
    logged.verify();
    expect(pushes.map((m) => [m.acked, m.retried])).toEqual([[false, true]]);
    expect(hang.state).toMatchObject({ calls: 1, inFlight: 0 });
    // The claim is given back: the retry will push.
    expect(await testDb().all(sql`SELECT 1 FROM push_sends WHERE send_key LIKE ${`reminder:${followId}:%`}`)).toEqual([]);
  });

  it("another person's confirmation mail in the same batch is sent while the pushes still hang; at most four pushes are in flight", async () => {
    const { me, location, followId } = await followedPlace();
    const { me: me2, followId: followId2 } = await followedPlace();
    for (let i = 0; i < MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW; i++) {
      const s = await newSubscription(`${FCM}/${unique(`many${i}`)}`);
      expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(s), clock: `${DAY}T05:0${i}:00Z` })).status).toBe(
        200,
      );
    }
    const s2 = await newSubscription(`${FCM}/${unique('one')}`);
    expect((await callJson(`/api/follows/${followId2}/push`, { method: 'PUT', cookie: me2.cookie, body: body(s2) })).status).toBe(200);
    const other = await someoneElsesConfirmation(location.id);
    const hang = hangingService();
    // The pushes end only when the test says so (the port's timeout signal, injected).
    const stop = new AbortController();
    const { deps } = consumerDeps(AT, hang.fetch, fakeQueue(), { timeoutSignal: () => stop.signal });
    const notice = { title: 'Ikväll', body: 'Puben', url: '/quiz/a/b', followId, tag: 't' };
    const batch = messages([
      { type: 'push', followId, key: unique('k'), notice },
      { type: 'push', followId: followId2, key: unique('k'), notice: { ...notice, followId: followId2 } },
      other.message,
    ]);
    let done = false;
    const run = processMailBatch(deps, { queueName: 'quizkvall-mail', messages: batch }).then(() => {
      done = true;
    });
    await vi.waitFor(async () => {
      expect(await mailsWithKey(other.sendKey)).toHaveLength(1);
      expect(hang.state.calls).toBe(4);
    });
    expect(batch[2]!.acked).toBe(true);
    expect(done).toBe(false);
    expect(hang.state.inFlight).toBe(4);

    const logged = expectConsoleError(/did not answer within 5000 ms/);
    stop.abort();
    await run;
    logged.verify();
    expect(hang.state).toMatchObject({ calls: 1 + MAX_PUSH_SUBSCRIPTIONS_PER_FOLLOW, most: 4 });
    expect(batch.map((m) => [m.acked, m.retried])).toEqual([
      [false, true],
      [false, true],
      [true, false],
    ]);
  });
});

describe('new quizzes at a followed place or search as a push (the digest trigger → queue → push port)', () => {
  const MONDAY = '2030-01-07';
  const MONDAY_0800 = `${MONDAY}T07:00:00Z`; // 08:00 in Stockholm (CET)

  /** The cron's messages for these follows only (the shared database holds other tests' follows too). */
  async function digestRun(followIds: string[], { deps, queue }: ReturnType<typeof consumerDeps>) {
    const bodies: FollowMessage[] = [];
    const cronQueue: MailQueue = {
      async send(b) {
        bodies.push(b);
      },
      async sendBatch(ms) {
        for (const m of ms) bodies.push(m.body);
      },
    };
    await runFollowMailCron(env, DIGEST_CRON, new Date(MONDAY_0800), cronQueue);
    const mine = bodies.filter((b) => followIds.includes(b.followId ?? ''));
    expect(mine.map((b) => b.type)).toEqual(followIds.map(() => 'digest'));
    const batch = messages(mine);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: batch });
    expect(batch.every((m) => m.acked)).toBe(true);
    // The digest mails are out; their pushes are messages of their own (issue 42.3), the next batch.
    expect((await runQueued(deps, queue)).every((m) => m.acked)).toBe(true);
  }

  it('a new quiz at a followed place reaches each subscription once, encrypted; a second run pushes nothing; old quizzes push nothing', async () => {
    const { me, location, followId } = await followedPlace();
    const old = await createQuiz(location.id, { date: '2030-01-08', startTime: '19:00:00', title: 'Gammal', createdAt: '2029-10-01T10:00:00.000Z' });
    const fresh = await createQuiz(location.id, { date: '2030-01-10', startTime: '20:00:00', title: 'Färsk', createdAt: '2030-01-05T10:00:00.000Z' });
    const quiet = await followedPlace(); // a followed place with only old quizzes this week
    await createQuiz(quiet.location.id, { date: '2030-01-09', createdAt: '2029-10-01T10:00:00.000Z' });
    const phone = await newSubscription(`${FCM}/${unique('new')}`);
    const quietPhone = await newSubscription(`${FCM}/${unique('quiet')}`);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) })).status).toBe(200);
    expect((await callJson(`/api/follows/${quiet.followId}/push`, { method: 'PUT', cookie: quiet.me.cookie, body: body(quietPhone) })).status).toBe(200);

    const service = fakePushService([phone, quietPhone], () => 201);
    const deps = consumerDeps(MONDAY_0800, service.fetch);
    await digestRun([followId, quiet.followId], deps);
    expect(await mailsWithKey(`digest:${followId}:${MONDAY}`)).toHaveLength(1);

    expect(service.deliveries).toHaveLength(1);
    const [d] = service.deliveries;
    expect(d!.endpoint).toBe(phone.endpoint);
    expect(d!.headers['content-encoding']).toBe('aes128gcm');
    expect(d!.vapid.k).toBe(DEV_VAPID.publicKey);
    expect(d!.payload).toEqual({
      title: `Nytt quiz på ${location.name}`,
      body: `torsdag 10 januari kl. 20:00: ${location.name}, ${PUSH_TOWN} – Färsk`,
      url: expect.stringMatching(new RegExp(`^/quiz/${PUSH_TOWN.toLowerCase()}/[a-z0-9-]+#quiz-${fresh.id}$`)),
      followId,
      tag: `new:${followId}:${MONDAY}`,
    });
    expect(JSON.stringify(d!.payload)).not.toContain(old.id);
    expect(JSON.stringify(d!.payload)).not.toContain(me.email);

    // The second run (a cron fired twice, a redelivered message): nothing is pushed again.
    await digestRun([followId, quiet.followId], deps);
    expect(service.deliveries).toHaveLength(1);
  });

  it("the digest's push failing does not stop the digest mail: the mail is sent once, the push retried alone", async () => {
    const { me, location, followId } = await followedPlace();
    await createQuiz(location.id, { date: '2030-01-10', startTime: '20:00:00', createdAt: '2030-01-05T10:00:00.000Z' });
    const phone = await newSubscription(`${FCM}/${unique('digest500')}`);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) })).status).toBe(200);
    let answer = 500;
    const service = fakePushService([phone], () => answer);
    const { deps, queue } = consumerDeps(MONDAY_0800, service.fetch);
    const digest = { type: 'digest', followId, week: MONDAY };
    const first = messages([digest]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    expect(first[0]!.acked).toBe(true);
    expect(await mailsWithKey(`digest:${followId}:${MONDAY}`)).toHaveLength(1);
    const logged = expectConsoleError(/answered 500/);
    const failed = await runQueued(deps, queue);
    logged.verify();
    expect(failed.map((m) => [m.acked, m.retried])).toEqual([[false, true]]);
    answer = 201;
    queue.bodies.push(failed[0]!.body);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: messages([digest]) });
    expect((await runQueued(deps, queue)).every((m) => m.acked)).toBe(true);
    expect(service.deliveries).toHaveLength(1);
    expect(await mailsWithKey(`digest:${followId}:${MONDAY}`)).toHaveLength(1);
  });

  it('a new quiz matching a saved search is pushed without the search words', async () => {
    const { location } = await createOwnerWithPlace(uniqueTown());
    const me = await createUser();
    const made = await callJson<{ follow: { id: string } }>('/api/follows', {
      method: 'POST',
      cookie: me.cookie,
      body: { filters: { city: location.citySlug } },
    });
    expect(made.status).toBe(201);
    const followId = made.body.follow.id;
    await createQuiz(location.id, { date: '2030-01-09', createdAt: '2030-01-06T10:00:00.000Z' });
    await createQuiz(location.id, { date: '2030-01-11', createdAt: '2030-01-06T11:00:00.000Z' });
    const phone = await newSubscription(`${FCM}/${unique('search')}`);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) })).status).toBe(200);
    const service = fakePushService([phone], () => 201);
    const deps = consumerDeps(MONDAY_0800, service.fetch);
    await digestRun([followId], deps);
    expect(service.deliveries).toHaveLength(1);
    expect(service.deliveries[0]!.payload).toMatchObject({
      title: '2 nya quiz i din bevakning',
      body: expect.stringMatching(/^onsdag 9 januari kl\. 19:00: .* \(och 1 till\)$/),
    });
  });
});

describe('"Påminn mig i telefonen" without an account: the follow\'s signed "Mina bevakningar" link', () => {
  const LINK_AT = '2026-11-30T21:00:00Z';

  /** A visitor's follow made by e-mail (no account), confirmed or not, and its manage link. */
  async function visitorFollow(locationId: string, confirmed = true) {
    const addressId = newId();
    const id = newId();
    const at = confirmed ? '2026-11-01T10:00:00.000Z' : null;
    await testDb().run(sql`INSERT INTO follow_addresses (id, email, confirmed_at) VALUES (${addressId}, ${`${unique('v')}@test.local`}, ${at})`);
    await testDb().run(
      sql`INSERT INTO follows (id, address_id, kind, location_id, target_key, confirmed_at) VALUES (${id}, ${addressId}, 'place', ${locationId}, ${`place:${locationId}`}, ${at})`,
    );
    const t = await signLink(DEV_LINK_SIGNING_SECRET, 'manage', `a:${addressId}`, 3600, new Date(LINK_AT));
    return { id, t };
  }
  const form = (t: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    call(`/bevakningar?t=${encodeURIComponent(t)}`, {
      method: 'POST',
      clock: LINK_AT,
      body: new URLSearchParams(fields).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    });

  it('the page offers it per confirmed follow (a form the script fills), stores the subscription against the follow, and "Sluta påminna i telefonen" removes it', async () => {
    const { location } = await createOwnerWithPlace(PUSH_TOWN);
    const mine = await visitorFollow(location.id);
    const sub = await newSubscription(`${FCM}/${unique('visitor')}`);

    const before = await (await call(`/bevakningar?t=${encodeURIComponent(mine.t)}`, { clock: LINK_AT })).text();
    expect(before).toContain('aria-label="Påminn mig i telefonen: ');
    expect(before).toContain('<script type="module" src="/push-optin.js"></script>');
    expect(before).not.toContain('Sluta påminna i telefonen');

    const on = await form(mine.t, { id: mine.id, action: 'push-on', endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth });
    expect(on.status).toBe(303);
    expect(on.headers.get('location')).toBe(`/bevakningar?t=${encodeURIComponent(mine.t)}`);
    expect(await subscriptionsOf(mine.id)).toEqual([{ endpoint: sub.endpoint }]);
    const after = await (await call(`/bevakningar?t=${encodeURIComponent(mine.t)}`, { clock: LINK_AT })).text();
    expect(after).toContain('Sluta påminna i telefonen');
    expect(after).not.toContain('aria-label="Påminn mig i telefonen: ');

    expect((await form(mine.t, { id: mine.id, action: 'push-off' })).status).toBe(303);
    expect(await subscriptionsOf(mine.id)).toEqual([]);
  });

  it("only the holder of that follow's link: another address's follow is 404, a bad or missing link 400, an unconfirmed follow 400, bad input 400, cross-site 403 — nothing stored", async () => {
    const { location } = await createOwnerWithPlace(PUSH_TOWN);
    const mine = await visitorFollow(location.id);
    const theirs = await visitorFollow(location.id);
    const pending = await visitorFollow(location.id, false);
    const sub = await newSubscription(`${FCM}/${unique('authz')}`);
    const fields = { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth, action: 'push-on' };

    expect((await form(mine.t, { ...fields, id: theirs.id })).status).toBe(404);
    expect((await form('x.y', { ...fields, id: mine.id })).status).toBe(400);
    const unsub = await signLink(DEV_LINK_SIGNING_SECRET, 'unsubscribe', mine.id, 3600, new Date(LINK_AT));
    expect((await form(unsub, { ...fields, id: mine.id })).status).toBe(400);
    const unconfirmed = await form(pending.t, { ...fields, id: pending.id });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain('Bekräfta bevakningen först');
    const bad = await form(mine.t, { ...fields, id: mine.id, endpoint: 'http://fcm.googleapis.com/fcm/send/x' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('https://');
    expect((await form(mine.t, { ...fields, id: mine.id, p256dh: 'x' })).status).toBe(400);
    expect((await form(mine.t, { ...fields, id: mine.id }, { origin: 'https://evil.example' })).status).toBe(403);
    for (const f of [mine, theirs, pending]) expect(await subscriptionsOf(f.id)).toEqual([]);

    // Someone else's subscription cannot be removed with my link.
    await form(theirs.t, { ...fields, id: theirs.id });
    expect((await form(mine.t, { id: theirs.id, action: 'push-off' })).status).toBe(404);
    expect(await subscriptionsOf(theirs.id)).toHaveLength(1);
  });
});
