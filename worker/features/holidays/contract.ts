/**
 * The holidays feature's contract (issue 20 §2; its own home since issue 28.6): the owner's preview of a
 * series' Swedish holidays and the per-date "Hoppa över" decisions. The date and recurrence fields are the
 * series form's own (quizzes/contract.ts), so a preview validates exactly what creating the series will.
 */
import * as z from 'zod';
import { checkUntil, DateSchema, recurrenceShape } from '../quizzes/contract';
import { lazySchema } from '../../lib/lazy-schema';

/** A series id in the path (/api/owner/series/:id/holidays). */
export const SeriesIdParamSchema = lazySchema(() => z.object({ id: z.string().min(1).max(64) }));

export type HolidayKind = 'public' | 'eve';

/** POST /api/owner/series/holidays/preview — the create form's values, before the series exists. */
export const HolidayPreviewSchema = lazySchema(() =>
  z.object({ date: DateSchema.describe('Datum'), ...recurrenceShape }).superRefine((v, ctx) => checkUntil(v, ctx)),
);
export type HolidayPreviewInput = z.input<typeof HolidayPreviewSchema>;

export const MAX_HOLIDAY_DECISIONS = 60;
/** POST /api/owner/series/:rid/holidays — "Hoppa över" (skip = cancel that occurrence) or keep, per date. */
export const HolidayDecisionsSchema = lazySchema(() =>
  z.object({
    decisions: z
      .array(z.object({ date: DateSchema.describe('Datum'), skip: z.boolean({ error: 'Ange om datumet ska hoppas över' }).describe('Hoppa över') }), {
        error: 'Ange datumen',
      })
      .min(1, 'Ange minst ett datum')
      .max(MAX_HOLIDAY_DECISIONS, `Högst ${MAX_HOLIDAY_DECISIONS} datum åt gången`)
      .describe('Helgdagar'),
  }),
);
export type HolidayDecisionsInput = z.input<typeof HolidayDecisionsSchema>;

export interface HolidayOccurrence {
  date: string;
  /** Swedish name, e.g. 'julafton'. */
  name: string;
  kind: HolidayKind;
  /** "Hoppa över" pre-selected (the four eves). */
  suggestSkip: boolean;
}

export interface SeriesHoliday extends HolidayOccurrence {
  quizId: string;
  isCancelled: boolean;
  /** The owner's decision; null = not decided (the nightly job asks 14 days before). */
  decision: 'run' | 'skip' | null;
}

export interface HolidayPreviewResponse {
  holidays: HolidayOccurrence[];
}
export interface SeriesHolidaysResponse {
  holidays: SeriesHoliday[];
  /** "Senast bekräftad" of the series' business (Stockholm date). */
  confirmedOn: string | null;
}
