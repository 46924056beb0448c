/**
 * Quizmaster profiles (issue 48): one profile leading series at three venues — its page lists all three and each
 * Event's JSON-LD names it as `performer`; cards and the venue page link it; the owner's typeahead, creation and
 * free-text suggestions (nothing linked without a yes); invitation by mail, claim, own bio and photo; the
 * quizmaster may not edit the quiz; the assignment (isAssignedQuizmaster) goes with its removal.
 */
import { sql } from 'drizzle-orm';
import { SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { isAssignedQuizmaster } from '../../worker/lib/quizmaster-access';
import { newId } from '../../worker/lib/ids';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { PHOTO_MAX_BYTES, PHOTO_TOO_MANY_PIXELS, PHOTO_UNREADABLE, PHOTO_WEBP_TOO_LARGE } from '../../worker/features/quizmasters/contract';
import { encodePng, jpeg640x480, WEBP_300x200, WEBP_640x480 } from '../image-fixtures';
import { pngPixels, pngSize } from '../kit-decode';
import { processMailBatch, type QueueMessageLike } from '../../worker/features/follows/service';
import { DEV_LINK_SIGNING_SECRET } from '../../worker/env';
import { ORIGIN, call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, testDeps, unique, type TestUser } from '../factories';

// Monday 2030-01-07, 11:00 in Stockholm.
const CLOCK = '2030-01-07T10:00:00Z';
const NOW = new Date(CLOCK);

function jsonLd(html: string): any[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]!));
}

/** A weekly Tuesday series of three dates at a new venue of `owner` in Stockholm. */
async function seriesAt(owner: TestUser, name: string, over: Record<string, unknown> = {}) {
  const venue = await createVenue(owner.id, { name: `${name} ${unique('v')}` });
  const location = await createLocation(venue.id, { city: 'Stockholm' });
  const rid = newId();
  const quizzes = [];
  for (const date of ['2030-01-08', '2030-01-15', '2030-01-22'])
    quizzes.push(
      await createQuiz(location.id, {
        date,
        isRecurring: true,
        recurrenceId: rid,
        recurrencePattern: 'weekly',
        recurrenceDays: '["tisdag"]',
        ...over,
      }),
    );
  await bumpDataVersion(testDb());
  return { venue, location, rid, quizzes, first: quizzes[0]! };
}

async function createProfile(owner: TestUser, name: string, bio: string | null = null) {
  const r = await callJson('/api/owner/quizmasters', { body: { name, bio }, cookie: owner.cookie, clock: CLOCK });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body as { id: string; slug: string; name: string };
}

async function link(owner: TestUser, quizId: string, quizmasterId: string | null) {
  const r = await callJson(`/api/owner/quizzes/${quizId}/quizmaster`, { method: 'PUT', body: { quizmasterId }, cookie: owner.cookie, clock: CLOCK });
  return r;
}

/** Invites `email` for the quiz's series and returns the claim path from the mail. */
async function inviteAndReadLink(owner: TestUser, quizId: string, email: string) {
  const r = await callJson(`/api/owner/quizzes/${quizId}/quizmaster/invite`, { body: { email }, cookie: owner.cookie, clock: CLOCK });
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const [mail] = await testDb().all<any>(sql`SELECT * FROM mail_outbox WHERE to_email = ${email} ORDER BY created_at DESC LIMIT 1`);
  expect(mail).toBeDefined();
  const url = /https?:\/\/\S+\/quizmaster-inbjudan\?t=\S+/.exec(mail.text)?.[0];
  expect(url, mail.text).toBeDefined();
  return { path: url!.slice(url!.indexOf('/quizmaster-inbjudan')), mail };
}

describe('a quizmaster at three venues', () => {
  it('has one page listing all three, with performer in each Event and links on the cards and the venue page', async () => {
    const owner = await createUser({ now: NOW });
    const name = `Kim Quizström ${unique('n')}`;
    const profile = await createProfile(owner, name, 'Har lett quiz sedan 2009.');
    const a = await seriesAt(owner, 'Pub Ett');
    const b = await seriesAt(owner, 'Pub Två');
    const c = await seriesAt(owner, 'Pub Tre');
    for (const s of [a, b, c]) expect((await link(owner, s.first.id, profile.id)).status).toBe(200);

    const res = await call(`/quizmaster/${profile.slug}`, { clock: CLOCK });
    expect(res.status).toBe(200);
    const html = await res.text();
    for (const s of [a, b, c]) expect(html).toContain(s.venue.name);
    expect(html).toContain('Har lett quiz sedan 2009.');
    const events = jsonLd(html).filter((o) => o['@type'] === 'Event');
    expect(events).toHaveLength(3);
    for (const ev of events) expect(ev.performer).toEqual({ '@type': 'Person', name, url: `http://localhost/quizmaster/${profile.slug}` });
    expect(jsonLd(html).find((o) => o['@type'] === 'Person')?.url).toBe(`http://localhost/quizmaster/${profile.slug}`);
    expect(html).toContain(`/og/quizmaster/${profile.slug}.png`);

    // The venue page links the quizmaster, and its Events name the performer too.
    const venueHtml = await (await call(`/quiz/stockholm/${a.venue.slug}`, { clock: CLOCK })).text();
    expect(venueHtml).toContain(`href="/quizmaster/${profile.slug}"`);
    expect(
      jsonLd(venueHtml)
        .filter((o) => o['@type'] === 'Event')
        .every((ev) => ev.performer?.name === name),
    ).toBe(true);

    // The listing's cards carry the profile (resolved at read time, the stored card is unchanged).
    const listing = await callJson(`/api/listing?search=${encodeURIComponent(a.venue.name)}`, { clock: CLOCK });
    const card = listing.body.items.find((q: any) => q.venue.id === a.venue.id);
    expect(card.quizmasterProfile).toEqual({ name, slug: profile.slug });
    const [stored] = await testDb().all<{ card: string }>(sql`SELECT card FROM listing_series WHERE recurrence_id = ${a.rid}`);
    expect(stored!.card).not.toContain('quizmasterProfile');

    // In the sitemap: the index names the profiles' child, the child the profile page.
    expect(await (await call('/sitemap.xml', { clock: CLOCK })).text()).toContain('/sitemaps/quizmasters-1.xml');
    const children = await Promise.all([1, 2, 3].map(async (n) => (await call(`/sitemaps/quizmasters-${n}.xml`, { clock: CLOCK })).text()));
    expect(children.some((x) => x.includes(`<loc>http://localhost/quizmaster/${profile.slug}</loc>`))).toBe(true);

    // The share card names the quizmaster.
    const og = await call(`/og/quizmaster/${profile.slug}.png`, { clock: CLOCK });
    expect(og.status).toBe(200);
    expect(og.headers.get('content-type')).toBe('image/png');
  });

  it('is in no page for an unknown or hostile slug (404, Swedish)', async () => {
    for (const slug of ['finns-inte', 'ÅÄÖ', '..%2f..', 'a'.repeat(121)]) {
      const res = await call(`/quizmaster/${slug}`, { clock: CLOCK });
      expect(res.status, slug).toBe(404);
      expect(await res.text()).toContain('Quizmastern hittades inte');
    }
  });
});

describe('owner forms', () => {
  it('typeahead finds profiles by the start of the name, case and spaces aside; creating takes a free slug', async () => {
    const owner = await createUser({ now: NOW });
    const tag = unique('t').toLowerCase();
    const p1 = await createProfile(owner, `Zelda ${tag}`);
    const p2 = await createProfile(owner, `zelda   ${tag.toUpperCase()}`);
    expect(p2.slug).not.toBe(p1.slug);
    const r = await callJson(`/api/owner/quizmasters?q=${encodeURIComponent(`ZELDA  ${tag}`)}`, { cookie: owner.cookie, clock: CLOCK });
    expect(r.status).toBe(200);
    expect(r.body.map((p: any) => p.id).sort()).toEqual([p1.id, p2.id].sort());
    expect((await callJson('/api/owner/quizmasters?q=x', { clock: CLOCK })).status).toBe(401);
  });

  it('refuses a missing or too long name and a control character, in Swedish, storing nothing', async () => {
    const owner = await createUser({ now: NOW });
    const before = await testDb().all(sql`SELECT count(*) AS n FROM quizmasters`);
    for (const body of [{ name: '' }, { name: 'x'.repeat(101) }, { name: 'Kim\u0000' }, { name: 'Kim', bio: 'b'.repeat(601) }]) {
      const r = await callJson('/api/owner/quizmasters', { body, cookie: owner.cookie, clock: CLOCK });
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.error.message).toMatch(/Ange quizmasterns namn|högst|kontrolltecken/);
    }
    expect(await testDb().all(sql`SELECT count(*) AS n FROM quizmasters`)).toEqual(before);
    // 100 characters is fine.
    expect((await callJson('/api/owner/quizmasters', { body: { name: 'y'.repeat(100) }, cookie: owner.cookie, clock: CLOCK })).status).toBe(201);
  });

  it("offers the owner's free-text quizmasters that equal a profile's name, and links only on the owner's yes", async () => {
    const owner = await createUser({ now: NOW });
    const tag = unique('f');
    const profile = await createProfile(owner, `Anna ${tag}`);
    const s = await seriesAt(owner, 'Fritext', { quizmaster: `  anna   ${tag.toUpperCase()} ` });
    const other = await seriesAt(owner, 'Annan', { quizmaster: `Anna ${tag} Jr` });
    const r = await callJson('/api/owner/quizmaster-suggestions', { cookie: owner.cookie, clock: CLOCK });
    expect(r.status).toBe(200);
    const mine = r.body.filter((x: any) => x.profile.id === profile.id);
    expect(mine).toHaveLength(1);
    expect([s.quizzes.map((q) => q.id)].flat()).toContain(mine[0].quizId);
    expect(r.body.some((x: any) => other.quizzes.some((q) => q.id === x.quizId))).toBe(false);
    // Not linked until the owner says yes.
    expect(await testDb().all(sql`SELECT 1 FROM quizmaster_links WHERE unit_key = ${s.rid}`)).toHaveLength(0);
    expect((await link(owner, mine[0].quizId, profile.id)).status).toBe(200);
    expect(await testDb().all(sql`SELECT 1 FROM quizmaster_links WHERE unit_key = ${s.rid}`)).toHaveLength(1);
    // Accepted: no longer offered. Another owner never sees it.
    const again = await callJson('/api/owner/quizmaster-suggestions', { cookie: owner.cookie, clock: CLOCK });
    expect(again.body.filter((x: any) => x.profile.id === profile.id)).toHaveLength(0);
    const stranger = await createUser({ now: NOW });
    expect((await callJson('/api/owner/quizmaster-suggestions', { cookie: stranger.cookie, clock: CLOCK })).body).toEqual([]);
    expect((await link(stranger, s.first.id, profile.id)).status).toBe(403);
  });
});

describe('the quizmaster account', () => {
  it('claims the profile from the mailed link, edits only its own bio, may not edit the quiz, and loses the right with the assignment', async () => {
    const owner = await createUser({ now: NOW });
    const profile = await createProfile(owner, `Lisa ${unique('q')}`);
    const assigned = await seriesAt(owner, 'Tilldelad');
    const otherSeries = await seriesAt(owner, 'Annan serie');
    await link(owner, assigned.first.id, profile.id);
    await link(owner, otherSeries.first.id, profile.id);
    const qm = await createUser({ roles: [], now: NOW });
    const { path, mail } = await inviteAndReadLink(owner, assigned.first.id, qm.email);
    expect(mail.subject).toBe('Du är inbjuden som quizmaster på Quizkväll');
    expect(JSON.parse(mail.headers)['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // A GET changes nothing; signed out it asks to sign in.
    const shown = await call(path, { clock: CLOCK });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Logga in');
    expect(await isAssignedQuizmaster(testDb(), qm.id, assigned.first.id)).toBe(false);

    const claimed = await call(path, { method: 'POST', cookie: qm.cookie, clock: CLOCK });
    expect(claimed.status).toBe(200);
    expect(await claimed.text()).toContain('är nu din');
    // Every occurrence of the assigned series; not the other series of the same profile.
    for (const q of assigned.quizzes) expect(await isAssignedQuizmaster(testDb(), qm.id, q.id)).toBe(true);
    expect(await isAssignedQuizmaster(testDb(), qm.id, otherSeries.first.id)).toBe(false);
    expect(await isAssignedQuizmaster(testDb(), owner.id, assigned.first.id)).toBe(false);
    expect(await isAssignedQuizmaster(testDb(), qm.id, 'no-such-quiz')).toBe(false);

    // The link is single use.
    const again = await call(path, { method: 'POST', cookie: qm.cookie, clock: CLOCK });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain('Länken har redan använts.');

    // Own bio: yes. The quiz's own fields and promotion: no.
    const bio = await callJson('/api/quizmaster/me', { method: 'PATCH', body: { bio: 'Ny presentation' }, cookie: qm.cookie, clock: CLOCK });
    expect(bio.status).toBe(200);
    expect(bio.body.bio).toBe('Ny presentation');
    const edit = await callJson(`/api/owner/quizzes/${assigned.first.id}`, {
      method: 'PATCH',
      body: { date: '2030-01-08', startTime: '20:00', category: 'allmänbildning', quizmaster: 'Lisa', teamSize: 4, price: 50, description: 'Välkomna' },
      cookie: qm.cookie,
      clock: CLOCK,
    });
    expect(edit.status).toBe(403);
    expect((await link(qm, assigned.first.id, null)).status).toBe(403);
    expect(
      (await callJson(`/api/owner/quizzes/${assigned.first.id}/quizmaster/assignment`, { method: 'DELETE', cookie: qm.cookie, clock: CLOCK })).status,
    ).toBe(403);
    const page = await (await call(`/quizmaster/${profile.slug}`, { clock: CLOCK })).text();
    expect(page).toContain('Ny presentation');

    // Results (issue 46) for the assigned series' night, the evening after: yes; another series of the same owner: no.
    const results = (quizId: string) =>
      callJson(`/api/owner/quizzes/${quizId}/results`, {
        method: 'PUT',
        body: { text: 'Lag A;42\nLag B;40' },
        cookie: qm.cookie,
        clock: '2030-01-09T10:00:00Z',
      });
    const posted = await results(assigned.first.id);
    expect(posted.status).toBe(200);
    expect(posted.body.rows.map((r: { rank: number }) => r.rank)).toEqual([1, 2]);
    expect((await results(otherSeries.first.id)).status).toBe(403);

    // Removing the assignment removes the right at once.
    const removed = await callJson(`/api/owner/quizzes/${assigned.first.id}/quizmaster/assignment`, { method: 'DELETE', cookie: owner.cookie, clock: CLOCK });
    expect(removed.status).toBe(200);
    expect(await isAssignedQuizmaster(testDb(), qm.id, assigned.first.id)).toBe(false);
    expect((await results(assigned.first.id)).status).toBe(403);
  });

  it('a second account cannot claim a claimed profile; a stopped address gets no more invitations', async () => {
    const owner = await createUser({ now: NOW });
    const profile = await createProfile(owner, `Per ${unique('q')}`);
    const s = await seriesAt(owner, 'Claim');
    await link(owner, s.first.id, profile.id);
    const first = await createUser({ roles: [], now: NOW });
    const second = await createUser({ roles: [], now: NOW });
    const l1 = await inviteAndReadLink(owner, s.first.id, first.email);
    // Invite the second before the first claims (once claimed, the owner assigns directly).
    const l2 = await inviteAndReadLink(owner, s.first.id, second.email);
    expect((await call(l1.path, { method: 'POST', cookie: first.cookie, clock: CLOCK })).status).toBe(200);
    const lost = await call(l2.path, { method: 'POST', cookie: second.cookie, clock: CLOCK });
    expect(lost.status).toBe(409);
    expect(await isAssignedQuizmaster(testDb(), second.id, s.first.id)).toBe(false);

    // One-click stop (POST without Origin, as mail clients send it).
    const s2 = await seriesAt(owner, 'Stopp');
    const p2 = await createProfile(owner, `Stina ${unique('q')}`);
    await link(owner, s2.first.id, p2.id);
    const email = `${unique('stop')}@test.local`;
    const { mail } = await inviteAndReadLink(owner, s2.first.id, email);
    const stop = /https?:\/\/\S+\/quizmaster-inbjudan\/stopp\?t=\S+/.exec(mail.text)![0];
    const res = await call(stop.slice(stop.indexOf('/quizmaster-inbjudan')), { method: 'POST', noOrigin: true, clock: CLOCK });
    expect(res.status).toBe(200);
    const r = await callJson(`/api/owner/quizzes/${s2.first.id}/quizmaster/invite`, { body: { email }, cookie: owner.cookie, clock: CLOCK });
    expect(r.status).toBe(200);
    expect(await testDb().all(sql`SELECT 1 FROM mail_outbox WHERE to_email = ${email}`)).toHaveLength(1);
  });

  it('limits invitations: 3 a day to one address, 20 a day from one owner; a refusal stores and mails nothing', async () => {
    const owner = await createUser({ now: NOW });
    const profile = await createProfile(owner, `Gräns ${unique('q')}`);
    const s = await seriesAt(owner, 'Gräns');
    await link(owner, s.first.id, profile.id);
    const send = (email: string) => callJson(`/api/owner/quizzes/${s.rid}/quizmaster/invite`, { body: { email }, cookie: owner.cookie, clock: CLOCK });
    const invitations = async () => (await testDb().all(sql`SELECT 1 FROM quizmaster_invitations WHERE quizmaster_id = ${profile.id}`)).length;
    const same = `${unique('samma')}@test.local`;
    for (let i = 0; i < 3; i++) expect((await send(same)).status).toBe(200);
    const fourth = await send(same);
    expect(fourth.status).toBe(429);
    expect(fourth.body.error.message).toMatch(/^För många inbjudningar\. Försök igen om \d+ h\.$/);
    expect(await invitations()).toBe(3);
    expect(await testDb().all(sql`SELECT 1 FROM mail_outbox WHERE to_email = ${same}`)).toHaveLength(3);
    for (let i = 0; i < 16; i++) expect((await send(`${unique('olika')}@test.local`)).status).toBe(200);
    const over = await send(`${unique('olika')}@test.local`);
    expect(over.status).toBe(429);
    expect(await invitations()).toBe(19);
  });

  it('stores a photo resized (longest side 480 px), refuses over 2 MB, too many pixels, unreadable bytes and a large WebP in Swedish, storing nothing', async () => {
    const owner = await createUser({ now: NOW });
    const profile = await createProfile(owner, `Foto ${unique('q')}`);
    const s = await seriesAt(owner, 'Foto');
    await link(owner, s.first.id, profile.id);
    const qm = await createUser({ roles: [], now: NOW });
    const { path } = await inviteAndReadLink(owner, s.first.id, qm.email);
    await call(path, { method: 'POST', cookie: qm.cookie, clock: CLOCK });
    const put = async (body: Uint8Array<ArrayBuffer>, type = 'image/png') => {
      const res = await SELF.fetch(`${ORIGIN}/api/quizmaster/me/photo`, {
        method: 'PUT',
        body,
        headers: { origin: ORIGIN, cookie: qm.cookie, 'x-clock-now': CLOCK, 'content-type': type },
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    const stored = async () => (await env.IMPORTS.list({ prefix: `quizmaster-photos/${profile.id}/` })).objects.length;
    const photoKey = async () => (await testDb().all<{ k: string | null }>(sql`SELECT photo_key AS k FROM quizmasters WHERE id = ${profile.id}`))[0]!.k;
    const refused = async (body: Uint8Array<ArrayBuffer>, message: string, type?: string) => {
      const r = await put(body, type);
      expect(r.status, message).toBe(400);
      expect(r.body.error.message).toBe(message);
      expect(r.body.error.issues?.[0]?.path).toBe('photo');
      expect(await stored(), message).toBe(0);
      expect(await photoKey()).toBeNull();
    };

    // Just past 2 MB: refused before anything is decoded.
    const tooBig = new Uint8Array(PHOTO_MAX_BYTES + 1);
    tooBig.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await refused(tooBig, 'Bilden får vara högst 2 MB.');
    // Not an image by its bytes, whatever it is declared as.
    await refused(new Uint8Array(new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg"/>')), 'Bilden måste vara JPEG, PNG eller WebP.');
    // Hostile: a PNG header over garbage, a JPEG with no frame header, a header claiming 100 000 × 100 000 pixels.
    await refused(await encodePng(2000, 1500, new Uint8Array(5000).fill(7)), PHOTO_UNREADABLE);
    await refused(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xda, 0, 0, 0, 0, 0, 0]), PHOTO_UNREADABLE, 'image/jpeg');
    await refused(await encodePng(100_000, 100_000, new Uint8Array(10)), PHOTO_TOO_MANY_PIXELS);
    await refused(await encodePng(5000, 10, new Uint8Array(10)), PHOTO_TOO_MANY_PIXELS);
    // A WebP (resvg cannot decode it) larger than the stored size.
    await refused(new Uint8Array(WEBP_640x480), PHOTO_WEBP_TOO_LARGE, 'image/webp');

    // A 2 000 × 1 500 PNG is stored as a 480 × 360 PNG.
    const big = await encodePng(2000, 1500);
    expect(big.byteLength).toBeLessThan(PHOTO_MAX_BYTES);
    const ok = await put(big);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const img = await call(ok.body.photoUrl, { clock: CLOCK });
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/png');
    const bytes = new Uint8Array(await img.arrayBuffer());
    expect(pngSize(bytes)).toEqual({ width: 480, height: 360 });
    // The gradient survived the resize: dark red on the left, bright red on the right.
    const { rgba } = await pngPixels(bytes);
    expect(rgba[0]!).toBeLessThan(40);
    expect(rgba[(360 / 2) * 480 * 4 + 479 * 4]!).toBeGreaterThan(215);
    expect(await stored()).toBe(1);

    // A 640 × 480 JPEG becomes a 480 × 360 PNG; the old photo is deleted.
    const jpeg = await put(jpeg640x480(), 'image/jpeg');
    expect(jpeg.status, JSON.stringify(jpeg.body)).toBe(200);
    expect(pngSize(new Uint8Array(await (await call(jpeg.body.photoUrl, { clock: CLOCK })).arrayBuffer()))).toEqual({ width: 480, height: 360 });
    expect(await stored()).toBe(1);
    // A small WebP is kept as given.
    const webp = await put(new Uint8Array(WEBP_300x200), 'image/webp');
    expect(webp.status, JSON.stringify(webp.body)).toBe(200);
    const webpImg = await call(webp.body.photoUrl, { clock: CLOCK });
    expect(webpImg.headers.get('content-type')).toBe('image/webp');
    expect(new Uint8Array(await webpImg.arrayBuffer())).toEqual(WEBP_300x200);
    // Someone without a profile has no photo to set.
    const stranger = await createUser({ roles: [], now: NOW });
    expect(
      (
        await callJson('/api/quizmaster/me/photo', {
          method: 'PUT',
          body: 'x',
          cookie: stranger.cookie,
          clock: CLOCK,
          headers: { 'content-type': 'image/png' },
        })
      ).status,
    ).toBe(403);
  });
});

describe('following a quizmaster', () => {
  /** The queue consumer runs after its batch timeout (2 s): wait for the mail record. */
  async function waitForMail(email: string, subjectPart: string, timeoutMs = 15_000) {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const rows = await testDb().all<any>(sql`SELECT * FROM mail_outbox WHERE to_email = ${email} ORDER BY created_at, rowid`);
      const hit = rows.filter((r) => r.subject.includes(subjectPart));
      if (hit.length) return hit;
      if (Date.now() > until) throw new Error(`no mail "${subjectPart}" to ${email}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  it('a follower gets exactly one mail when the quizmaster starts at a fourth venue; the listing, pages and feed filter by the quizmaster', async () => {
    const owner = await createUser({ now: NOW });
    const name = `Nora Quiz ${unique('n')}`;
    const profile = await createProfile(owner, name);
    const venues = [];
    for (const v of ['Första', 'Andra', 'Tredje']) {
      const s = await seriesAt(owner, v);
      await link(owner, s.first.id, profile.id);
      venues.push(s);
    }
    // An unrelated series in the same city, which the filter must leave out.
    const other = await seriesAt(owner, 'Utan quizmaster');

    const fan = await createUser({ roles: [], now: NOW });
    const followed = await callJson('/api/follows', { body: { filters: { quizmaster: profile.slug } }, cookie: fan.cookie, clock: CLOCK });
    expect(followed.status, JSON.stringify(followed.body)).toBe(201);
    expect(followed.body.follow.url).toBe(`/quizmaster/${profile.slug}`);

    const fourth = await seriesAt(owner, 'Fjärde');
    expect((await link(owner, fourth.first.id, profile.id)).status).toBe(200);
    const mails = await waitForMail(fan.email, 'leder nu quiz på');
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe(`${name} leder nu quiz på ${fourth.location.name}`);
    expect(mails[0].send_key).toBe(`quizmaster-news:${followed.body.follow.id}:2030-01-07`);
    expect(JSON.parse(mails[0].headers)['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');

    // Linking again at a place already announced claims nothing; a fifth place the same day is at most one mail a day.
    expect((await link(owner, fourth.quizzes[1]!.id, profile.id)).status).toBe(200);
    expect(await testDb().all(sql`SELECT 1 FROM quizmaster_announcements WHERE quizmaster_id = ${profile.id}`)).toHaveLength(4);
    const fifth = await seriesAt(owner, 'Femte');
    const deps = testDeps({ now: CLOCK, config: { appUrl: 'http://localhost', linkSigningSecret: DEV_LINK_SIGNING_SECRET } });
    const message = (body: unknown): QueueMessageLike => ({ id: unique('m'), body, attempts: 1, ack() {}, retry() {} });
    const out = await processMailBatch(deps, {
      queueName: 'quizkvall-mail',
      messages: [
        message({ type: 'quizmaster-news', followId: followed.body.follow.id, quizmasterId: profile.id, locationId: fifth.location.id, day: '2030-01-07' }),
      ],
    });
    expect(out).toMatchObject({ duplicate: 1 });
    expect(await testDb().all(sql`SELECT 1 FROM mail_outbox WHERE to_email = ${fan.email}`)).toHaveLength(1);

    // ?quizmaster= on the listing API: the four venues, not the other series; combined with a city.
    const api = await callJson(`/api/listing?quizmaster=${profile.slug}`, { clock: CLOCK });
    expect(api.status).toBe(200);
    const ids = api.body.items.map((q: any) => q.venue.id).sort();
    expect(ids).toEqual([...venues, fourth].map((s) => s.venue.id).sort());
    expect(ids).not.toContain(other.venue.id);
    expect(api.body.items.every((q: any) => q.quizmasterProfile?.slug === profile.slug)).toBe(true);
    expect((await callJson(`/api/listing?quizmaster=${profile.slug}&city=goteborg`, { clock: CLOCK })).body.items).toEqual([]);
    // … on the map of the same listing (its points and a marker's card): the four venues only, the filter kept.
    const mapped = await callJson(`/api/listing/map?quizmaster=${profile.slug}&city=stockholm&weekday=all`, { clock: CLOCK });
    expect(mapped.status).toBe(200);
    expect(mapped.body, JSON.stringify(mapped.body)).toMatchObject({ total: 4, withoutPosition: 0 });
    expect(mapped.body.points.map((p: any) => p.name.split(',')[0]).sort()).toEqual([...venues, fourth].map((s) => s.venue.name).sort());
    const marker = await callJson(`/api/listing/card?unit=${mapped.body.points[0].unit}&quizmaster=${profile.slug}&city=stockholm&weekday=all`, {
      clock: CLOCK,
    });
    expect(marker.status).toBe(200);
    expect(marker.body.item.quizmasterProfile).toEqual({ name, slug: profile.slug });
    const [otherUnit] = await testDb().all<{ id: number }>(sql`SELECT id FROM listing_series WHERE venue_id = ${other.venue.id}`);
    expect((await callJson(`/api/listing/card?unit=${otherUnit!.id}&quizmaster=${profile.slug}&city=stockholm&weekday=all`, { clock: CLOCK })).status).toBe(
      404,
    );
    expect((await callJson(`/api/listing/map?quizmaster=${profile.slug}&city=goteborg`, { clock: CLOCK })).body).toMatchObject({ points: [], total: 0 });
    const bad = await callJson('/api/listing?quizmaster=%3Cscript%3E', { clock: CLOCK });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Ogiltig quizmaster');
    // … on the pages, server-rendered …
    const page = await (await call(`/quiz/stockholm?quizmaster=${profile.slug}`, { clock: CLOCK })).text();
    for (const s of [...venues, fourth]) expect(page).toContain(s.venue.name);
    expect(page).not.toContain(other.venue.name);
    // … and in the feeds: the quizmaster's own webcal feed and the listing feed.
    const feed = await call(`/quizmaster/${profile.slug}.ics`, { clock: CLOCK });
    expect(feed.status).toBe(200);
    expect(feed.headers.get('content-type')).toContain('text/calendar');
    const ics = await feed.text();
    expect(ics).toContain(`X-WR-CALNAME:${name} – Quizkväll`);
    for (const s of [...venues, fourth]) expect(ics).toContain(s.venue.name);
    expect(ics).not.toContain(other.venue.name);
    const listingFeed = await (await call(`/api/calendar/listing.ics?quizmaster=${profile.slug}`, { clock: CLOCK })).text();
    expect(listingFeed).toContain(fourth.venue.name);
    expect(listingFeed).not.toContain(other.venue.name);
    expect((await call('/quizmaster/finns-inte.ics', { clock: CLOCK })).status).toBe(404);
  });
});

describe('a deleted series or quiz', () => {
  it('takes its quizmaster link and assignments with it, by any deleting path; a series keeps them while a date is left', async () => {
    const owner = await createUser({ now: NOW });
    const profile = await createProfile(owner, `Ida Borta ${unique('b')}`);
    const s = await seriesAt(owner, 'Raderade');
    expect((await link(owner, s.first.id, profile.id)).status).toBe(200);
    const single = await createQuiz(s.location.id, { date: '2030-01-10' });
    expect((await link(owner, single.id, profile.id)).status).toBe(200);
    for (const key of [s.rid, single.id]) {
      await testDb().run(sql`INSERT INTO quizmaster_assignments (unit_key, quizmaster_id, venue_id) VALUES (${key}, ${profile.id}, ${s.venue.id})`);
    }
    const rows = async (key: string) =>
      (
        await testDb().all<{ n: number }>(sql`
        SELECT (SELECT count(*) FROM quizmaster_links WHERE unit_key = ${key}) + (SELECT count(*) FROM quizmaster_assignments WHERE unit_key = ${key}) AS n`)
      )[0]!.n;
    expect(await rows(s.rid)).toBe(2);

    // One date of the series deleted: the series is still there, and so is its link.
    expect((await callJson(`/api/owner/quizzes/${s.quizzes[2]!.id}`, { method: 'DELETE', cookie: owner.cookie, clock: CLOCK })).status).toBe(200);
    expect(await rows(s.rid)).toBe(2);
    // The series deleted: its link and assignment are gone, and the profile page no longer lists it.
    expect((await callJson(`/api/owner/series/${s.rid}`, { method: 'DELETE', cookie: owner.cookie, clock: CLOCK })).status).toBe(200);
    expect(await rows(s.rid)).toBe(0);
    // A single quiz deleted: the same.
    expect(await rows(single.id)).toBe(2);
    expect((await callJson(`/api/owner/quizzes/${single.id}`, { method: 'DELETE', cookie: owner.cookie, clock: CLOCK })).status).toBe(200);
    expect(await rows(single.id)).toBe(0);
    const page = await (await call(`/quizmaster/${profile.slug}`, { clock: CLOCK })).text();
    expect(page).not.toContain(s.venue.name);
  });

  it('moves with the quiz when a series is made single, and when a single quiz is made a series', async () => {
    const owner = await createUser({ now: NOW });
    const profile = await createProfile(owner, `Ida Flytt ${unique('f')}`);
    const s = await seriesAt(owner, 'Flytt');
    expect((await link(owner, s.first.id, profile.id)).status).toBe(200);
    await testDb().run(sql`INSERT INTO quizmaster_assignments (unit_key, quizmaster_id, venue_id) VALUES (${s.rid}, ${profile.id}, ${s.venue.id})`);
    const keys = async () => ({
      links: (await testDb().all<{ k: string }>(sql`SELECT unit_key AS k FROM quizmaster_links WHERE quizmaster_id = ${profile.id}`)).map((r) => r.k),
      assignments: (await testDb().all<{ k: string }>(sql`SELECT unit_key AS k FROM quizmaster_assignments WHERE quizmaster_id = ${profile.id}`)).map(
        (r) => r.k,
      ),
    });
    const edit = (id: string, body: Record<string, unknown>) =>
      callJson(`/api/owner/quizzes/${id}`, {
        method: 'PATCH',
        cookie: owner.cookie,
        clock: CLOCK,
        body: { startTime: '19:00', category: 'allmänbildning', ...body },
      });
    // The series made single: its other dates are deleted, the quizmaster stays with the quiz that is left.
    const single = await edit(s.first.id, { date: '2030-01-08', recurring: false });
    expect(single.status, JSON.stringify(single.body)).toBe(200);
    expect(await keys()).toEqual({ links: [s.first.id], assignments: [s.first.id] });
    const api = await callJson(`/api/listing?quizmaster=${profile.slug}`, { clock: CLOCK });
    expect(api.body.items.map((q: any) => q.id)).toEqual([s.first.id]);
    // … and made a series again: the quizmaster follows it to the new series.
    const series = await edit(s.first.id, { date: '2030-01-08', recurring: true });
    expect(series.status, JSON.stringify(series.body)).toBe(200);
    const [row] = await testDb().all<{ rid: string }>(sql`SELECT recurrence_id AS rid FROM quizzes WHERE id = ${s.first.id}`);
    expect(row!.rid).toBeTruthy();
    expect(await keys()).toEqual({ links: [row!.rid], assignments: [row!.rid] });
  });
});
