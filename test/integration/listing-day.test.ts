/**
 * No maintenance in a visitor's request (issue 30.8): a listing read that finds the stored listing behind
 * its Stockholm day (or house account) serves the stored order, starts the listing-day Workflow once
 * through waitUntil and never waits for it; the Workflow (or a cron) advances and records a `listing-day`
 * run in job_runs. These tests send their requests without `call()`'s listing-day helper, so the
 * production path runs as it is.
 */
import { introspectWorkflowInstance } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../worker/app';
import { listingDayInstanceId, type ListingDayParams } from '../../worker/features/listing/listing-day';
import { addDays } from '../../worker/lib/clock';
import { productionPorts } from '../../worker/ports/deps';
import { createLocation, createQuiz, createUser, createVenue, ORIGIN, runListingDayAt, testDb, uniqueTown } from '../factories';

const HOUSE = 'house@test.local';

async function houseUserId(): Promise<string> {
  const [row] = await testDb().all<{ id: string }>(sql`SELECT id FROM users WHERE email = ${HOUSE}`);
  return row ? row.id : (await createUser({ email: HOUSE })).id;
}

async function storedState() {
  const [row] = await testDb().all<{ today: string; house_email: string | null }>(sql`SELECT today, house_email FROM listing_state WHERE id = 1`);
  return row!;
}

async function lastRun() {
  const [row] = await testDb().all<{ status: string; result: string }>(
    sql`SELECT status, result FROM job_runs WHERE job = 'listing-day' ORDER BY started_at DESC, rowid DESC LIMIT 1`,
  );
  return row ? { status: row.status, result: JSON.parse(row.result) as Record<string, unknown> } : null;
}

/**
 * A city with three listed units on `day`: a real owner's quiz on `day` only (it has passed the next day),
 * a real owner's quiz three days later and the house account's two days later.
 */
async function cityOn(day: string) {
  const city = uniqueTown();
  const owner = await createUser();
  const place = await createLocation((await createVenue(owner.id)).id, { city });
  const ended = await createQuiz(place.id, { date: day, title: 'Slutar idag' });
  const later = await createQuiz(place.id, { date: addDays(day, 3), title: 'Senare' });
  const housePlace = await createLocation((await createVenue(await houseUserId())).id, { city });
  const house = await createQuiz(housePlace.id, { date: addDays(day, 2), title: 'Husets' });
  return { slug: place.citySlug, ended, later, house };
}

/**
 * The app with a listing-day Workflow binding whose `create` is held until `release()` (then the real one
 * runs), and an execution context that keeps the waitUntil promises without awaiting them: a response that
 * arrives while the create is held cannot have waited for the job.
 */
function heldApp() {
  const created: Array<{ id?: string; params?: ListingDayParams }> = [];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const workflow = {
    async create(opts: { id?: string; params?: ListingDayParams }) {
      created.push(opts);
      await gate;
      return env.LISTING_DAY_WORKFLOW.create(opts);
    },
    get: (id: string) => env.LISTING_DAY_WORKFLOW.get(id),
  };
  const waits: Array<Promise<unknown>> = [];
  const ctx = { waitUntil: (p: Promise<unknown>) => void waits.push(p), passThroughOnException() {}, props: {} } as unknown as ExecutionContext;
  const app = createApp(productionPorts);
  const testEnv = { ...(env as unknown as Env), LISTING_DAY_WORKFLOW: workflow as unknown as Env['LISTING_DAY_WORKFLOW'] };
  return {
    created,
    waits,
    release,
    fetch: (path: string, clock: string) => app.fetch(new Request(`${ORIGIN}${path}`, { headers: { 'x-clock-now': clock } }), testEnv, ctx),
  };
}

interface Listing {
  total: number;
  items: Array<{ id: string; unclaimed: boolean }>;
}

describe('the listing day is advanced by a job, never inside a request (issue 30.8)', () => {
  it('a stale read serves the stored order, starts the Workflow once without waiting, and the Workflow advances and records its run', async () => {
    const day = '2031-05-05';
    const next = addDays(day, 1);
    const { slug, ended, later, house } = await cityOn(day);
    await runListingDayAt(`${day}T10:00:00Z`);
    expect((await storedState()).today).toBe(day);

    const app = heldApp();
    const res = await app.fetch(`/api/listing?city=${slug}`, `${next}T10:00:00Z`);
    expect(res.status).toBe(200);
    const stale = (await res.json()) as Listing;
    // Served as stored: the count still holds the unit whose only date has passed (its card is not shown, as its
    // occurrence is read for today), and nothing was advanced by the request.
    expect(stale.total).toBe(3);
    expect(stale.items.map((i) => i.id)).toEqual([later.id, house.id]);
    expect(stale.items.map((i) => i.id)).not.toContain(ended.id);
    expect((await storedState()).today).toBe(day);
    // The job was asked for exactly once, and the response did not wait for it: its create is still held,
    // kept by waitUntil (beside the edge cache's writes).
    const id = listingDayInstanceId({ today: next, houseEmail: HOUSE });
    expect(app.created).toEqual([{ id, params: { today: next } }]);
    expect(app.waits.length).toBeGreaterThan(0);

    // Another stale read in this isolate (the map; a page) asks nobody again.
    expect((await app.fetch(`/api/listing/map?city=${slug}`, `${next}T11:00:00Z`)).status).toBe(200);
    expect((await app.fetch(`/quiz/${slug}`, `${next}T12:00:00Z`)).status).toBe(200);
    expect(app.created).toHaveLength(1);
    expect((await storedState()).today).toBe(day);

    // The Workflow runs the job: advanced, recorded as listing-day.
    await using instance = await introspectWorkflowInstance(env.LISTING_DAY_WORKFLOW, id);
    app.release();
    await Promise.all(app.waits);
    await instance.waitForStatus('complete');
    expect(await instance.getOutput()).toEqual({ today: next, advanced: true });
    expect((await storedState()).today).toBe(next);
    expect(await lastRun()).toMatchObject({ status: 'done', result: { today: next, from: day, advanced: true } });

    // Now current: the passed unit is gone from the count, and no job is asked for.
    const fresh = (await (await app.fetch(`/api/listing?city=${slug}&page=1`, `${next}T13:00:00Z`)).json()) as Listing;
    expect(fresh.total).toBe(2);
    expect(fresh.items.map((i) => i.id)).toEqual([later.id, house.id]);
    expect(app.created).toHaveLength(1);
  });

  it('a new house account is re-keyed by the job, not by the read that finds it', async () => {
    const day = '2031-06-02';
    const { slug, ended, later, house } = await cityOn(day);
    await runListingDayAt(`${day}T10:00:00Z`);
    // As a fresh database before its first run: the house account not yet known to the listing.
    await testDb().run(sql`UPDATE listing_state SET house_email = NULL, house_id = NULL WHERE id = 1`);
    await testDb().run(sql`UPDATE listing_series SET touch = touch + 1 WHERE venue_id IN (SELECT venue_id FROM locations WHERE city_slug = ${slug})`);

    const app = heldApp();
    const stale = (await (await app.fetch(`/api/listing?city=${slug}`, `${day}T10:00:00Z`)).json()) as Listing;
    expect(stale.items.find((i) => i.id === house.id)?.unclaimed).toBe(false); // not yet ranked as the house's
    expect((await storedState()).house_email).toBeNull();
    const id = listingDayInstanceId({ today: day, houseEmail: HOUSE });
    expect(app.created).toEqual([{ id, params: { today: day } }]);

    await using instance = await introspectWorkflowInstance(env.LISTING_DAY_WORKFLOW, id);
    app.release();
    await Promise.all(app.waits);
    await instance.waitForStatus('complete');
    expect((await storedState()).house_email).toBe(HOUSE);
    const fresh = (await (await app.fetch(`/api/listing?city=${slug}&page=1`, `${day}T11:00:00Z`)).json()) as Listing;
    // The real account's units (in the day's rotation), then the house account's.
    expect(
      fresh.items
        .slice(0, 2)
        .map((i) => i.id)
        .sort(),
    ).toEqual([ended.id, later.id].sort());
    expect(fresh.items.map((i) => i.unclaimed)).toEqual([false, false, true]);
    expect(fresh.items[2]!.id).toBe(house.id);
  });
});
