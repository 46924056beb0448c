import * as z from 'zod';
import { CapacityTablesSchema } from '../rsvp/contract';
import { WEEKDAY_NAMES, type WeekdayName } from '../../lib/swedish';
import { textField } from '../../lib/zod-text';
import { QUIZ_LANGUAGES, QUIZ_LANGUAGE_LABELS, type QuizLanguage } from '../../lib/quiz-filters';
import { lazySchema } from '../../lib/lazy-schema';

/**
 * Quiz and series contracts (spec 02 §5 "Create quiz", "Edit quiz", "Recurrence generation"), shared by
 * the owner forms in web/ and the Worker validators. Imports only zod and the shared text rules (lib/zod-text).
 */
export const QUIZ_CATEGORIES = ['allmänbildning', 'tema'] as const;
export const CATEGORY_LABELS: Record<(typeof QUIZ_CATEGORIES)[number], string> = { allmänbildning: 'Allmänbildning', tema: 'Tema' };
/** Theme choices for category tema; 'Annat' requires a custom theme. */
export const QUIZ_THEMES = ['Musik', 'Sport', 'Film & TV', 'Annat'] as const;
export const TEAM_SIZES = [2, 3, 4, 5, 6, 8] as const;
/** The quiz's language (issue 31.3): values and labels have one home, worker/lib/quiz-filters.ts. */
export { QUIZ_LANGUAGES, QUIZ_LANGUAGE_LABELS, type QuizLanguage };
export const LANGUAGE_ERROR = `Välj ${QUIZ_LANGUAGES.map((l) => QUIZ_LANGUAGE_LABELS[l].toLowerCase())
  .join(', ')
  .replace(/, ([^,]+)$/, ' eller $1')}`;
/** ISO weekday order (index + 1 = ISO weekday); what recurrence_days stores. One home: worker/lib/swedish.ts. */
export { WEEKDAY_NAMES, type WeekdayName };
export const RECURRENCE_PATTERNS = ['weekly', 'biweekly'] as const;
export const PATTERN_LABELS = { weekly: 'Varje vecka', biweekly: 'Varannan vecka' } as const;
/** "Forever": the nightly cron keeps open-ended series this far ahead (its home is the recurrence rules). */
export { SERIES_HORIZON_DAYS } from '../../lib/recurrence';
/** A series needs extension when its latest occurrence is this many days away or fewer. */
export const EXTENSION_THRESHOLD_DAYS = 30;
/** An until-date may lie at most this far after the start (sanity bound). */
export const MAX_UNTIL_DAYS = 3 * 365;
export const QUIZMASTER_MAX = 100;
export const THEME_MAX = 60;
export const DESCRIPTION_MAX = 2000;
export const PRICE_MAX = 10_000;

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
export function isCalendarDate(value: string): boolean {
  const m = DATE_RE.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === value;
}
function daysFromTo(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
/** ISO weekday name of a YYYY-MM-DD date. */
export function weekdayNameOf(date: string): WeekdayName {
  const d = new Date(`${date}T00:00:00Z`).getUTCDay();
  return WEEKDAY_NAMES[(d + 6) % 7]!;
}

export const DateSchema = lazySchema(() => z.string({ error: 'Ange ett datum' }).refine(isCalendarDate, 'Ange ett giltigt datum (ÅÅÅÅ-MM-DD)'));
const TimeSchema = lazySchema(() => z.string({ error: 'Ange en starttid' }).regex(/^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/, 'Ange en giltig starttid (TT:MM)'));
/** Optional text, '' → null; one line unless `multiLine` (the shared text rules of lib/zod-text). */
const optionalText = (max: number, label: string, multiLine = false) =>
  textField(label, max, { multiLine })
    .nullish()
    .transform((v) => (v ? v : null));
/** A custom theme and a quizmaster's name: also the CSV import's theme and quizmaster columns. */
export const CustomThemeSchema = optionalText(THEME_MAX, 'Eget tema').describe('Eget tema');
export const QuizmasterSchema = optionalText(QUIZMASTER_MAX, 'Quizmaster').describe('Quizmaster');

/** The fields an owner edits on one quiz (and, except the date, on a whole series). */
const fieldShape = {
  startTime: TimeSchema.describe('Starttid'),
  category: z.enum(QUIZ_CATEGORIES, { error: 'Välj en kategori' }).describe('Kategori'),
  theme: z.enum(QUIZ_THEMES, { error: 'Välj ett tema' }).nullish().describe('Tema'),
  customTheme: CustomThemeSchema,
  quizmaster: QuizmasterSchema,
  teamSize: z
    .number({ error: 'Välj en lagstorlek' })
    .int()
    .refine((n) => (TEAM_SIZES as readonly number[]).includes(n), 'Lagstorlek måste vara 2, 3, 4, 5, 6 eller 8')
    .nullish()
    .describe('Lagstorlek'),
  description: optionalText(DESCRIPTION_MAX, 'Beskrivningen', true).describe('Beskrivning'),
  price: z
    .number({ error: 'Ange ett pris i kronor' })
    .int('Ange ett pris i hela kronor')
    .min(0, 'Priset kan inte vara negativt')
    .max(PRICE_MAX, `Priset får vara högst ${PRICE_MAX} kr`)
    .nullish()
    .describe('Pris'),
  /** Missing = unchanged on an edit, 'sv' on a new quiz (older clients). */
  language: z.enum(QUIZ_LANGUAGES, { error: LANGUAGE_ERROR }).optional().describe('Språk'),
  /** "Vi kommer" (issue 47): tables for teams; null = no limit, missing = unchanged (none on a new quiz). */
  capacityTables: CapacityTablesSchema.optional(),
};

type ThemeFields = { category: string; theme?: string | null | undefined; customTheme?: string | null | undefined };
function checkTheme(v: ThemeFields, ctx: z.RefinementCtx) {
  if (v.category !== 'tema') return;
  if (!v.theme) ctx.addIssue({ code: 'custom', path: ['theme'], message: 'Välj ett tema' });
  else if (v.theme === 'Annat' && !v.customTheme) ctx.addIssue({ code: 'custom', path: ['customTheme'], message: 'Ange ett eget tema' });
}

/** The theme stored on the row: the chosen theme, the custom text for 'Annat', null for allmänbildning. */
export function storedTheme(v: ThemeFields): string | null {
  if (v.category !== 'tema') return null;
  return v.theme === 'Annat' ? (v.customTheme ?? null) : (v.theme ?? null);
}
/** The form's (theme, customTheme) for a stored theme. */
export function formTheme(theme: string | null): { theme: (typeof QUIZ_THEMES)[number] | ''; customTheme: string } {
  if (!theme) return { theme: '', customTheme: '' };
  if ((QUIZ_THEMES as readonly string[]).includes(theme) && theme !== 'Annat') return { theme: theme as (typeof QUIZ_THEMES)[number], customTheme: '' };
  return { theme: 'Annat', customTheme: theme };
}

/** The recurrence fields of a series form (pattern, weekdays, until): shared with the holidays preview. */
export const recurrenceShape = {
  pattern: z.enum(RECURRENCE_PATTERNS, { error: 'Välj varje vecka eller varannan vecka' }).default('weekly').describe('Upprepning'),
  /** Empty or missing = the start date's weekday. */
  days: z
    .array(z.enum(WEEKDAY_NAMES, { error: 'Ogiltig veckodag' }))
    .max(7)
    .optional()
    .describe('Veckodagar'),
  /** null = "för alltid" (kept 6 months ahead by the nightly cron). */
  until: DateSchema.nullish().describe('Slutdatum'),
};

/** An until-date lies on or after the start and within MAX_UNTIL_DAYS of it. */
export function checkUntil(v: { date: string; until?: string | null | undefined }, ctx: z.RefinementCtx) {
  if (!v.until || !isCalendarDate(v.date) || !isCalendarDate(v.until)) return;
  if (v.until < v.date) ctx.addIssue({ code: 'custom', path: ['until'], message: 'Slutdatumet kan inte vara före startdatumet' });
  else if (daysFromTo(v.date, v.until) > MAX_UNTIL_DAYS) ctx.addIssue({ code: 'custom', path: ['until'], message: 'Slutdatumet får ligga högst tre år fram' });
}

/** POST /api/owner/quizzes — one quiz, or a series when `recurring` (the default). */
export const CreateQuizSchema = lazySchema(() =>
  z
    .object({
      locationId: z.string({ error: 'Ingen lokal hittad' }).min(1, 'Ingen lokal hittad').max(64).describe('Plats'),
      date: DateSchema.describe('Datum'),
      ...fieldShape,
      recurring: z.boolean().default(true).describe('Återkommande'),
      ...recurrenceShape,
    })
    .superRefine((v, ctx) => {
      checkTheme(v, ctx);
      if (v.recurring) checkUntil(v, ctx);
    }),
);
export type CreateQuizInput = z.input<typeof CreateQuizSchema>;
export type CreateQuizData = z.output<typeof CreateQuizSchema>;

/**
 * PATCH /api/owner/quizzes/:id — this quiz only. `recurring: true` on a single quiz turns it into a
 * new weekly series; `recurring: false` on an occurrence makes it single and deletes the others.
 */
export const EditQuizSchema = lazySchema(() =>
  z
    .object({
      date: DateSchema.describe('Datum'),
      ...fieldShape,
      recurring: z.boolean().optional().describe('Återkommande'),
      ...recurrenceShape,
    })
    .superRefine((v, ctx) => {
      checkTheme(v, ctx);
      if (v.recurring) checkUntil(v, ctx);
    }),
);
export type EditQuizInput = z.input<typeof EditQuizSchema>;
export type EditQuizData = z.output<typeof EditQuizSchema>;

/** PATCH /api/owner/series/:recurrenceId — applies to every future occurrence. */
export const EditSeriesSchema = lazySchema(() => z.object({ ...fieldShape }).superRefine(checkTheme));
export type EditSeriesInput = z.input<typeof EditSeriesSchema>;
export type EditSeriesData = z.output<typeof EditSeriesSchema>;

/** POST /api/owner/quizzes/:id/cancel */
export const CancelQuizSchema = lazySchema(() => z.object({ cancelled: z.boolean({ error: 'Ange om quizet är inställt' }).describe('Inställt') }));

/** POST /api/owner/series/:recurrenceId/pause and /resume (summer break and its undo). */
export const PauseSeriesSchema = lazySchema(() =>
  z.object({ from: DateSchema.describe('Från'), to: DateSchema.describe('Till') }).superRefine((v, ctx) => {
    if (!isCalendarDate(v.from) || !isCalendarDate(v.to)) return;
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Slutdatumet kan inte vara före startdatumet' });
    else if (daysFromTo(v.from, v.to) > 366) ctx.addIssue({ code: 'custom', path: ['to'], message: 'Ett uppehåll får vara högst ett år' });
  }),
);
export type PauseSeriesInput = z.input<typeof PauseSeriesSchema>;

export const IdParamSchema = lazySchema(() => z.object({ id: z.string().min(1).max(64) }));

// ------------------------------------------------------------------ response shapes

export type PromotionState = 'premium' | 'recommended' | null;

export interface OwnerQuiz {
  id: string;
  locationId: string;
  date: string;
  startTime: string | null;
  category: string | null;
  theme: string | null;
  description: string | null;
  quizmaster: string | null;
  teamSize: number | null;
  price: number | null;
  language: QuizLanguage;
  isRecurring: boolean;
  recurrenceId: string | null;
  recurrencePattern: 'weekly' | 'biweekly' | null;
  recurrenceDays: string[] | null;
  recurrenceUntil: string | null;
  isCancelled: boolean;
  promotion: PromotionState;
}

export interface PlaceSeriesGroup {
  recurrenceId: string;
  pattern: 'weekly' | 'biweekly' | null;
  days: string[];
  until: string | null;
  /** All occurrences, past included (the delete-series confirmation shows it). */
  totalCount: number;
  /** Upcoming occurrences (date >= today), oldest first. */
  occurrences: OwnerQuiz[];
}

/** GET /api/owner/locations/:id/quizzes */
export interface PlaceQuizzesResponse {
  today: string;
  location: { id: string; name: string; city: string; venueId: string };
  singles: OwnerQuiz[];
  series: PlaceSeriesGroup[];
}

/** GET /api/owner/quizzes/:id */
export interface QuizDetailResponse {
  quiz: OwnerQuiz;
  location: { id: string; name: string; city: string; venueId: string };
  /** Occurrences in the quiz's series (0 for a single quiz). */
  seriesCount: number;
}

/** GET /api/owner/quiz-places — the places the signed-in owner may create quizzes at. */
export interface QuizPlacesResponse {
  places: Array<{ id: string; name: string; city: string; venueId: string; venueName: string }>;
}

/** GET /api/owner/quizzes — upcoming single quizzes (management tab 'Enskilda quiz'). */
export interface SingleQuizzesResponse {
  quizzes: Array<OwnerQuiz & { locationName: string; venueName: string }>;
}

export interface CreateQuizResponse {
  created: number;
  recurrenceId: string | null;
  firstId: string;
}

/** One series in quiz management (spec 02 §3 "Series summary"); GET /api/owner/series[/:id]. */
export interface SeriesSummary {
  recurrenceId: string;
  pattern: 'weekly' | 'biweekly' | null;
  days: string[];
  until: string | null;
  startTime: string | null;
  category: string | null;
  theme: string | null;
  quizmaster: string | null;
  teamSize: number | null;
  price: number | null;
  language: QuizLanguage;
  description: string | null;
  count: number;
  upcoming: number;
  first: string;
  latest: string;
  daysLeft: number;
  needsExtension: boolean;
  locationId: string;
  locationName: string;
  city: string;
  venueId: string;
  venueName: string;
}

/** PATCH /api/owner/quizzes/:id */
export interface EditQuizResponse {
  updated: number;
  created: number;
  deleted: number;
  recurrenceId: string | null;
}
/** DELETE /api/owner/quizzes/:id and DELETE /api/owner/series/:recurrenceId */
export interface DeleteQuizzesResponse {
  deleted: number;
}
/** POST /api/owner/quizzes/:id/cancel */
export interface CancelQuizResponse {
  id: string;
  isCancelled: boolean;
}
/** GET /api/owner/series */
export interface SeriesListResponse {
  today: string;
  series: SeriesSummary[];
}
/** GET /api/owner/series/:recurrenceId */
export interface SeriesResponse {
  series: SeriesSummary;
}
/** PATCH /api/owner/series/:recurrenceId */
export interface EditSeriesResponse {
  updated: number;
}
/** POST /api/owner/series/:recurrenceId/extend */
export interface ExtendSeriesResponse {
  added: number;
  count: number;
}
/** POST /api/owner/series/auto-extend */
export interface AutoExtendResponse {
  extendedCount: number;
  added: number;
}
/** POST /api/owner/series/:recurrenceId/pause */
export interface PauseSeriesResponse {
  cancelled: number;
}
/** POST /api/owner/series/:recurrenceId/resume */
export interface ResumeSeriesResponse {
  restored: number;
}
