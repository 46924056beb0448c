/** What visitors and owners send in: feedback and reports, tips, and owners' holiday decisions. */
import { sql } from 'drizzle-orm';
import { check, index, integer, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './common';
import { users } from './accounts';
import { quizzes, venues } from './catalogue';

/** 'report' = a visitor's "Stämmer inte?" about one quiz (issue 20), linked by quiz_id / report_unit. */
export const FEEDBACK_CATEGORIES = ['bug', 'feature', 'improvement', 'question', 'other', 'report'] as const;
export const feedback = sqliteTable(
  'feedback',
  {
    id: text('id').primaryKey(),
    category: text('category', { enum: FEEDBACK_CATEGORIES }).notNull(),
    title: text('title').notNull(),
    description: text('description').notNull(),
    senderEmail: text('sender_email'),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    handledAt: text('handled_at'),
    /** The reported quiz ("Stämmer inte?"); null for ordinary feedback or once the quiz is deleted. */
    quizId: text('quiz_id').references(() => quizzes.id, { onDelete: 'set null' }),
    /** The reported listing unit: the series' recurrence id, or the single quiz's id (counts reports per unit). */
    reportUnit: text('report_unit'),
    ...timestamps,
  },
  (t) => [
    index('feedback_created_idx').on(t.createdAt),
    index('feedback_user_idx').on(t.userId),
    index('feedback_quiz_idx').on(t.quizId),
    index('feedback_report_unit_idx').on(t.reportUnit, t.createdAt),
  ],
);
export type FeedbackRow = typeof feedback.$inferSelect;

export const HOLIDAY_DECISIONS = ['run', 'skip'] as const;
/**
 * The owner's decision on one occurrence of a series that falls on a Swedish holiday or eve
 * (worker/lib/holidays.ts). 'skip' goes with is_cancelled on the occurrence; 'run' keeps it. `asked_at`
 * marks the "Kör ni quiz på …?" mail as sent (claimed by a conditional insert, so two cron runs send one).
 * A row goes with its occurrence: triggers of migration 0017 delete it when the quiz row is deleted (series,
 * single, place, business or account deletion) or loses that (recurrence_id, date).
 */
export const holidayDecisions = sqliteTable(
  'holiday_decisions',
  {
    recurrenceId: text('recurrence_id').notNull(),
    date: text('date').notNull(),
    holiday: text('holiday').notNull(),
    decision: text('decision', { enum: HOLIDAY_DECISIONS }),
    askedAt: text('asked_at'),
    ...timestamps,
  },
  (t) => [
    primaryKey({ columns: [t.recurrenceId, t.date] }),
    index('holiday_decisions_date_idx').on(t.date),
    check('holiday_decisions_decision_ck', sql`decision IS NULL OR decision IN ('run','skip')`),
  ],
);
export type HolidayDecisionRow = typeof holidayDecisions.$inferSelect;

export const TIP_STATUSES = ['pending', 'approved', 'rejected'] as const;
export type TipStatus = (typeof TIP_STATUSES)[number];
/**
 * "Tipsa om ett quiz": a visitor's tip, moderated in the superadmin's "Tips" tab. Exactly one of
 * `weekday` (a weekly quiz) and `date` (one evening) is set. `email` is the tipster's optional address,
 * kept only until the one "published" mail is sent (or the tip is rejected), then set to null.
 * `near_venue_id`/`near_note`: the import's near-duplicate check, made when the tip arrives.
 * `venue_id`: the house-account business created on approval.
 * `dedup_key`: the tip's normalised place, town, day and time (tips/service.ts `tipDedupKey`); a pending tip with
 * the same key is not stored again, it bumps `seen_count` and `last_seen_at` (one unique index over pending rows).
 */
export const tips = sqliteTable(
  'tips',
  {
    id: text('id').primaryKey(),
    venueName: text('venue_name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    citySlug: text('city_slug').notNull(),
    weekday: integer('weekday'),
    date: text('date'),
    startTime: text('start_time').notNull(),
    link: text('link'),
    message: text('message'),
    email: text('email'),
    status: text('status', { enum: TIP_STATUSES }).notNull().default('pending'),
    rejectReason: text('reject_reason'),
    nearVenueId: text('near_venue_id').references(() => venues.id, { onDelete: 'set null' }),
    nearNote: text('near_note'),
    venueId: text('venue_id').references(() => venues.id, { onDelete: 'set null' }),
    answeredAt: text('answered_at'),
    dedupKey: text('dedup_key'),
    seenCount: integer('seen_count').notNull().default(1),
    lastSeenAt: text('last_seen_at'),
    ...timestamps,
  },
  (t) => [
    index('tips_status_created_idx').on(t.status, t.createdAt),
    uniqueIndex('tips_pending_dedup_uq').on(t.dedupKey).where(sql`status = 'pending'`),
    index('tips_near_venue_idx').on(t.nearVenueId),
    index('tips_venue_idx').on(t.venueId),
    check('tips_status_ck', sql`status IN ('pending','approved','rejected')`),
    check('tips_when_ck', sql`(weekday IS NULL) <> (date IS NULL)`),
  ],
);
export type TipRow = typeof tips.$inferSelect;
