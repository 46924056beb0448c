/** "Vi kommer" (issue 47): RSVPs to one occurrence, their per-quiz counts, and a series' RSVP settings. */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { timestamps } from './common';
import { users } from './accounts';
import { quizzes } from './catalogue';

/**
 * pending: waits for the double opt-in link; confirmed: counts and holds a table; queued: confirmed but the
 * occurrence was full (waitlist, in `queued_at` order); offered: the head of the queue offered a freed table
 * (holds it until `offer_expires_at`); cancelled: "Vi kan inte komma", a lapsed offer, or never confirmed.
 */
export const RSVP_STATES = ['pending', 'confirmed', 'queued', 'offered', 'cancelled'] as const;
export type RsvpState = (typeof RSVP_STATES)[number];

/**
 * One team's RSVP to one occurrence. The e-mail address is the only personal datum; the nightly
 * `rsvp-privacy` task sets it to NULL 30 days after the night. One live RSVP per address and occurrence.
 */
export const rsvps = sqliteTable(
  'rsvps',
  {
    id: text('id').primaryKey(),
    quizId: text('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    /** Signed in: the account (confirmed at once). */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** Lower-cased; NULL once deleted after the night. */
    email: text('email'),
    teamSize: integer('team_size').notNull(),
    state: text('state', { enum: RSVP_STATES }).notNull().default('pending'),
    confirmedAt: text('confirmed_at'),
    /** When the team joined the waitlist: the queue's order. */
    queuedAt: text('queued_at'),
    offeredAt: text('offered_at'),
    offerExpiresAt: text('offer_expires_at'),
    cancelledAt: text('cancelled_at'),
    /** The 24 h mail reminder and the 2 h push reminder, each claimed once. */
    reminderMailAt: text('reminder_mail_at'),
    reminderPushAt: text('reminder_push_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('rsvps_live_uq').on(t.quizId, t.email).where(sql`state <> 'cancelled' AND email IS NOT NULL`),
    index('rsvps_quiz_state_idx').on(t.quizId, t.state, t.queuedAt),
    index('rsvps_state_offer_idx').on(t.state, t.offerExpiresAt),
    // The nightly privacy task visits only RSVPs that still hold an address.
    index('rsvps_email_quiz_idx').on(t.quizId).where(sql`email IS NOT NULL`),
    check('rsvps_team_size_ck', sql`team_size BETWEEN 1 AND 8`),
    check('rsvps_state_ck', sql`state IN ('pending','confirmed','queued','offered','cancelled')`),
  ],
);
export type RsvpRow = typeof rsvps.$inferSelect;

/**
 * Per occurrence, kept by triggers on `rsvps` and `quizzes` (migration rsvp_counts): confirmed teams and seats,
 * tables held (confirmed + offered), the waitlist and the capacity. The guarded confirm reads `held`/`queued`
 * here (one row); an occurrence with neither RSVPs nor a capacity has no row.
 */
export const rsvpCounts = sqliteTable(
  'rsvp_counts',
  {
    quizId: text('quiz_id')
      .primaryKey()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    teams: integer('teams').notNull().default(0),
    seats: integer('seats').notNull().default(0),
    held: integer('held').notNull().default(0),
    queued: integer('queued').notNull().default(0),
    /** A copy of `quizzes.capacity_tables` (triggers on quizzes), so a page's figures read this table alone. */
    capacityTables: integer('capacity_tables'),
  },
  // The offer sweep visits only occurrences with a waitlist.
  (t) => [index('rsvp_counts_queued_idx').on(t.quizId).where(sql`queued > 0`)],
);

/**
 * A series' (or a single quiz's) RSVP settings, keyed by `recurrence_id` or, for a single quiz, its id:
 * RSVPs off, or an external booking link / phone ("Boka bord hos stället", then no RSVPs are taken).
 */
export const rsvpSettings = sqliteTable('rsvp_settings', {
  seriesKey: text('series_key').primaryKey(),
  rsvpOff: integer('rsvp_off', { mode: 'boolean' }).notNull().default(false),
  bookingUrl: text('booking_url'),
  bookingPhone: text('booking_phone'),
  ...timestamps,
});
