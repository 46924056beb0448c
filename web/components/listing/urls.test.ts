import { describe, expect, it } from 'vitest';
import { listingApiUrl, pageQuery } from './urls';

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
});
