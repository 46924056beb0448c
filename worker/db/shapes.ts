/**
 * Row shapes that are not one table's row, derived from the schema so that a column is typed once (issue 45.4):
 * the place as owners and the public venue page see it, and the quiz-with-place row that raw SQL reads for a
 * listing card and a calendar event. Types only: the shared project (web) may import it.
 */
import type { LocationRow, QuizRow, VenueRow } from './schema';

/** Raw SQL (`db.all`) hands a boolean column back as 0/1; drizzle maps it only in its own selects. */
export type RawColumns<T> = { [K in keyof T]: T[K] extends boolean ? number : T[K] };

/** A place's own columns as the app shows them. */
export type PlaceShape = Pick<LocationRow, 'id' | 'name' | 'address' | 'city' | 'citySlug' | 'phone' | 'website' | 'latitude' | 'longitude' | 'createdAt'>;

/** `{ name }` → `{ lName }`: the prefixed columns of a joined row. */
type Prefixed<P extends string, T> = { [K in keyof T & string as `${P}${Capitalize<K>}`]: T[K] };
/** A place's columns as a joined row names them (latitude/longitude read as lat/lng). */
type PlaceColumns = Omit<LocationRow, 'latitude' | 'longitude'> & { lat: LocationRow['latitude']; lng: LocationRow['longitude'] };

/**
 * One quiz with its place (columns prefixed `l`) and its business (prefixed `v`), as raw SQL reads it:
 * `Q`, `L` and `V` pick the columns a query selects.
 */
export type QuizPlaceRow<Q extends keyof QuizRow, L extends keyof PlaceColumns, V extends keyof VenueRow> = RawColumns<Pick<QuizRow, Q>> &
  Prefixed<'l', Pick<PlaceColumns, L>> &
  Prefixed<'v', Pick<VenueRow, V>>;

/** The quiz columns every quiz-with-place row carries (a card's and a calendar event's). */
export type QuizShownColumns =
  | 'id'
  | 'date'
  | 'startTime'
  | 'title'
  | 'description'
  | 'category'
  | 'theme'
  | 'quizmaster'
  | 'teamSize'
  | 'price'
  | 'isCancelled';
