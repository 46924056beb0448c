import { describe, expect, it } from 'vitest';
import { searchLabel } from '../../../web/components/follows/label';
import { describeSearch } from './labels';

const cities = [{ slug: 'stockholm', name: 'Stockholm' }];

describe('describeSearch (a saved search named in mail and on "Mina bevakningar")', () => {
  it('names the search as the follow button does, the language filter included', () => {
    const web = searchLabel(
      { city: 'stockholm', weekday: 'tisdag', search: 'musik', price: 'gratis', team: '4', category: 'sport', time: '19-20', sprak: 'engelska' },
      cities,
    );
    const server = describeSearch(
      { city: 'stockholm', weekday: 'tisdag', search: 'musik', price: 'gratis', team: 4, category: 'sport', time: '19-20', sprak: 'engelska' },
      'Stockholm',
    );
    expect(server).toBe(`quiz ${web}`);
    expect(server).toBe('quiz Stockholm · tisdag · ”musik” · Gratis · Vi är 4 · Sport · 19–20 · På engelska');
  });
  it('without a display name the town is its slug; a town-less search names only what is chosen', () => {
    expect(describeSearch({ city: 'stockholm', sprak: 'svenska' })).toBe('quiz stockholm · På svenska');
    expect(describeSearch({ price: 'max50' }, 'Stockholm')).toBe('quiz Högst 50 kr');
  });
});
