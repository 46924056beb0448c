/** What a follow is for, shared by the button and its lazy dialog (neither imports the other's module for it). */
/** `person`: a search that follows one quizmaster (issue 48) — "Följ {label}" instead of "Bevaka den här sökningen". */
export type FollowTarget = { placeId: string; label: string } | { filters: SearchFollowFilters; label: string; person?: boolean };

/** A listing search to follow: city, weekday, text and the quiz filters, as URL values (the server validates them). */
export interface SearchFollowFilters {
  city?: string | undefined;
  weekday?: string | undefined;
  search?: string | undefined;
  price?: string | undefined;
  team?: string | undefined;
  category?: string | undefined;
  time?: string | undefined;
  sprak?: string | undefined;
  quizmaster?: string | undefined;
}

/** Where a signed-in visitor finds their follows and reminders: the list on /account (issue 44.2). */
export const FOLLOWS_PATH = '/account#bevakningar';
