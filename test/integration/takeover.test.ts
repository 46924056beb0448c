import { env } from 'cloudflare:workers';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox, userRoles, venues } from '../../worker/db/schema';
import { ensureHouseUser } from '../../worker/features/admin/import';
import { processMailBatch } from '../../worker/features/follows/service';
import { takeoverVenue } from '../../worker/features/takeover/service';
import { newId } from '../../worker/lib/ids';
import { createMailer } from '../../worker/ports/mailer';
import { callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, testDeps, type TestUser } from '../factories';
import { capturingOutboxQueue, fakeProvider, queueMessages } from '../mail-queue';
import { expectConsoleError } from '../setup/console';

const CLOCK = '2030-03-05T10:00:00Z';
const HOUSE = (env as unknown as { HOUSE_ACCOUNT_EMAIL: string }).HOUSE_ACCOUNT_EMAIL ?? 'house@test.local';
let houseId: string;
let owner: TestUser;

beforeAll(async () => {
  houseId = await ensureHouseUser(testDb(), HOUSE);
  owner = await createUser({ now: new Date(CLOCK) });
});

async function unclaimed() {
  const venue = await createVenue(houseId);
  const l1 = await createLocation(venue.id);
  await createLocation(venue.id);
  await createQuiz(l1.id, { date: '2030-03-01' }); // past
  await createQuiz(l1.id, { date: '2030-03-05' });
  await createQuiz(l1.id, { date: '2030-03-12' });
  return venue;
}

describe('GET /api/takeover/venues/:id', () => {
  it('answers name, counts and claimable for an unclaimed business', async () => {
    const v = await unclaimed();
    const { status, body } = await callJson(`/api/takeover/venues/${v.id}`, { clock: CLOCK });
    expect(status).toBe(200);
    expect(body).toEqual({ id: v.id, name: v.name, placesCount: 2, quizzesCount: 2, claimable: true });
  });
  it('claimable false for an owned business; 404 for an unknown one', async () => {
    const v = await createVenue(owner.id);
    expect((await callJson(`/api/takeover/venues/${v.id}`)).body.claimable).toBe(false);
    const missing = await callJson(`/api/takeover/venues/${newId()}`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.message).toBe('Kunde inte hitta venue');
  });
});

describe('26.8 a hidden business is unknown to takeover', () => {
  it('GET answers 404 exactly as for an unknown id (no name), and POST cannot claim it; nothing changed', async () => {
    for (const owned of [false, true]) {
      const v = owned ? await createVenue(owner.id, { isPublic: false }) : await unclaimed();
      if (!owned) await testDb().update(venues).set({ isPublic: false }).where(eq(venues.id, v.id));
      const hidden = await callJson(`/api/takeover/venues/${v.id}`, { clock: CLOCK });
      const unknown = await callJson(`/api/takeover/venues/${newId()}`, { clock: CLOCK });
      expect(hidden.status).toBe(404);
      expect(hidden.body).toEqual(unknown.body);
      expect(JSON.stringify(hidden.body)).not.toContain(v.name);
      const u = await createUser({ roles: [], now: new Date(CLOCK) });
      const before = await snapshot();
      const claim = await callJson('/api/takeover', { body: { venueId: v.id }, cookie: u.cookie, clock: CLOCK });
      expect(claim.status).toBe(404);
      expect(JSON.stringify(claim.body)).not.toContain(v.name);
      expect(await snapshot()).toEqual(before);
    }
  });
});

describe('26.8 the verification mail for a takeover sign-up', () => {
  it('goes to an unconfirmed address, so it does not quote the business name (anyone names a business)', async () => {
    const v = await unclaimed();
    const bait = 'Vinn 5000 kr på evil.example';
    await testDb().update(venues).set({ name: bait }).where(eq(venues.id, v.id));
    const email = `takeover-${newId()}@test.local`;
    const res = await callJson('/api/auth/register', {
      clock: CLOCK,
      body: { email, password: 'hemligt123', confirmPassword: 'hemligt123', takeoverVenue: v.id },
    });
    expect(res.status).toBe(201);
    const [mail] = await testDb().select().from(mailOutbox).where(eq(mailOutbox.toEmail, email));
    expect(mail!.text).toContain('/verify?token=');
    expect(`${mail!.subject}\n${mail!.text}\n${mail!.html ?? ''}`).not.toMatch(/evil|5000 kr/);
  });
});

describe('POST /api/takeover', () => {
  it('moves the business to the caller, answers the counts and notifies the superadmins', async () => {
    const v = await unclaimed();
    const newcomer = await createUser({ roles: [], now: new Date(CLOCK) });
    const sa = await createUser({ roles: ['admin', 'superadmin'], now: new Date(CLOCK) });
    const { status, body } = await callJson('/api/takeover', { body: { venueId: v.id }, cookie: newcomer.cookie, clock: CLOCK });
    expect(status).toBe(200);
    expect(body).toEqual({ venue: { id: v.id, name: v.name, userId: newcomer.id }, placesCount: 2, quizzesCount: 2 });
    const db = testDb();
    expect((await db.select().from(venues).where(eq(venues.id, v.id)))[0]!.userId).toBe(newcomer.id);
    expect(await db.select().from(userRoles).where(eq(userRoles.userId, newcomer.id))).toEqual([expect.objectContaining({ role: 'admin' })]);
    const mails = await db
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} = ${`Verksamhet övertagen: ${v.name}`}`);
    expect(mails.map((m) => m.toEmail).sort()).toEqual(['super@test.local', sa.email].sort());
    expect(mails[0]!.text).toContain(newcomer.email);
    // No longer claimable; a repeated call by the winner is idempotent.
    expect((await callJson(`/api/takeover/venues/${v.id}`)).body.claimable).toBe(false);
    expect((await callJson('/api/takeover', { body: { venueId: v.id }, cookie: newcomer.cookie })).status).toBe(200);
  });

  it('two concurrent claimants: exactly one wins, the other gets 409 and keeps an empty account', async () => {
    const v = await unclaimed();
    const [a, b] = [await createUser({ roles: [], now: new Date(CLOCK) }), await createUser({ roles: [], now: new Date(CLOCK) })];
    const results = await Promise.all([a, b].map((u) => callJson('/api/takeover', { body: { venueId: v.id }, cookie: u.cookie })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const winner = results[0]!.status === 200 ? a : b;
    const loser = winner === a ? b : a;
    const loserRes = results.find((r) => r.status === 409)!;
    expect(loserRes.body.error.message).toMatch(/redan tagits över/);
    const db = testDb();
    expect((await db.select().from(venues).where(eq(venues.id, v.id)))[0]!.userId).toBe(winner.id);
    expect(await db.select().from(venues).where(eq(venues.userId, loser.id))).toHaveLength(0);
  });

  it('409 for a business owned by someone else, nothing changed', async () => {
    const v = await createVenue(owner.id);
    const other = await createUser({ now: new Date(CLOCK) });
    const before = await snapshot();
    const { status } = await callJson('/api/takeover', { body: { venueId: v.id }, cookie: other.cookie });
    expect(status).toBe(409);
    expect(await snapshot()).toEqual(before);
  });

  it('401 for a visitor, 404 for an unknown business, 400 for bad input; nothing changed', async () => {
    const v = await unclaimed();
    const u = await createUser({ now: new Date(CLOCK) });
    const before = await snapshot();
    expect((await callJson('/api/takeover', { body: { venueId: v.id } })).status).toBe(401);
    expect((await callJson('/api/takeover', { body: { venueId: newId() }, cookie: u.cookie })).status).toBe(404);
    const bad = await callJson('/api/takeover', { body: { venueId: '' }, cookie: u.cookie });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Verksamhet');
    expect(await snapshot()).toEqual(before);
  });
});

describe('27.3 the superadmins hear of a takeover even when the mail provider is down', () => {
  it('the move and its notices are one batch; the queue delivers them once the provider is back (no notice before, none twice)', async () => {
    const v = await unclaimed();
    const newcomer = await createUser({ roles: [], now: new Date(CLOCK) });
    const provider = fakeProvider();
    provider.state.down = true;
    const queue = capturingOutboxQueue();
    const deps = {
      ...testDeps({
        now: CLOCK,
        config: { houseAccountEmail: HOUSE },
        ports: { mailer: (db, _config, clock) => createMailer(db, { apiKey: 'k', from: 'Quizkväll <no-reply@test.local>', clock, fetcher: provider.fetcher }) },
      }),
      mailQueue: { ...queue, send: async () => undefined },
    };
    // Nothing is sent inside the request: the provider being down cannot lose the notice (it used to be sent
    // after the move, and a refused send was only logged).
    const result = await takeoverVenue(deps, { userId: newcomer.id, email: newcomer.email, venueId: v.id });
    expect(result.venue.userId).toBe(newcomer.id);
    expect(provider.calls).toEqual([]);
    const notices = await testDb()
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} = ${`Verksamhet övertagen: ${v.name}`}`);
    expect(notices.length).toBeGreaterThan(0);
    expect(notices.map((m) => m.status)).toEqual(notices.map(() => 'pending'));
    expect(queue.bodies).toEqual(notices.map((m) => ({ type: 'outbox', id: m.id })));

    // The consumer while the provider is down: retried later, still unsent.
    const logged = expectConsoleError(/mail provider answered 503|follow mail .* failed/);
    const first = queueMessages(queue.bodies);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    expect(first.every((m) => !m.acked && m.retried !== null)).toBe(true);
    // Back up: each notice is delivered once, a duplicate message sends nothing.
    provider.state.down = false;
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: queueMessages([...queue.bodies, ...queue.bodies], 2) });
    const after = await testDb()
      .select()
      .from(mailOutbox)
      .where(sql`${mailOutbox.subject} = ${`Verksamhet övertagen: ${v.name}`}`);
    expect(after.map((m) => m.status)).toEqual(after.map(() => 'sent'));
    expect(provider.calls.map((c) => c.to[0]).sort()).toEqual(notices.map((m) => m.toEmail).sort());
    // A repeated takeover call by the winner writes no second notice.
    await takeoverVenue(deps, { userId: newcomer.id, email: newcomer.email, venueId: v.id });
    expect(
      await testDb()
        .select()
        .from(mailOutbox)
        .where(sql`${mailOutbox.subject} = ${`Verksamhet övertagen: ${v.name}`}`),
    ).toHaveLength(after.length);
  });
});
