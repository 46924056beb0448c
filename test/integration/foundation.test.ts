import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildDemoSeed } from '../../worker/db/seed';
import { hashPassword } from '../../worker/lib/password';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, snapshot, testDb, unique, uniqueTown } from '../factories';

describe('health and errors', () => {
  it('GET /api/health really queries D1', async () => {
    const { status, body } = await callJson('/api/health');
    expect(status).toBe(200);
    expect(body.ok).toBe(true);
    // Issue 43.9: the write count is nobody's business (it tells how busy the site is).
    expect(Object.keys(body).sort()).toEqual(['db', 'ok', 'time', 'today']);
  });

  it('unknown /api path answers the JSON 404 envelope', async () => {
    const { status, body } = await callJson('/api/does-not-exist');
    expect(status).toBe(404);
    expect(body).toEqual({ error: { code: 'not_found', message: expect.any(String) } });
  });

  it('sends security headers with a CSP', async () => {
    const res = await call('/api/health');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses a cross-site POST and stores nothing', async () => {
    const before = await snapshot(['feedback']);
    const res = await call('/api/feedback', {
      body: { category: 'bug', title: 'x', description: 'y' },
      headers: { origin: 'https://evil.example' },
    });
    expect(res.status).toBe(403);
    expect(await snapshot(['feedback'])).toEqual(before);
  });

  it('answers malformed JSON with a Swedish 400 envelope', async () => {
    const { status, body } = await callJson('/api/feedback', { body: '{not json', headers: { 'content-type': 'application/json' } });
    expect(status).toBe(400);
    expect(body.error.code).toBe('invalid_input');
  });
});

describe('clock (Europe/Stockholm)', () => {
  it('2026-03-29 23:30 UTC is Monday 2026-03-30 in Stockholm (day of the switch to summer time)', async () => {
    const { body } = await callJson('/api/health', { clock: '2026-03-29T23:30:00Z' });
    expect(body.today).toBe('2026-03-30');
  });
  it('2026-11-21 22:59 UTC is still the 21st, 23:00 UTC is the 22nd (winter, UTC+1)', async () => {
    expect((await callJson('/api/health', { clock: '2026-11-21T22:59:00Z' })).body.today).toBe('2026-11-21');
    expect((await callJson('/api/health', { clock: '2026-11-21T23:00:00Z' })).body.today).toBe('2026-11-22');
  });
});

describe('schema', () => {
  it('rejects a 4th Rekommenderat claim for one city and day, and a 2nd Premium', async () => {
    const db = testDb();
    const user = await createUser();
    const venue = await createVenue(user.id);
    const loc = await createLocation(venue.id);
    const quiz = await createQuiz(loc.id);
    const city = uniqueTown();
    const orderId = unique('order');
    await db.run(sql`INSERT INTO checkout_orders (id, kind, amount_total, items, expires_at) VALUES (${orderId}, 'marketing', 0, '[]', 0)`);
    const claim = (tier: string, slot: number) =>
      db.run(
        sql`INSERT INTO promotion_slot_claims (id, order_id, quiz_id, city_slug, date, tier, slot_no) VALUES (${unique('c')}, ${orderId}, ${quiz.id}, ${city}, '2030-01-01', ${tier}, ${slot})`,
      );
    for (const slot of [1, 2, 3]) await claim('recommended', slot);
    await expect(claim('recommended', 4)).rejects.toThrow();
    await expect(claim('recommended', 1)).rejects.toThrow();
    await claim('premium', 1);
    await expect(claim('premium', 2)).rejects.toThrow();
    await expect(claim('premium', 1)).rejects.toThrow();
    const rows = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM promotion_slot_claims WHERE city_slug = ${city}`);
    expect(rows[0]!.n).toBe(4);
  });

  it('deleting a user removes their businesses, places and quizzes', async () => {
    const db = testDb();
    const user = await createUser();
    const venue = await createVenue(user.id);
    const loc = await createLocation(venue.id);
    const quiz = await createQuiz(loc.id);
    await db.run(sql`DELETE FROM users WHERE id = ${user.id}`);
    const left = await db.all<{ n: number }>(
      sql`SELECT (SELECT COUNT(*) FROM venues WHERE id = ${venue.id}) + (SELECT COUNT(*) FROM locations WHERE id = ${loc.id}) + (SELECT COUNT(*) FROM quizzes WHERE id = ${quiz.id}) + (SELECT COUNT(*) FROM sessions WHERE user_id = ${user.id}) AS n`,
    );
    expect(left[0]!.n).toBe(0);
  });
});

describe('demo seed', () => {
  it('is idempotent: seeding twice changes nothing', async () => {
    const hash = await hashPassword('x', 1000);
    const statements = buildDemoSeed('2026-11-21', { superadminHash: hash, ownerHash: hash, houseEmail: 'house@test.local' });
    const run = async () => {
      for (let i = 0; i < statements.length; i += 200) {
        await env.DB.batch(statements.slice(i, i + 200).map((s) => env.DB.prepare(s)));
      }
    };
    await run();
    const first = await snapshot([
      'users',
      'venues',
      'locations',
      'quizzes',
      'promotions',
      'promotion_slot_claims',
      'user_roles',
      'quizmasters',
      'quizmaster_links',
    ]);
    const counts = await testDb().all<{ v: number; c: number; q: number }>(
      sql`SELECT (SELECT COUNT(*) FROM venues WHERE id LIKE 'seed-%') AS v, (SELECT COUNT(DISTINCT city_slug) FROM locations WHERE id LIKE 'seed-%') AS c, (SELECT COUNT(*) FROM quizzes WHERE id LIKE 'seed-%') AS q`,
    );
    expect(counts[0]!.v).toBeGreaterThanOrEqual(40);
    expect(counts[0]!.c).toBeGreaterThanOrEqual(8);
    // Issue 31.3: quiz nights in English (and in both languages) in Stockholm and Göteborg.
    const langs = await testDb().all<{ city: string; language: string }>(
      sql`SELECT DISTINCT l.city_slug AS city, q.language AS language FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE q.id LIKE 'seed-%' AND q.language != 'sv' ORDER BY 1, 2`,
    );
    expect(langs).toEqual([
      { city: 'goteborg', language: 'both' },
      { city: 'goteborg', language: 'en' },
      { city: 'stockholm', language: 'both' },
      { city: 'stockholm', language: 'en' },
    ]);
    // Issue 48: one quizmaster with a bio leads quizzes at three Stockholm venues.
    const qm = await testDb().all<{ bio: string | null; places: number; city: string }>(
      sql`SELECT p.bio, COUNT(DISTINCT k.location_id) AS places, MIN(l.city_slug) || MAX(l.city_slug) AS city FROM quizmasters p JOIN quizmaster_links k ON k.quizmaster_id = p.id JOIN locations l ON l.id = k.location_id WHERE p.slug = 'sara-berg' GROUP BY p.id`,
    );
    expect(qm).toEqual([{ bio: expect.stringContaining('Stockholm'), places: 3, city: 'stockholmstockholm' }]);
    // Issue 46: two Stockholm venues with a season of past nights and results, one the demo owner's; teams at both.
    const results = await testDb().all<{ venue_id: string; user_id: string; city: string; nights: number; standings: number }>(
      sql`SELECT n.venue_id, v.user_id, MIN(l.city_slug) AS city, COUNT(DISTINCT n.quiz_id) AS nights,
            (SELECT COUNT(*) FROM season_standings st JOIN seasons s ON s.id = st.season_id WHERE s.venue_id = n.venue_id) AS standings
          FROM result_nights n JOIN venues v ON v.id = n.venue_id JOIN locations l ON l.id = n.location_id
          WHERE n.quiz_id LIKE 'seed-%' GROUP BY n.venue_id ORDER BY n.venue_id`,
    );
    expect(results.map((r) => [r.venue_id, r.city])).toEqual([
      ['seed-venue-01', 'stockholm'],
      ['seed-venue-02', 'stockholm'],
    ]);
    expect(results[0]!.user_id).toBe('seed-user-owner');
    expect(results.every((r) => r.nights >= 9 && r.standings >= 9)).toBe(true);
    const [both] = await testDb().all<{ n: number }>(
      sql`SELECT COUNT(*) AS n FROM (SELECT team_id FROM results WHERE quiz_id LIKE 'seed-%' GROUP BY team_id HAVING COUNT(DISTINCT venue_id) = 2)`,
    );
    expect(both!.n).toBeGreaterThanOrEqual(3);
    const firstResults = await snapshot(['teams', 'result_nights', 'results', 'seasons', 'season_standings']);
    await run();
    expect(
      await snapshot(['users', 'venues', 'locations', 'quizzes', 'promotions', 'promotion_slot_claims', 'user_roles', 'quizmasters', 'quizmaster_links']),
    ).toEqual(first);
    expect(await snapshot(['teams', 'result_nights', 'results', 'seasons', 'season_standings'])).toEqual(firstResults);
  });
});
