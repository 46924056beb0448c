/**
 * A page's city select lists at most CITY_OPTIONS_ON_PAGE cities — the largest by listed units, plus the
 * selected one — when there are more (listing/places.ts pageCityOptions); the rest load from
 * GET /api/listing/cities when the select is opened. So a page's weight does not grow with the cities.
 */
import { describe, expect, it } from 'vitest';
import { CITY_OPTIONS_ON_PAGE } from '../../worker/features/listing/places';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { townNames } from '../../worker/lib/gazetteer';
import { slugify } from '../../worker/lib/slug';
import { call, createLocation, createQuiz, createUser, createVenue, testDb, unique } from '../factories';

const MONDAY = '2030-01-07T10:00:00Z';

function pageData(html: string): { cities: Array<{ slug: string; name: string }>; citiesComplete?: boolean } {
  const m = /<script type="application\/json" id="__DATA__">([\s\S]*?)<\/script>/.exec(html);
  if (!m) throw new Error('no page data');
  return JSON.parse(m[1]!);
}

function citySelectOptions(html: string): string[] {
  const select = /<select id="filter-city"[\s\S]*?<\/select>/.exec(html)?.[0] ?? '';
  return [...select.matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]!).filter(Boolean);
}

describe('the city select of a page', () => {
  it('lists the largest cities and the selected one when there are many; the API still has them all', async () => {
    const owner = await createUser();
    const total = CITY_OPTIONS_ON_PAGE + 10;
    // Known towns only: a city that is not one is never public (issue 43.6).
    const town = (i: number) => townNames()[i * 7]!;
    // Cities 0–9 have one listed quiz, the other CITY_OPTIONS_ON_PAGE two: those are the largest.
    for (let i = 0; i < total; i++) {
      const venue = await createVenue(owner.id);
      for (let k = 0; k < (i < 10 ? 1 : 2); k++) await createQuiz((await createLocation(venue.id, { city: town(i) })).id, { date: '2030-01-08' });
    }
    await bumpDataVersion(testDb());
    const small = slugify(town(0));

    const res = await call(`/?_b=${unique('b')}`, { clock: MONDAY, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    const html = await res.text();
    const data = pageData(html);
    expect(data.citiesComplete).toBe(false);
    expect(data.cities.length).toBeLessThanOrEqual(CITY_OPTIONS_ON_PAGE);
    expect(citySelectOptions(html)).toEqual(data.cities.map((c) => c.slug));
    // Exactly the largest: every city with two listed quizzes, none with one.
    const largest = Array.from({ length: CITY_OPTIONS_ON_PAGE }, (_, i) => slugify(town(i + 10)));
    expect(data.cities.map((c) => c.slug).sort()).toEqual(largest.sort());

    // The selected city is always there, with its name.
    const selected = pageData(await (await call(`/?city=${small}&_b=${unique('b')}`, { clock: MONDAY, headers: { accept: 'text/html' } })).text());
    expect(selected.cities.find((c) => c.slug === small)?.name).toBe(town(0));

    // The whole list, for the select once opened.
    const all = (await (await call(`/api/listing/cities?_b=${unique('b')}`, { clock: MONDAY })).json()) as { cities: Array<{ slug: string }> };
    expect(all.cities.length).toBeGreaterThanOrEqual(total);
    expect(all.cities.some((c) => c.slug === small)).toBe(true);
  });
});
