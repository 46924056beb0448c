/** Follows and push reminders (issues 17 and 32). */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowIso, timestamps } from './common';
import { users } from './accounts';
import { locations } from './catalogue';

/**
 * A visitor's e-mail address that follows something without an account. Only the address is kept
 * (no name, no IP); `confirmed_at` is set by the first confirmed follow (double opt-in). Removed with
 * "Avsluta all e-post" (its follows cascade).
 */
export const followAddresses = sqliteTable(
  'follow_addresses',
  {
    id: text('id').primaryKey(),
    /** Lower-cased. */
    email: text('email').notNull(),
    confirmedAt: text('confirmed_at'),
    ...timestamps,
  },
  (t) => [uniqueIndex('follow_addresses_email_uq').on(t.email)],
);
export type FollowAddressRow = typeof followAddresses.$inferSelect;

export const FOLLOW_KINDS = ['place', 'search'] as const;
export type FollowKind = (typeof FOLLOW_KINDS)[number];

/**
 * One follow of a place (`location_id`) or of a saved listing search (`filters`, JSON validated by the
 * listing contract), by a signed-in user (`user_id`, confirmed at once) or an address (`address_id`,
 * pending until the double opt-in link is used). Only confirmed follows are ever mailed.
 */
export const follows = sqliteTable(
  'follows',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    addressId: text('address_id').references(() => followAddresses.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: FOLLOW_KINDS }).notNull(),
    locationId: text('location_id').references(() => locations.id, { onDelete: 'cascade' }),
    /** Canonical JSON of { city?, weekday?, search? } for kind 'search'. */
    filters: text('filters'),
    /** 'place:{locationId}' or 'search:{filters}': one follow of the same thing per follower. */
    targetKey: text('target_key').notNull(),
    /** Morning reminders on quiz days (places only); the weekly digest is always on. */
    reminders: integer('reminders', { mode: 'boolean' }).notNull().default(true),
    /** "Veckans resultat" (issue 46, places only): a push when the place's night gets its results (not on a correction). */
    results: integer('results', { mode: 'boolean' }).notNull().default(false),
    confirmedAt: text('confirmed_at'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('follows_user_target_uq').on(t.userId, t.targetKey),
    uniqueIndex('follows_address_target_uq').on(t.addressId, t.targetKey),
    index('follows_location_idx').on(t.locationId),
    index('follows_confirmed_idx').on(t.confirmedAt),
    // Issue 48: the followers of one quizmaster (a saved search { quizmaster }), for "X leder nu quiz på Y".
    index('follows_quizmaster_idx').on(sql`(filters ->> '$.quizmaster')`),
    check('follows_owner_ck', sql`(user_id IS NULL) <> (address_id IS NULL)`),
    check(
      'follows_kind_ck',
      sql`(kind = 'place' AND location_id IS NOT NULL AND filters IS NULL) OR (kind = 'search' AND location_id IS NULL AND filters IS NOT NULL)`,
    ),
  ],
);
export type FollowRow = typeof follows.$inferSelect;

/**
 * Push reminders (issue 32): one browser's push subscription for one follow ("Påminn mig i telefonen").
 * The endpoint is the push service's capability URL; p256dh/auth are the browser's keys (RFC 8291). No
 * personal data beyond what the browser gave; removed with its follow, on "Sluta påminna", and when the
 * push service answers 404/410.
 */
export const pushSubscriptions = sqliteTable(
  'push_subscriptions',
  {
    id: text('id').primaryKey(),
    followId: text('follow_id')
      .notNull()
      .references(() => follows.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    ...timestamps,
  },
  (t) => [uniqueIndex('push_subscriptions_follow_endpoint_uq').on(t.followId, t.endpoint), index('push_subscriptions_endpoint_idx').on(t.endpoint)],
);
export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/** Pushes sent (issue 32): the send key claims one push per (subscription, quiz), like the mail outbox's send key. */
export const pushSends = sqliteTable(
  'push_sends',
  {
    sendKey: text('send_key').primaryKey(),
    createdAt: text('created_at').notNull().default(nowIso),
  },
  (t) => [index('push_sends_created_idx').on(t.createdAt)],
);
