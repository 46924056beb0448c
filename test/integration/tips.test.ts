/**
 * "Tipsa om ett quiz" (issue 31.1): the public form → the superadmin's "Tips" queue → approve (a
 * house-account business with its series, listed on the city page) or reject (a reason, the address
 * forgotten); a second answer is a 409. Abuse: per-client rate limit, honeypot, human check.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { TIP_LIST_LIMIT } from '../../worker/features/tips/queries';
import { TIP_LIMIT } from '../../worker/features/tips/service';
import { LOCAL_FAIL_TOKEN } from '../../worker/ports/human-check';
import { slugify } from '../../worker/lib/slug';
import { HOSTILE_CITIES } from '../fixtures/hostile-cities';
import { call, callJson, createLocation, createUser, createVenue, randomClientIp, snapshot, testDb, unique } from '../factories';
import { testApp } from '../test-app';

// Monday 2030-01-07, 10:00 in Stockholm.
const CLOCK = '2030-01-07T09:00:00Z';

/** Tips name a known town (issue 43.6); this file's are its own, so its city pages list only its tips. */
const TIP_TOWN = 'Hjo';

function tipBody(over: Record<string, unknown> = {}) {
  return {
    venueName: `Tipskrogen ${unique('v')}`,
    address: 'Storgatan 1',
    city: TIP_TOWN,
    weekday: 3,
    date: '',
    startTime: '19:30',
    link: 'https://tipskrogen.example',
    message: 'Quiz varje onsdag',
    email: 'Tipsare@Example.se',
    company: '',
    humanToken: 'local-pass',
    ...over,
  };
}

async function tipRows(where = sql`1 = 1`) {
  return testDb().all<Record<string, any>>(sql`SELECT * FROM tips WHERE ${where} ORDER BY created_at`);
}
/** The mail's signed page link, followed: where it sends the reader. */
async function followPageLink(text: string) {
  const link = /https?:\/\/\S+\/tipsa\/visa\?t=\S+/.exec(text)?.[0];
  expect(link, text).toBeDefined();
  const res = await call(link!.slice(link!.indexOf('/tipsa/visa')), { clock: CLOCK });
  expect(res.status).toBe(302);
  return res.headers.get('location');
}
const send = (body: Record<string, unknown>, ip = randomClientIp()) => callJson('/api/tips', { body, clock: CLOCK, headers: { 'cf-connecting-ip': ip } });

describe('POST /api/tips', () => {
  it('stores a tip with its address kept until it is answered', async () => {
    const body = tipBody();
    const res = await send(body);
    expect(res.status).toBe(201);
    const [row] = await tipRows(sql`venue_name = ${body.venueName}`);
    expect(row).toMatchObject({
      status: 'pending',
      city: body.city,
      city_slug: slugify(body.city as string),
      weekday: 3,
      date: null,
      start_time: '19:30:00',
      email: 'tipsare@example.se',
      near_venue_id: null,
    });
  });

  it.each([
    [{ venueName: ' ' }, 'Ställe'],
    [{ address: '' }, 'Adress'],
    [{ city: 'x'.repeat(81) }, 'Stad'],
    [{ weekday: null, date: '' }, 'Veckodag'],
    [{ weekday: 2, date: '2030-02-01' }, 'Datum'],
    [{ weekday: null, date: '2030-02-30' }, 'Datum'],
    [{ startTime: '25:00' }, 'Starttid'],
    [{ link: 'javascript:alert(1)' }, 'Länk'],
    [{ email: 'inte-en-adress' }, 'E-post'],
    [{ message: 'a\u0000b' }, 'Fritext'],
    [{ weekday: null, date: '2030-01-06' }, 'Datum'],
  ])('bad input %j answers 400 naming %s and stores nothing', async (over, field) => {
    const before = await snapshot(['tips']);
    const res = await send(tipBody(over));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain(field);
    expect(await snapshot(['tips'])).toEqual(before);
  });

  it.each(HOSTILE_CITIES)('city: %s is refused with 400 and a Swedish message naming Stad; nothing stored', async (_, city, message) => {
    const before = await snapshot(['tips']);
    const res = await send(tipBody({ city }));
    expect(res.status).toBe(400);
    expect(res.body.error.message).toBe(`Stad: ${message === 'Ange stad' ? 'Ange en stad' : message}`);
    expect(await snapshot(['tips'])).toEqual(before);
  });

  it("a known town is stored in the gazetteer's spelling", async () => {
    const body = tipBody({ city: '  ASKERSUND ' });
    expect((await send(body)).status).toBe(201);
    const [row] = await tipRows(sql`venue_name = ${body.venueName}`);
    expect(row).toMatchObject({ city: 'Askersund', city_slug: 'askersund' });
  });

  it('the human check is enforced: a refused token stores nothing', async () => {
    const before = await snapshot(['tips']);
    for (const humanToken of ['', LOCAL_FAIL_TOKEN]) {
      const res = await send(tipBody({ humanToken }));
      expect(res.status).toBe(400);
      expect(res.body.error.issues[0].path).toBe('humanToken');
    }
    expect(await snapshot(['tips'])).toEqual(before);
  });

  it('asks the human-check port with the token and the client address', async () => {
    const seen: Array<[string, string | null]> = [];
    const app = testApp({
      humanCheck: () => ({
        verify: async (t, ip) => {
          seen.push([t, ip]);
          return false;
        },
      }),
    });
    const res = await callJson('/api/tips', { app, body: tipBody({ humanToken: 'tok-1' }), clock: CLOCK, headers: { 'cf-connecting-ip': '198.51.100.7' } });
    expect(res.status).toBe(400);
    expect(seen).toEqual([['tok-1', '198.51.100.7']]);
  });

  it('a filled honeypot is answered like a success and stores nothing', async () => {
    const before = await snapshot(['tips']);
    const res = await send(tipBody({ company: 'Spam AB' }));
    expect(res.status).toBe(201);
    expect(await snapshot(['tips'])).toEqual(before);
  });

  it(`is rate-limited per client: the ${TIP_LIMIT + 1}th tip within the hour is refused and not stored`, async () => {
    const ip = randomClientIp();
    for (let i = 0; i < TIP_LIMIT; i++) expect((await send(tipBody(), ip)).status).toBe(201);
    const before = await snapshot(['tips']);
    const res = await send(tipBody(), ip);
    expect(res.status).toBe(429);
    expect(await snapshot(['tips'])).toEqual(before);
    // Another client is not affected.
    expect((await send(tipBody())).status).toBe(201);
  });

  it("flags a near duplicate of a listed place in the same town (the import's check)", async () => {
    const owner = await createUser();
    const city = 'Vadstena';
    const venue = await createVenue(owner.id, { name: 'Ölstugan Tullen' });
    await createLocation(venue.id, { city, name: 'Ölstugan Tullen', address: 'Kungsgatan 5' });
    await send(tipBody({ city, venueName: 'Ölstugan Tullen', address: 'Annan gata 9' }));
    await send(tipBody({ city, venueName: 'Helt annat ställe', address: 'Kungsgatan 5' }));
    await send(tipBody({ city, venueName: 'Tredje stället', address: 'Tredje gatan 3' }));
    const rows = await tipRows(sql`city = ${city}`);
    expect(rows.map((r) => [r.venue_name, r.near_venue_id])).toEqual([
      ['Ölstugan Tullen', venue.id],
      ['Helt annat ställe', venue.id],
      ['Tredje stället', null],
    ]);
    expect(rows[1]!.near_note).toBe('Samma adress som Ölstugan Tullen');
  });
});

describe('the superadmin queue', () => {
  async function pendingTip(over: Record<string, unknown> = {}) {
    const body = tipBody(over);
    expect((await send(body)).status).toBe(201);
    const [row] = await tipRows(sql`venue_name = ${body.venueName}`);
    return { body, id: row!.id as string };
  }

  it('lists pending tips with the count; visitors and owners are refused', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { id } = await pendingTip();
    const res = await callJson('/api/admin/tips', { cookie: admin.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    const item = res.body.items.find((t: any) => t.id === id);
    expect(item).toMatchObject({ status: 'pending', hasEmail: true, weekday: 3, startTime: '19:30' });
    expect(item.email).toBeUndefined();
    expect(res.body.pending).toBeGreaterThanOrEqual(1);
    expect((await callJson('/api/admin/tips/count', { cookie: admin.cookie })).body.pending).toBe(res.body.pending);
    expect((await call('/api/admin/tips')).status).toBe(401);
    const owner = await createUser({ roles: ['admin'], now: new Date(CLOCK) });
    expect((await call('/api/admin/tips', { cookie: owner.cookie })).status).toBe(403);
    expect((await call(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: owner.cookie })).status).toBe(403);
  });

  it('approve creates a claimable house-account business listed on its city page, mails the tipster once and forgets the address', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { body, id } = await pendingTip();
    const res = await callJson(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ status: 'approved', hasEmail: false });
    const citySlug = slugify(body.city as string);
    const [venue] = await testDb().all<any>(
      sql`SELECT v.*, u.email AS owner_email FROM venues v JOIN users u ON u.id = v.user_id WHERE v.id = ${res.body.venue.id}`,
    );
    expect(venue).toMatchObject({ name: body.venueName, is_public: 1, owner_email: 'house@test.local' });
    const quizzes = await testDb().all<any>(
      sql`SELECT q.date, q.start_time, q.is_recurring FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE l.venue_id = ${venue.id} ORDER BY q.date`,
    );
    expect(quizzes[0]).toEqual({ date: '2030-01-09', start_time: '19:30:00', is_recurring: 1 });
    expect(quizzes.length).toBeGreaterThan(20);
    // Public: the listing API and the city page.
    const listing = await callJson(`/api/listing?city=${citySlug}`, { clock: CLOCK });
    expect(listing.body.items.map((i: any) => i.venueName ?? i.venue?.name ?? i.name)).toContain(body.venueName);
    const page = await call(`/quiz/${citySlug}`, { clock: CLOCK });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(body.venueName as string);
    // One mail with the page link and the one-click stop; the address is gone from the tip.
    const mails = await testDb().all<any>(sql`SELECT * FROM mail_outbox WHERE send_key = ${`tip-published:${id}`}`);
    expect(mails).toHaveLength(1);
    expect(mails[0].to_email).toBe('tipsare@example.se');
    // The page is reached through our signed link (issue 43.7: no slug made of the tipster's words in the mail).
    expect(await followPageLink(mails[0].text)).toBe(`/quiz/${citySlug}/${venue.slug}`);
    expect(JSON.parse(mails[0].headers)).toMatchObject({ 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' });
    expect((await tipRows(sql`id = ${id}`))[0]!.email).toBeNull();
    // The one-click stop (RFC 8058: a POST without Origin) answers with a page; GET only shows the button.
    const stop = /<([^>]+)>/.exec(JSON.parse(mails[0].headers)['List-Unsubscribe'])![1]!;
    const stopPath = stop.slice(stop.indexOf('/tipsa/stopp'));
    const shown = await call(stopPath, { clock: CLOCK });
    expect(shown.status).toBe(200);
    expect(await shown.text()).toContain('Radera min adress');
    const stopped = await call(stopPath, { method: 'POST', noOrigin: true, clock: CLOCK });
    expect(stopped.status).toBe(200);
    expect(await stopped.text()).toContain('Din e-postadress är raderad');
    // A second answer changes nothing.
    const before = await snapshot(['tips', 'venues', 'locations', 'quizzes']);
    expect((await call(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK })).status).toBe(409);
    expect((await call(`/api/admin/tips/${id}/reject`, { method: 'POST', body: { reason: 'Nej' }, cookie: admin.cookie, clock: CLOCK })).status).toBe(409);
    expect(await snapshot(['tips', 'venues', 'locations', 'quizzes'])).toEqual(before);
  });

  it('a dated tip becomes one evening', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { id } = await pendingTip({ weekday: null, date: '2030-01-12', email: '' });
    const res = await callJson(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    const quizzes = await testDb().all<any>(
      sql`SELECT q.date, q.is_recurring FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE l.venue_id = ${res.body.venue.id}`,
    );
    expect(quizzes).toEqual([{ date: '2030-01-12', is_recurring: 0 }]);
    expect(await testDb().all(sql`SELECT 1 FROM mail_outbox WHERE send_key = ${`tip-published:${id}`}`)).toHaveLength(0);
  });

  it('a published tip invents no facts (issue 44.3): price and category unknown, "Pris ej angivet", no badge, not Gratis', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    for (const over of [{}, { weekday: null, date: '2030-01-12', email: '' }]) {
      const { body, id } = await pendingTip(over);
      const res = await callJson(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const rows = await testDb().all<any>(
        sql`SELECT DISTINCT q.price, q.category, q.theme FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE l.venue_id = ${res.body.venue.id}`,
      );
      expect(rows).toEqual([{ price: null, category: null, theme: null }]);
      const citySlug = slugify(body.city as string);
      const mine = (q: string) =>
        callJson(`/api/listing?city=${citySlug}${q}`, { clock: CLOCK }).then((r) => (r.body.items as any[]).filter((i) => i.venue.id === res.body.venue.id));
      const [card] = await mine('');
      expect(card).toMatchObject({ price: null, categoryLabel: null });
      expect(await mine('&price=gratis')).toEqual([]);
      expect(await mine('&category=allmanbildning')).toEqual([]);
      const page = await (await call(`/quiz/${citySlug}/${res.body.venue.slug}`, { clock: CLOCK })).text();
      expect(page).toContain('Pris ej angivet');
      expect(page).toMatch(/Gratis quiz<\/dt><dd[^>]*>0<\/dd>/);
    }
  });

  it(`the approved tip comes back with its business after more than ${TIP_LIST_LIMIT} newer approvals (read by id, not found in a list page)`, async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { body, id } = await pendingTip({ email: '' });
    // TIP_LIST_LIMIT + 1 approved tips sent after this one: the approved list's page no longer holds it.
    const newer = Array.from({ length: TIP_LIST_LIMIT + 1 }, (_, i) => i);
    await testDb().run(sql`INSERT INTO tips (id, venue_name, address, city, city_slug, weekday, start_time, status, created_at, updated_at, answered_at)
      SELECT ${unique('newer')} || '-' || value, 'Nyare ' || value, 'Storgatan 1', 'Nyastad', 'nyastad', 3, '19:00:00', 'approved',
        strftime('%Y-%m-%dT%H:%M:%fZ', ${CLOCK}, '+1 minute', '+' || value || ' seconds'), ${CLOCK}, ${CLOCK}
      FROM json_each(${JSON.stringify(newer)})`);
    const res = await callJson(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, status: 'approved', venueName: body.venueName, venue: { citySlug: slugify(body.city as string) } });
    expect(res.body.venue.slug).toEqual(expect.any(String));
  });

  it('two answers racing: exactly one wins, the other gets 409 and nothing is created twice', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { id } = await pendingTip();
    const answers = await Promise.all([
      call(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK }),
      call(`/api/admin/tips/${id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK }),
      call(`/api/admin/tips/${id}/reject`, { method: 'POST', body: { reason: 'Dubblett' }, cookie: admin.cookie, clock: CLOCK }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    const [row] = await tipRows(sql`id = ${id}`);
    const created = await testDb().all(sql`SELECT 1 FROM venues WHERE name = ${row!.venue_name}`);
    expect(created).toHaveLength(row!.status === 'approved' ? 1 : 0);
  });

  it('reject stores the reason and forgets the address; bad input and unknown ids are refused', async () => {
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const { id } = await pendingTip();
    expect((await callJson(`/api/admin/tips/${id}/reject`, { method: 'POST', body: { reason: ' ' }, cookie: admin.cookie })).body.error.message).toContain(
      'Anledning',
    );
    expect((await call(`/api/admin/tips/${unique('nope')}/reject`, { method: 'POST', body: { reason: 'x' }, cookie: admin.cookie })).status).toBe(404);
    const res = await callJson(`/api/admin/tips/${id}/reject`, { method: 'POST', body: { reason: 'Quizet finns redan' }, cookie: admin.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    expect((await tipRows(sql`id = ${id}`))[0]).toMatchObject({ status: 'rejected', reject_reason: 'Quizet finns redan', email: null, venue_id: null });
  });
});

describe("/tipsa/stopp (the mail's one-click stop)", () => {
  it('a bad token is refused with a page; the one-click POST works without Origin', async () => {
    const bad = await call('/tipsa/stopp?t=bad', { method: 'POST', noOrigin: true });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain('Ingen e-post om tips');
  });
});

describe('tips at volume (issue 43.7)', () => {
  const superadmin = () => createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
  type Page = { items: Array<{ id: string; venueName: string; seenCount: number; createdAt: string }>; pending: number; nextCursor: string | null };

  it('ten identical tips from ten clients make one row seen ten times; each is answered exactly like a new tip', async () => {
    const body = tipBody();
    for (let i = 0; i < 10; i++) {
      const res = await send(body);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({ ok: true });
    }
    const rows = await tipRows(sql`venue_name = ${body.venueName}`);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ seen_count: 10, status: 'pending' });
  });

  it('near-identical tips (case, spaces, accents, punctuation) fold into the first; another time or day is a new tip', async () => {
    const name = `Ölstugan Tips ${unique('n')}`;
    const first = tipBody({ venueName: name, startTime: '19:00' });
    expect((await send(first)).status).toBe(201);
    const twins = [name.toUpperCase(), `  ${name.replace(/ /g, '   ')} `, name.replace('Ö', 'O'), `${name}!`, name.replace(/ /g, '-')];
    for (const venueName of twins)
      expect((await send(tipBody({ venueName, startTime: '19:00', message: 'annan text', city: TIP_TOWN.toUpperCase() }))).status).toBe(201);
    const stem = sql`lower(venue_name) LIKE ${`%${name.slice(-10).toLowerCase()}%`}`;
    expect((await tipRows(stem)).map((r) => [r.venue_name, r.seen_count])).toEqual([[name, 1 + twins.length]]);
    // Just past the key: another start time, another weekday, a date instead.
    await send(tipBody({ venueName: name, startTime: '19:01' }));
    await send(tipBody({ venueName: name, startTime: '19:00', weekday: 4 }));
    await send(tipBody({ venueName: name, startTime: '19:00', weekday: null, date: '2030-01-09' }));
    expect(await tipRows(stem)).toHaveLength(4);
  });

  it('an answered tip no longer absorbs a new one: the same tip after a rejection is pending again', async () => {
    const admin = await superadmin();
    const body = tipBody();
    await send(body);
    const [row] = await tipRows(sql`venue_name = ${body.venueName}`);
    expect(
      (await call(`/api/admin/tips/${row!.id}/reject`, { method: 'POST', body: { reason: 'Finns inte' }, cookie: admin.cookie, clock: CLOCK })).status,
    ).toBe(200);
    await send(body);
    expect((await tipRows(sql`venue_name = ${body.venueName}`)).map((r) => r.status)).toEqual(['rejected', 'pending']);
  });

  it('200 later tips do not hide the first: the list is paged, oldest first by default, and newest first pages back to it', async () => {
    const admin = await superadmin();
    const first = tipBody({ venueName: `Första riktiga ${unique('f')}` });
    expect((await callJson('/api/tips', { body: first, clock: '2030-01-07T08:00:00Z', headers: { 'cf-connecting-ip': randomClientIp() } })).status).toBe(201);
    const flood = unique('flod');
    for (let i = 0; i < 200; i++) expect((await send(tipBody({ venueName: `${flood} ${i}`, address: `Gata ${i}` }))).status).toBe(201);
    const list = async (q: string) => {
      const res = await callJson<Page>(`/api/admin/tips?${q}`, { cookie: admin.cookie, clock: CLOCK });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body;
    };
    const all = async (order: string) => {
      const seen: Page['items'] = [];
      let cursor: string | null = '';
      for (let n = 0; cursor !== null; n++) {
        expect(n).toBeLessThan(100);
        const page: Page = await list(`status=pending&order=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
        expect(page.items.length).toBeLessThanOrEqual(TIP_LIST_LIMIT);
        seen.push(...page.items);
        cursor = page.nextCursor;
      }
      return seen;
    };
    const oldest = await all('oldest');
    const newest = await all('newest');
    expect(oldest.length).toBeGreaterThanOrEqual(201);
    expect(new Set(oldest.map((t) => t.id)).size).toBe(oldest.length);
    expect(newest.map((t) => t.id)).toEqual([...oldest].reverse().map((t) => t.id));
    const at = (items: Page['items'], name: string) => items.findIndex((t) => t.venueName === name);
    expect(at(oldest, first.venueName)).toBeGreaterThanOrEqual(0);
    expect(at(oldest, first.venueName)).toBeLessThan(at(oldest, `${flood} 0`));
    // The default is oldest first: the first real tip comes before every tip of the flood on the first page.
    const page1 = await list('status=pending');
    expect(at(page1.items, first.venueName)).toBeGreaterThanOrEqual(0);
    expect(page1.items.map((t) => t.id)).toEqual(oldest.slice(0, page1.items.length).map((t) => t.id));
    expect(page1.nextCursor).not.toBeNull();
    // A hostile cursor or order is a 400 naming the field, never a 500.
    for (const [q, field] of [
      ['order=sideways', 'Ordning'],
      [`cursor=${encodeURIComponent("x' OR 1=1 --")}`, 'Sida'],
      [`cursor=${'9'.repeat(300)}`, 'Sida'],
    ]) {
      const res = await callJson(`/api/admin/tips?${q}`, { cookie: admin.cookie, clock: CLOCK });
      expect(res.status, q).toBe(400);
      expect(res.body.error.message, q).toContain(field);
    }
  });

  it('the "published" mail to the unconfirmed address carries no text the tipster chose (subject, text, HTML)', async () => {
    const admin = await superadmin();
    const bait = `Ring 0701234567 evil.example 5000 kr ${unique('b')}`;
    const body = tipBody({ venueName: bait, message: 'Besök evil.example nu', link: 'https://evil.example/x' });
    await send(body);
    const [row] = await tipRows(sql`venue_name = ${body.venueName}`);
    const res = await callJson(`/api/admin/tips/${row!.id}/approve`, { method: 'POST', body: {}, cookie: admin.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    const [mail] = await testDb().all<any>(sql`SELECT * FROM mail_outbox WHERE send_key = ${`tip-published:${row!.id}`}`);
    const slug = res.body.venue.slug as string;
    for (const part of [mail.subject, mail.text, mail.html, mail.headers]) {
      for (const chosen of ['evil', '0701234567', '5000', slug, 'ring-0701234567', TIP_TOWN, slugify(TIP_TOWN)]) {
        expect(part.toLowerCase(), chosen).not.toContain(chosen.toLowerCase());
      }
    }
    expect(mail.subject).toBe('Tack för ditt tips! Quizet finns nu på Quizkväll');
    expect(mail.text).toContain('tipsare@example.se');
    // The signed link shows the page; a forged or foreign token is refused.
    expect(await followPageLink(mail.text)).toBe(`/quiz/${slugify(TIP_TOWN)}/${slug}`);
    expect((await call('/tipsa/visa?t=forged', { clock: CLOCK })).status).toBe(400);
    const stop = /<([^>]+)>/.exec(JSON.parse(mail.headers)['List-Unsubscribe'])![1]!;
    expect((await call(`/tipsa/visa?${stop.split('?')[1]}`, { clock: CLOCK })).status).toBe(400);
  });
});
