/** Calendar sync (issue 31.2): limits, the owner's form and the answers. Shared by web/ and the Worker. */
import * as z from 'zod';
import { FEED_TIMEOUT_MS, MAX_FEED_BYTES } from '../../lib/calendar-limits';
import { lazySchema } from '../../lib/lazy-schema';
import type { QuizLanguage } from '../../lib/quiz-filters';

// The limits the calendar parser (ics.ts, a lazy module) reads live in limits.ts, which has no zod.
export { MAX_EVENTS_PER_FEED, MAX_OCCURRENCES_PER_FEED, MAX_RECURRENCE_STEPS_PER_FEED, SYNC_HORIZON_DAYS, TEXT_MAX, TITLE_MAX } from './limits';

/** At most this many calendar addresses per business (all its places together). */
export const MAX_CALENDAR_FEEDS_PER_BUSINESS = 5;
/**
 * At most this many per account (all its businesses together, issue 42.2): what one account can add to the
 * nightly sync (docs/jobs.md), however many businesses it registers.
 */
export const MAX_CALENDAR_FEEDS_PER_ACCOUNT = 10;
// The download's limits (the fetch port enforces them; the messages below quote them).
export { FEED_TIMEOUT_MS, MAX_FEED_BYTES };
/** Previews and "Synka nu" per account and hour (each fetches a calendar from the internet). */
export const CALENDAR_FETCHES_PER_HOUR = 30;
export const URL_MAX = 2000;

export const CALENDAR_MESSAGES = {
  url: 'Ange en kalenderadress som börjar med https://',
  tooMany: `En verksamhet kan ha högst ${MAX_CALENDAR_FEEDS_PER_BUSINESS} kalenderadresser.`,
  tooManyForAccount: `Ett konto kan ha högst ${MAX_CALENDAR_FEEDS_PER_ACCOUNT} kalenderadresser för alla sina verksamheter tillsammans.`,
  duplicate: 'Den här kalenderadressen synkas redan till platsen.',
  feedNotFound: 'Kalenderadressen hittades inte.',
  rate: (minutes: number) => `Du har hämtat kalendrar många gånger den senaste timmen. Försök igen om ${minutes} min.`,
  // Fetch and parse failures (shown in the preview and as the place's last sync error).
  notHttps: 'Kalenderadressen måste börja med https://',
  privateAddress: 'Kalenderadressen pekar på ett internt nätverk och kan inte hämtas.',
  tooLarge: `Kalendern är större än ${MAX_FEED_BYTES / 1_000_000} MB och kan inte hämtas.`,
  timeout: `Kalendern svarade inte inom ${FEED_TIMEOUT_MS / 1000} sekunder.`,
  httpStatus: (status: number) => `Kalendern kunde inte hämtas (svar ${status}).`,
  network: 'Kalendern kunde inte hämtas. Kontrollera adressen.',
  redirects: 'Kalenderadressen skickar vidare för många gånger.',
  notIcs: 'Adressen gav ingen kalender i ICS-format.',
  tooManyRules:
    'Kalendern har för många återkommande händelser för att kunna synkas. Ta bort gamla eller avslutade händelser ur kalendern, eller använd en kalender med bara era quiz.',
  dateTaken: (date: string) => `Ett annat quiz i samma serie ligger redan den ${date}.`,
} as const;

export const CalendarUrlSchema = lazySchema(() =>
  z.object({
    url: z
      .string({ error: CALENDAR_MESSAGES.url })
      .trim()
      .max(URL_MAX, { error: 'Kalenderadressen är för lång' })
      .refine((v) => /^(https|http|webcal):\/\/[^\s]+$/i.test(v) && URL.canParse(v.replace(/^webcal:/i, 'https:')), { error: CALENDAR_MESSAGES.url })
      .transform((v) => v.replace(/^webcal:/i, 'https:'))
      .describe('Kalenderadress'),
  }),
);
export type CalendarUrlInput = z.input<typeof CalendarUrlSchema>;

export const LocationParamSchema = lazySchema(() => z.object({ id: z.string().min(1).max(64).describe('Id') }));
export const FeedParamSchema = lazySchema(() =>
  z.object({ id: z.string().min(1).max(64).describe('Id'), feedId: z.string().min(1).max(64).describe('Kalender') }),
);

export interface NotUnderstood {
  uid: string | null;
  title: string | null;
  /** Why, in Swedish. */
  reason: string;
}

export interface PreviewEvent {
  uid: string;
  title: string | null;
  kind: 'single' | 'weekly' | 'biweekly';
  firstDate: string | null;
  /** HH:MM, Stockholm. */
  startTime: string;
  /** ISO weekdays (1 = måndag). */
  weekdays: number[];
  /** Quizzes within the horizon. */
  occurrences: number;
  /** Dates left out by EXDATE or a cancelled occurrence. */
  excludedDates: string[];
}

/** A previewed event with the language(s) its quizzes will have (issue 44.5), in the order of their dates. */
export interface PreviewEventWithLanguage extends PreviewEvent {
  languages: QuizLanguage[];
}

export interface CalendarPreview {
  events: PreviewEventWithLanguage[];
  notUnderstood: NotUnderstood[];
  truncated: boolean;
  horizonDays: number;
  /** Stockholm date the preview was made on (its dates show the year only when it is another). */
  today: string;
}

/** A change the sync could not make because of an open or paid order (or the owner's own edit). */
export interface SkippedChange {
  date: string;
  title: string | null;
  reason: string;
}

export interface SyncResult {
  created: number;
  updated: number;
  cancelled: number;
  /** Quizzes the owner edited by hand: left as the owner left them. */
  keptOwnerEdits: number;
  skipped: SkippedChange[];
  notUnderstood: number;
  truncated: boolean;
}

export interface CalendarFeed {
  id: string;
  url: string;
  lastSyncedAt: string | null;
  lastStatus: 'ok' | 'partial' | 'failed' | null;
  lastError: string | null;
  lastResult: SyncResult | null;
  createdAt: string;
}

export interface CalendarFeedsResponse {
  feeds: CalendarFeed[];
  maxPerBusiness: number;
}
