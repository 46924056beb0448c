/**
 * The quiz filters of the public listing (issue 20): price, team size, category and start time, and the
 * quiz's language (issue 31.3: the stored values, their labels and the `sprak` filter). Pure
 * data and rules, no zod (the public pages' bundle imports this): the URL values, their Swedish labels,
 * and `matchesQuizFilters`, the rule for one quiz row. The SQL twin of the rule lives in
 * worker/features/listing/queries/where.ts (over listing_series, whose columns the triggers fill the same way:
 * scripts/listing-series-triggers.mjs, migration 0015).
 */

/** `price=`: free only, at most 50 kr (free included), or every price. */
export const PRICE_FILTERS = [
  { value: 'gratis', label: 'Gratis' },
  { value: 'max50', label: 'Högst 50 kr' },
] as const;
export type PriceFilter = (typeof PRICE_FILTERS)[number]['value'];
export const PRICE_MAX_FILTER_SEK = 50;

/** `category=`: the topic of the quiz (its category and theme). */
export const TOPIC_FILTERS = [
  { value: 'allmanbildning', label: 'Allmänbildning' },
  { value: 'musik', label: 'Musik' },
  { value: 'sport', label: 'Sport' },
  { value: 'film-tv', label: 'Film & TV' },
  { value: 'annat', label: 'Annat tema' },
] as const;
export type TopicFilter = (typeof TOPIC_FILTERS)[number]['value'];

/** `time=`: before 19:00; 19:00–20:00 (both included); after 20:00. A missing start time counts as 19:00. */
export const TIME_FILTERS = [
  { value: 'fore19', label: 'Före 19', from: 0, to: 18 * 60 + 59 },
  { value: '19-20', label: '19–20', from: 19 * 60, to: 20 * 60 },
  { value: 'efter20', label: 'Efter 20', from: 20 * 60 + 1, to: 24 * 60 },
] as const;
export type TimeFilter = (typeof TIME_FILTERS)[number]['value'];

/** `team=N`: quizzes whose max team size allows N people, or that have no max. */
export const TEAM_FILTER_MIN = 1;
export const TEAM_FILTER_MAX = 12;
/** The choices the filter panel offers ("Vi är N"). */
export const TEAM_FILTER_CHOICES = [2, 3, 4, 5, 6, 7, 8] as const;

/**
 * The quiz's language (issue 31.3): what `quizzes.language` stores (CHECK in worker/db/schema.ts), with the
 * owner form's labels, the badge of cards and the dialog ('sv' shows none), and the JSON-LD `inLanguage`.
 */
export const QUIZ_LANGUAGES = ['sv', 'en', 'both'] as const;
export type QuizLanguage = (typeof QUIZ_LANGUAGES)[number];
export const DEFAULT_QUIZ_LANGUAGE: QuizLanguage = 'sv';
export const QUIZ_LANGUAGE_LABELS: Record<QuizLanguage, string> = { sv: 'Svenska', en: 'Engelska', both: 'Båda' };
export const QUIZ_LANGUAGE_BADGES: Record<QuizLanguage, string | null> = { sv: null, en: 'På engelska', both: 'Svenska och engelska' };
export const isQuizLanguage = (v: unknown): v is QuizLanguage => typeof v === 'string' && (QUIZ_LANGUAGES as readonly string[]).includes(v);
/** schema.org `inLanguage` (BCP 47) of a quiz. */
export function inLanguageOf(lang: string | null | undefined): string | string[] {
  if (lang === 'en') return 'en';
  if (lang === 'both') return ['sv', 'en'];
  return 'sv';
}
/**
 * The words the import (`språk`/`language` column) and the calendar sync (ICS `LANGUAGE`) accept for a
 * language, lower-cased: Swedish and English names, the stored values and BCP 47 tags (sv-SE, en-GB…).
 */
export function parseQuizLanguage(raw: string | null | undefined): QuizLanguage | null {
  const v = (raw ?? '').trim().toLowerCase();
  if (['sv', 'svenska', 'swedish'].includes(v) || /^sv-[a-z]{2}$/.test(v)) return 'sv';
  if (['en', 'engelska', 'english'].includes(v) || /^en-[a-z]{2}$/.test(v)) return 'en';
  if (['both', 'båda', 'bada', 'svenska och engelska', 'sv,en', 'en,sv'].includes(v)) return 'both';
  return null;
}

/**
 * `sprak=`: quizzes held in Swedish or in English; a quiz in both languages matches either. `excludes` is
 * the one stored value the choice leaves out (the SQL twin: listing_series.lang != excludes).
 */
export const LANGUAGE_FILTERS = [
  { value: 'svenska', label: 'Svenska', excludes: 'en' },
  { value: 'engelska', label: 'Engelska', excludes: 'sv' },
] as const;
export type LanguageFilter = (typeof LANGUAGE_FILTERS)[number]['value'];
export const LANGUAGE_FILTER_LABELS: Record<LanguageFilter, string> = { svenska: 'På svenska', engelska: 'På engelska' };
export function languageExcluded(f: LanguageFilter): QuizLanguage {
  return LANGUAGE_FILTERS.find((o) => o.value === f)!.excludes;
}

/** The value that means "no filter" in every select (and an empty parameter). */
export const ALL_FILTER = 'alla';

export interface QuizFilters {
  price?: PriceFilter | undefined;
  team?: number | undefined;
  category?: TopicFilter | undefined;
  time?: TimeFilter | undefined;
  /** The URL's `sprak`. */
  sprak?: LanguageFilter | undefined;
}

export const isPriceFilter = (v: string): v is PriceFilter => PRICE_FILTERS.some((o) => o.value === v);
export const isTopicFilter = (v: string): v is TopicFilter => TOPIC_FILTERS.some((o) => o.value === v);
export const isTimeFilter = (v: string): v is TimeFilter => TIME_FILTERS.some((o) => o.value === v);
export const isLanguageFilter = (v: string): v is LanguageFilter => LANGUAGE_FILTERS.some((o) => o.value === v);
export function isTeamFilter(v: string): boolean {
  if (!/^\d{1,2}$/.test(v)) return false;
  const n = Number(v);
  return n >= TEAM_FILTER_MIN && n <= TEAM_FILTER_MAX;
}

export function timeRange(t: TimeFilter): { from: number; to: number } {
  const o = TIME_FILTERS.find((x) => x.value === t)!;
  return { from: o.from, to: o.to };
}

/**
 * The topic of a quiz from its category and theme, including the older stored values (spec 01 §3):
 * mirrors TOPIC() in scripts/listing-series-triggers.mjs exactly.
 */
export function topicOf(category: string | null | undefined, theme: string | null | undefined): TopicFilter | null {
  const c = asciiLower(category ?? '');
  const t = asciiLower((theme ?? '').trim());
  if (['allmänbildning', 'allmänquiz', 'general', 'mixed'].includes(c)) return 'allmanbildning';
  if (['musikquiz', 'musik'].includes(c) || ['musik', 'music'].includes(t)) return 'musik';
  if (['sportquiz', 'sport'].includes(c) || t === 'sport') return 'sport';
  if (['filmquiz', 'film'].includes(c) || ['film & tv', 'film och tv', 'film', 'tv'].includes(t)) return 'film-tv';
  if (['tema', 'theme'].includes(c) || t !== '') return 'annat';
  return null;
}

/** SQLite's lower(): ASCII letters only (so 'ALLMÄNBILDNING' stays unmatched in both places). */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]/g, (ch) => ch.toLowerCase());
}

/** Start time "HH:MM[:SS]" in minutes after midnight; a missing time counts as 19:00 (as it is shown). */
export function startMinutes(startTime: string | null | undefined): number {
  const m = startTime ? /^(\d{2}):(\d{2})/.exec(startTime) : null;
  return m ? Number(m[1]) * 60 + Number(m[2]) : 19 * 60;
}

/** Whether one quiz row passes the filters (the feed applies it to each date; the listing per unit in SQL). */
export function matchesQuizFilters(
  q: {
    price: number | null;
    teamSize: number | null;
    category: string | null;
    theme: string | null;
    startTime: string | null;
    language?: string | null | undefined;
  },
  f: QuizFilters,
): boolean {
  // An unknown price (null) is neither free nor at most 50 kr (issue 44.3).
  if (f.price === 'gratis' && q.price !== 0) return false;
  if (f.price === 'max50' && (q.price == null || q.price > PRICE_MAX_FILTER_SEK)) return false;
  if (f.team !== undefined && q.teamSize != null && q.teamSize < f.team) return false;
  if (f.category && topicOf(q.category, q.theme) !== f.category) return false;
  if (f.time) {
    const { from, to } = timeRange(f.time);
    const m = startMinutes(q.startTime);
    if (m < from || m > to) return false;
  }
  if (f.sprak && (q.language ?? DEFAULT_QUIZ_LANGUAGE) === languageExcluded(f.sprak)) return false;
  return true;
}

/** The Swedish labels of the filters that are set, in panel order: ["Gratis", "Vi är 4", "Musik", "Efter 20", "På engelska"]. */
export function quizFilterLabels(f: QuizFilters): string[] {
  const out: string[] = [];
  const price = PRICE_FILTERS.find((o) => o.value === f.price);
  if (price) out.push(price.label);
  if (f.team !== undefined) out.push(`Vi är ${f.team}`);
  const topic = TOPIC_FILTERS.find((o) => o.value === f.category);
  if (topic) out.push(topic.label);
  const time = TIME_FILTERS.find((o) => o.value === f.time);
  if (time) out.push(time.label);
  if (f.sprak) out.push(LANGUAGE_FILTER_LABELS[f.sprak]);
  return out;
}

/**
 * The quiz filters of URL values (strings as the web app holds them), each kept only when valid: the one
 * reading of the web's labels (the listing's chips, "Bevaka den här sökningen"); the server validates anew.
 */
export function quizFiltersFromUrl(f: {
  price?: string | undefined;
  team?: string | undefined;
  category?: string | undefined;
  time?: string | undefined;
  sprak?: string | undefined;
}): QuizFilters {
  return {
    price: f.price && isPriceFilter(f.price) ? f.price : undefined,
    team: f.team && isTeamFilter(f.team) ? Number(f.team) : undefined,
    category: f.category && isTopicFilter(f.category) ? f.category : undefined,
    time: f.time && isTimeFilter(f.time) ? f.time : undefined,
    sprak: f.sprak && isLanguageFilter(f.sprak) ? f.sprak : undefined,
  };
}

export function hasQuizFilters(f: QuizFilters): boolean {
  return !!(f.price || f.team !== undefined || f.category || f.time || f.sprak);
}
