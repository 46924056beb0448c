/**
 * Quizmaster profiles (issue 48): a public profile per host, the link from a quiz or series to it, the
 * assignments that let a claimed quizmaster act for a series, the e-mail invitations and the announced venues.
 * A quiz's free-text `quizzes.quizmaster` stays as it is; the link lives beside it, keyed by the series
 * (recurrence_id) or the single quiz (id), so new occurrences of a series need no copy of it.
 */
import { index, primaryKey, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowIso, timestamps } from './common';
import { users } from './accounts';
import { locations, venues } from './catalogue';

export const quizmasters = sqliteTable(
  'quizmasters',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** The name lower-cased with runs of white space as one space (free-text matching, the typeahead). */
    nameKey: text('name_key').notNull(),
    /** URL slug, unique, never changed (/quizmaster/{slug}, follows name it). */
    slug: text('slug').notNull(),
    bio: text('bio'),
    /** R2 key (SHARE_CARDS bucket, `quizmaster/{id}/{version}`) of the photo; null = no photo. */
    photoKey: text('photo_key'),
    /** The account that claimed the profile through an invitation; null = unclaimed. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The owner who created it. */
    createdBy: text('created_by').references(() => users.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [uniqueIndex('quizmasters_slug_uq').on(t.slug), index('quizmasters_name_key_idx').on(t.nameKey), uniqueIndex('quizmasters_user_uq').on(t.userId)],
);
export type QuizmasterRow = typeof quizmasters.$inferSelect;

/**
 * The quizmaster of a series or a single quiz: `unit_key` is the series' recurrence_id or the single quiz's id.
 * One profile per key; the place and business are kept for the profile page and the "new venue" announcement.
 */
export const quizmasterLinks = sqliteTable(
  'quizmaster_links',
  {
    unitKey: text('unit_key').primaryKey(),
    quizmasterId: text('quizmaster_id')
      .notNull()
      .references(() => quizmasters.id, { onDelete: 'cascade' }),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    venueId: text('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'cascade' }),
    ...timestamps,
  },
  (t) => [index('quizmaster_links_qm_idx').on(t.quizmasterId, t.locationId), index('quizmaster_links_venue_idx').on(t.venueId)],
);

/**
 * A claimed quizmaster's right to act for one series or single quiz (post results): made when the invitation
 * is claimed, removed by the owner (or with the link). No row = no right.
 */
export const quizmasterAssignments = sqliteTable(
  'quizmaster_assignments',
  {
    unitKey: text('unit_key').notNull(),
    quizmasterId: text('quizmaster_id')
      .notNull()
      .references(() => quizmasters.id, { onDelete: 'cascade' }),
    venueId: text('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [primaryKey({ columns: [t.unitKey, t.quizmasterId] }), index('quizmaster_assignments_qm_idx').on(t.quizmasterId)],
);

/** An owner's e-mailed invitation to claim a profile for one series (single use through its signed link). */
export const quizmasterInvitations = sqliteTable(
  'quizmaster_invitations',
  {
    id: text('id').primaryKey(),
    quizmasterId: text('quizmaster_id')
      .notNull()
      .references(() => quizmasters.id, { onDelete: 'cascade' }),
    unitKey: text('unit_key').notNull(),
    venueId: text('venue_id')
      .notNull()
      .references(() => venues.id, { onDelete: 'cascade' }),
    /** Lower-cased. */
    email: text('email').notNull(),
    invitedBy: text('invited_by').references(() => users.id, { onDelete: 'set null' }),
    claimedAt: text('claimed_at'),
    ...timestamps,
  },
  (t) => [index('quizmaster_invitations_qm_idx').on(t.quizmasterId), index('quizmaster_invitations_email_idx').on(t.email)],
);

/** Addresses that used the invitation mail's one-click stop: no more invitations are mailed to them. */
export const quizmasterInviteStops = sqliteTable('quizmaster_invite_stops', {
  email: text('email').primaryKey(),
  createdAt: text('created_at').notNull().default(nowIso),
});

/** The places a profile's followers were told about ("X leder nu quiz på Y"): one announcement per (profile, place). */
export const quizmasterAnnouncements = sqliteTable(
  'quizmaster_announcements',
  {
    quizmasterId: text('quizmaster_id')
      .notNull()
      .references(() => quizmasters.id, { onDelete: 'cascade' }),
    locationId: text('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [primaryKey({ columns: [t.quizmasterId, t.locationId] })],
);
