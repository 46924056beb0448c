/**
 * A chain: one business with many places (issue 43.1). The venue page read one `UNION ALL` arm per place,
 * and D1 refuses more than five compound terms (and more than 100 bound parameters), so every business with
 * six or more places answered 500. A business may have at most MAX_PLACES_PER_VENUE places; at that size its
 * public page, feed, share card and embed work, and one more place is refused with a Swedish message.
 */
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { locations, quizzes } from '../../worker/db/schema';
import { MAX_PLACES_PER_VENUE } from '../../worker/features/venues/contract';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { chunks } from '../../worker/lib/chunks';
import { newId } from '../../worker/lib/ids';
import { slugify } from '../../worker/lib/slug';
import { call, callJson, createUser, createVenue, locationValues, snapshot, testDb, unique, uniqueTown } from '../factories';

const CLOCK = '2030-01-07T10:00:00Z'; // Monday

/** A business with `n` places in one city (plus none elsewhere), each with two upcoming quizzes and one past. */
async function chain(n: number) {
  const db = testDb();
  const owner = await createUser();
  const tag = unique('k');
  const city = uniqueTown();
  const venue = await createVenue(owner.id, { name: `Kedjan ${tag}`, slug: `kedjan-${tag}` });
  const places = Array.from({ length: n }, (_, i) => locationValues(venue.id, { city, name: `Kedjan ${i + 1}` }));
  for (const part of chunks(places, 10)) await db.batch(part.map((p) => db.insert(locations).values(p)) as never);
  const rows = places.flatMap((p, i) => [
    { id: newId(), locationId: p.id, date: '2030-01-01', startTime: '19:00:00', category: 'allmänbildning', title: `Förr ${i + 1}` },
    { id: newId(), locationId: p.id, date: '2030-01-09', startTime: '19:00:00', category: 'allmänbildning', title: `Quiz A${i + 1}` },
    {
      id: newId(),
      locationId: p.id,
      date: `2030-02-${String((i % 28) + 1).padStart(2, '0')}`,
      startTime: '20:00:00',
      category: 'musik',
      title: `Quiz B${i + 1}`,
    },
  ]);
  for (const part of chunks(rows, 5)) await db.insert(quizzes).values(part);
  await bumpDataVersion(db);
  return { owner, venue, places, citySlug: slugify(city) };
}

describe(`a business with ${MAX_PLACES_PER_VENUE} places (issue 43.1)`, () => {
  it('has a working public page, feed, share card and embed, with every place’s quizzes', async () => {
    const w = await chain(MAX_PLACES_PER_VENUE);
    const page = await call(`/quiz/${w.citySlug}/${w.venue.slug}`, { clock: CLOCK });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (const i of [1, 6, 38, MAX_PLACES_PER_VENUE]) {
      expect(html).toContain(`Quiz A${i}<`);
      expect(html).toContain(`Quiz B${i}<`);
    }
    expect(html).not.toContain('Förr 1<');

    const feed = await call(`/api/calendar/venue/${w.citySlug}/${w.venue.slug}.ics`, { clock: CLOCK });
    expect(feed.status).toBe(200);
    expect((await feed.text()).match(/BEGIN:VEVENT/g)?.length).toBeGreaterThanOrEqual(MAX_PLACES_PER_VENUE);

    const card = await call(`/og/venue/${w.citySlug}/${w.venue.slug}.png`, { clock: CLOCK });
    expect(card.status).toBe(200);
    expect(card.headers.get('content-type')).toContain('image/png');
    await card.arrayBuffer();

    const embed = await call(`/embed/${w.citySlug}/${w.venue.slug}`, { clock: CLOCK });
    expect(embed.status).toBe(200);
    // The widget shows the business's next five quizzes (all on 9 January here).
    expect((await embed.text()).match(/Quiz A\d+ · /g)).toHaveLength(5);

    const dashboard = await callJson(`/api/owner/dashboard?venueId=${w.venue.id}`, { cookie: w.owner.cookie });
    expect(dashboard.status).toBe(200);
    expect(dashboard.body.places).toHaveLength(MAX_PLACES_PER_VENUE);

    // The owner's other reads over every place: no 5xx either.
    for (const path of [
      '/api/owner/quiz-places',
      '/api/owner/quizzes',
      '/api/owner/series',
      `/api/analytics?venueId=${w.venue.id}`,
      `/api/analytics/export.csv?venueId=${w.venue.id}`,
      '/api/exports/me',
      '/api/exports/quizzes.csv',
    ]) {
      const res = await call(path, { cookie: w.owner.cookie });
      expect(res.status, path).toBe(200);
      await res.arrayBuffer();
    }
  });

  it.each([5, 6])('at %i places (D1 allows five compound terms per statement) every place’s quizzes are on the page', async (n) => {
    const w = await chain(n);
    const page = await call(`/quiz/${w.citySlug}/${w.venue.slug}`, { clock: CLOCK });
    expect(page.status).toBe(200);
    const html = await page.text();
    for (let i = 1; i <= n; i++) expect(html).toContain(`Quiz B${i}<`);
  });

  it(`one more place than ${MAX_PLACES_PER_VENUE} is refused (409, Swedish, nothing stored); one fewer is created`, async () => {
    const w = await chain(MAX_PLACES_PER_VENUE - 1);
    const place = { name: 'Sista', address: 'Slutgatan 1', city: 'Mölndal' };
    const last = await callJson(`/api/owner/venues/${w.venue.id}/locations`, { cookie: w.owner.cookie, body: place });
    expect(last.status).toBe(201);
    const before = await snapshot(['locations', 'venues']);
    const over = await callJson(`/api/owner/venues/${w.venue.id}/locations`, { cookie: w.owner.cookie, body: place });
    expect(over.status).toBe(409);
    expect(over.body.error.code).toBe('conflict');
    expect(over.body.error.message).toBe(`En verksamhet kan ha högst ${MAX_PLACES_PER_VENUE} platser.`);
    expect(await snapshot(['locations', 'venues'])).toEqual(before);
  });

  it(`ten parallel creations at ${MAX_PLACES_PER_VENUE - 3} places: exactly three are created, the rest 409, never a 5xx`, async () => {
    const w = await chain(MAX_PLACES_PER_VENUE - 3);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        call(`/api/owner/venues/${w.venue.id}/locations`, { cookie: w.owner.cookie, body: { name: `Ny ${i}`, address: 'Nygatan 1', city: 'Mölndal' } }),
      ),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    const [row] = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM locations WHERE venue_id = ${w.venue.id}`);
    expect(row!.n).toBe(MAX_PLACES_PER_VENUE);
  });
});
