import { describe, expect, it } from 'vitest';
import { paidLine } from './messages';

const p = (quizId: string, productType: 'premium' | 'recommended') => ({
  quizId,
  productType,
  startDate: '2030-01-10',
  endDate: '2030-01-10',
  amountPaid: 4900,
});

describe('paidLine (issue 29.4)', () => {
  it('one quiz names its tier', () => {
    expect(paidLine([p('a', 'premium')])).toBe('Ditt quiz är nu Premium Utvald och marknadsföringen är aktiv direkt.');
    expect(paidLine([p('a', 'recommended')])).toBe('Ditt quiz är nu Rekommenderat och marknadsföringen är aktiv direkt.');
  });
  it('several quizzes in one tier are counted', () => {
    expect(paidLine([p('a', 'recommended'), p('b', 'recommended')])).toBe('Dina 2 quiz är nu Rekommenderat och marknadsföringen är aktiv direkt.');
  });
  it('a mixed order is never told it is all Premium', () => {
    const line = paidLine([p('a', 'recommended'), p('b', 'premium')]);
    expect(line).toBe('Marknadsföringen är aktiv direkt: 1 quiz som Premium Utvald och 1 quiz som Rekommenderat.');
    expect(line).not.toContain('Ditt quiz är nu Premium Utvald');
  });
});
