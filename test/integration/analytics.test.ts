/**
 * Issue 18: privacy-first counting (POST /api/events), the owner's numbers (/api/analytics + CSV), the
 * slot calendar of the promotion dialogs and the superadmin overview.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkoutOrders, promotions } from '../../worker/db/schema';
import { EVENTS_RATE_LIMIT } from '../../worker/features/events/service';
import { newId } from '../../worker/lib/ids';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, randomClientIp, snapshot, testDb, unique, uniqueTown } from '../factories';
import { buy, ownerWithQuiz } from './promotion-support';

const NOW = '2030-03-03T09:00:00Z';
const TODAY = '2030-03-03';
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';

function beacon(events: unknown, opts: { cookie?: string; ip?: string; ua?: string; contentType?: string; raw?: string } = {}) {
  return call('/api/events', {
    clock: NOW,
    cookie: opts.cookie,
    body: opts.raw ?? { events },
    headers: {
      'user-agent': opts.ua ?? BROWSER,
      'cf-connecting-ip': opts.ip ?? randomClientIp(),
      ...(opts.contentType ? { 'content-type': opts.contentType } : {}),
    },
  });
}

async function counts(venueId: string) {
  return testDb().all<{ day: string; location_id: string; quiz_id: string; metric: string; count: number }>(
    sql`SELECT day, location_id, quiz_id, metric, count FROM analytics_daily WHERE venue_id = ${venueId} ORDER BY metric, quiz_id`,
  );
}
const total = async (venueId: string, metric: string) => (await counts(venueId)).filter((r) => r.metric === metric).reduce((s, r) => s + r.count, 0);

async function place() {
  const owner = await createUser({ now: new Date(NOW) });
  const venue = await createVenue(owner.id);
  const location = await createLocation(venue.id, { city: uniqueTown() });
  const quiz = await createQuiz(location.id, { date: '2030-03-05', title: 'Tisdagsquiz' });
  return { owner, venue, location, quiz };
}

describe('POST /api/events', () => {
  it('counts once per client, metric and quiz (or business) and Stockholm day; a venue page view counts for the business', async () => {
    const { venue, location, quiz } = await place();
    const events = [
      ...Array.from({ length: 7 }, () => ({ t: 'impression', q: quiz.id })),
      { t: 'detail_open', q: quiz.id },
      { t: 'detail_open', q: quiz.id },
      { t: 'venue_view', v: venue.id },
    ];
    expect((await beacon(events)).status).toBe(204);
    expect(await counts(venue.id)).toEqual([
      { day: TODAY, location_id: location.id, quiz_id: quiz.id, metric: 'detail_open', count: 1 },
      { day: TODAY, location_id: location.id, quiz_id: quiz.id, metric: 'impression', count: 1 },
      { day: TODAY, location_id: '', quiz_id: '', metric: 'venue_view', count: 1 },
    ]);
  });

  it('48.7: visits from the owner kit (src=affisch|bordsskylt|instagram) count as their own source, once per client and day, in the owner totals', async () => {
    const { owner, venue } = await place();
    const fromPoster = randomClientIp();
    const visit = (src: string) => [
      { t: 'venue_view', v: venue.id },
      { t: `src_${src}`, v: venue.id },
    ];
    expect((await beacon(visit('affisch'), { ip: fromPoster })).status).toBe(204);
    // The same phone scans the poster again that day: counted once.
    expect((await beacon(visit('affisch'), { ip: fromPoster })).status).toBe(204);
    expect((await beacon(visit('bordsskylt'))).status).toBe(204);
    const ig = randomClientIp();
    expect((await beacon(visit('instagram'), { ip: ig })).status).toBe(204);
    // Any other tag is not a metric: refused, nothing stored.
    expect((await beacon([{ t: 'src_facebook', v: venue.id }])).status).toBe(400);
    expect(await total(venue.id, 'src_affisch')).toBe(1);
    expect(await total(venue.id, 'src_bordsskylt')).toBe(1);
    expect(await total(venue.id, 'src_instagram')).toBe(1);
    expect(await total(venue.id, 'venue_view')).toBe(3);
    const res = await callJson<{ totals: Record<string, number> }>(`/api/analytics?venueId=${venue.id}&days=7`, { cookie: owner.cookie, clock: NOW });
    expect(res.status).toBe(200);
    expect(res.body.totals).toMatchObject({ src_affisch: 1, src_bordsskylt: 1, src_instagram: 1, venue_view: 3 });
  });

  it("issue 46: a view of the results page counts for the business and shows in the owner's analytics", async () => {
    const { owner, venue } = await place();
    expect(
      (
        await beacon([
          { t: 'results_view', v: venue.id },
          { t: 'results_view', v: venue.id },
        ])
      ).status,
    ).toBe(204);
    expect(await counts(venue.id)).toEqual([{ day: TODAY, location_id: '', quiz_id: '', metric: 'results_view', count: 1 }]);
    const { body } = await callJson(`/api/analytics?venueId=${venue.id}&days=7`, { cookie: owner.cookie, clock: NOW });
    expect(body.totals.results_view).toBe(1);
  });

  it('26.6: one client cannot inflate a quiz: 3 000 detail_open events in 60 requests count once', async () => {
    const { venue, quiz } = await place();
    const ip = randomClientIp();
    const batch = Array.from({ length: 50 }, () => ({ t: 'detail_open', q: quiz.id }));
    for (let i = 0; i < 6; i++) {
      const res = await Promise.all(Array.from({ length: 10 }, () => beacon(batch, { ip, ua: `${BROWSER} ${unique()}` })));
      expect(res.every((r) => r.status === 204 || r.status === 429)).toBe(true);
    }
    expect(await total(venue.id, 'detail_open')).toBe(1);
    // Another client the same day counts; that client again the next Stockholm day counts again.
    const other = randomClientIp();
    await beacon([{ t: 'detail_open', q: quiz.id }], { ip: other });
    await beacon([{ t: 'detail_open', q: quiz.id }], { ip: other });
    await call('/api/events', {
      clock: '2030-03-03T23:30:00Z',
      body: { events: [{ t: 'detail_open', q: quiz.id }] },
      headers: { 'user-agent': BROWSER, 'cf-connecting-ip': other },
    });
    expect((await counts(venue.id)).map((r) => [r.day, r.count])).toEqual([
      [TODAY, 2],
      ['2030-03-04', 1],
    ]);
  });

  it('26.6: addresses in one IPv6 /64 are one client', async () => {
    const { venue, quiz } = await place();
    const prefix = `2001:db8:${Math.floor(Math.random() * 0xffff).toString(16)}:${Math.floor(Math.random() * 0xffff).toString(16)}`;
    for (let i = 1; i <= 20; i++) await beacon([{ t: 'detail_open', q: quiz.id }], { ip: `${prefix}::${i.toString(16)}` });
    expect(await total(venue.id, 'detail_open')).toBe(1);
  });

  it('26.6: views of a hidden business are not counted', async () => {
    const { venue, quiz } = await place();
    await testDb().run(sql`UPDATE venues SET is_public = 0 WHERE id = ${venue.id}`);
    expect(
      (
        await beacon([
          { t: 'detail_open', q: quiz.id },
          { t: 'impression', q: quiz.id },
          { t: 'venue_view', v: venue.id },
        ])
      ).status,
    ).toBe(204);
    expect(await counts(venue.id)).toEqual([]);
  });

  it('26.6: the seen-hashes hold no address and are gone with their day (new day or the nightly job)', async () => {
    const { quiz } = await place();
    const ip = '198.51.100.23';
    await call('/api/events', {
      clock: '2030-03-10T09:00:00Z',
      body: { events: [{ t: 'impression', q: quiz.id }] },
      headers: { 'user-agent': BROWSER, 'cf-connecting-ip': ip },
    });
    const seen = await testDb().all<Record<string, string>>(sql`SELECT * FROM analytics_seen WHERE day = '2030-03-10'`);
    expect(seen.length).toBeGreaterThan(0);
    expect(Object.keys(seen[0]!).sort()).toEqual(['day', 'hash']);
    expect(JSON.stringify(seen)).not.toContain(ip);
    // The first event of the next day deletes the earlier days' salts and hashes.
    await call('/api/events', { clock: '2030-03-11T09:00:00Z', body: { events: [{ t: 'impression', q: quiz.id }] }, headers: { 'user-agent': BROWSER } });
    expect(await testDb().all(sql`SELECT day FROM analytics_seen WHERE day < '2030-03-11'`)).toEqual([]);
    expect(await testDb().all(sql`SELECT day FROM analytics_salts WHERE day < '2030-03-11'`)).toEqual([]);
  });

  it('concurrent beacons of different clients add up exactly (the upsert adds, never overwrites); one client counts once', async () => {
    const { venue, quiz } = await place();
    const res = await Promise.all(Array.from({ length: 12 }, () => beacon(Array.from({ length: 5 }, () => ({ t: 'impression', q: quiz.id })))));
    expect(res.map((r) => r.status)).toEqual(Array(12).fill(204));
    expect(await total(venue.id, 'impression')).toBe(12);
    const ip = randomClientIp();
    await Promise.all(Array.from({ length: 12 }, () => beacon([{ t: 'impression', q: quiz.id }], { ip })));
    expect(await total(venue.id, 'impression')).toBe(13);
    // A later day is a new row; the earlier one is untouched.
    await call('/api/events', { clock: '2030-03-03T23:30:00Z', body: { events: [{ t: 'impression', q: quiz.id }] }, headers: { 'user-agent': BROWSER } });
    const rows = await counts(venue.id);
    expect(rows.map((r) => [r.day, r.count])).toEqual([
      [TODAY, 13],
      ['2030-03-04', 1],
    ]);
  });

  it('unknown ids are ignored: 204 and nothing stored', async () => {
    const before = await snapshot(['analytics_daily']);
    const res = await beacon([
      { t: 'impression', q: `okand-${unique()}` },
      { t: 'venue_view', v: `okand-${unique()}` },
    ]);
    expect(res.status).toBe(204);
    expect(await snapshot(['analytics_daily'])).toEqual(before);
  });

  it('bad shapes are refused with 400 naming the field; nothing is stored', async () => {
    const { quiz, venue } = await place();
    const before = await snapshot(['analytics_daily']);
    const bad: unknown[] = [
      [],
      [{ t: 'purchase', q: quiz.id }],
      [{ t: 'impression' }],
      [{ t: 'impression', q: quiz.id, v: venue.id }],
      [{ t: 'impression', q: quiz.id, ip: '1.2.3.4' }],
      [{ t: 'impression', q: `${quiz.id}\u0000` }],
      [{ t: 'impression', q: 'a'.repeat(65) }],
      Array.from({ length: 51 }, () => ({ t: 'impression', q: quiz.id })),
      'impression',
    ];
    for (const events of bad) {
      const res = await beacon(events);
      expect(res.status, JSON.stringify(events).slice(0, 80)).toBe(400);
      const body = (await res.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe('invalid_input');
      expect(body.error.message).toMatch(/Händelse|Quiz|Verksamhet|Ogiltig|Minst|Högst|Ange/);
    }
    // Malformed JSON, a huge body, another content type.
    expect((await beacon(null, { raw: '{"events": [' })).status).toBe(400);
    const huge = JSON.stringify({ events: [{ t: 'impression', q: quiz.id }], pad: 'x'.repeat(20_000) });
    const hugeRes = await beacon(null, { raw: huge });
    expect(hugeRes.status).toBe(400);
    expect(((await hugeRes.json()) as { error: { message: string } }).error.message).toContain('för stor');
    expect((await beacon([{ t: 'impression', q: quiz.id }], { contentType: 'text/plain' })).status).toBe(415);
    expect(await snapshot(['analytics_daily'])).toEqual(before);
  });

  it('obvious bots are answered but not counted', async () => {
    const { venue, quiz } = await place();
    for (const ua of ['Googlebot/2.1 (+http://www.google.com/bot.html)', 'Mozilla/5.0 (compatible; bingbot/2.0)', 'curl/8.5.0', 'Chrome-Lighthouse', '']) {
      expect((await beacon([{ t: 'impression', q: quiz.id }], { ua })).status).toBe(204);
    }
    expect(await counts(venue.id)).toEqual([]);
  });

  it("the owner's own views are not counted; another signed-in user's are", async () => {
    const { owner, venue, quiz } = await place();
    const someoneElse = await createUser({ now: new Date(NOW) });
    expect(
      (
        await beacon(
          [
            { t: 'detail_open', q: quiz.id },
            { t: 'venue_view', v: venue.id },
          ],
          { cookie: owner.cookie },
        )
      ).status,
    ).toBe(204);
    expect(await counts(venue.id)).toEqual([]);
    expect(
      (
        await beacon(
          [
            { t: 'detail_open', q: quiz.id },
            { t: 'venue_view', v: venue.id },
          ],
          { cookie: someoneElse.cookie },
        )
      ).status,
    ).toBe(204);
    expect(await total(venue.id, 'detail_open')).toBe(1);
    expect(await total(venue.id, 'venue_view')).toBe(1);
  });

  it('is rate-limited per client address (429 with Retry-After); other clients are not affected', async () => {
    const { venue, quiz } = await place();
    const ip = randomClientIp();
    for (let i = 0; i < EVENTS_RATE_LIMIT.max; i++) expect((await beacon([{ t: 'impression', q: quiz.id }], { ip })).status).toBe(204);
    const refused = await beacon([{ t: 'impression', q: quiz.id }], { ip });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect((await beacon([{ t: 'impression', q: quiz.id }])).status).toBe(204);
    expect(await total(venue.id, 'impression')).toBe(2);
  });

  it('stores no client address, user agent or cookie anywhere', async () => {
    const { venue, quiz } = await place();
    const ip = '203.0.113.77';
    await beacon([{ t: 'impression', q: quiz.id }], { ip, ua: `${BROWSER} Unik/${unique()}` });
    const rows = await testDb().all<Record<string, unknown>>(sql`SELECT * FROM analytics_daily WHERE venue_id = ${venue.id}`);
    expect(Object.keys(rows[0]!).sort()).toEqual(['count', 'day', 'location_id', 'metric', 'quiz_id', 'venue_id']);
    const limits = await testDb().all<{ key: string }>(sql`SELECT key FROM rate_limits WHERE key LIKE ${'%203.0.113.77%'}`);
    expect(limits).toEqual([]);
  });
});

async function seedCounts(venueId: string, locationId: string, quizId: string, perDay: Record<string, number>, metric = 'detail_open') {
  for (const [day, n] of Object.entries(perDay)) {
    await testDb().run(
      sql`INSERT INTO analytics_daily (day, venue_id, location_id, quiz_id, metric, count) VALUES (${day}, ${venueId}, ${locationId}, ${quizId}, ${metric}, ${n})`,
    );
  }
}

describe('GET /api/analytics', () => {
  it('the owner sees per day, per place and per quiz, promoted days marked, and the comparison line', async () => {
    const { owner, venue, location, quiz } = await place();
    const series = await createQuiz(location.id, { date: '2030-03-06', title: 'Veckoquiz', isRecurring: true, recurrenceId: newId() });
    // 3 premium days with 9 detail opens each, 4 ordinary days with 3.
    await seedCounts(venue.id, location.id, quiz.id, {
      '2030-02-25': 3,
      '2030-02-26': 3,
      '2030-02-27': 3,
      '2030-02-28': 3,
      '2030-03-01': 9,
      '2030-03-02': 9,
      '2030-03-03': 9,
    });
    await seedCounts(venue.id, location.id, series.id, { '2030-03-03': 5 }, 'impression');
    await seedCounts(venue.id, '', '', { '2030-03-03': 4 }, 'venue_view');
    await seedCounts(venue.id, location.id, quiz.id, { '2030-02-10': 100 }); // outside the 7 days
    await testDb().insert(promotions).values({ id: newId(), quizId: quiz.id, productType: 'premium', startDate: '2030-03-01', endDate: '2030-03-03' });

    const { status, body } = await callJson(`/api/analytics?days=7`, { cookie: owner.cookie, clock: NOW });
    expect(status).toBe(200);
    expect(body).toMatchObject({ venue: { id: venue.id }, days: 7, from: '2030-02-25', to: TODAY, totals: { detail_open: 39, impression: 5, venue_view: 4 } });
    expect(body.daily).toHaveLength(7);
    expect(body.daily.map((d: { promoted: string | null }) => d.promoted)).toEqual([null, null, null, null, 'premium', 'premium', 'premium']);
    expect(body.daily[6].counts).toEqual({ detail_open: 9, impression: 5, venue_view: 4 });
    expect(body.comparisons).toEqual([
      expect.objectContaining({ tier: 'premium', factor: 3, text: 'Dagar med Premium Utvald: 3,0 × fler detaljvisningar än dina vanliga dagar' }),
    ]);
    expect(body.places).toEqual(
      expect.arrayContaining([
        { key: location.id, name: location.name, place: '', kind: 'place', counts: { detail_open: 39, impression: 5 } },
        { key: '', name: venue.name, place: '', kind: 'venue', counts: { venue_view: 4 } },
      ]),
    );
    expect(body.quizzes).toEqual([
      { key: quiz.id, name: 'Tisdagsquiz', place: location.name, kind: 'quiz', counts: { detail_open: 39 } },
      { key: series.recurrenceId, name: 'Veckoquiz', place: location.name, kind: 'series', counts: { impression: 5 } },
    ]);
  });

  it('no comparison line without enough days on both sides', async () => {
    const { owner, venue, location, quiz } = await place();
    await seedCounts(venue.id, location.id, quiz.id, { '2030-03-02': 9, '2030-03-03': 9, '2030-02-27': 1 });
    await testDb().insert(promotions).values({ id: newId(), quizId: quiz.id, productType: 'premium', startDate: '2030-03-02', endDate: '2030-03-03' });
    const { body } = await callJson(`/api/analytics?venueId=${venue.id}&days=30`, { cookie: owner.cookie, clock: NOW });
    expect(body.daily).toHaveLength(30);
    expect(body.comparisons).toEqual([]);
  });

  it('authorization: visitor 401, someone else 403, superadmin any business, missing 404, bad period 400', async () => {
    const { owner, venue } = await place();
    const other = await createUser({ now: new Date(NOW) });
    await createVenue(other.id);
    const admin = await createUser({ roles: ['superadmin'], now: new Date(NOW) });
    expect((await call(`/api/analytics?venueId=${venue.id}`, { clock: NOW })).status).toBe(401);
    expect((await call(`/api/analytics?venueId=${venue.id}`, { cookie: other.cookie, clock: NOW })).status).toBe(403);
    expect((await call(`/api/analytics/export.csv?venueId=${venue.id}`, { cookie: other.cookie, clock: NOW })).status).toBe(403);
    expect((await call(`/api/analytics?venueId=${venue.id}`, { cookie: admin.cookie, clock: NOW })).status).toBe(200);
    expect((await call(`/api/analytics?venueId=saknas-${unique()}`, { cookie: owner.cookie, clock: NOW })).status).toBe(404);
    const bad = await callJson(`/api/analytics?venueId=${venue.id}&days=365`, { cookie: owner.cookie, clock: NOW });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toContain('Period');
    // Without venueId: the owner's own (oldest) business; a user without any gets 404.
    expect((await callJson('/api/analytics', { cookie: owner.cookie, clock: NOW })).body.venue.id).toBe(venue.id);
    const noBusiness = await createUser({ now: new Date(NOW) });
    expect((await call('/api/analytics', { cookie: noBusiness.cookie, clock: NOW })).status).toBe(404);
  });

  it('CSV download: the table, formula-safe (cells starting with = + - @ are neutralised)', async () => {
    const { owner, venue, location } = await place();
    const evil = await createQuiz(location.id, { date: '2030-03-05', title: '=HYPERLINK("http://evil.test","klicka")' });
    const plus = await createQuiz(location.id, { date: '2030-03-05', title: '+SUM(A1)' });
    const at = await createQuiz(location.id, { date: '2030-03-05', title: '@cmd' });
    const minus = await createQuiz(location.id, { date: '2030-03-05', title: '-1+2' });
    for (const q of [evil, plus, at, minus]) await seedCounts(venue.id, location.id, q.id, { [TODAY]: 2 });
    const res = await call(`/api/analytics/export.csv?venueId=${venue.id}&days=7`, { cookie: owner.cookie, clock: NOW });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toContain('attachment');
    const text = await res.text();
    const lines = text.replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe(
      'Typ,Namn,Plats,Visningar i listan,Detaljvisningar,Sidvisningar,Klick på webbplats,Klick på telefon,Vägbeskrivningar,Delningar,Tillagda i kalender,Kalenderprenumerationer,Följare,Besök via affisch,Besök via bordsskylt,Besök via Instagram,Visningar av resultat',
    );
    expect(text).toContain(`Quiz,"'=HYPERLINK(""http://evil.test"",""klicka"")",${location.name},0,2,`);
    expect(text).toContain(`Quiz,'+SUM(A1),`);
    expect(text).toContain(`Quiz,'@cmd,`);
    expect(text).toContain(`Quiz,'-1+2,`);
    for (const line of lines.slice(1).filter(Boolean)) expect(line.split(',')[1]).not.toMatch(/^"?[=+\-@]/);
  });
});

describe('GET /api/analytics/slots', () => {
  it("the next 4 weeks of the quiz's city: free, limited and sold-out days per tier", async () => {
    const a = await ownerWithQuiz({ date: '2030-03-12' });
    const b = await ownerWithQuiz({ city: a.city, date: '2030-03-12' });
    expect((await buy(a, 'premium')).status).toBe(201);
    expect((await buy(b, 'recommended')).status).toBe(201);
    const { status, body } = await callJson(`/api/analytics/slots?quizId=${a.quiz.id}`, { cookie: a.user.cookie, clock: NOW });
    expect(status).toBe(200);
    expect(body.city).toBe(a.city);
    expect(body.days).toHaveLength(28);
    expect(body.days[0].date).toBe(TODAY);
    const day = body.days.find((d: { date: string }) => d.date === '2030-03-12');
    expect(day).toEqual({ date: '2030-03-12', premium: { taken: 1, max: 1, status: 'soldout' }, recommended: { taken: 1, max: 3, status: 'free' } });
    expect(body.days[1]).toMatchObject({ premium: { status: 'free' }, recommended: { status: 'free' } });
    // Someone else's quiz: 403; a visitor: 401.
    expect((await call(`/api/analytics/slots?quizId=${a.quiz.id}`, { cookie: b.user.cookie, clock: NOW })).status).toBe(403);
    expect((await call(`/api/analytics/slots?quizId=${a.quiz.id}`, { clock: NOW })).status).toBe(401);
  });

  it('reads only (issue 28.7): a lapsed hold is not counted, and the request releases nothing', async () => {
    const a = await ownerWithQuiz({ date: '2030-03-12' });
    const { status, body: order } = await buy(a, 'premium');
    expect(status).toBe(201);
    const later = '2030-03-03T11:00:00Z'; // two hours on: the 35-minute hold has lapsed, nothing has released it
    const { body } = await callJson(`/api/analytics/slots?quizId=${a.quiz.id}`, { cookie: a.user.cookie, clock: later });
    expect(body.days.find((d: { date: string }) => d.date === '2030-03-12').premium).toEqual({ taken: 0, max: 1, status: 'free' });
    // Nothing written: the order is still open and its claim still there (the nightly job releases it).
    const [row] = await testDb().select({ status: checkoutOrders.status }).from(checkoutOrders).where(sql`${checkoutOrders.id} = ${order.orderId}`);
    expect(row?.status).toBe('open');
    const claims = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM promotion_slot_claims WHERE order_id = ${order.orderId}`);
    expect(Number(claims[0]!.n)).toBe(1);
  });
});

describe('GET /api/analytics/overview', () => {
  it('superadmin only: revenue per week and city, slot occupancy, most viewed places', async () => {
    const { venue, location, quiz } = await place();
    const admin = await createUser({ roles: ['superadmin'], now: new Date(NOW) });
    const owner = await createUser({ now: new Date(NOW) });
    const items = [
      { quizId: quiz.id, tier: 'premium', date: '2030-03-05', citySlug: location.citySlug, weeks: null, amount: 9800 },
      { quizId: quiz.id, tier: 'recommended', date: '2030-03-06', citySlug: location.citySlug, weeks: null, amount: 4900 },
    ];
    await testDb()
      .insert(checkoutOrders)
      .values({
        id: newId(),
        userId: owner.id,
        venueId: venue.id,
        kind: 'marketing',
        status: 'paid',
        amountTotal: 14700,
        items: JSON.stringify(items),
        expiresAt: 0,
        createdAt: '2030-03-02T12:00:00.000Z',
      });
    await seedCounts(venue.id, location.id, quiz.id, { [TODAY]: 100000 });
    expect((await call('/api/analytics/overview', { cookie: owner.cookie, clock: NOW })).status).toBe(403);
    expect((await call('/api/analytics/overview', { clock: NOW })).status).toBe(401);
    const { status, body } = await callJson('/api/analytics/overview', { cookie: admin.cookie, clock: NOW });
    expect(status).toBe(200);
    expect(body.revenue).toContainEqual({ week: '2030-W09', citySlug: location.citySlug, amount: 14700, orders: 1 });
    expect(body.topPlaces[0]).toMatchObject({ venueId: venue.id, locationId: location.id, detail_open: 100000 });
  });
});

describe('/annonsera and the "Annons" label', () => {
  it('is server-rendered: tiers, fallback prices, the caps per city and day, how the listing is ranked', async () => {
    const res = await call('/annonsera', { clock: NOW });
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('<title>Annonsera – betald placering och så rangordnas listan | Quizkväll</title>');
    expect(html).toContain('<link rel="canonical" href="http://localhost/annonsera">');
    const text = html.replace(/<!-- -->/g, '');
    expect(text).toContain('Annonsera på Quizkväll');
    expect(text).toMatch(/Premium Utvald<\/h3><p[^>]*>98 kr/);
    expect(text).toMatch(/Rekommenderat<\/h3><p[^>]*>49 kr/);
    expect(text).toContain('Högst 1 plats per stad och dag.');
    expect(text).toContain('Högst 3 platser per stad och dag.');
    expect(text).toContain('slumpas om varje dag');
    expect(text).toContain('visas sist');
  });

  it('every promoted card carries an "Annons" link to /annonsera; ordinary cards do not', async () => {
    const { location, quiz } = await place();
    const plain = await createQuiz(location.id, { date: '2030-03-05', title: 'Vanligt quiz' });
    await testDb().insert(promotions).values({ id: newId(), quizId: quiz.id, productType: 'premium', startDate: '2030-03-05', endDate: '2030-03-05' });
    const html = await (await call(`/quiz/${location.citySlug}`, { clock: NOW })).text();
    const card = (id: string) => html.slice(html.indexOf(`data-quiz-id="${id}"`), html.indexOf('</article>', html.indexOf(`data-quiz-id="${id}"`)));
    expect(html).toContain(`data-quiz-id="${plain.id}"`);
    expect(card(quiz.id)).toMatch(/<a href="\/annonsera"[^>]*>Annons<\/a>/);
    expect(card(plain.id)).not.toContain('/annonsera');
  });
});
