import { describe, expect, it } from 'vitest';
import { searchLabel } from './label';

const cities = [{ slug: 'stockholm', name: 'Stockholm' }];
const none = { city: '', weekday: '', search: '' };

describe("searchLabel (the follow button's name for the listing filters)", () => {
  it('names city, weekday, text and the quiz filters that are set', () => {
    expect(searchLabel({ city: 'stockholm', weekday: 'tisdag', search: ' musik ', price: 'gratis', team: '4', category: 'sport', time: '19-20' }, cities)).toBe(
      'Stockholm · tisdag · ”musik” · Gratis · Vi är 4 · Sport · 19–20',
    );
  });
  it('a quiz filter alone can be followed; nothing set (or only unknown values, or every weekday) cannot', () => {
    expect(searchLabel({ ...none, price: 'max50' }, cities)).toBe('Högst 50 kr');
    expect(searchLabel(none, cities)).toBeNull();
    expect(searchLabel({ ...none, weekday: 'all', price: 'billigt', team: '99', category: 'opera', time: 'sent' }, cities)).toBeNull();
  });
});
