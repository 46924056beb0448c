import { describe, expect, it } from 'vitest';
import { findWeekday, WEEKDAY_NAMES, weekdayOfSunday0 } from './swedish';

describe('the weekday vocabulary', () => {
  it('ISO order, Monday first; Sunday-first numbers map through weekdayOfSunday0', () => {
    expect(WEEKDAY_NAMES).toEqual(['måndag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lördag', 'söndag']);
    expect(weekdayOfSunday0(0).name).toBe('söndag');
    expect(weekdayOfSunday0(1).name).toBe('måndag');
    expect(weekdayOfSunday0(6).name).toBe('lördag');
    expect(findWeekday(' Lordag ')?.iso).toBe(6);
    expect(findWeekday('sön')).toBeUndefined();
  });
});
