/**
 * Push reminders (issue 32): "Påminn mig i telefonen" stores the browser's subscription against one's own
 * follow; the follow mail's queue consumer sends the 08:00 reminder as a push through the push port to a
 * fake push service, which checks the VAPID JWT (RFC 8292) and decrypts the aes128gcm payload (RFC 8291).
 * Each push is sent once per subscription and quiz; a 410 removes the subscription.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEV_LINK_SIGNING_SECRET, DEV_VAPID } from '../../worker/env';
import { processMailBatch, type FollowMessage, type MailQueue, type QueueMessageLike } from '../../worker/features/follows/service';
import { DIGEST_CRON, runFollowMailCron } from '../../worker/jobs/follow-mail';
import { env } from 'cloudflare:workers';
import { createPushPort } from '../../worker/ports/push';
import { newId } from '../../worker/lib/ids';
import { signLink } from '../../worker/lib/signed-link';
import { fakePushService, newSubscription, type TestSubscription } from '../push-service';
import { expectConsoleError } from '../setup/console';
import { call, callJson, createOwnerWithPlace, createQuiz, createUser, testDb, testDeps, unique } from '../factories';

const DAY = '2026-03-29';
const AT = `${DAY}T06:00:00Z`;
const body = (s: TestSubscription) => ({ endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } });

async function subscriptionsOf(followId: string) {
  return testDb().all<{ endpoint: string }>(sql`SELECT endpoint FROM push_subscriptions WHERE follow_id = ${followId} ORDER BY endpoint`);
}

type TestMessage = QueueMessageLike & { acked: boolean };
function messages(bodies: unknown[]): TestMessage[] {
  return bodies.map(
    (b, i): TestMessage => ({
      id: `p${i}-${unique()}`,
      body: b,
      attempts: 1,
      acked: false,
      ack() {
        this.acked = true;
      },
      retry() {},
    }),
  );
}

async function followedPlace() {
  const { location } = await createOwnerWithPlace('Pushstad');
  const me = await createUser();
  const made = await callJson<{ follow: { id: string } }>('/api/follows', { method: 'POST', cookie: me.cookie, body: { placeId: location.id } });
  expect(made.status).toBe(201);
  return { me, location, followId: made.body.follow.id };
}

describe('push subscriptions of a follow', () => {
  it("one stores a subscription on one's own follow (keys renewed on repeat); someone else's follow is 404; bad input stores nothing", async () => {
    const { me, followId } = await followedPlace();
    const other = await createUser();
    const sub = await newSubscription(`https://push.example.test/${unique()}`);

    expect((await callJson('/api/follows/push-key')).body).toEqual({ publicKey: DEV_VAPID.publicKey });
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: other.cookie, body: body(sub) })).status).toBe(404);
    const bad = await callJson(`/api/follows/${followId}/push`, {
      method: 'PUT',
      cookie: me.cookie,
      body: { ...body(sub), endpoint: 'http://push.example.test/x' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('https://');
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
    expect((await callJson(`/api/follows/${followId}/push/stop`, { method: 'POST', body: { endpoint: 'https://push.example.test/other' } })).status).toBe(404);
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

describe('the 08:00 reminder as a push (queue consumer → push port → push service)', () => {
  it('sends once per subscription and quiz with a valid VAPID JWT and an aes128gcm payload; a 410 removes the subscription', async () => {
    const { me, location, followId } = await followedPlace();
    const quiz = await createQuiz(location.id, { date: DAY, startTime: '19:30:00', title: 'Musikquiz' });
    const phone = await newSubscription(`https://push.example.test/${unique('phone')}`);
    const old = await newSubscription(`https://push.example.test/${unique('old')}`);
    for (const s of [phone, old])
      expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(s) })).status).toBe(200);

    // The push service knows both; the old one is gone (410) once.
    const service = fakePushService([phone, old], (endpoint) => (endpoint === old.endpoint ? 410 : 201));
    const deps = testDeps({
      now: AT,
      config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET },
      ports: { push: (config) => createPushPort({ vapid: config.vapid!, fetch: service.fetch }) },
    });
    const reminder = { type: 'reminder', followId, quizId: quiz.id, date: DAY };
    const first = messages([reminder]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    expect(first[0]!.acked).toBe(true);

    expect(service.deliveries).toHaveLength(1);
    const [d] = service.deliveries;
    expect(d!.endpoint).toBe(phone.endpoint);
    expect(d!.headers['content-encoding']).toBe('aes128gcm');
    expect(d!.vapid.k).toBe(DEV_VAPID.publicKey);
    expect(d!.vapid.claims).toMatchObject({ aud: 'https://push.example.test', sub: 'mailto:support@quizkvall.se' });
    expect(d!.payload).toEqual({
      title: 'Ikväll: pubquiz kl. 19:30',
      body: `${location.name}, Pushstad – Musikquiz`,
      url: expect.stringMatching(new RegExp(`^/quiz/pushstad/[a-z0-9-]+#quiz-${quiz.id}$`)),
      followId,
      tag: `reminder:${quiz.id}`,
    });
    // No personal data in the notification.
    expect(JSON.stringify(d!.payload)).not.toContain(me.email);
    expect(await subscriptionsOf(followId)).toEqual([{ endpoint: phone.endpoint }]);

    // Redelivery (at-least-once): nothing is pushed twice.
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: messages([reminder]) });
    expect(service.deliveries).toHaveLength(1);
  });

  it('a push service failure gives the claim back and retries the message; the retry pushes once', async () => {
    const { me, location, followId } = await followedPlace();
    const quiz = await createQuiz(location.id, { date: DAY, startTime: '19:00:00' });
    const phone = await newSubscription(`https://push.example.test/${unique('flaky')}`);
    await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) });
    let answer = 503;
    const service = fakePushService([phone], () => answer);
    const deps = testDeps({
      now: AT,
      config: { appUrl: 'http://localhost' },
      ports: { push: (config) => createPushPort({ vapid: config.vapid!, fetch: service.fetch }) },
    });
    const reminder = { type: 'reminder', followId, quizId: quiz.id, date: DAY };
    const first = messages([reminder]);
    const logged = expectConsoleError(/push service push\.example\.test answered 503/);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    expect(first[0]!.acked).toBe(false);
    answer = 201;
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: messages([reminder]) });
    expect(service.deliveries).toHaveLength(1);
  });
});

describe('new quizzes at a followed place or search as a push (the digest trigger → queue → push port)', () => {
  const MONDAY = '2030-01-07';
  const MONDAY_0800 = `${MONDAY}T07:00:00Z`; // 08:00 in Stockholm (CET)

  /** The cron's messages for these follows only (the shared database holds other tests' follows too). */
  async function digestRun(followIds: string[], deps: ReturnType<typeof testDeps>) {
    const bodies: FollowMessage[] = [];
    const queue: MailQueue = {
      async send(b) {
        bodies.push(b);
      },
      async sendBatch(ms) {
        for (const m of ms) bodies.push(m.body);
      },
    };
    await runFollowMailCron(env, DIGEST_CRON, new Date(MONDAY_0800), queue);
    const mine = bodies.filter((b) => followIds.includes(b.followId ?? ''));
    expect(mine.map((b) => b.type)).toEqual(followIds.map(() => 'digest'));
    const batch = messages(mine);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: batch });
    expect(batch.every((m) => m.acked)).toBe(true);
  }

  it('a new quiz at a followed place reaches each subscription once, encrypted; a second run pushes nothing; old quizzes push nothing', async () => {
    const { me, location, followId } = await followedPlace();
    const old = await createQuiz(location.id, { date: '2030-01-08', startTime: '19:00:00', title: 'Gammal', createdAt: '2029-10-01T10:00:00.000Z' });
    const fresh = await createQuiz(location.id, { date: '2030-01-10', startTime: '20:00:00', title: 'Färsk', createdAt: '2030-01-05T10:00:00.000Z' });
    const quiet = await followedPlace(); // a followed place with only old quizzes this week
    await createQuiz(quiet.location.id, { date: '2030-01-09', createdAt: '2029-10-01T10:00:00.000Z' });
    const phone = await newSubscription(`https://push.example.test/${unique('new')}`);
    const quietPhone = await newSubscription(`https://push.example.test/${unique('quiet')}`);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) })).status).toBe(200);
    expect((await callJson(`/api/follows/${quiet.followId}/push`, { method: 'PUT', cookie: quiet.me.cookie, body: body(quietPhone) })).status).toBe(200);

    const service = fakePushService([phone, quietPhone], () => 201);
    const deps = testDeps({
      now: MONDAY_0800,
      config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET },
      ports: { push: (config) => createPushPort({ vapid: config.vapid!, fetch: service.fetch }) },
    });
    await digestRun([followId, quiet.followId], deps);

    expect(service.deliveries).toHaveLength(1);
    const [d] = service.deliveries;
    expect(d!.endpoint).toBe(phone.endpoint);
    expect(d!.headers['content-encoding']).toBe('aes128gcm');
    expect(d!.vapid.k).toBe(DEV_VAPID.publicKey);
    expect(d!.payload).toEqual({
      title: `Nytt quiz på ${location.name}`,
      body: `torsdag 10 januari kl. 20:00: ${location.name}, Pushstad – Färsk`,
      url: expect.stringMatching(new RegExp(`^/quiz/pushstad/[a-z0-9-]+#quiz-${fresh.id}$`)),
      followId,
      tag: `new:${followId}:${MONDAY}`,
    });
    expect(JSON.stringify(d!.payload)).not.toContain(old.id);
    expect(JSON.stringify(d!.payload)).not.toContain(me.email);

    // The second run (a cron fired twice, a redelivered message): nothing is pushed again.
    await digestRun([followId, quiet.followId], deps);
    expect(service.deliveries).toHaveLength(1);
  });

  it('a new quiz matching a saved search is pushed without the search words', async () => {
    const { location } = await createOwnerWithPlace(unique('Sökpush'));
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
    const phone = await newSubscription(`https://push.example.test/${unique('search')}`);
    expect((await callJson(`/api/follows/${followId}/push`, { method: 'PUT', cookie: me.cookie, body: body(phone) })).status).toBe(200);
    const service = fakePushService([phone], () => 201);
    const deps = testDeps({
      now: MONDAY_0800,
      config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET },
      ports: { push: (config) => createPushPort({ vapid: config.vapid!, fetch: service.fetch }) },
    });
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
    const { location } = await createOwnerWithPlace('Pushstad');
    const mine = await visitorFollow(location.id);
    const sub = await newSubscription(`https://push.example.test/${unique('visitor')}`);

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
    const { location } = await createOwnerWithPlace('Pushstad');
    const mine = await visitorFollow(location.id);
    const theirs = await visitorFollow(location.id);
    const pending = await visitorFollow(location.id, false);
    const sub = await newSubscription(`https://push.example.test/${unique('authz')}`);
    const fields = { endpoint: sub.endpoint, p256dh: sub.p256dh, auth: sub.auth, action: 'push-on' };

    expect((await form(mine.t, { ...fields, id: theirs.id })).status).toBe(404);
    expect((await form('x.y', { ...fields, id: mine.id })).status).toBe(400);
    const unsub = await signLink(DEV_LINK_SIGNING_SECRET, 'unsubscribe', mine.id, 3600, new Date(LINK_AT));
    expect((await form(unsub, { ...fields, id: mine.id })).status).toBe(400);
    const unconfirmed = await form(pending.t, { ...fields, id: pending.id });
    expect(unconfirmed.status).toBe(400);
    expect(await unconfirmed.text()).toContain('Bekräfta bevakningen först');
    const bad = await form(mine.t, { ...fields, id: mine.id, endpoint: 'http://push.example.test/x' });
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
