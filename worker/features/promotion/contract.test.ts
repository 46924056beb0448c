import { describe, expect, it } from 'vitest';
import { availabilityStatus, AVAILABILITY_LABELS } from './contract';

const slots = (availableSlots: number, userHasPurchased = false) => ({ isAvailable: availableSlots > 0, availableSlots, userHasPurchased });

describe('availabilityStatus (issue 29.2)', () => {
  it('a one-slot tier is free or taken, never "Begränsat"', () => {
    expect(availabilityStatus(slots(1), 'premium')).toBe('available');
    expect(availabilityStatus(slots(0), 'premium')).toBe('soldout');
    expect([AVAILABILITY_LABELS.available, AVAILABILITY_LABELS.soldout]).toEqual(['Ledigt', 'Upptaget']);
  });
  it('Rekommenderat is "Begränsat" only with the last of its 3 slots left', () => {
    expect([3, 2, 1, 0].map((n) => availabilityStatus(slots(n), 'recommended'))).toEqual(['available', 'available', 'limited', 'soldout']);
  });
  it('bought and unknown', () => {
    expect(availabilityStatus(slots(0, true), 'premium')).toBe('purchased');
    expect(availabilityStatus(undefined, 'recommended')).toBe('unknown');
  });
});
