/**
 * Issue 47 "Vi kommer": RSVP with double opt-in, the guarded confirmation under a race (50 against 10 tables),
 * the waitlist and its offers (cancel → jobs queue → offer mail; a lapsed offer goes on), reminders once at
 * Stockholm times, the owner's view and CSV, refusals that store nothing, the listing's figures and privacy.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { DEV_LINK_SIGNING_SECRET } from '../../worker/env';
import { batchableRun } from '../../worker/db/batch';
import { newId } from '../../worker/lib/ids';
import { signLink } from '../../worker/lib/signed-link';
import { forgetRsvpAddresses, offerFreeTables, runRsvpSweep } from '../../worker/features/rsvp/service';
import { RSVP_PENDING_MESSAGE } from '../../worker/features/rsvp/contract';
import { call, callJson, createOwnerWithPlace, createQuiz, createUser, snapshot, testDb, testDeps, unique } from '../factories';

/** Requests are made a week before the night (Stockholm: Thursday 2026-12-10, 19:00 = 18:00 UTC). */
const NOW = '2026-12-03T12:00:00.000Z';
const NIGHT = '2026-12-10';
const RSVP_TABLES = ['rsvps', 'rsvp_counts', 'rsvp_settings', 'mail_outbox', 'used_links', 'quizzes'];

interface OutboxRow {
  to_email: string;
  subject: string;
  text: string;
  send_key: string | null;
}
async function mailsTo(email: string): Promise<OutboxRow[]> {
  return testDb().all<OutboxRow>(sql`SELECT to_email, subject, text, send_key FROM mail_outbox WHERE to_email = ${email} ORDER BY created_at, rowid`);
}
/** Offers are made by the jobs queue's consumer: wait for the mail (a record), never sleep to prove absence. */
async function waitForMail(email: string, subjectPart: string, timeoutMs = 20_000): Promise<OutboxRow> {
  const until = performance.now() + timeoutMs; // elapsed time, not a date
  for (;;) {
    const m = (await mailsTo(email)).find((r) => r.subject.includes(subjectPart));
    if (m) return m;
    if (performance.now() > until) throw new Error(`no mail "${subjectPart}" to ${email}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}
const linkIn = (text: string, path: string) => {
  const m = new RegExp(`https?://[^\\s]+${path.replace(/\//g, '\\/')}\\?t=[A-Za-z0-9_.-]+`).exec(text);
  if (!m) throw new Error(`no ${path} link in: ${text}`);
  return m[0].replace(/^https?:\/\/[^/]+/, '');
};
const email = () => `${unique('lag')}@test.local`;

async function night(over: Parameters<typeof createQuiz>[1] = {}) {
  const { user, venue, location } = await createOwnerWithPlace();
  const quiz = await createQuiz(location.id, { date: NIGHT, startTime: '19:00:00', ...over });
  return { owner: user, venue, location, quiz };
}

async function rsvp(quizId: string, to: string, teamSize = 4, clock = NOW) {
  return callJson(`/api/quizzes/${quizId}/rsvp`, { body: { email: to, teamSize }, clock });
}

/** RSVPs and confirms by the mailed link; answers the confirmation page's HTML. */
async function rsvpAndConfirm(quizId: string, to: string, teamSize = 4, clock = NOW): Promise<string> {
  expect((await rsvp(quizId, to, teamSize, clock)).status).toBe(202);
  const mail = await waitForMail(to, 'Bekräfta att ni kommer');
  const res = await call(linkIn(mail.text, '/vi-kommer/bekrafta'), { method: 'POST', clock });
  expect(res.status).toBe(200);
  return res.text();
}

async function counts(quizId: string, clock = NOW) {
  return (await callJson(`/api/quizzes/${quizId}/rsvp`, { clock })).body;
}

async function states(quizId: string): Promise<Record<string, number>> {
  const rows = await testDb().all<{ state: string; n: number }>(sql`SELECT state, count(*) AS n FROM rsvps WHERE quiz_id = ${quizId} GROUP BY state`);
  return Object.fromEntries(rows.map((r) => [r.state, r.n]));
}

describe('RSVP: double opt-in and the counts', () => {
  it('a visitor RSVPs (202, one confirmation mail with "Vi kan inte komma"), confirms by the link and counts; the link works once', async () => {
    const { quiz } = await night();
    const to = email();
    const res = await rsvp(quiz.id, to, 3);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ message: RSVP_PENDING_MESSAGE });
    // Pending RSVPs do not count.
    expect(await counts(quiz.id)).toMatchObject({ teams: 0, seats: 0, tablesLeft: null, full: null, waitlist: 0, mode: 'rsvp' });
    const [mail] = await mailsTo(to);
    expect(mail!.subject).toContain('Bekräfta att ni kommer');
    expect(mail!.text).toContain('Vi kan inte komma: ');
    const confirm = linkIn(mail!.text, '/vi-kommer/bekrafta');
    // A GET never acts (mail scanners prefetch).
    const page = await call(confirm, { clock: NOW });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('Vi kommer');
    expect(await counts(quiz.id)).toMatchObject({ teams: 0 });
    const done = await call(confirm, { method: 'POST', clock: NOW });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Ert lag är anmält');
    const after = await callJson(`/api/quizzes/${quiz.id}/rsvp`, { clock: NOW });
    expect(after.res.headers.get('cache-control')).toBe('no-store');
    expect(after.body).toMatchObject({ teams: 1, seats: 3, tablesLeft: null, full: null, waitlist: 0 });
    const again = await call(confirm, { method: 'POST', clock: NOW });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Länken har redan använts.');
  });

  it('one live RSVP per address and night: a second request sends nothing and answers the same', async () => {
    const { quiz } = await night();
    const to = email();
    expect((await rsvp(quiz.id, to)).status).toBe(202);
    const second = await rsvp(quiz.id, to, 6);
    expect(second.status).toBe(202);
    expect(second.body).toEqual({ message: RSVP_PENDING_MESSAGE });
    expect(await mailsTo(to)).toHaveLength(1);
    expect(await states(quiz.id)).toEqual({ pending: 1 });
  });

  it('a signed-in user confirms with one click (201), gets a receipt with the cancel link, and cannot RSVP twice', async () => {
    const { quiz } = await night({ capacityTables: 5 });
    const user = await createUser();
    const first = await callJson(`/api/quizzes/${quiz.id}/rsvp`, { body: { teamSize: 2 }, cookie: user.cookie, clock: NOW });
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ state: 'confirmed' });
    expect(await counts(quiz.id)).toMatchObject({ teams: 1, seats: 2, tablesLeft: 4, full: false });
    const [receipt] = await mailsTo(user.email);
    expect(receipt!.subject).toContain('Vi kommer');
    expect(receipt!.text).toContain('/vi-kommer/avboka?t=');
    const second = await callJson(`/api/quizzes/${quiz.id}/rsvp`, { body: { teamSize: 2 }, cookie: user.cookie, clock: NOW });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('Ert lag är redan anmält till den här kvällen.');
  });

  it('the per-address limit: the sixth request for one address within the hour is 429 and stores nothing', async () => {
    const { quiz } = await night();
    const to = email();
    const others = await Promise.all(Array.from({ length: 5 }, () => night()));
    for (const o of others) expect((await rsvp(o.quiz.id, to)).status).toBe(202);
    const before = await snapshot(['rsvps', 'mail_outbox']);
    const refused = await rsvp(quiz.id, to);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^För många anmälningar för den här adressen/);
    expect(await snapshot(['rsvps', 'mail_outbox'])).toEqual(before);
  });
});

describe('RSVP: the per-client limit', () => {
  it('the eleventh request from one client within the hour is 429 with a Swedish message, nothing stored', async () => {
    const { quiz } = await night();
    const headers = { 'cf-connecting-ip': `203.0.113.${unique()}` };
    for (let i = 0; i < 10; i++)
      expect((await callJson(`/api/quizzes/${quiz.id}/rsvp`, { body: { email: email(), teamSize: 2 }, clock: NOW, headers })).status).toBe(202);
    const before = await snapshot(['rsvps', 'mail_outbox']);
    const refused = await callJson(`/api/quizzes/${quiz.id}/rsvp`, { body: { email: email(), teamSize: 2 }, clock: NOW, headers });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^För många försök från din anslutning/);
    expect(await snapshot(['rsvps', 'mail_outbox'])).toEqual(before);
  });
});

describe('RSVP: capacity under a race', () => {
  it('50 parallel confirmations against 10 tables give exactly 10 confirmed and 40 queued', async () => {
    const { quiz } = await night({ capacityTables: 10 });
    const db = testDb();
    const ids = Array.from({ length: 50 }, () => newId());
    await db.batch(
      ids.map((id, i) =>
        batchableRun(
          db,
          sql`INSERT INTO rsvps (id, quiz_id, email, team_size) VALUES (${id}, ${quiz.id}, ${`race${i}-${unique()}@test.local`}, ${1 + (i % 8)})`,
        ),
      ) as never,
    );
    const at = new Date(NOW);
    const links = await Promise.all(ids.map((id) => signLink(DEV_LINK_SIGNING_SECRET, 'rsvp-confirm', id, 3600, at)));
    const answers = await Promise.all(links.map((t) => call(`/vi-kommer/bekrafta?t=${t}`, { method: 'POST', clock: NOW })));
    expect(answers.map((r) => r.status)).toEqual(ids.map(() => 200));
    expect(await states(quiz.id)).toEqual({ confirmed: 10, queued: 40 });
    const [c] = await db.all<{ teams: number; held: number; queued: number }>(sql`SELECT teams, held, queued FROM rsvp_counts WHERE quiz_id = ${quiz.id}`);
    expect(c).toEqual({ teams: 10, held: 10, queued: 40 });
    expect(await counts(quiz.id)).toMatchObject({ teams: 10, tablesLeft: 0, full: true, waitlist: 40 });
  });
});

/** A night of one table whose two teams wait in the queue (b queued first, then c), written directly. */
async function fullNightWithTwoQueued() {
  const { quiz } = await night({ capacityTables: 1 });
  const db = testDb();
  const [b, c] = [newId(), newId()];
  const cEmail = email();
  const queued = (id: string, address: string, at: string) =>
    batchableRun(
      db,
      sql`INSERT INTO rsvps (id, quiz_id, email, team_size, state, queued_at, confirmed_at) VALUES (${id}, ${quiz.id}, ${address}, 4, 'queued', ${at}, ${at})`,
    );
  await db.batch([queued(b, email(), '2026-12-01T10:00:00.000Z'), queued(c, cEmail, '2026-12-01T11:00:00.000Z')] as never);
  return { quiz, db, b, cEmail };
}
describe('RSVP: the waitlist', () => {
  it('a cancellation offers the table to the head of the queue by the jobs queue; the offered team confirms', async () => {
    const { quiz } = await night({ capacityTables: 1 });
    const a = email();
    const b = email();
    const c = email();
    expect(await rsvpAndConfirm(quiz.id, a)).toContain('Ert lag är anmält');
    expect(await rsvpAndConfirm(quiz.id, b)).toContain('står i kö');
    expect(await rsvpAndConfirm(quiz.id, c)).toContain('står i kö');
    expect(await counts(quiz.id)).toMatchObject({ teams: 1, tablesLeft: 0, full: true, waitlist: 2 });
    // "Vi kan inte komma" from A's mail: one click (the POST needs no Origin: RFC 8058 style).
    const cancel = linkIn((await mailsTo(a))[0]!.text, '/vi-kommer/avboka');
    const res = await call(cancel, { method: 'POST', clock: NOW, noOrigin: true });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('är avbokad');
    // B and C queued at the same pinned instant: the earlier RSVP is the head.
    const offer = await waitForMail(b, 'Ett bord är ledigt');
    expect(offer.text).toContain('Vi kan inte komma: ');
    expect(await states(quiz.id)).toEqual({ cancelled: 1, offered: 1, queued: 1 });
    // The offered table is held: a new confirmation queues.
    expect(await counts(quiz.id)).toMatchObject({ teams: 0, tablesLeft: 0, full: true, waitlist: 1 });
    const taken = await call(linkIn(offer.text, '/vi-kommer/bekrafta'), { method: 'POST', clock: NOW });
    expect(taken.status).toBe(200);
    expect(await taken.text()).toContain('Ert lag är anmält');
    expect(await states(quiz.id)).toEqual({ cancelled: 1, confirmed: 1, queued: 1 });
    expect((await mailsTo(c)).some((m) => m.subject.includes('Ett bord är ledigt'))).toBe(false);
  });

  it('an offer holds 2 h (or until 1 h before the start); the sweep then gives it up and offers the next team', async () => {
    const { quiz, db, b, cEmail } = await fullNightWithTwoQueued();
    // 17:00 Stockholm on the night (16:00 UTC): the offer holds until 18:00 (1 h before 19:00), not 2 h.
    const late = '2026-12-10T16:00:00.000Z';
    const delivery: string[] = [];
    expect(await offerFreeTables(testDeps({ now: late }), { quizId: quiz.id, delivery })).toBe(1);
    const [offered] = await db.all<{ id: string; offer_expires_at: string }>(
      sql`SELECT id, offer_expires_at FROM rsvps WHERE state = 'offered' AND quiz_id = ${quiz.id}`,
    );
    expect(offered).toEqual({ id: b, offer_expires_at: '2026-12-10T17:00:00.000Z' });
    const fakeQueue = { sendBatch: async () => undefined };
    // Before it lapses nothing moves; at 18:00 it lapses, but no new offer is made within the last hour.
    await runRsvpSweep(testDeps({ now: '2026-12-10T16:59:00.000Z' }), { delivery: fakeQueue });
    expect(await states(quiz.id)).toEqual({ offered: 1, queued: 1 });
    await runRsvpSweep(testDeps({ now: '2026-12-10T17:00:00.000Z' }), { delivery: fakeQueue });
    expect(await states(quiz.id)).toEqual({ cancelled: 1, queued: 1 });
    expect((await mailsTo(cEmail)).length).toBe(0);
  });

  it('an offer made the day before holds 2 h; the sweep offers the next team when it lapses', async () => {
    const { quiz, db, b, cEmail } = await fullNightWithTwoQueued();
    const fakeQueue = { sendBatch: async () => undefined };
    // Other tests' nights share the database: judge this night's rows, not the sweep's totals.
    await runRsvpSweep(testDeps({ now: '2026-12-09T10:00:00.000Z' }), { delivery: fakeQueue });
    expect(await states(quiz.id)).toEqual({ offered: 1, queued: 1 });
    const [o] = await db.all<{ offer_expires_at: string }>(sql`SELECT offer_expires_at FROM rsvps WHERE id = ${b}`);
    expect(o!.offer_expires_at).toBe('2026-12-09T12:00:00.000Z');
    await runRsvpSweep(testDeps({ now: '2026-12-09T11:59:00.000Z' }), { delivery: fakeQueue });
    expect(await states(quiz.id)).toEqual({ offered: 1, queued: 1 });
    await runRsvpSweep(testDeps({ now: '2026-12-09T12:00:00.000Z' }), { delivery: fakeQueue });
    expect(await states(quiz.id)).toEqual({ cancelled: 1, offered: 1 });
    expect((await mailsTo(cEmail)).map((m) => m.subject)).toEqual([expect.stringContaining('Ett bord är ledigt')]);
  });
});

describe('RSVP: reminders once, at Stockholm times', () => {
  for (const [season, date, start, mailAt, pushAt] of [
    ['summer (CEST)', '2026-07-15', '19:00:00', '2026-07-14T17:00:00.000Z', '2026-07-15T15:00:00.000Z'],
    ['winter (CET)', '2026-01-14', '19:00:00', '2026-01-13T18:00:00.000Z', '2026-01-14T16:00:00.000Z'],
  ] as const) {
    it(`${season}: the mail 24 h before, once; the push claim 2 h before, once`, async () => {
      const { quiz } = await night({ date, startTime: start });
      const to = email();
      const id = newId();
      const db = testDb();
      await batchableRun(
        db,
        sql`INSERT INTO rsvps (id, quiz_id, email, team_size, state, confirmed_at) VALUES (${id}, ${quiz.id}, ${to}, 4, 'confirmed', '2026-01-01T00:00:00.000Z')`,
      );
      const q = { sendBatch: async () => undefined };
      const minuteBefore = new Date(new Date(mailAt).getTime() - 60_000).toISOString();
      await runRsvpSweep(testDeps({ now: minuteBefore }), { delivery: q });
      expect(await mailsTo(to)).toHaveLength(0);
      await runRsvpSweep(testDeps({ now: mailAt }), { delivery: q });
      await runRsvpSweep(testDeps({ now: new Date(new Date(mailAt).getTime() + 15 * 60_000).toISOString() }), { delivery: q });
      const mails = await mailsTo(to);
      expect(mails.map((m) => m.send_key)).toEqual([`rsvp-reminder:${id}`]);
      expect(mails[0]!.text).toContain('Vi kan inte komma: ');
      const pushBefore = new Date(new Date(pushAt).getTime() - 60_000).toISOString();
      await runRsvpSweep(testDeps({ now: pushBefore }), { delivery: q });
      expect((await db.all<{ p: string | null }>(sql`SELECT reminder_push_at AS p FROM rsvps WHERE id = ${id}`))[0]!.p).toBeNull();
      await runRsvpSweep(testDeps({ now: pushAt }), { delivery: q });
      await runRsvpSweep(testDeps({ now: new Date(new Date(pushAt).getTime() + 15 * 60_000).toISOString() }), { delivery: q });
      expect((await db.all<{ p: string | null }>(sql`SELECT reminder_push_at AS p FROM rsvps WHERE id = ${id}`))[0]!.p).toBe(pushAt);
      expect(await mailsTo(to)).toHaveLength(1);
    });
  }
});

describe('RSVP: push where the team subscribed', () => {
  it("the 2 h reminder and an offer go to the browsers of the team's confirmed follow of the place, once", async () => {
    const { quiz, location } = await night({ capacityTables: 1 });
    const db = testDb();
    const [coming, waiting, addr, follow] = [newId(), newId(), newId(), newId()];
    const waitingEmail = email();
    await db.batch([
      batchableRun(db, sql`INSERT INTO follow_addresses (id, email, confirmed_at) VALUES (${addr}, ${waitingEmail}, '2026-01-01T00:00:00.000Z')`),
      batchableRun(
        db,
        sql`INSERT INTO follows (id, address_id, kind, location_id, target_key, confirmed_at) VALUES (${follow}, ${addr}, 'place', ${location.id}, ${`place:${location.id}`}, '2026-01-01T00:00:00.000Z')`,
      ),
      batchableRun(
        db,
        sql`INSERT INTO push_subscriptions (id, follow_id, endpoint, p256dh, auth) VALUES (${newId()}, ${follow}, 'https://fcm.googleapis.com/fcm/send/rsvp-test', 'k', 'a')`,
      ),
      batchableRun(
        db,
        sql`INSERT INTO rsvps (id, quiz_id, email, team_size, state, confirmed_at) VALUES (${coming}, ${quiz.id}, ${email()}, 4, 'confirmed', '2026-01-01T00:00:00.000Z')`,
      ),
      batchableRun(
        db,
        sql`INSERT INTO rsvps (id, quiz_id, email, team_size, state, confirmed_at, queued_at) VALUES (${waiting}, ${quiz.id}, ${waitingEmail}, 4, 'queued', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')`,
      ),
    ] as never);
    const sent: Array<{ endpoint: string; tag: string; followId: string }> = [];
    const push = {
      publicKey: 'x',
      send: async (t: { endpoint: string }, n: { tag: string; followId: string }) => {
        sent.push({ endpoint: t.endpoint, tag: n.tag, followId: n.followId });
        return 'sent' as const;
      },
    };
    const deps = (now: string) => testDeps({ now, ports: { push: () => push } });
    // The first team cancels: the queue's head is offered the table by mail and by push.
    await db.run(sql`UPDATE rsvps SET state = 'cancelled' WHERE id = ${coming}`);
    expect(await offerFreeTables(deps('2026-12-10T10:00:00.000Z'), { quizId: quiz.id, delivery: [] })).toBe(1);
    expect(sent).toEqual([{ endpoint: 'https://fcm.googleapis.com/fcm/send/rsvp-test', tag: `rsvp-offer:${waiting}`, followId: follow }]);
    await call(linkIn((await waitForMail(waitingEmail, 'Ett bord är ledigt')).text, '/vi-kommer/bekrafta'), {
      method: 'POST',
      clock: '2026-12-10T10:30:00.000Z',
    });
    expect(await states(quiz.id)).toEqual({ cancelled: 1, confirmed: 1 });
    // 2 h before 19:00 (16:00 UTC in December): the push reminder, once.
    const q = { sendBatch: async () => undefined };
    await runRsvpSweep(deps('2026-12-10T16:00:00.000Z'), { delivery: q });
    await runRsvpSweep(deps('2026-12-10T16:15:00.000Z'), { delivery: q });
    expect(sent.map((s) => s.tag)).toEqual([`rsvp-offer:${waiting}`, `rsvp:${waiting}`]);
  });
});

describe('RSVP: refusals store nothing', () => {
  const bad: Array<[string, unknown, RegExp]> = [
    ['no team size', { email: 'a@test.local' }, /Lagstorlek/],
    ['team size 0', { email: 'a@test.local', teamSize: 0 }, /Lagstorlek måste vara minst 1/],
    ['team size 9', { email: 'a@test.local', teamSize: 9 }, /Lagstorlek får vara högst 8/],
    ['team size 2.5', { email: 'a@test.local', teamSize: 2.5 }, /Lagstorlek/],
    ['team size as text', { email: 'a@test.local', teamSize: '4' }, /Lagstorlek/],
    ['no e-mail (visitor)', { teamSize: 4 }, /E-postadress krävs/],
    ['bad e-mail', { email: 'inte-en-adress', teamSize: 4 }, /Ogiltig e-postadress/],
    ['hostile e-mail', { email: '<script>@x\u0000.se', teamSize: 4 }, /E-post/],
  ];
  for (const [name, body, message] of bad) {
    it(`bad input: ${name} → 400 naming the field`, async () => {
      const { quiz } = await night();
      const before = await snapshot(RSVP_TABLES);
      const res = await callJson(`/api/quizzes/${quiz.id}/rsvp`, { body, clock: NOW });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body.error)).toMatch(message);
      expect(await snapshot(RSVP_TABLES)).toEqual(before);
    });
  }

  it('a past, a cancelled, a hidden or a missing occurrence, and a series with RSVPs off: the right status and a Swedish message', async () => {
    const past = await night({ date: '2026-12-03', startTime: '12:00:00' });
    const cancelled = await night({ isCancelled: true });
    const hidden = await night();
    await testDb().run(sql`UPDATE venues SET is_public = 0 WHERE id = ${hidden.venue.id}`);
    const off = await night();
    const external = await night();
    await testDb().run(sql`INSERT INTO rsvp_settings (series_key, rsvp_off) VALUES (${off.quiz.id}, 1)`);
    await testDb().run(sql`INSERT INTO rsvp_settings (series_key, booking_phone) VALUES (${external.quiz.id}, '08-123 45')`);
    const before = await snapshot(RSVP_TABLES);
    const cases: Array<[string, number, string]> = [
      [past.quiz.id, 409, 'Quizet har redan varit.'],
      [cancelled.quiz.id, 409, 'Quizet är inställt den här kvällen.'],
      [hidden.quiz.id, 404, 'Quizet finns inte.'],
      [newId(), 404, 'Quizet finns inte.'],
      [off.quiz.id, 409, 'Stället tar inte emot anmälningar till det här quizet.'],
      [external.quiz.id, 409, 'Boka bord hos stället: anmälan görs inte här.'],
    ];
    for (const [id, status, message] of cases) {
      const res = await rsvp(id, email());
      expect([id, res.status, res.body.error?.message]).toEqual([id, status, message]);
    }
    expect(await snapshot(RSVP_TABLES)).toEqual(before);
    expect(await counts(external.quiz.id)).toMatchObject({ mode: 'external', bookingPhone: '08-123 45' });
  });
});

describe('RSVP: the owner', () => {
  const edit = (over: Record<string, unknown>) => ({ date: NIGHT, startTime: '19:00', category: 'allmänbildning', ...over });

  it('sets capacityTables on a quiz (number or null); someone else gets 403 and bad numbers 400, nothing stored', async () => {
    const { owner, quiz } = await night();
    const other = await createUser();
    const before = await snapshot(RSVP_TABLES);
    const foreign = await callJson(`/api/owner/quizzes/${quiz.id}`, { method: 'PATCH', body: edit({ capacityTables: 3 }), cookie: other.cookie, clock: NOW });
    expect(foreign.status).toBe(403);
    for (const bad of [0, 501, 1.5, '3', -1]) {
      const res = await callJson(`/api/owner/quizzes/${quiz.id}`, { method: 'PATCH', body: edit({ capacityTables: bad }), cookie: owner.cookie, clock: NOW });
      expect(res.status, String(bad)).toBe(400);
      expect(JSON.stringify(res.body.error)).toMatch(/Antal bord/);
    }
    expect(await snapshot(RSVP_TABLES)).toEqual(before);
    const ok = await callJson(`/api/owner/quizzes/${quiz.id}`, { method: 'PATCH', body: edit({ capacityTables: 2 }), cookie: owner.cookie, clock: NOW });
    expect(ok.status).toBe(200);
    expect(await counts(quiz.id)).toMatchObject({ tablesLeft: 2, full: false });
    // Missing leaves it; null removes the limit.
    await callJson(`/api/owner/quizzes/${quiz.id}`, { method: 'PATCH', body: edit({ price: 20 }), cookie: owner.cookie, clock: NOW });
    expect(await counts(quiz.id)).toMatchObject({ tablesLeft: 2 });
    await callJson(`/api/owner/quizzes/${quiz.id}`, { method: 'PATCH', body: edit({ capacityTables: null }), cookie: owner.cookie, clock: NOW });
    expect(await counts(quiz.id)).toMatchObject({ tablesLeft: null, full: null });
  });

  it('sets capacityTables on a whole series (future dates), and the listing items carry teams and tablesLeft', async () => {
    const { user: owner, location } = await createOwnerWithPlace('Rsvpby');
    const created = await callJson('/api/owner/quizzes', {
      body: { locationId: location.id, date: NIGHT, startTime: '19:00', category: 'allmänbildning', recurring: true, until: '2026-12-31' },
      cookie: owner.cookie,
      clock: NOW,
    });
    expect(created.status).toBe(201);
    const rid = created.body.recurrenceId as string;
    const res = await callJson(`/api/owner/series/${rid}`, {
      method: 'PATCH',
      body: { startTime: '19:00', category: 'allmänbildning', capacityTables: 4 },
      cookie: owner.cookie,
      clock: NOW,
    });
    expect(res.status).toBe(200);
    const caps = await testDb().all<{ c: number | null }>(sql`SELECT capacity_tables AS c FROM quizzes WHERE recurrence_id = ${rid}`);
    expect(caps.map((r) => r.c)).toEqual(caps.map(() => 4));
    const first = created.body.firstId as string;
    await rsvpAndConfirm(first, email());
    const listing = await callJson(`/api/listing?city=rsvpby&date=${NIGHT}`, { clock: NOW });
    const item = (listing.body.items as Array<{ id: string; teams: number; tablesLeft: number | null }>).find((i) => i.id === first);
    expect(item).toMatchObject({ teams: 1, tablesLeft: 3 });
    for (const i of listing.body.items as Array<{ teams: unknown; tablesLeft: unknown }>) {
      expect(typeof i.teams).toBe('number');
      expect(i.tablesLeft === null || typeof i.tablesLeft === 'number').toBe(true);
    }
  });

  it("sees each date's teams, queue and cancellations (addresses of live teams only) and a CSV with neutralised cells; others get 403", async () => {
    const { owner, quiz } = await night({ capacityTables: 1 });
    const hostile = `=cmd|calc${unique()}@test.local`;
    await rsvpAndConfirm(quiz.id, hostile, 2);
    const queued = email();
    await rsvpAndConfirm(quiz.id, queued, 5);
    const view = await callJson(`/api/owner/rsvp/quizzes/${quiz.id}`, { cookie: owner.cookie, clock: NOW });
    expect(view.status).toBe(200);
    expect(view.body).toMatchObject({ teams: 1, seats: 2, tablesLeft: 0, waitlist: 1 });
    expect(view.body.confirmed.map((r: { email: string }) => r.email)).toEqual([hostile]);
    expect(view.body.queue.map((r: { email: string; teamSize: number }) => [r.email, r.teamSize])).toEqual([[queued, 5]]);
    const csv = await call(`/api/owner/rsvp/quizzes/${quiz.id}/export.csv`, { cookie: owner.cookie, clock: NOW });
    expect(csv.status).toBe(200);
    const text = await csv.text();
    expect(text).toContain(`'${hostile}`);
    expect(text).not.toMatch(/(^|,)=cmd/m);
    const other = await createUser();
    expect((await call(`/api/owner/rsvp/quizzes/${quiz.id}`, { cookie: other.cookie, clock: NOW })).status).toBe(403);
    expect((await call(`/api/owner/rsvp/quizzes/${quiz.id}/export.csv`, { cookie: other.cookie, clock: NOW })).status).toBe(403);
    expect((await call(`/api/owner/rsvp/quizzes/${quiz.id}`, { clock: NOW })).status).toBe(401);
  });

  it('switches RSVPs off for the series and gives a booking link instead', async () => {
    const { owner, quiz } = await night();
    const bad = await callJson(`/api/owner/rsvp/quizzes/${quiz.id}/settings`, {
      method: 'PUT',
      body: { rsvpOff: false, bookingUrl: 'javascript:alert(1)' },
      cookie: owner.cookie,
      clock: NOW,
    });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toMatch(/Bokningslänken måste börja med https:\/\//);
    const ok = await callJson(`/api/owner/rsvp/quizzes/${quiz.id}/settings`, {
      method: 'PUT',
      body: { rsvpOff: false, bookingUrl: 'https://bord.example/boka' },
      cookie: owner.cookie,
      clock: NOW,
    });
    expect(ok.status).toBe(200);
    expect(await counts(quiz.id)).toMatchObject({ mode: 'external', bookingUrl: 'https://bord.example/boka' });
    expect((await rsvp(quiz.id, email())).status).toBe(409);
  });
});

describe('RSVP: public pages', () => {
  it("the venue page's Event JSON-LD carries remainingAttendeeCapacity only when a capacity is set; the card line shows the figures", async () => {
    const { quiz, venue, location } = await night({ capacityTables: 3 });
    const other = await createQuiz(location.id, { date: '2026-12-17', startTime: '19:00:00' });
    await rsvpAndConfirm(quiz.id, email());
    const html = await (await call(`/quiz/${location.citySlug}/${venue.slug}`, { clock: NOW })).text();
    const events = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)]
      .flatMap((m) => [JSON.parse(m[1]!)].flat())
      .filter((e: { '@type'?: string }) => e['@type'] === 'Event') as Array<{ startDate: string; remainingAttendeeCapacity?: number }>;
    const byDate = Object.fromEntries(events.map((e) => [e.startDate.slice(0, 10), e]));
    expect(byDate[NIGHT]!.remainingAttendeeCapacity).toBe(2);
    expect(byDate[other.date]).toBeDefined();
    expect('remainingAttendeeCapacity' in byDate[other.date]!).toBe(false);
    expect(html).toContain('1 lag kommer · 2 bord kvar');
  });
});

describe('RSVP: D1 rows per request', () => {
  it('RSVP, counts, confirm, cancel and the owner view each read at most 50 rows (a night with 12 teams)', async () => {
    const { owner, quiz } = await night({ capacityTables: 10 });
    for (let i = 0; i < 12; i++) await rsvpAndConfirm(quiz.id, email(), 1 + (i % 8));
    const rows = (res: Response) => Number(res.headers.get('x-d1-rows-read'));
    const to = email();
    const measured: Record<string, number> = {};
    measured['POST rsvp (visitor)'] = rows((await rsvp(quiz.id, to)).res);
    const mail = await waitForMail(to, 'Bekräfta att ni kommer');
    measured['GET rsvp'] = rows(await call(`/api/quizzes/${quiz.id}/rsvp`, { clock: NOW }));
    measured['POST confirm'] = rows(await call(linkIn(mail.text, '/vi-kommer/bekrafta'), { method: 'POST', clock: NOW }));
    measured['POST cancel'] = rows(await call(linkIn(mail.text, '/vi-kommer/avboka'), { method: 'POST', clock: NOW }));
    measured['GET owner view'] = rows(await call(`/api/owner/rsvp/quizzes/${quiz.id}`, { cookie: owner.cookie, clock: NOW }));
    const user = await createUser();
    measured['POST rsvp (signed in)'] = rows((await callJson(`/api/quizzes/${quiz.id}/rsvp`, { body: { teamSize: 3 }, cookie: user.cookie, clock: NOW })).res);
    console.info(`D1 rows read: ${JSON.stringify(measured)}`);
    for (const [name, n] of Object.entries(measured)) {
      expect(n, name).toBeGreaterThan(0);
      expect(n, name).toBeLessThanOrEqual(50);
    }
  });
});

describe('RSVP: privacy', () => {
  it('the nightly task deletes an RSVP address 30 days after the night, not before; never-confirmed RSVPs go after 48 h', async () => {
    const { quiz } = await night({ date: '2026-10-01' });
    const db = testDb();
    const [kept, pending] = [newId(), newId()];
    await batchableRun(db, sql`INSERT INTO rsvps (id, quiz_id, email, team_size, state) VALUES (${kept}, ${quiz.id}, ${email()}, 4, 'confirmed')`);
    await batchableRun(
      db,
      sql`INSERT INTO rsvps (id, quiz_id, email, team_size, state, created_at) VALUES (${pending}, ${quiz.id}, ${email()}, 4, 'pending', '2026-09-20T00:00:00.000Z')`,
    );
    await forgetRsvpAddresses(testDeps({ now: '2026-10-31T01:00:00.000Z' }));
    const row = async () => (await db.all<{ email: string | null }>(sql`SELECT email FROM rsvps WHERE id = ${kept}`))[0]!;
    expect((await row()).email).not.toBeNull();
    await forgetRsvpAddresses(testDeps({ now: '2026-11-01T01:00:00.000Z' }));
    expect((await row()).email).toBeNull();
    expect(await db.all(sql`SELECT id FROM rsvps WHERE id = ${pending}`)).toEqual([]);
    // The counts stay (no personal data).
    expect(await counts(quiz.id, '2026-11-01T01:00:00.000Z')).toMatchObject({ teams: 1 });
  });
});
