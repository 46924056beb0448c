/**
 * Near-duplicate test for the import (issue 21): pg_trgm-style trigram similarity of two names —
 * lower-cased words padded with two spaces in front and one behind, similarity = |A ∩ B| / |A ∪ B|.
 * Pure; unit-tested beside it.
 */
export function trigrams(s: string): Set<string> {
  const out = new Set<string>();
  const words = s
    .toLowerCase()
    .normalize('NFC')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  for (const w of words) {
    const p = `  ${w} `;
    for (let i = 0; i + 3 <= p.length; i++) out.add(p.slice(i, i + 3));
  }
  return out;
}

export function trigramSimilarity(a: string, b: string): number {
  const ta = trigrams(a);
  const tb = trigrams(b);
  if (!ta.size && !tb.size) return 0;
  let common = 0;
  for (const t of ta) if (tb.has(t)) common++;
  return common / (ta.size + tb.size - common);
}

/** The threshold above which two names in the same town are listed for review. */
export const NEAR_DUPLICATE_SIMILARITY = 0.8;
