import { describe, expect, it } from 'vitest';
import { countLine } from './count-line';

describe('countLine', () => {
  it('an exact total, a meaningful lower bound, or only "there are more"', () => {
    expect(countLine(12, 40, false)).toBe('Visar 12 av 40 quiz');
    expect(countLine(12, 48, true)).toBe('Visar 12 av minst 48 quiz');
    expect(countLine(12, 13, true)).toBe('Visar 12 quiz – det finns fler');
    expect(countLine(24, 25, true)).toBe('Visar 24 quiz – det finns fler');
    expect(countLine(0, 0, false)).toBe('Visar 0 av 0 quiz');
  });
});
