/**
 * Cities stored before the city rule (issue 43.6): the forms refuse garbage now (city-field, its own tests), but rows
 * written earlier, or around the rule, are still in D1. Migration 0030 moves a place with coordinates in Sweden to its
 * nearest town; whatever is left is never a public city: no city page, feed, select option or sitemap entry.
 */
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import cleanup from '../../migrations/0030_city_cleanup.sql?raw';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { call, createLocation, createQuiz, createUser, createVenue, testDb, unique } from '../factories';

const MONDAY = '2030-01-07T10:00:00Z';

/** A public business with one listed quiz at a place whose city was stored as given. */
async function placeIn(city: string, citySlug: string, coords: { latitude?: number; longitude?: number } = {}) {
  const owner = await createUser();
  const venue = await createVenue(owner.id);
  const location = await createLocation(venue.id, { city, citySlug, ...coords });
  await createQuiz(location.id, { date: '2030-01-08' });
  return { venue, location };
}

const GARBAGE: Array<[city: string, slug: string]> = [
  ["' OR 1=1--", 'or-1-1'],
  ['<script>alert(1)</script>', 'script-alert-1-script'],
  ['NaN', 'nan'],
  ['2026-02-30', '2026-02-30'],
  // A plain object's key: the gazetteer once answered it with Object's constructor.
  ['constructor', 'constructor'],
];

describe('cities stored before the city rule', () => {
  it('are never public: no city page, feed, city option or sitemap entry', async () => {
    const real = await placeIn('Lund', 'lund');
    const garbage = [];
    for (const [city, slug] of GARBAGE) garbage.push({ slug, ...(await placeIn(city, slug)) });
    await bumpDataVersion(testDb());

    const cities = (await (await call(`/api/listing/cities?_b=${unique('b')}`, { clock: MONDAY })).json()) as { cities: Array<{ slug: string }> };
    expect(cities.cities.map((c) => c.slug)).toEqual(['lund']);

    const sidor = await (await call('/sitemaps/sidor-1.xml', { clock: MONDAY })).text();
    const stallen = await (await call('/sitemaps/stallen-1.xml', { clock: MONDAY })).text();
    expect(sidor).toContain('/quiz/lund<');
    expect(stallen).toContain(`/quiz/lund/${real.venue.slug}<`);
    const home = await (await call(`/?_b=${unique('b')}`, { clock: MONDAY, headers: { accept: 'text/html' } })).text();
    for (const g of garbage) {
      expect(sidor).not.toContain(`/quiz/${g.slug}`);
      expect(stallen).not.toContain(`/${g.venue.slug}<`);
      expect(home).not.toContain(`<option value="${g.slug}"`);
      for (const path of [`/quiz/${g.slug}`, `/stad/${g.slug}`, `/api/calendar/city/${g.slug}.ics`, `/api/calendar/city/${g.slug}/tisdag.ics`])
        expect((await call(path, { clock: MONDAY, headers: { accept: 'text/html' } })).status, path).toBe(404);
    }
  });

  it('migration 0030 moves a place with coordinates in Sweden to its nearest town, and leaves the rest', async () => {
    // Lund's centre is 55.705, 13.194; Kiruna's 67.856, 20.225.
    const nearLund = await placeIn('Lundd', 'lundd', { latitude: 55.71, longitude: 13.2 });
    const nearKiruna = await placeIn('<b>Kiruna</b>', 'b-kiruna-b', { latitude: 67.85, longitude: 20.22 });
    const abroad = await placeIn('Oslo', 'oslo', { latitude: 59.91, longitude: 10.75 });
    const noCoords = await placeIn('NaN', 'nan');
    const known = await placeIn('Göteborg', 'goteborg', { latitude: 55.71, longitude: 13.2 });
    const before = await env.DB.prepare('SELECT version FROM public_data_version').first<{ version: number }>();

    for (const statement of cleanup.split('--> statement-breakpoint')) await env.DB.prepare(statement).run();

    const cityOf = async (id: string) =>
      env.DB.prepare('SELECT city, city_slug AS slug FROM locations WHERE id = ?').bind(id).first<{ city: string; slug: string }>();
    expect(await cityOf(nearLund.location.id)).toEqual({ city: 'Lund', slug: 'lund' });
    expect(await cityOf(nearKiruna.location.id)).toEqual({ city: 'Kiruna', slug: 'kiruna' });
    expect(await cityOf(abroad.location.id)).toEqual({ city: 'Oslo', slug: 'oslo' });
    expect(await cityOf(noCoords.location.id)).toEqual({ city: 'NaN', slug: 'nan' });
    // A known town stays, wherever its pin is.
    expect(await cityOf(known.location.id)).toEqual({ city: 'Göteborg', slug: 'goteborg' });
    const after = await env.DB.prepare('SELECT version FROM public_data_version').first<{ version: number }>();
    expect(after!.version).toBe(before!.version + 1);
    // The listing followed the move (its triggers): the place's quiz is on Lund's page.
    const lund = await (await call(`/api/listing?city=lund&weekday=all&_b=${unique('b')}`, { clock: MONDAY })).json();
    expect(JSON.stringify(lund)).toContain(nearLund.venue.name);
  });
});
