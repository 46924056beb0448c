/**
 * Issue 17: follow a place or a search. Requests only enqueue; the real queue consumer (test pool) sends
 * the confirmation, so flows wait for the outbox. Cron and consumer are also driven directly with a
 * pinned clock, a capturing producer and injected failures.
 */
import { createExecutionContext, createMessageBatch, getQueueResult, SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import { DEV_LINK_SIGNING_SECRET } from '../../worker/env';
import { FOLLOW_PENDING_MESSAGE } from '../../worker/features/follows/contract';
import { processMailBatch, type FollowMessage, type MailQueue, type QueueMessageLike } from '../../worker/features/follows/service';
import { DIGEST_CRON, REMINDER_CRON, runFollowMailCron } from '../../worker/jobs/follow-mail';
import { newId } from '../../worker/lib/ids';
import { signLink } from '../../worker/lib/signed-link';
import { INVARIANTS } from './security/invariants';
import { expectConsoleError } from '../setup/console';
import { createClock } from '../../worker/lib/clock';
import type { Mailer } from '../../worker/ports/mailer';
import {
  call,
  callJson,
  createLocation,
  createOwnerWithPlace,
  createQuiz,
  createUser,
  createVenue,
  snapshot,
  testDb,
  testDeps,
  unique,
  uniqueTown,
} from '../factories';

/** The town of this file's places unless a test needs another (a known town: issue 43.6). */
const FOLLOW_TOWN = uniqueTown();

/** When directly written follows were confirmed: a fixed past instant (the consumer only asks whether there is one). */
const CONFIRMED_AT = '2026-01-01T00:00:00.000Z';
/** The request clock of the signed-link stories (their links are signed at it, valid one hour). */
const LINK_AT = '2026-11-30T21:00:00Z';

const FOLLOW_TABLES = ['follows', 'follow_addresses', 'mail_outbox', 'used_links'];
const ip = () => `203.0.113.${Math.floor(Math.random() * 250)}-${unique()}`;

interface OutboxRow {
  id: string;
  to_email: string;
  subject: string;
  text: string;
  html: string | null;
  headers: string | null;
  send_key: string | null;
}

async function mailsTo(email: string): Promise<OutboxRow[]> {
  return testDb().all<OutboxRow>(
    sql`SELECT id, to_email, subject, text, html, headers, send_key FROM mail_outbox WHERE to_email = ${email} ORDER BY created_at, rowid`,
  );
}

/** The consumer runs after the queue's batch timeout (2 s): wait for the mail. */
async function waitForMail(email: string, subjectPart: string, timeoutMs = 15_000): Promise<OutboxRow> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const m = (await mailsTo(email)).find((r) => r.subject.includes(subjectPart));
    if (m) return m;
    if (Date.now() > until) throw new Error(`no mail "${subjectPart}" to ${email}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const linkIn = (text: string, path: string) => {
  const m = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?t=[A-Za-z0-9_.-]+`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return new URL(m[0]);
};
const local = (u: URL) => `${u.pathname}${u.search}`;

/**
 * The follow tables once the mail queue has gone quiet: confirmation mail of earlier tests is sent by the
 * queue consumer up to max_batch_timeout (2 s) later, and must not land between two snapshots of one test.
 */
async function settledSnapshot(quietMs = 2_500, timeoutMs = 20_000) {
  let last = await snapshot(FOLLOW_TABLES);
  let since = Date.now();
  const end = Date.now() + timeoutMs;
  while (Date.now() - since < quietMs && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 250));
    const next = await snapshot(FOLLOW_TABLES);
    if (JSON.stringify(next) !== JSON.stringify(last)) {
      last = next;
      since = Date.now();
    }
  }
  return last;
}

async function publicPlace(city = FOLLOW_TOWN) {
  const { user, venue, location } = await createOwnerWithPlace(city);
  return { owner: user, venue, location };
}

async function followRow(id: string) {
  const [row] = await testDb().all<Record<string, unknown>>(sql`SELECT * FROM follows WHERE id = ${id}`);
  return row;
}

/** A confirmed follow of a place by a fresh address, written directly (for cron and consumer tests). */
async function confirmedFollow(locationId: string, over: { reminders?: boolean; confirmed?: boolean } = {}) {
  const db = testDb();
  const email = `${unique('f')}@test.local`;
  const addressId = newId();
  const id = newId();
  const at = over.confirmed === false ? null : CONFIRMED_AT;
  await db.run(sql`INSERT INTO follow_addresses (id, email, confirmed_at) VALUES (${addressId}, ${email}, ${at})`);
  await db.run(sql`INSERT INTO follows (id, address_id, kind, location_id, target_key, reminders, confirmed_at)
    VALUES (${id}, ${addressId}, 'place', ${locationId}, ${`place:${locationId}`}, ${over.reminders === false ? 0 : 1}, ${at})`);
  return { id, email, addressId };
}

function capturingQueue(): MailQueue & { bodies: FollowMessage[] } {
  const bodies: FollowMessage[] = [];
  return {
    bodies,
    async send(body) {
      bodies.push(body);
    },
    async sendBatch(messages) {
      for (const m of messages) bodies.push(m.body);
    },
  };
}

type FakeMessage = QueueMessageLike & { acked: boolean; retried: number | null };
function fakeMessages(bodies: unknown[]): FakeMessage[] {
  return bodies.map(
    (body, i): FakeMessage => ({
      id: `m${i}-${unique()}`,
      body,
      attempts: 1,
      acked: false,
      retried: null,
      ack() {
        this.acked = true;
      },
      retry(o?: { delaySeconds?: number }) {
        this.retried = o?.delaySeconds ?? 0;
      },
    }),
  );
}

function consumerDeps(now: string, mailer?: Mailer) {
  // The queue consumer's deps as worker/index.ts builds them, the clock pinned at `now`.
  return testDeps({
    now,
    config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET },
    ...(mailer ? { ports: { mailer: () => mailer } } : {}),
  });
}

describe('follow → confirm → unsubscribe (visitor)', () => {
  it('a visitor follows a place, confirms once by the mailed link, and one click ends it', async () => {
    const { location } = await publicPlace();
    const email = `${unique('besok')}@test.local`;
    const { status, body } = await callJson('/api/follows', {
      body: { placeId: location.id, email: email.toUpperCase() },
      headers: { 'cf-connecting-ip': ip() },
    });
    expect(status).toBe(202);
    expect(body).toEqual({ message: FOLLOW_PENDING_MESSAGE });
    const [pending] = await testDb().all<{ id: string; confirmed_at: string | null }>(
      sql`SELECT f.id, f.confirmed_at FROM follows f JOIN follow_addresses a ON a.id = f.address_id WHERE a.email = ${email}`,
    );
    expect(pending).toMatchObject({ confirmed_at: null });

    const mail = await waitForMail(email, 'Bekräfta');
    const headers = JSON.parse(mail.headers!);
    expect(headers['List-Unsubscribe']).toMatch(/^<http:\/\/localhost\/bevakningar\/avsluta\?t=[^>]+>$/);
    expect(headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    expect(mail.text).toContain('/bevakningar/avsluta?t=');

    const confirm = linkIn(mail.text, '/bevakningar/bekrafta');
    // GET only shows the button (mail scanners prefetch links).
    const page = await call(local(confirm));
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Bekräfta bevakningen');
    expect((await followRow(pending!.id))!.confirmed_at).toBeNull();

    const ok = await call(local(confirm), { method: 'POST' });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Bevakningen är bekräftad');
    expect((await followRow(pending!.id))!.confirmed_at).not.toBeNull();

    // Single use.
    const again = await call(local(confirm), { method: 'POST' });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('redan använts');

    // One click (RFC 8058): a provider POSTs without cookie or Origin; the CSRF guard lets only this route through.
    const unsubscribe = new URL(headers['List-Unsubscribe'].slice(1, -1));
    const get = await call(local(unsubscribe));
    expect(get.status).toBe(200);
    expect(await get.text()).toMatch(/Sluta bevaka/);
    expect(await followRow(pending!.id)).toBeDefined();
    const oneClick = await SELF.fetch(unsubscribe.href, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await followRow(pending!.id)).toBeUndefined();
    // Other cross-site POSTs without Origin are still refused.
    const csrf = await SELF.fetch(`http://localhost${local(confirm)}`, { method: 'POST' });
    expect(csrf.status).toBe(403);
  });

  it('26.8: the confirmation mail to an unconfirmed address echoes no attacker-chosen text (search words, city, place name)', async () => {
    const { venue, location } = await publicPlace();
    const bait = 'Vinn 5000 kr på evil.example';
    await testDb().run(sql`UPDATE locations SET name = ${bait} WHERE id = ${location.id}`);
    await testDb().run(sql`UPDATE venues SET name = ${bait} WHERE id = ${venue.id}`);
    const placeMail = `${unique('offer')}@test.local`;
    expect((await callJson('/api/follows', { body: { placeId: location.id, email: placeMail }, headers: { 'cf-connecting-ip': ip() } })).status).toBe(202);
    const searchMail = `${unique('offer')}@test.local`;
    const filters = { city: 'evil-example-ring-oss', weekday: 'tisdag', search: 'Ring 070-1234567 evil.example' };
    expect((await callJson('/api/follows', { body: { filters, email: searchMail }, headers: { 'cf-connecting-ip': ip() } })).status).toBe(202);
    for (const email of [placeMail, searchMail]) {
      const mail = await waitForMail(email, 'Bekräfta');
      for (const part of [mail.subject, mail.text, mail.html ?? '']) {
        expect(part).not.toMatch(/evil|070-1234567|5000 kr/i);
      }
      expect(mail.text).toContain('/bevakningar/bekrafta?t=');
    }
  });

  it('the confirmation link expires after 48 h', async () => {
    const { location } = await publicPlace();
    const f = await confirmedFollow(location.id, { confirmed: false });
    const token = await signLink(DEV_LINK_SIGNING_SECRET, 'follow-confirm', f.id, 48 * 3600, new Date('2026-05-01T10:00:00Z'));
    const late = await call(`/bevakningar/bekrafta?t=${token}`, { method: 'POST', clock: '2026-05-03T10:00:01Z' });
    expect(late.status).toBe(400);
    expect(await late.text()).toContain('gått ut');
    expect((await followRow(f.id))!.confirmed_at).toBeNull();
    const inTime = await call(`/bevakningar/bekrafta?t=${token}`, { method: 'POST', clock: '2026-05-03T09:59:00Z' });
    expect(inTime.status).toBe(200);
    // A token for another purpose never confirms.
    const other = await signLink(DEV_LINK_SIGNING_SECRET, 'unsubscribe', f.id, 3600, new Date('2026-05-03T09:30:00Z'));
    expect((await call(`/bevakningar/bekrafta?t=${other}`, { method: 'POST', clock: '2026-05-03T09:59:00Z' })).status).toBe(400);
  });

  it('answers the same whether the address is new, already follows, or is at the limit', async () => {
    const { location } = await publicPlace();
    const fresh = `${unique('ny')}@test.local`;
    const existing = await confirmedFollow(location.id);
    // An address at the limit of 50 (following other things).
    const elsewhere = await publicPlace();
    const full = await confirmedFollow(elsewhere.location.id);
    for (let i = 0; i < 49; i++) {
      await testDb().run(sql`INSERT INTO follows (id, address_id, kind, filters, target_key, confirmed_at)
        VALUES (${newId()}, ${full.addressId}, 'search', ${`{"n":${i}}`}, ${`search:${i}`}, ${CONFIRMED_AT})`);
    }
    const answers = [];
    for (const email of [fresh, existing.email, full.email]) {
      const r = await callJson('/api/follows', { body: { placeId: location.id, email }, headers: { 'cf-connecting-ip': ip() } });
      answers.push([r.status, r.body]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    const [{ n }] = await testDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM follows WHERE address_id = ${full.addressId}`);
    expect(n).toBe(50);
    // The known address gets a mail it can ignore (its follow is already confirmed); the full one gets none.
    await waitForMail(existing.email, 'Bekräfta');
    await waitForMail(fresh, 'Bekräfta');
    expect(await mailsTo(full.email)).toEqual([]);
  });

  it('is rate-limited per address and per client', async () => {
    const { location } = await publicPlace();
    const email = `${unique('spam')}@test.local`;
    const statuses = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await call('/api/follows', { body: { placeId: location.id, email }, headers: { 'cf-connecting-ip': ip() } })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const client = ip();
    const byClient = [];
    const addresses = Array.from({ length: 11 }, () => `${unique('c')}@test.local`);
    for (const address of addresses)
      byClient.push((await call('/api/follows', { body: { placeId: location.id, email: address }, headers: { 'cf-connecting-ip': client } })).status);
    expect(byClient.slice(0, 10).every((s) => s === 202)).toBe(true);
    expect(byClient[10]).toBe(429);
    // Let the queue deliver the confirmations before the next test takes its snapshot of the outbox.
    await waitForMail(email, 'Bekräfta');
    for (const address of addresses.slice(0, 10)) await waitForMail(address, 'Bekräfta');
  });

  it('bad input → 400 naming the field, nothing stored', async () => {
    const { location, venue, owner } = await publicPlace();
    const hidden = await createVenue(owner.id, { isPublic: false });
    const hiddenPlace = await createLocation(hidden.id);
    void venue;
    const before = await settledSnapshot();
    const cases: Array<[unknown, RegExp]> = [
      [{ placeId: location.id }, /E-post/],
      [{ placeId: location.id, email: 'inte-en-adress' }, /E-post/],
      [{ placeId: `saknas-${unique()}`, email: 'a@test.local' }, /Ställe/],
      [{ placeId: hiddenPlace.id, email: 'a@test.local' }, /Ställe/],
      [{ filters: { weekday: 'fredagsmys' }, email: 'a@test.local' }, /Veckodag/],
      [{ filters: {}, email: 'a@test.local' }, /Sökning|minst en/],
      [{ filters: { city: 'stockholm', price: 'billigt' }, email: 'a@test.local' }, /Ogiltigt pris/],
      [{ filters: { team: 40 }, email: 'a@test.local' }, /Lagstorleken/],
      [{ filters: { category: 'opera' }, email: 'a@test.local' }, /Ogiltig kategori/],
      [{ email: 'a@test.local' }, /ställe eller en sökning/],
      [{ placeId: location.id, filters: { city: 'stockholm' }, email: 'a@test.local' }, /ställe eller en sökning/],
    ];
    for (const [body, message] of cases) {
      const r = await callJson('/api/follows', { body, headers: { 'cf-connecting-ip': ip() } });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(message);
    }
    expect(await snapshot(FOLLOW_TABLES)).toEqual(before);
  });

  it('a saved search is stored canonically: the same search twice is one follow', async () => {
    const user = await createUser();
    const a = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { city: 'Stockholm', weekday: 'Tisdag', search: 'musik' } } });
    const b = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { search: 'musik', weekday: 'tisdag', city: 'stockholm' } } });
    expect(a.status).toBe(201);
    expect(b.body.follow.id).toBe(a.body.follow.id);
    expect(a.body.follow).toMatchObject({ kind: 'search', confirmed: true, url: '/quiz/stockholm?weekday=tisdag&search=musik' });
    // Without quiz filters the stored form is the one from before they existed (older follows keep their key).
    expect((await followRow(a.body.follow.id))!.filters).toBe('{"city":"stockholm","weekday":"tisdag","search":"musik"}');
  });

  it('a saved search keeps its quiz filters: stored canonically, named and linked with them, another filter is another follow', async () => {
    const user = await createUser();
    const a = await callJson('/api/follows', {
      cookie: user.cookie,
      body: { filters: { city: 'stockholm', category: 'Musik', price: 'gratis', team: '4', time: 'alla' } },
    });
    const b = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { team: 4, price: 'GRATIS', city: 'stockholm', category: 'musik' } } });
    expect(a.status).toBe(201);
    expect(b.body.follow.id).toBe(a.body.follow.id);
    expect((await followRow(a.body.follow.id))!.filters).toBe('{"city":"stockholm","weekday":null,"search":null,"price":"gratis","team":4,"category":"musik"}');
    expect(a.body.follow).toMatchObject({ url: '/quiz/stockholm?price=gratis&team=4&category=musik' });
    expect(a.body.follow.label).toMatch(/Gratis · Vi är 4 · Musik$/);
    const plain = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { city: 'stockholm' } } });
    expect(plain.body.follow.id).not.toBe(a.body.follow.id);
    // A quiz filter alone is something to follow.
    const free = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { price: 'gratis' } } });
    expect(free.status).toBe(201);
    expect(free.body.follow).toMatchObject({ url: '/?price=gratis' });
    // A stored value the contract no longer knows is dropped when read back; the rest of the search stays.
    await testDb().run(
      sql`UPDATE follows SET filters = '{"city":"stockholm","weekday":null,"search":null,"price":"billigt","category":"musik"}' WHERE id = ${plain.body.follow.id}`,
    );
    const listed = (await callJson('/api/follows', { cookie: user.cookie })).body.follows as Array<{ id: string; url: string; label: string }>;
    expect(listed.find((f) => f.id === plain.body.follow.id)).toMatchObject({ url: '/quiz/stockholm?category=musik' });
  });
});

describe('signed-in follows and "Mina bevakningar"', () => {
  it('follow at once, list, pause, remove; someone else’s follow is 404; not signed in 401', async () => {
    const { location } = await publicPlace();
    const me = await createUser();
    const other = await createUser();
    const made = await callJson('/api/follows', { cookie: me.cookie, body: { placeId: location.id } });
    expect(made.status).toBe(201);
    expect(made.body.follow).toMatchObject({ kind: 'place', confirmed: true, reminders: true });
    const id = made.body.follow.id as string;
    expect((await callJson('/api/follows', { cookie: me.cookie })).body.follows.map((f: { id: string }) => f.id)).toEqual([id]);
    expect((await callJson('/api/follows')).status).toBe(401);
    expect((await callJson(`/api/follows/${id}`, { method: 'PATCH', cookie: other.cookie, body: { reminders: false } })).status).toBe(404);
    expect((await callJson(`/api/follows/${id}`, { method: 'DELETE', cookie: other.cookie })).status).toBe(404);
    expect((await callJson(`/api/follows/saknas-${unique()}`, { method: 'DELETE', cookie: me.cookie })).status).toBe(404);
    const paused = await callJson(`/api/follows/${id}`, { method: 'PATCH', cookie: me.cookie, body: { reminders: false } });
    expect(paused.body.follow.reminders).toBe(false);
    expect((await callJson(`/api/follows/${id}`, { method: 'DELETE', cookie: me.cookie })).status).toBe(200);
    expect(await followRow(id)).toBeUndefined();
  });

  it('the owner dashboard shows confirmed followers per place', async () => {
    const { owner, venue, location } = await publicPlace();
    await confirmedFollow(location.id);
    await confirmedFollow(location.id);
    await confirmedFollow(location.id, { confirmed: false });
    const dash = await callJson(`/api/owner/dashboard?venueId=${venue.id}`, { cookie: owner.cookie });
    expect(dash.status).toBe(200);
    expect(dash.body.places.find((p: { id: string }) => p.id === location.id).followers).toBe(2);
  });

  it('deleting the account removes its follows', async () => {
    const { location } = await publicPlace();
    const me = await createUser({ roles: [] });
    const made = await callJson('/api/follows', { cookie: me.cookie, body: { placeId: location.id } });
    expect((await callJson('/api/account', { method: 'DELETE', cookie: me.cookie })).status).toBe(200);
    expect(await followRow(made.body.follow.id)).toBeUndefined();
  });

  it('the manage link lists, pauses and removes without a session; another address’s follow is 404', async () => {
    const { location } = await publicPlace();
    const f = await confirmedFollow(location.id);
    const stranger = await confirmedFollow(location.id);
    const t = await signLink(DEV_LINK_SIGNING_SECRET, 'manage', `a:${f.addressId}`, 3600, new Date(LINK_AT));
    const page = await call(`/bevakningar?t=${t}`, { clock: LINK_AT });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Pausa påminnelser');
    const form = (id: string, action: string) =>
      call(`/bevakningar?t=${t}`, {
        method: 'POST',
        clock: LINK_AT,
        body: `id=${id}&action=${action}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect((await form(f.id, 'pause')).status).toBe(303);
    expect((await followRow(f.id))!.reminders).toBe(0);
    expect((await form(stranger.id, 'remove')).status).toBe(404);
    expect(await followRow(stranger.id)).toBeDefined();
    expect((await form(f.id, 'remove')).status).toBe(303);
    expect(await followRow(f.id)).toBeUndefined();
  });

  it('"avsluta all e-post" removes the address and every follow of it', async () => {
    const { location } = await publicPlace();
    const f = await confirmedFollow(location.id);
    const t = await signLink(DEV_LINK_SIGNING_SECRET, 'unsubscribe-all', `a:${f.addressId}`, 3600, new Date(LINK_AT));
    expect((await call(`/bevakningar/avsluta-alla?t=${t}`, { clock: LINK_AT })).status).toBe(200);
    expect(await followRow(f.id)).toBeDefined();
    expect((await call(`/bevakningar/avsluta-alla?t=${t}`, { method: 'POST', clock: LINK_AT })).status).toBe(200);
    expect(await followRow(f.id)).toBeUndefined();
    const [{ n }] = await testDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM follow_addresses WHERE id = ${f.addressId}`);
    expect(n).toBe(0);
  });
});

describe('cron: only enqueues, once a day at 08:00 Stockholm', () => {
  for (const [day, actingUtc, idleUtc] of [
    ['2026-03-29', '06:00', '07:00'], // spring forward: 08:00 CEST = 06:00 UTC
    ['2026-10-25', '07:00', '06:00'], // fall back: 08:00 CET = 07:00 UTC
  ] as const) {
    it(`${day}: one message per due item at ${actingUtc} UTC, none at ${idleUtc} UTC`, async () => {
      const { location } = await publicPlace();
      const quiz = await createQuiz(location.id, { date: day });
      await createQuiz(location.id, { date: day, isCancelled: true });
      await createQuiz(location.id, { date: '2026-06-01' });
      const a = await confirmedFollow(location.id);
      const b = await confirmedFollow(location.id);
      const paused = await confirmedFollow(location.id, { reminders: false });
      const pending = await confirmedFollow(location.id, { confirmed: false });
      const mine = new Set([a.id, b.id, paused.id, pending.id]);

      const idle = capturingQueue();
      await runFollowMailCron(env, REMINDER_CRON, new Date(`${day}T${idleUtc}:00Z`), idle);
      expect(idle.bodies.filter((m) => mine.has(m.followId ?? ''))).toEqual([]);

      const acting = capturingQueue();
      await runFollowMailCron(env, REMINDER_CRON, new Date(`${day}T${actingUtc}:00Z`), acting);
      const got = acting.bodies.filter((m) => mine.has(m.followId ?? ''));
      expect(got.sort((x, y) => (x.followId! < y.followId! ? -1 : 1))).toEqual(
        [a.id, b.id].sort().map((followId) => ({ type: 'reminder', followId, quizId: quiz.id, date: day })),
      );
      const [run] = await testDb().all<{ status: string; result: string }>(
        sql`SELECT status, result FROM job_runs WHERE job = 'follow-reminders' ORDER BY started_at DESC, rowid DESC LIMIT 1`,
      );
      expect(run!.status).toBe('done');
    });
  }

  it('the daily run deletes follows never confirmed within 48 h and addresses left without follows', async () => {
    const { location } = await publicPlace();
    const stale = await confirmedFollow(location.id, { confirmed: false });
    const fresh = await confirmedFollow(location.id, { confirmed: false });
    const kept = await confirmedFollow(location.id);
    await testDb().run(sql`UPDATE follows SET created_at = '2026-03-26T00:00:00.000Z' WHERE id IN (${stale.id}, ${kept.id})`);
    await testDb().run(sql`UPDATE follow_addresses SET updated_at = '2026-03-26T00:00:00.000Z' WHERE id IN (${stale.addressId}, ${kept.addressId})`);
    await runFollowMailCron(env, REMINDER_CRON, new Date('2026-03-29T06:00:00Z'), capturingQueue());
    expect(await followRow(stale.id)).toBeUndefined();
    expect(await followRow(fresh.id)).toBeDefined();
    expect(await followRow(kept.id)).toBeDefined();
    const addresses = await testDb().all<{ id: string }>(
      sql`SELECT id FROM follow_addresses WHERE id IN (${stale.addressId}, ${fresh.addressId}, ${kept.addressId})`,
    );
    expect(addresses.map((a) => a.id).sort()).toEqual([fresh.addressId, kept.addressId].sort());
  });

  it('the Monday digest cron enqueues one digest per confirmed follow, only on Mondays at 08:00', async () => {
    const { location } = await publicPlace();
    const a = await confirmedFollow(location.id);
    const pending = await confirmedFollow(location.id, { confirmed: false });
    const monday = capturingQueue();
    await runFollowMailCron(env, DIGEST_CRON, new Date('2026-03-30T06:00:00Z'), monday); // Monday 08:00 CEST
    expect(monday.bodies.filter((m) => m.followId === a.id)).toEqual([{ type: 'digest', followId: a.id, week: '2026-03-30' }]);
    expect(monday.bodies.some((m) => m.followId === pending.id)).toBe(false);
    const tuesday = capturingQueue();
    await runFollowMailCron(env, DIGEST_CRON, new Date('2026-03-31T06:00:00Z'), tuesday);
    expect(tuesday.bodies).toEqual([]);
  });
});

describe('consumer: each mail exactly once', () => {
  it('the same batch twice sends each mail once (worker.queue, createMessageBatch)', async () => {
    const { location } = await publicPlace();
    await createQuiz(location.id, { date: '2030-01-08' });
    const f1 = await confirmedFollow(location.id);
    const f2 = await confirmedFollow(location.id);
    const messages = [f1, f2].map((f, i) => ({
      id: `d${i}-${unique()}`,
      timestamp: new Date('2030-01-07T07:00:00Z'),
      attempts: 1,
      body: { type: 'digest', followId: f.id, week: '2030-01-07' },
    }));
    for (let run = 0; run < 2; run++) {
      const batch = createMessageBatch('quizkvall-mail', messages);
      const ctx = createExecutionContext();
      await worker.queue!(batch as never, env, ctx);
      const result = await getQueueResult(batch, ctx);
      expect(result.explicitAcks.sort()).toEqual(messages.map((m) => m.id).sort());
    }
    for (const f of [f1, f2]) {
      const mails = await mailsTo(f.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain('Veckans quiz');
      expect(mails[0]!.send_key).toBe(`digest:${f.id}:2030-01-07`);
      expect(JSON.parse(mails[0]!.headers!)['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    }
  });

  it('a failure mid-batch retries only that message with back-off; after the retry every mail is sent exactly once', async () => {
    const { location } = await publicPlace();
    const quiz = await createQuiz(location.id, { date: '2026-03-29', startTime: '19:00:00' });
    const fs = [await confirmedFollow(location.id), await confirmedFollow(location.id), await confirmedFollow(location.id)];
    const bodies = fs.map((f) => ({ type: 'reminder', followId: f.id, quizId: quiz.id, date: '2026-03-29' }));
    const deps = consumerDeps('2026-03-29T06:00:00Z');
    let calls = 0;
    const flaky: Mailer = {
      send: (m) => deps.mailer.send(m),
      outbox: (m, k, w) => deps.mailer.outbox(m, k, w),
      deliver: (id) => deps.mailer.deliver(id),
      sendOnce: (m, k) => {
        calls++;
        if (calls === 2) throw new Error('injected failure');
        return deps.mailer.sendOnce(m, k);
      },
    };
    const first = fakeMessages(bodies);
    const logged = expectConsoleError(/follow mail .* failed \(attempt 1\)/);
    await processMailBatch({ ...deps, mailer: flaky }, { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    expect(first.map((m) => m.acked)).toEqual([true, false, true]);
    expect(first[1]!.retried).toBe(30);
    // Redelivery of the whole batch (at-least-once) plus the retried message.
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: fakeMessages(bodies) });
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: fakeMessages([bodies[1]]) });
    for (const f of fs) {
      const mails = await mailsTo(f.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toBe(`Ikväll: pubquiz på ${location.name} kl. 19:00`);
      expect(mails[0]!.text).toMatch(/Sluta bevaka detta: http:\/\/localhost\/bevakningar\/avsluta\?t=/);
      // Add to calendar (issue 17 §2a): the quiz's own .ics download, in the text and the HTML.
      expect(mails[0]!.text).toContain(`Lägg till i kalendern: http://localhost/api/calendar/quiz/${quiz.id}.ics`);
      expect(mails[0]!.html).toContain(`<a href="http://localhost/api/calendar/quiz/${quiz.id}.ics">Lägg till i kalendern</a>`);
    }
    const ics = await call(`/api/calendar/quiz/${quiz.id}.ics`, { clock: '2026-03-29T06:00:00Z' });
    expect(ics.status).toBe(200);
    expect(await ics.text()).toContain('BEGIN:VEVENT');
  });

  it('never mails a pending follow, a cancelled quiz, another day or an empty week', async () => {
    const { location } = await publicPlace();
    const cancelled = await createQuiz(location.id, { date: '2026-03-29', isCancelled: true });
    const quiz = await createQuiz(location.id, { date: '2026-03-29' });
    const pending = await confirmedFollow(location.id, { confirmed: false });
    const ok = await confirmedFollow(location.id);
    const deps = consumerDeps('2026-03-29T06:00:00Z');
    const msgs = fakeMessages([
      { type: 'reminder', followId: pending.id, quizId: quiz.id, date: '2026-03-29' },
      { type: 'reminder', followId: ok.id, quizId: cancelled.id, date: '2026-03-29' },
      { type: 'reminder', followId: ok.id, quizId: quiz.id, date: '2026-03-28' },
      { type: 'digest', followId: ok.id, week: '2031-06-02' },
    ]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: msgs });
    expect(msgs.every((m) => m.acked)).toBe(true);
    expect(await mailsTo(pending.email)).toEqual([]);
    expect(await mailsTo(ok.email)).toEqual([]);
  });

  it('the weekly digest marks quizzes added this week "Nytt" and includes saved searches', async () => {
    const city = uniqueTown();
    const { location } = await publicPlace(city);
    await createQuiz(location.id, { date: '2030-01-08', title: 'Gammal' });
    await testDb().run(sql`UPDATE quizzes SET created_at = '2020-01-01T00:00:00.000Z' WHERE location_id = ${location.id}`);
    await createQuiz(location.id, { date: '2030-01-10', title: 'Färsk' });
    const user = await createUser();
    const made = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { city: location.citySlug } } });
    const deps = consumerDeps('2030-01-07T07:00:00Z');
    await processMailBatch(
      { ...deps, clock: createClock() },
      { queueName: 'quizkvall-mail', messages: fakeMessages([{ type: 'digest', followId: made.body.follow.id, week: '2030-01-07' }]) },
    );
    const [mail] = await mailsTo(user.email);
    expect(mail!.text).toMatch(/\[Nytt\] torsdag 10 januari kl\. 19:00: .* – Färsk/);
    expect(mail!.text).toMatch(/\ntisdag 8 januari kl\. 19:00: .* – Gammal/);
  });

  it('a saved text search gets what the listing shows: descriptions searched, Å/Ä/Ö folded, city and weekday kept', async () => {
    const city = uniqueTown();
    const { location } = await publicPlace(city);
    const other = await publicPlace(uniqueTown());
    const rid = unique('rid');
    for (const date of ['2030-01-08', '2030-01-10', '2030-01-15']) {
      await createQuiz(location.id, {
        date,
        title: 'Tisdagsquiz',
        description: 'Efteråt: ÖLPROVNING i baren',
        isRecurring: true,
        recurrenceId: rid,
        recurrencePattern: 'weekly',
      });
    }
    await createQuiz(location.id, { date: '2030-01-09', title: 'Vanligt quiz', description: 'Inget särskilt' });
    await createQuiz(other.location.id, { date: '2030-01-09', title: 'Annan stad', description: 'Ölprovning' });
    const search = { city: location.citySlug, search: 'ölprovning' };
    const listed = await callJson(`/api/listing?city=${search.city}&search=${encodeURIComponent(search.search)}`, { clock: '2030-01-07T07:00:00Z' });
    expect(listed.body.items.map((i: { title: string }) => i.title)).toEqual(['Tisdagsquiz']);

    const all = await createUser();
    const thursdays = await createUser();
    const a = await callJson('/api/follows', { cookie: all.cookie, body: { filters: search } });
    const t = await callJson('/api/follows', { cookie: thursdays.cookie, body: { filters: { ...search, weekday: 'torsdag' } } });
    const deps = consumerDeps('2030-01-07T07:00:00Z');
    await processMailBatch(deps, {
      queueName: 'quizkvall-mail',
      messages: fakeMessages([
        { type: 'digest', followId: a.body.follow.id, week: '2030-01-07' },
        { type: 'digest', followId: t.body.follow.id, week: '2030-01-07' },
      ]),
    });
    const [mail] = await mailsTo(all.email);
    expect(mail!.text.match(/kl\. 19:00: .* – Tisdagsquiz/g)).toHaveLength(2); // 8 and 10 January, not the 15th
    expect(mail!.text).toMatch(/tisdag 8 januari kl\. 19:00/);
    expect(mail!.text).toMatch(/torsdag 10 januari kl\. 19:00/);
    expect(mail!.text).not.toMatch(/Vanligt quiz|Annan stad/);
    const [thu] = await mailsTo(thursdays.email);
    expect(thu!.text).toMatch(/torsdag 10 januari kl\. 19:00/);
    expect(thu!.text).not.toMatch(/tisdag 8 januari/);
  });

  it('a saved search with quiz filters gets only the dates that pass them, a date edited alone included', async () => {
    const city = uniqueTown();
    const { location } = await publicPlace(city);
    const rid = unique('rid');
    const rows = [];
    for (const date of ['2030-01-08', '2030-01-15']) {
      rows.push(await createQuiz(location.id, { date, title: 'Gratisquiz', price: 0, isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' }));
    }
    await createQuiz(location.id, { date: '2030-01-09', title: 'Dyrt quiz', price: 120 });
    // Price unknown (issue 44.3): not free, so not in a "Gratis" follow.
    await createQuiz(location.id, { date: '2030-01-10', title: 'Okänt pris', price: null });
    const other = await publicPlace(uniqueTown());
    await createQuiz(other.location.id, { date: '2030-01-10', title: 'Gratis men annan stad', price: 0 });
    const user = await createUser();
    const made = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { city: location.citySlug, price: 'gratis' } } });
    expect(made.status).toBe(201);
    await processMailBatch(consumerDeps('2030-01-07T07:00:00Z'), {
      queueName: 'quizkvall-mail',
      messages: fakeMessages([{ type: 'digest', followId: made.body.follow.id, week: '2030-01-07' }]),
    });
    const [mail] = await mailsTo(user.email);
    expect(mail!.subject + mail!.text).toMatch(/Gratis/);
    expect(mail!.text).toMatch(/tisdag 8 januari kl\. 19:00: .* – Gratisquiz/);
    expect(mail!.text).not.toMatch(/Dyrt quiz|annan stad|Okänt pris/);
    // This week's date edited alone to 60 kr (the series' latest date, which the unit's filter columns copy, is
    // still free): the digest leaves it out.
    await testDb().run(sql`UPDATE quizzes SET price = 60 WHERE id = ${rows[0]!.id}`);
    const next = await createUser();
    const again = await callJson('/api/follows', { cookie: next.cookie, body: { filters: { city: location.citySlug, price: 'gratis' } } });
    await processMailBatch(consumerDeps('2030-01-07T07:00:00Z'), {
      queueName: 'quizkvall-mail',
      messages: fakeMessages([{ type: 'digest', followId: again.body.follow.id, week: '2030-01-07' }]),
    });
    expect((await mailsTo(next.email)).filter((m) => /Gratisquiz/.test(m.text))).toHaveLength(0);
  });

  it("a saved text search with more than two pages of matching places gets every one (the listing's total is only a lower bound)", async () => {
    const tag = unique('Mångsök');
    const titles: string[] = [];
    for (let i = 0; i < 30; i++) {
      const { location } = await publicPlace(uniqueTown());
      titles.push(`${tag} ${i}`);
      await createQuiz(location.id, { date: '2030-01-09', title: `${tag} ${i}` });
    }
    const user = await createUser();
    const made = await callJson('/api/follows', { cookie: user.cookie, body: { filters: { search: tag } } });
    await processMailBatch(consumerDeps('2030-01-07T07:00:00Z'), {
      queueName: 'quizkvall-mail',
      messages: fakeMessages([{ type: 'digest', followId: made.body.follow.id, week: '2030-01-07' }]),
    });
    const [mail] = await mailsTo(user.email);
    for (const title of titles) expect(mail!.text).toContain(`– ${title}\n`);
  });

  it('poison messages and dead letters are recorded for the superadmin', async () => {
    const deps = consumerDeps('2026-03-29T06:00:00Z');
    const poison = fakeMessages([{ type: 'nonsense', id: unique() }]);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: poison });
    expect(poison[0]!.acked).toBe(true);
    const dead = {
      id: `dlq-${unique()}`,
      timestamp: new Date('2026-03-29T06:00:00Z'),
      attempts: 6,
      body: { type: 'reminder', followId: 'x', quizId: 'y', date: '2026-03-29' },
    };
    const batch = createMessageBatch('quizkvall-mail-dlq', [dead]);
    const ctx = createExecutionContext();
    await worker.queue!(batch as never, env, ctx);
    expect((await getQueueResult(batch, ctx)).explicitAcks).toEqual([dead.id]);
    const admin = await createUser({ roles: ['superadmin'] });
    const owner = await createUser();
    const list = await callJson('/api/admin/dead-letters', { cookie: admin.cookie });
    expect(list.status).toBe(200);
    const ids = list.body.deadLetters.map((d: { messageId: string }) => d.messageId);
    expect(ids).toContain(dead.id);
    expect(ids).toContain(poison[0]!.id);
    expect((await callJson('/api/admin/dead-letters', { cookie: owner.cookie })).status).toBe(403);
    expect((await callJson('/api/admin/dead-letters')).status).toBe(401);
    const stats = await callJson('/api/admin/follows/stats', { cookie: admin.cookie });
    expect(stats.status).toBe(200);
    expect(JSON.stringify(stats.body)).not.toContain('@');
  });
});

describe('invariants of follow mail (also checked by the soak)', () => {
  const inv = (name: string) => INVARIANTS.find((i) => i.name.startsWith(name))!;
  it('"no follow without a confirmed address is mailed" finds a reminder to a pending follow', async () => {
    const { location } = await publicPlace();
    const pending = await confirmedFollow(location.id, { confirmed: false });
    const check = inv('no follow without a confirmed address');
    const mine = async () => (await testDb().all<{ follow_id: string }>(sql.raw(check.sql))).filter((r) => r.follow_id === pending.id);
    expect(await mine()).toEqual([]);
    await testDb().run(
      sql`INSERT INTO mail_outbox (id, to_email, subject, text, status, send_key) VALUES (${newId()}, ${pending.email}, 'x', 'x', 'sent', ${`reminder:${pending.id}:q`})`,
    );
    expect(await mine()).toHaveLength(1);
    await testDb().run(sql`DELETE FROM mail_outbox WHERE send_key = ${`reminder:${pending.id}:q`}`);
    expect(await testDb().all(sql.raw(inv('no duplicate send key').sql))).toEqual([]);
  });
});
