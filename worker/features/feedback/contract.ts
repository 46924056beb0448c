import * as z from 'zod';
import { textField } from '../../lib/zod-text';
import { lazySchema } from '../../lib/lazy-schema';

/** Feedback categories and their Swedish labels (spec 01 §3). */
export const FEEDBACK_CATEGORY_LABELS = {
  bug: 'Bugg',
  feature: 'Önskemål',
  improvement: 'Förbättring',
  question: 'Fråga',
  other: 'Annat',
} as const;
export const FEEDBACK_TITLE_MAX = 120;
export const FEEDBACK_DESCRIPTION_MAX = 4000;

export const FeedbackSchema = lazySchema(() =>
  z.object({
    category: z.enum(['bug', 'feature', 'improvement', 'question', 'other'], { error: 'Välj en kategori' }).describe('Kategori'),
    title: textField('Rubriken', FEEDBACK_TITLE_MAX, { missing: 'Ange en rubrik' }).describe('Rubrik'),
    description: textField('Beskrivningen', FEEDBACK_DESCRIPTION_MAX, { missing: 'Ange en beskrivning', multiLine: true }).describe('Beskrivning'),
    senderEmail: z
      .union([z.literal(''), z.email({ error: 'Ogiltig e-postadress' }).max(254)])
      .optional()
      .describe('E-post'),
  }),
);
export type FeedbackInput = z.infer<typeof FeedbackSchema>;

// ------------------------------------------------------------------ "Stämmer inte?" (issue 20 §4)

export const REPORT_REASONS = ['nedlagt', 'fel-tid', 'annat'] as const;
export const REPORT_REASON_LABELS: Record<(typeof REPORT_REASONS)[number], string> = {
  nedlagt: 'Quizet är nedlagt',
  'fel-tid': 'Fel dag eller tid',
  annat: 'Annat',
};
export const REPORT_TEXT_MAX = 1000;

/** POST /api/feedback/report — a visitor's report about one listed quiz. No e-mail, no name. */
export const QuizReportSchema = lazySchema(() =>
  z.object({
    quizId: z.string({ error: 'Quizet saknas' }).min(1, 'Quizet saknas').max(64).describe('Quiz'),
    reason: z.enum(REPORT_REASONS, { error: 'Välj vad som inte stämmer' }).describe('Vad stämmer inte'),
    text: textField('Texten', REPORT_TEXT_MAX, { multiLine: true }).optional().describe('Beskrivning'),
  }),
);
export type QuizReportInput = z.infer<typeof QuizReportSchema>;

/** Labels for the superadmin inbox: the public form's categories plus reports. */
export const INBOX_CATEGORY_LABELS: Record<string, string> = { ...FEEDBACK_CATEGORY_LABELS, report: 'Stämmer inte?' };

/** Send keys of the owner's report mail (worker/jobs/owner-mail.ts: the nightly mail-redeliver sweep matches this prefix). */
export const REPORT_MAIL_KEY = 'quiz-reports:';
