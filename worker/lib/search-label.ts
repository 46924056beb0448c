/**
 * The one home of a listing search's name (issue 28.7): "Stockholm · tisdag · ”musik” · Gratis". The follow
 * button (web/components/follows/label.ts), the listing's empty state (web/components/listing/urls.ts) and the
 * server's follow labels build it from these parts, so a saved search is named the same everywhere.
 * Pure (no zod): the public bundle imports it.
 */
import { quizFilterLabels, type QuizFilters } from './quiz-filters';
import { findWeekday } from './swedish';

/** The separator between the parts of a search's name. */
export const SEARCH_LABEL_SEPARATOR = ' · ';

/** A free-text search as a label part: ”musik”. */
export const searchTextLabel = (search: string) => `”${search.trim()}”`;

/** What a search is named by: the town's display name, a weekday slug or name ('all' / unknown: none), free text and quiz filters. */
export interface SearchLabelInput extends QuizFilters {
  cityName?: string | null | undefined;
  weekday?: string | null | undefined;
  search?: string | null | undefined;
}

/** The parts of a search's name, in order: town, weekday, ”text”, quiz filters; what is not chosen is left out. */
export function searchLabelParts(f: SearchLabelInput): string[] {
  const parts: string[] = [];
  if (f.cityName) parts.push(f.cityName);
  const weekday = f.weekday && f.weekday !== 'all' ? findWeekday(f.weekday) : undefined;
  if (weekday) parts.push(weekday.name);
  if (f.search?.trim()) parts.push(searchTextLabel(f.search));
  parts.push(...quizFilterLabels(f));
  return parts;
}

/** "Stockholm · tisdag · ”musik” · Gratis", or null when nothing is chosen (nothing to follow). */
export function searchLabel(f: SearchLabelInput): string | null {
  const parts = searchLabelParts(f);
  return parts.length ? parts.join(SEARCH_LABEL_SEPARATOR) : null;
}
