import * as z from 'zod';

/** Feedback categories and their Swedish labels (spec 01 §3). */
export const FEEDBACK_CATEGORY_LABELS = {
  bug: 'Bug',
  feature: 'Önskemål',
  improvement: 'Förbättring',
  question: 'Fråga',
  other: 'Annat',
} as const;
export const FEEDBACK_TITLE_MAX = 120;
export const FEEDBACK_DESCRIPTION_MAX = 4000;

export const FeedbackSchema = z.object({
  category: z.enum(['bug', 'feature', 'improvement', 'question', 'other'], { error: 'Välj en kategori' }).describe('Kategori'),
  title: z.string({ error: 'Ange en rubrik' }).trim().min(1, 'Ange en rubrik').max(FEEDBACK_TITLE_MAX, `Rubriken får vara högst ${FEEDBACK_TITLE_MAX} tecken`).describe('Rubrik'),
  description: z
    .string({ error: 'Ange en beskrivning' })
    .trim()
    .min(1, 'Ange en beskrivning')
    .max(FEEDBACK_DESCRIPTION_MAX, `Beskrivningen får vara högst ${FEEDBACK_DESCRIPTION_MAX} tecken`)
    .describe('Beskrivning'),
  senderEmail: z
    .union([z.literal(''), z.email({ error: 'Ogiltig e-postadress' }).max(254)])
    .optional()
    .describe('E-post'),
});
export type FeedbackInput = z.infer<typeof FeedbackSchema>;
