/**
 * How the listing matches free text (migration 0020): the FTS5 match of a search — a substring through
 * the trigram index, a word's beginning through the word index — or, for one or two characters without
 * a letter, a scan. Used by the filter (where.ts) and the search walk (walk.ts walkedSearchPage).
 */

/** Shortest search the trigram index can answer; shorter ones use the word-prefix index. */
const TRIGRAM_MIN_CHARS = 3;

/** An FTS5 query matching `text` as one literal substring (quotes doubled, nothing else is syntax). */
export function ftsPhrase(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

/**
 * The search indexes (migration 0020) key each unit by tier << 61 | shuffle << 30 | id, so their rowid
 * order is the listing's; `rowid & SEARCH_ID_MASK` is the unit's id (always in SQL: the key exceeds 2^53).
 */
export const SEARCH_ID_MASK = 2 ** 30 - 1;

/** The FTS5 table of a search: trigram for a substring, the word index for a word's beginning. */
export function searchTable(plan: Exclude<SearchPlan, { kind: 'scan' }>): 'listing_search' | 'listing_search_words' {
  return plan.kind === 'substring' ? 'listing_search' : 'listing_search_words';
}

/**
 * How a search is answered: three characters or more as a substring (trigram index); one or two as the
 * beginning of a word (word index with 1- and 2-character prefixes: "kv" finds Kvarnen); one or two
 * characters without a letter or digit (no word to start) as a substring scan of listing_series.
 */
export type SearchPlan = { kind: 'substring'; match: string } | { kind: 'word-prefix'; match: string } | { kind: 'scan'; text: string };

export function searchPlan(text: string): SearchPlan {
  if ([...text].length >= TRIGRAM_MIN_CHARS) return { kind: 'substring', match: ftsPhrase(text) };
  if (/[\p{L}\p{N}]/u.test(text)) return { kind: 'word-prefix', match: `${ftsPhrase(text)}*` };
  return { kind: 'scan', text: text.toLowerCase() };
}
