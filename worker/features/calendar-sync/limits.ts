/**
 * The limits of reading one calendar (issue 31.2, 42.2). Their own file without zod: the calendar parser (ics.ts)
 * is a self-contained lazy module, and importing contract.ts would bundle a copy of zod into it. contract.ts
 * re-exports them for everyone else.
 */
import { SERIES_HORIZON_DAYS } from '../../lib/recurrence';

/** How far ahead a sync creates quizzes (days from today): the series horizon. */
export const SYNC_HORIZON_DAYS = SERIES_HORIZON_DAYS;
/** Events read from one calendar; further events are left out (and the preview says so). */
export const MAX_EVENTS_PER_FEED = 2_000;
/** Quizzes one calendar can create within the horizon (earliest first). */
export const MAX_OCCURRENCES_PER_FEED = 200;
/**
 * Recurrence steps (one per date a rule yields) one calendar may take to expand, all its rules together: a
 * calendar that needs more is refused with CALENDAR_MESSAGES.tooManyRules (docs/jobs.md: its CPU).
 */
export const MAX_RECURRENCE_STEPS_PER_FEED = 10_000;
export const TITLE_MAX = 120;
export const TEXT_MAX = 2000;
