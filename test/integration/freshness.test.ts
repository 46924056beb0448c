import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { createApp } from '../../worker/app';
import { productionPorts } from '../../worker/ports/deps';
import { describe, expect, it } from 'vitest';
import { FRESHNESS_PURPOSE, runFreshnessJob } from '../../worker/features/freshness/service';
import { addDays } from '../../worker/lib/clock';
import { signLink } from '../../worker/lib/signed-link';
import { capturingOutboxQueue, fakeProvider, queueMessages } from '../mail-queue';
import { processMailBatch } from '../../worker/features/follows/service';
import { createMailer, type Mailer } from '../../worker/ports/mailer';
import { expectConsoleError } from '../setup/console';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, testDeps, unique, uniqueTown } from '../factories';

/**
 * Freshness (issue 20 §3) with a pinned clock: the 30-day mail, the 60-day warning and the 90-day hide
 * (day 29/30, 59/60, 89/90), each once; a hidden business is absent from the listing, its venue page and
 * the sitemap, and back after a confirmation (signed link or dashboard). Owner edits confirm; the house
 * account is never mailed nor hidden. Each test works in its own far-future year.
 */
const SECRET = 'link_local_development_only';
const HOUSE = 'house@test.local';
const at = (date: string) => `${date}T08:00:00Z`; // 09:00/10:00 in Stockholm: the same calendar date

async function staleBusiness(confirmedOn: string, opts: { email?: string } = {}) {
  const user = await createUser({ email: opts.email, now: new Date(at(confirmedOn)) });
  const venue = await createVenue(user.id, { confirmedAt: at(confirmedOn) });
  const city = uniqueTown();
  const location = await createLocation(venue.id, { city });
  const rid = unique('rid');
  for (let i = 0; i < 30; i++) {
    await createQuiz(location.id, { date: addDays(confirmedOn, 7 * i + 1), isRecurring: true, recurrenceId: rid, recurrencePattern: 'weekly' });
  }
  return { user, venue, location, rid };
}

function job(date: string) {
  return runFreshnessJob(testDeps({ now: at(date), config: { linkSigningSecret: SECRET, houseAccountEmail: HOUSE } }), { queue: capturingOutboxQueue() });
}
const mailsTo = (email: string) => testDb().all<Record<string, any>>(sql`SELECT * FROM mail_outbox WHERE to_email = ${email} ORDER BY created_at, rowid`);
const venueRow = async (id: string) => (await testDb().all<Record<string, any>>(sql`SELECT * FROM venues WHERE id = ${id}`))[0]!;

async function visibleTo(visitorDate: string, b: Awaited<ReturnType<typeof staleBusiness>>) {
  const clock = at(visitorDate);
  const listing = await callJson(`/api/listing?city=${b.location.citySlug}&weekday=all`, { clock });
  const inListing = (listing.body.quizzes ?? listing.body.items ?? []).length > 0;
  const page = await call(`/quiz/${b.location.citySlug}/${b.venue.slug}`, { clock });
  // The sitemap index and every child it names (issue 19 §4).
  const index = await (await call('/sitemap.xml', { clock })).text();
  let sitemap = '';
  for (const m of index.matchAll(/<sitemap><loc>(.*?)<\/loc>/g)) sitemap += await (await call(new URL(m[1]!).pathname, { clock })).text();
  return { inListing, pageStatus: page.status, inSitemap: sitemap.includes(`/quiz/${b.location.citySlug}/${b.venue.slug}<`) };
}

describe('freshness thresholds (pinned clock)', () => {
  it('day 29 nothing, 30 one mail, 59 nothing, 60 one warning, 89 still public, 90 hidden — each once even when run twice', async () => {
    const b = await staleBusiness('2040-01-10');
    const d = (n: number) => addDays('2040-01-10', n);

    await job(d(29));
    expect(await mailsTo(b.user.email)).toHaveLength(0);

    await job(d(30));
    await Promise.all([job(d(30)), job(d(31))]);
    let mails = await mailsTo(b.user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Stämmer era quiz fortfarande?']);
    expect(mails[0]!.text).toMatch(/http:\/\/localhost\/bekrafta-quiz\?t=/);

    await job(d(59));
    expect(await mailsTo(b.user.email)).toHaveLength(1);
    await job(d(60));
    await job(d(60));
    mails = await mailsTo(b.user.email);
    expect(mails.map((m) => m.subject)).toEqual(['Stämmer era quiz fortfarande?', 'Varning: era quiz döljs snart på Quizkväll']);

    await job(d(89));
    expect((await venueRow(b.venue.id)).is_public).toBe(1);
    expect(await visibleTo(d(89), b)).toEqual({ inListing: true, pageStatus: 200, inSitemap: true });

    const r = await job(d(90));
    expect(r.hidden).toBeGreaterThanOrEqual(1);
    await job(d(90));
    const row = await venueRow(b.venue.id);
    expect(row.is_public).toBe(0);
    expect(row.stale_hidden_at).toBeTruthy();
    expect((await mailsTo(b.user.email)).map((m) => m.subject).at(-1)).toBe('Era quiz visas inte längre på Quizkväll');
    expect(await mailsTo(b.user.email)).toHaveLength(3);
    // Hidden, not deleted.
    const count = await testDb().all<{ n: number }>(sql`SELECT count(*) AS n FROM quizzes WHERE recurrence_id = ${b.rid}`);
    expect(count[0]!.n).toBe(30);
    expect(await visibleTo(d(90), b)).toEqual({ inListing: false, pageStatus: 404, inSitemap: false });

    // The dashboard says why.
    const dash = await callJson(`/api/owner/freshness/${b.venue.id}`, { cookie: b.user.cookie, clock: at(d(90)) });
    expect(dash.status).toBe(401); // the session from day 0 has expired by day 90
    const owner = await createUser({ now: new Date(at(d(90))) });
    await testDb().run(sql`UPDATE venues SET user_id = ${owner.id} WHERE id = ${b.venue.id}`);
    const why = await callJson(`/api/owner/freshness/${b.venue.id}`, { cookie: owner.cookie, clock: at(d(90)) });
    expect(why.body).toMatchObject({ confirmedOn: '2040-01-10', daysSince: 90, hidden: true, publicSources: false });

    // One click in the mail (no session) confirms and the business is visible again.
    const link = `/bekrafta-quiz?t=${encodeURIComponent(await signLink(SECRET, FRESHNESS_PURPOSE, b.venue.id, 86_400, new Date(at(d(91)))))}`;
    const show = await call(link, { clock: at(d(91)) });
    expect(show.status).toBe(200);
    expect((await venueRow(b.venue.id)).is_public).toBe(0); // GET changes nothing
    const done = await call(link, { method: 'POST', clock: at(d(91)) });
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('bekräftade');
    const after = await venueRow(b.venue.id);
    expect(after).toMatchObject({ is_public: 1, stale_hidden_at: null, freshness_stage: 0 });
    expect(after.confirmed_at).toBe(new Date(at(d(91))).toISOString());
    expect(await visibleTo(d(91), b)).toEqual({ inListing: true, pageStatus: 200, inSitemap: true });
  });

  it("an owner's own 'not public' stays after a confirmation; a bad or expired link → 400 and changes nothing", async () => {
    const b = await staleBusiness('2041-02-01');
    await testDb().run(sql`UPDATE venues SET is_public = 0 WHERE id = ${b.venue.id}`);
    await job(addDays('2041-02-01', 95));
    expect(await venueRow(b.venue.id)).toMatchObject({ is_public: 0, stale_hidden_at: null, freshness_stage: 3 });
    const before = await snapshot(['venues']);
    const token = await signLink(SECRET, FRESHNESS_PURPOSE, b.venue.id, 3600, new Date(at('2041-05-10')));
    const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expect((await call(`/bekrafta-quiz?t=${encodeURIComponent(tampered)}`, { method: 'POST', clock: at('2041-05-10') })).status).toBe(400);
    const expired = await call(`/bekrafta-quiz?t=${encodeURIComponent(token)}`, { method: 'POST', clock: at('2041-05-11') });
    expect(expired.status).toBe(400);
    expect(await expired.text()).toContain('gått ut');
    expect(await snapshot(['venues'])).toEqual(before);
    const ok = await call(`/bekrafta-quiz?t=${encodeURIComponent(token)}`, { method: 'POST', clock: at('2041-05-10') });
    expect(ok.status).toBe(200);
    expect(await venueRow(b.venue.id)).toMatchObject({ is_public: 0, freshness_stage: 0 });
  });

  it('an owner edit confirms (the hidden business comes back); the dashboard button confirms too', async () => {
    const b = await staleBusiness('2042-03-01');
    const day = addDays('2042-03-01', 100);
    await job(day);
    expect((await venueRow(b.venue.id)).is_public).toBe(0);
    const owner = await createUser({ now: new Date(at(day)) });
    await testDb().run(sql`UPDATE venues SET user_id = ${owner.id} WHERE id = ${b.venue.id}`);
    const edit = await callJson(`/api/owner/series/${b.rid}`, {
      method: 'PATCH',
      cookie: owner.cookie,
      clock: at(day),
      body: { startTime: '20:00', category: 'allmänbildning' },
    });
    expect(edit.status).toBe(200);
    expect(await venueRow(b.venue.id)).toMatchObject({ is_public: 1, stale_hidden_at: null, confirmed_at: new Date(at(day)).toISOString() });
    expect((await visibleTo(day, b)).inListing).toBe(true);

    const later = addDays(day, 40);
    const owner2 = await createUser({ now: new Date(at(later)) });
    await testDb().run(sql`UPDATE venues SET user_id = ${owner2.id} WHERE id = ${b.venue.id}`);
    const before = await callJson(`/api/owner/freshness/${b.venue.id}`, { cookie: owner2.cookie, clock: at(later) });
    expect(before.body).toMatchObject({ daysSince: 40, hidden: false, hideInDays: 50 });
    const click = await callJson(`/api/owner/freshness/${b.venue.id}/confirm`, { method: 'POST', cookie: owner2.cookie, clock: at(later), body: {} });
    expect(click.status).toBe(200);
    expect(click.body).toMatchObject({ confirmedOn: later, daysSince: 0 });
    // Someone else's business → 403, a missing one → 404, a visitor → 401; nothing changes.
    const other = await createUser({ now: new Date(at(later)) });
    const snap = await snapshot(['venues']);
    expect((await call(`/api/owner/freshness/${b.venue.id}/confirm`, { method: 'POST', cookie: other.cookie, clock: at(later), body: {} })).status).toBe(403);
    expect((await call(`/api/owner/freshness/no-such-venue/confirm`, { method: 'POST', cookie: other.cookie, clock: at(later), body: {} })).status).toBe(404);
    expect((await call(`/api/owner/freshness/${b.venue.id}/confirm`, { method: 'POST', clock: at(later), body: {} })).status).toBe(401);
    expect(await snapshot(['venues'])).toEqual(snap);
  });

  it('re-publishing from the dashboard ("Synlig för besökare" back on) confirms: not hidden any more, and the next monthly step does not hide it again', async () => {
    const b = await staleBusiness('2045-01-10');
    const day = addDays('2045-01-10', 95);
    await job(day);
    expect(await venueRow(b.venue.id)).toMatchObject({ is_public: 0, freshness_stage: 3 });
    const owner = await createUser({ now: new Date(at(day)) });
    await testDb().run(sql`UPDATE venues SET user_id = ${owner.id} WHERE id = ${b.venue.id}`);
    const body = { name: b.venue.name, description: '', address: '', city: '', phone: '', website: '', isPublic: true };
    const save = await callJson(`/api/owner/venues/${b.venue.id}`, { method: 'PATCH', cookie: owner.cookie, clock: at(day), body });
    expect(save.status).toBe(200);
    expect(await venueRow(b.venue.id)).toMatchObject({
      is_public: 1,
      stale_hidden_at: null,
      freshness_stage: 0,
      confirmed_at: new Date(at(day)).toISOString(),
    });
    const dash = await callJson(`/api/owner/freshness/${b.venue.id}`, { cookie: owner.cookie, clock: at(day) });
    expect(dash.body).toMatchObject({ confirmedOn: day, daysSince: 0, hidden: false, hideInDays: 90 });
    await job(addDays(day, 30));
    await job(addDays(day, 31));
    expect(await venueRow(b.venue.id)).toMatchObject({ is_public: 1, stale_hidden_at: null, freshness_stage: 1 });
    expect(await visibleTo(addDays(day, 31), { ...b, venue: { ...b.venue, slug: save.body.slug } })).toEqual({
      inListing: true,
      pageStatus: 200,
      inSitemap: true,
    });
  });

  it("an owner's save that keeps it off is their own 'not public'; a superadmin's edit leaves the freshness state alone", async () => {
    const b = await staleBusiness('2046-01-10');
    const day = addDays('2046-01-10', 95);
    await job(day);
    const admin = await createUser({ roles: ['superadmin'], now: new Date(at(day)) });
    const body = { name: b.venue.name, description: 'Av admin', address: '', city: '', phone: '', website: '', isPublic: false };
    expect((await callJson(`/api/owner/venues/${b.venue.id}`, { method: 'PATCH', cookie: admin.cookie, clock: at(day), body })).status).toBe(200);
    const hidden = await venueRow(b.venue.id);
    expect(hidden).toMatchObject({ is_public: 0, freshness_stage: 3, confirmed_at: at('2046-01-10') });
    expect(hidden.stale_hidden_at).toBeTruthy();

    const owner = await createUser({ now: new Date(at(day)) });
    await testDb().run(sql`UPDATE venues SET user_id = ${owner.id} WHERE id = ${b.venue.id}`);
    expect((await callJson(`/api/owner/venues/${b.venue.id}`, { method: 'PATCH', cookie: owner.cookie, clock: at(day), body })).status).toBe(200);
    expect(await venueRow(b.venue.id)).toMatchObject({
      is_public: 0,
      stale_hidden_at: null,
      freshness_stage: 0,
      confirmed_at: new Date(at(day)).toISOString(),
    });
    // A later confirmation does not publish what the owner chose to keep hidden.
    await callJson(`/api/owner/freshness/${b.venue.id}/confirm`, { method: 'POST', cookie: owner.cookie, clock: at(day), body: {} });
    expect((await venueRow(b.venue.id)).is_public).toBe(0);
  });

  it('the house account (unclaimed) is never mailed nor hidden and shows "Uppgifter från offentliga källor"', async () => {
    const existing = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
    const b = await staleBusiness('2043-01-05', existing.length ? {} : { email: HOUSE });
    if (existing.length) await testDb().run(sql`UPDATE venues SET user_id = ${existing[0]!.id} WHERE id = ${b.venue.id}`);
    await job(addDays('2043-01-05', 200));
    expect(await venueRow(b.venue.id)).toMatchObject({ is_public: 1, freshness_stage: 0 });
    expect(await mailsTo(HOUSE)).toHaveLength(0);
    const [quiz] = await testDb().all<{ id: string }>(sql`SELECT id FROM quizzes WHERE recurrence_id = ${b.rid} LIMIT 1`);
    const pub = await callJson(`/api/freshness/quiz/${quiz!.id}`);
    expect(pub.body).toEqual({ confirmedOn: null, publicSources: true });
    // The server-rendered venue page says the same (no date for the house account).
    const page = await (await call(`/quiz/${b.location.citySlug}/${b.venue.slug}`, { clock: at('2043-01-06') })).text();
    expect(page).toContain('Uppgifter från offentliga källor');
    expect(page).not.toContain('Senast bekräftad');
  });

  it('the public line for a claimed business carries its date; a missing quiz → 404', async () => {
    const b = await staleBusiness('2044-04-04');
    const [quiz] = await testDb().all<{ id: string }>(sql`SELECT id FROM quizzes WHERE recurrence_id = ${b.rid} LIMIT 1`);
    expect((await callJson(`/api/freshness/quiz/${quiz!.id}`)).body).toEqual({ confirmedOn: '2044-04-04', publicSources: false });
    expect((await call('/api/freshness/quiz/no-such-quiz')).status).toBe(404);
    // The server-rendered venue page carries the same line as the detail dialog (issue 20 §3).
    const page = await (await call(`/quiz/${b.location.citySlug}/${b.venue.slug}`, { clock: at('2044-04-20') })).text();
    expect(page).toContain('Senast bekräftad 4 april 2044');
    expect(page).not.toContain('Uppgifter från offentliga källor');
  });
});

describe('a claimed step never loses its mail (issue 27.3)', () => {
  it('the provider is down: each step is claimed with its mail in the outbox, the queue delivers it once the provider is back', async () => {
    const [a, b] = [await staleBusiness('2047-01-10'), await staleBusiness('2047-01-10')];
    const provider = fakeProvider();
    provider.state.down = true;
    const queue = capturingOutboxQueue();
    const deps = testDeps({
      now: at(addDays('2047-01-10', 30)),
      config: { linkSigningSecret: SECRET, houseAccountEmail: HOUSE },
      ports: { mailer: (db, _config, clock) => createMailer(db, { apiKey: 'k', from: 'Quizkväll <no-reply@test.local>', clock, fetcher: provider.fetcher }) },
    });
    // Nothing is sent inside the run: it cannot fail on the provider, and one business never stops the next.
    const r = await runFreshnessJob(deps, { queue });
    expect(r.failed).toBe(0);
    for (const x of [a, b]) {
      expect((await venueRow(x.venue.id)).freshness_stage).toBe(1);
      const mails = await mailsTo(x.user.email);
      expect(mails.map((m) => [m.subject, m.status])).toEqual([['Stämmer era quiz fortfarande?', 'pending']]);
      expect(queue.bodies).toContainEqual({ type: 'outbox', id: mails[0]!.id });
    }
    // Only this test's two (the run also acts on other tests' businesses).
    const ids = new Set([...(await mailsTo(a.user.email)), ...(await mailsTo(b.user.email))].map((m) => m.id));
    const bodies = queue.bodies.filter((m) => ids.has(m.id));
    // The consumer: the provider refuses → retried with back-off, the row stays unsent.
    const logged = expectConsoleError(/mail provider answered 503|follow mail .* failed/);
    const first = queueMessages(bodies);
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: first });
    logged.verify();
    expect(first.map((m) => [m.acked, m.retried])).toEqual([
      [false, 30],
      [false, 30],
    ]);
    // Back up: the retry delivers each once (the send key as idempotency key); a duplicate message sends nothing.
    provider.state.down = false;
    await processMailBatch(deps, { queueName: 'quizkvall-mail', messages: queueMessages([...bodies, ...bodies], 2) });
    for (const x of [a, b]) {
      expect((await mailsTo(x.user.email)).map((m) => m.status)).toEqual(['sent']);
      expect(provider.calls.filter((c) => c.to[0] === x.user.email)).toEqual([
        { to: [x.user.email], subject: 'Stämmer era quiz fortfarande?', idempotencyKey: `freshness:${x.venue.id}:2047-01-10:1` },
      ]);
    }
    // A second run claims nothing and writes nothing.
    await runFreshnessJob(deps, { queue: capturingOutboxQueue() });
    expect(await mailsTo(a.user.email)).toHaveLength(1);
  });

  it('one business failing does not stop the others: the run is recorded as failed with its counts, the failed step comes the next night', async () => {
    const [a, b] = [await staleBusiness('2048-01-10'), await staleBusiness('2048-01-10')];
    const broken = (m: Mailer): Mailer => ({
      ...m,
      sendOnce: (msg, key) => (msg.to === a.user.email ? Promise.reject(new Error('D1 var borta')) : m.sendOnce(msg, key)),
      outbox: (msg, key, when) => {
        if (msg.to === a.user.email) throw new Error('D1 var borta');
        return m.outbox(msg, key, when);
      },
    });
    const deps = (date: string, mailer?: (m: Mailer) => Mailer) =>
      testDeps({
        now: at(date),
        config: { linkSigningSecret: SECRET, houseAccountEmail: HOUSE },
        ports: { mailer: (db, config, clock) => (mailer ?? ((m) => m))(createMailer(db, { apiKey: null, from: config.mailFrom, clock })) },
      });
    const logged = expectConsoleError(/freshness step for venue .* failed/);
    const err = await runFreshnessJob(deps(addDays('2048-01-10', 30), broken), { queue: capturingOutboxQueue() }).then(
      () => null,
      (e: unknown) => e as Error & { counts?: Record<string, number> },
    );
    logged.verify();
    expect(err?.message).toBe('D1 var borta');
    expect(err?.counts).toMatchObject({ failed: 1 });
    // The other business got its step and its mail; the failed one is not claimed (no step without its mail).
    expect((await venueRow(b.venue.id)).freshness_stage).toBe(1);
    expect(await mailsTo(b.user.email)).toHaveLength(1);
    expect((await venueRow(a.venue.id)).freshness_stage).toBe(0);
    expect(await mailsTo(a.user.email)).toHaveLength(0);
    // The next night it goes out.
    await runFreshnessJob(deps(addDays('2048-01-10', 31)), { queue: capturingOutboxQueue() });
    expect((await venueRow(a.venue.id)).freshness_stage).toBe(1);
    expect((await mailsTo(a.user.email)).map((m) => m.subject)).toEqual(['Stämmer era quiz fortfarande?']);
  });
});

describe("the link pages keep an error's status (issue 27.4)", () => {
  it('links switched off (no LINK_SIGNING_SECRET in production) → 503 with its message on every link page, GET and POST; a bad link stays 400', async () => {
    const app = createApp(productionPorts);
    const fetchAs = async (path: string, method: string, vars: Partial<Env>) => {
      const ctx = createExecutionContext();
      const headers = method === 'POST' ? { origin: 'https://quizkvall.se', 'sec-fetch-site': 'same-origin' } : undefined;
      const res = await app.fetch(new Request(`https://quizkvall.se${path}`, { method, headers }), { ...(env as unknown as Env), ...vars }, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    };
    // A well-formed token (signed with another secret): without a secret it cannot be checked at all.
    const t = encodeURIComponent(await signLink('another-secret', FRESHNESS_PURPOSE, 'x', 3600, new Date('2049-01-01T00:00:00Z')));
    for (const path of [`/bekrafta-quiz?t=${t}`, `/helgdag?t=${t}`])
      for (const method of ['GET', 'POST']) {
        const off = await fetchAs(path, method, { APP_ENV: 'production', APP_URL: 'https://quizkvall.se', LINK_SIGNING_SECRET: '' } as Partial<Env>);
        expect(off.status, `${method} ${path}`).toBe(503);
        expect(await off.text()).toContain('LINK_SIGNING_SECRET saknas');
        const bad = await fetchAs(path, method, {});
        expect(bad.status, `${method} ${path}`).toBe(400);
      }
  });
});
