/**
 * What every owner-kit item draws (issue 48.7), built by service.ts and drawn by renderer.ts (lazy) and images.tsx.
 * Plain data: the R2 key hashes it, so a change to anything drawn makes a new object.
 */
export interface KitData {
  /** "Varje tisdag 19:00", "Varannan torsdag 20:00" or, for a single quiz, "Tisdag 1 december 19:00". */
  when: string;
  /** The quiz's own title, when it has one. */
  title: string | null;
  venueName: string;
  /** "Puben Söder, Götgatan 1, Stockholm" */
  place: string;
  /** "50 kr" / "Gratis" */
  price: string;
  /** "Max 4 per lag", or null when the quiz does not say. */
  teamSize: string | null;
  /** "Svenska", "Engelska", "Svenska och engelska" */
  language: string;
  /** The next dates in words, Stockholm calendar days: "tisdag 1 december", … (a single quiz: none). */
  dates: string[];
  /** The venue page with the item's source tag: https://…/quiz/stockholm/puben?src=affisch */
  url: string;
  /** The URL as printed (no scheme). */
  urlText: string;
  /** Only in the "top 3" items: the latest posted night, its date in words and its visible rows ranked 1–3. */
  night?: KitNight;
}

/** The latest night of a series or quiz: "tisdag 1 januari", rows with the rank as posted (ties: 1, 2, 2), "42 p". */
export interface KitNight {
  date: string;
  rows: Array<{ rank: number; team: string; score: string }>;
}

/** A clipped text: at most n characters, an ellipsis when cut. */
export const clip = (s: string, n: number): string => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
