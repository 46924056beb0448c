/**
 * The time rules of "Vi kommer" (issue 47), pure: when a night starts (Stockholm wall time, DST included),
 * how long an offered table is held, and when each reminder is due.
 */
import { stockholmInstant } from '../../lib/clock';
import { MAIL_REMINDER_BEFORE_MS, OFFER_CLOSES_BEFORE_MS, OFFER_HOLD_MS, PUSH_REMINDER_BEFORE_MS } from './contract';

/** The instant a quiz starts: its date and start time in Stockholm (no start time shows as 19:00). */
export function quizStart(date: string, startTime: string | null): Date {
  return stockholmInstant(date, startTime ?? '19:00:00');
}

/** An offer made at `now` holds 2 h, or until 1 h before the start, whichever is first; null when it is too late to offer. */
export function offerExpiry(now: Date, start: Date): Date | null {
  const closes = start.getTime() - OFFER_CLOSES_BEFORE_MS;
  if (now.getTime() >= closes) return null;
  return new Date(Math.min(now.getTime() + OFFER_HOLD_MS, closes));
}

export type ReminderKind = 'mail' | 'push';

/**
 * Whether a confirmed team's reminder is due at `now`: the mail from 24 h before the start until the push's
 * time (2 h before), the push from 2 h before until the start. A team that confirmed after a reminder's time
 * does not get it (their confirmation is fresher than a reminder).
 */
export function reminderDue(kind: ReminderKind, now: Date, start: Date, confirmedAt: Date): boolean {
  const t = now.getTime();
  const s = start.getTime();
  const from = s - (kind === 'mail' ? MAIL_REMINDER_BEFORE_MS : PUSH_REMINDER_BEFORE_MS);
  const until = kind === 'mail' ? s - PUSH_REMINDER_BEFORE_MS : s;
  return t >= from && t < until && confirmedAt.getTime() <= from;
}

/** Whether an occurrence still takes RSVPs at `now`: before its start. */
export function takesRsvps(now: Date, start: Date): boolean {
  return now.getTime() < start.getTime();
}
