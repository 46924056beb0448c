import { describe, expect, it } from 'vitest';
import { storedCard } from './cards';

const TODAY = '2030-01-07'; // Monday

describe('storedCard', () => {
  const card = JSON.stringify({ id: 'q1', date: '2030-01-09' });
  it('is the next occurrence: used for every mode it fits, else null (read instead)', () => {
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY })).toMatchObject({ id: 'q1' });
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, weekdayW: 3 })).toMatchObject({ id: 'q1' });
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, weekdayW: 4 })).toBeNull();
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, date: '2030-01-09' })).toMatchObject({ id: 'q1' });
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: TODAY, date: '2030-01-16' })).toBeNull();
    // Stored before a day it no longer fits (read before the day's refresh), or missing.
    expect(storedCard({ card, nextDate: '2030-01-09' }, { today: '2030-01-10' })).toBeNull();
    expect(storedCard({ card: null, nextDate: null }, { today: TODAY })).toBeNull();
  });
});
