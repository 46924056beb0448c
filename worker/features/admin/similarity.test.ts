import { describe, expect, it } from 'vitest';
import { NEAR_DUPLICATE_SIMILARITY, trigramSimilarity } from './similarity';

describe('trigramSimilarity', () => {
  it('is 1 for the same name in other case/punctuation and 0 for unrelated names', () => {
    expect(trigramSimilarity('Pub Kvarnen', 'pub kvarnen!')).toBe(1);
    expect(trigramSimilarity('Kvarnen', 'Olssons')).toBe(0);
  });
  it('rates a one-letter typo of a long name above the threshold, a different pub below it', () => {
    expect(trigramSimilarity('Restaurang Pelikanen', 'Restaurang Pelikanen AB')).toBeGreaterThanOrEqual(NEAR_DUPLICATE_SIMILARITY);
    expect(trigramSimilarity('The Bishops Arms Södermalm', 'The Bishop Arms Södermalm')).toBeGreaterThanOrEqual(NEAR_DUPLICATE_SIMILARITY);
    expect(trigramSimilarity('The Bishops Arms', 'The Liffey')).toBeLessThan(NEAR_DUPLICATE_SIMILARITY);
  });
  it('matches pg_trgm on a known pair (word → 4 trigrams each)', () => {
    // "word" → {"  w"," wo","wor","ord","rd "}; "words" shares 4 of 6 → 4/7
    expect(trigramSimilarity('word', 'words')).toBeCloseTo(4 / 7);
  });
});
