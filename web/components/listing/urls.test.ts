import { describe, expect, it } from 'vitest';
import { activeFilterCount, activeFilterLabels, chipDates, chipHref, filteredFeedQuery, listingApiUrl, pageQuery } from './urls';

const home = { city: '', weekday: 'lordag', date: '2026-11-21', search: '' };

describe('filters in the URL', () => {
  it('the defaults of a page leave the query empty', () => {
    expect(pageQuery(home, home, {})).toBe('');
  });
  it('a changed filter is written; a locked one is not', () => {
    expect(pageQuery({ ...home, weekday: 'all', date: '' }, home, {})).toBe('?weekday=all');
    expect(pageQuery({ ...home, weekday: 'tisdag', date: '2026-11-24', city: 'malmo' }, home, {})).toBe('?city=malmo&weekday=tisdag&date=2026-11-24');
    expect(pageQuery({ ...home, city: 'malmo', search: ' öl ' }, { ...home, city: 'malmo' }, { city: true })).toBe('?search=%C3%B6l');
  });
  it('the API URL carries every set filter and the page', () => {
    expect(listingApiUrl({ ...home, search: 'kvarn' }, 2)).toBe('/api/listing?weekday=lordag&date=2026-11-21&search=kvarn&page=2');
  });
  it('near mode is written to the page URL and the API URL (radius only with near)', () => {
    expect(pageQuery({ ...home, weekday: 'all', date: '', near: '57.708,11.974' }, home, {})).toBe('?weekday=all&near=57.708%2C11.974');
    expect(listingApiUrl({ ...home, near: '57.708,11.974', radius: '25' }, 1)).toBe(
      '/api/listing?weekday=lordag&date=2026-11-21&near=57.708%2C11.974&radius=25&page=1',
    );
    expect(listingApiUrl({ ...home, radius: '25' }, 1)).toBe('/api/listing?weekday=lordag&date=2026-11-21&page=1');
  });
});

describe('quick chips', () => {
  it('tonight, tomorrow and the weekend (Saturday; on a Sunday today)', () => {
    expect(chipDates('2026-11-19')).toEqual({ tonight: '2026-11-19', tomorrow: '2026-11-20', weekend: '2026-11-21' }); // Thursday
    expect(chipDates('2026-11-21').weekend).toBe('2026-11-21'); // Saturday
    expect(chipDates('2026-11-22').weekend).toBe('2026-11-22'); // Sunday
  });
  it('link to the same page with the date, keeping city or position, dropping search', () => {
    expect(chipHref('2026-11-20', { ...home, city: 'malmo', search: 'öl' }, { path: '/' })).toBe('/?city=malmo&date=2026-11-20');
    expect(chipHref('2026-11-20', { ...home, near: '57.708,11.974' }, { path: '/' })).toBe('/?date=2026-11-20&near=57.708%2C11.974');
    expect(chipHref('2026-11-20', { ...home, city: 'malmo' }, { path: '/quiz/malmo', lockCity: true })).toBe('/quiz/malmo?date=2026-11-20');
    expect(chipHref('2026-11-20', { ...home, city: 'malmo' }, { path: '/quiz/malmo/tisdag', lockCity: true, lockWeekday: true })).toBe(
      '/quiz/malmo?date=2026-11-20',
    );
    expect(chipHref('2026-11-20', home, { path: '/quiz/tisdag', lockWeekday: true })).toBe('/?date=2026-11-20');
  });
  it('counts the filters that differ from the page defaults', () => {
    expect(activeFilterCount(home, home, {})).toBe(0);
    expect(activeFilterCount({ ...home, city: 'malmo', weekday: 'all', date: '', search: 'x' }, home, {})).toBe(3);
    // Near mode is a chip with its own line, not a filter of the panel (issue 29.7).
    expect(activeFilterCount({ ...home, near: '57.7,11.9' }, home, {})).toBe(0);
  });
  it('counts only what the visitor chose (issue 29.7)', () => {
    // One weekday choice moves the date with it: one filter, not two.
    expect(activeFilterCount({ ...home, weekday: 'tisdag', date: '2026-11-24' }, home, {})).toBe(1);
    // Near mode's page (/?weekday=all&near=…): the "every day" is near mode's, not the visitor's.
    expect(activeFilterCount({ ...home, weekday: 'all', date: '', near: '57.7,11.9' }, home, {})).toBe(0);
    expect(activeFilterCount({ ...home, weekday: 'all', date: '', near: '57.7,11.9', price: 'gratis' }, home, {})).toBe(1);
    // A weekday page's own day is no choice; a date on it is.
    const wd = { city: '', weekday: 'tisdag', date: '', search: '' };
    expect(activeFilterCount(wd, wd, { weekday: true })).toBe(0);
    expect(activeFilterCount({ ...wd, date: '2026-12-01' }, wd, { weekday: true })).toBe(1);
  });
  it('names the chosen filters for the empty state (issue 29.6)', () => {
    const city = { city: 'stockholm', weekday: 'all', date: '', search: '' };
    expect(activeFilterLabels({ ...city, weekday: 'tisdag', date: '2026-11-24', price: 'gratis', category: 'musik' }, city, { city: true }, [])).toEqual([
      'tisdag 24 november',
      'Gratis',
      'Musik',
    ]);
    expect(activeFilterLabels(city, city, { city: true }, [])).toEqual([]);
  });
});

describe('quiz filters in the URLs (issue 20)', () => {
  const city = { city: 'malmo', weekday: 'all', date: '', search: '' };
  it('are written to the page URL, the API URL and the chips, and counted', () => {
    const f = { ...city, price: 'gratis', category: 'musik' };
    expect(pageQuery(f, city, { city: true })).toBe('?price=gratis&category=musik');
    expect(listingApiUrl({ ...f, team: '4', time: 'efter20' }, 1)).toBe(
      '/api/listing?city=malmo&weekday=all&price=gratis&team=4&category=musik&time=efter20&page=1',
    );
    expect(activeFilterCount(f, city, { city: true })).toBe(2);
    expect(chipHref('2026-11-21', f, { path: '/quiz/malmo', lockCity: true })).toBe('/quiz/malmo?date=2026-11-21&price=gratis&category=musik');
    // '' = every quiz: left out.
    expect(pageQuery({ ...city, price: '' }, city, { city: true })).toBe('');
  });
  it("the filtered feed query carries the page's city/weekday and the filters; none without a quiz filter", () => {
    expect(filteredFeedQuery({ ...city, time: 'fore19' }, { city: true })).toBe('city=malmo&time=fore19');
    expect(filteredFeedQuery({ ...city, weekday: 'tisdag', team: '6' }, { city: true, weekday: true })).toBe('city=malmo&weekday=tisdag&team=6');
    expect(filteredFeedQuery(city, { city: true })).toBeNull();
  });
});
