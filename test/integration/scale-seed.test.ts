/**
 * The scale seed as a bulk load (issue 19 §3, worker/db/seed.ts asBulkLoad): the quiz-insert trigger is
 * dropped, the rows go in, the listing units are rebuilt set-based and the trigger is put back — all in
 * one batch, as `wrangler d1 execute --file` applies it. The units must equal what the trigger keeps
 * (the same oracle as listing-series.test.ts), the trigger must work afterwards, and a failing load must
 * leave the trigger in place. Also: the house account is found by e-mail when it already exists.
 */
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { asBulkLoad, buildScaleSeed, QUIZ_INSERT_TRIGGER } from '../../worker/db/seed';
import { createQuiz, createUser, expectSearchIndexes, testDb } from '../factories';

const TODAY = '2030-03-05';
const HOUSE = 'house@test.local';

async function triggerSql(): Promise<string | null> {
  const row = await env.DB.prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?").bind(QUIZ_INSERT_TRIGGER).first<{ sql: string }>();
  return row?.sql ?? null;
}

interface Unit {
  key: string;
  location_id: string;
  city_slug: string;
  venue_id: string;
  owner_id: string;
  is_public: number;
  last_date: string;
  days_mask: number;
  place_text: string;
  quiz_text: string;
}

/** listing_series recomputed from scratch for the scale places (as in listing-series.test.ts). */
async function oracle(): Promise<Unit[]> {
  return testDb().all<Unit>(sql`
    SELECT q.recurrence_id || '@' || q.location_id AS key, q.location_id, l.city_slug, l.venue_id, v.user_id AS owner_id, v.is_public AS is_public,
      max(q.date) AS last_date,
      (SELECT coalesce(sum(1 << w), 0) FROM (SELECT DISTINCT q2.weekday AS w FROM quizzes q2 WHERE q2.location_id = q.location_id AND q2.recurrence_id = q.recurrence_id)) AS days_mask,
      v.name || ' | ' || l.name AS place_text,
      group_concat(coalesce(q.title, '') || ' | ' || coalesce(q.description, '') || ' | ' || coalesce(q.theme, '') || ' | ' || coalesce(q.quizmaster, ''), ' | ') AS quiz_text
    FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id
    WHERE q.recurrence_id LIKE 'scale-series-%'
    GROUP BY q.recurrence_id, q.location_id ORDER BY key`);
}

async function units(): Promise<Unit[]> {
  return testDb().all<Unit>(sql`
    SELECT key, location_id, city_slug, venue_id, owner_id, is_public, last_date, days_mask, place_text, quiz_text
    FROM listing_series WHERE key LIKE 'scale-series-%' ORDER BY key`);
}

/** Every column of the scale units but the row id, the random shuffle and the refresh counter (touch). */
async function allColumns(): Promise<Array<Record<string, unknown>>> {
  const rows = await env.DB.prepare("SELECT * FROM listing_series WHERE key LIKE 'scale-series-%' ORDER BY key").all<Record<string, unknown>>();
  return rows.results.map(({ id: _id, shuffle: _shuffle, touch: _touch, ...rest }) => ({
    ...rest,
    quiz_text: [...new Set(String(rest.quiz_text).split(' | '))].sort().join(' | '),
  }));
}

const normal = (list: Unit[]) => list.map((u) => ({ ...u, quiz_text: [...new Set(u.quiz_text.split(' | '))].sort().join(' | ') }));

describe('scale seed as a bulk load', () => {
  it('a failing load leaves the trigger in place (one batch, all or nothing)', async () => {
    const create = (await triggerSql())!;
    expect(create).toMatch(/^CREATE TRIGGER/);
    await expect(env.DB.batch(asBulkLoad(['INSERT INTO no_such_table VALUES (1);'], create).map((s) => env.DB.prepare(s)))).rejects.toThrow();
    expect(await triggerSql()).toBe(create);
  });

  it('builds the same listing units as the trigger, puts the trigger back, and uses the existing house account', async () => {
    // The house account exists under another id (demo data or a real sign-up): the seed must use it.
    const existing = await env.DB.prepare('SELECT id FROM users WHERE email = ?').bind(HOUSE).first<{ id: string }>();
    const houseId = existing?.id ?? (await createUser({ email: HOUSE })).id;
    expect(houseId).not.toBe('scale-user-house');
    const create = (await triggerSql())!;
    const statements = asBulkLoad(buildScaleSeed(TODAY, 1013, HOUSE), create);
    expect(statements[0]).toMatch(/^DROP TRIGGER/);
    await env.DB.batch(statements.map((s) => env.DB.prepare(s)));

    expect(await triggerSql()).toBe(create.replace(/;$/, ''));
    const counts = await env.DB.prepare("SELECT count(*) AS q, count(DISTINCT location_id) AS places FROM quizzes WHERE id LIKE 'scale-q-%'").first<{
      q: number;
      places: number;
    }>();
    expect(counts).toEqual({ q: 1013, places: 39 });
    const house = await env.DB.prepare("SELECT user_id FROM venues WHERE id = 'scale-venue-3'").first<{ user_id: string }>();
    expect(house!.user_id).toBe(houseId);

    const got = await units();
    expect(got).toHaveLength(39);
    expect(normal(got)).toEqual(normal(await oracle()));
    // Every column (lat/lng and whatever a later migration adds) equals what the triggers compute:
    // touching each row's date makes the update trigger recompute its unit.
    const bulk = await allColumns();
    expect(bulk.every((u) => u.lat !== null && u.lng !== null)).toBe(true);
    await env.DB.prepare("UPDATE quizzes SET date = date WHERE recurrence_id LIKE 'scale-series-%'").run();
    expect(await allColumns()).toEqual(bulk);
    // Both search indexes hold every unit once under its current search key (migration 0020).
    await expectSearchIndexes();

    // The trigger is back: a new date in a scale series moves its unit's last date.
    await createQuiz('scale-loc-1', { date: '2031-12-30', isRecurring: true, recurrenceId: 'scale-series-1', recurrencePattern: 'weekly' });
    const unit = await env.DB.prepare("SELECT last_date FROM listing_series WHERE key = 'scale-series-1@scale-loc-1'").first<{ last_date: string }>();
    expect(unit!.last_date).toBe('2031-12-30');

    // Seeding again changes nothing (INSERT OR IGNORE, units upserted).
    await env.DB.batch(asBulkLoad(buildScaleSeed(TODAY, 1013, HOUSE), (await triggerSql())!).map((s) => env.DB.prepare(s)));
    expect(normal(await units())).toEqual(normal(await oracle()));
  });
});
