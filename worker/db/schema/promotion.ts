/** Promotion and payments: checkout orders, slot claims, promotions, refunds and applied provider events. */
import { sql } from 'drizzle-orm';
import { check, index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { nowIso, timestamps } from './common';
import { users } from './accounts';
import { quizzes, venues } from './catalogue';

export const PROMOTION_TIERS = ['recommended', 'premium'] as const;
export type PromotionTier = (typeof PROMOTION_TIERS)[number];

export const ORDER_STATUSES = ['open', 'paid', 'failed', 'expired'] as const;
export const checkoutOrders = sqliteTable(
  'checkout_orders',
  {
    id: text('id').primaryKey(),
    /** Kept for bookkeeping when the buyer deletes the account. */
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    venueId: text('venue_id').references(() => venues.id, { onDelete: 'set null' }),
    /** 'marketing' = per-date slots chosen in a series; 'promotion' = one quiz for 1/2/4 weeks. */
    kind: text('kind', { enum: ['marketing', 'promotion'] }).notNull(),
    status: text('status', { enum: ORDER_STATUSES }).notNull().default('open'),
    stripeSessionId: text('stripe_session_id').unique(),
    amountTotal: integer('amount_total').notNull(),
    currency: text('currency').notNull().default('sek'),
    /** JSON: the line items bought ({ quizId, tier, date, weeks, amount }). */
    items: text('items').notNull(),
    /** Epoch ms after which unpaid holds are released. */
    expiresAt: integer('expires_at').notNull(),
    ...timestamps,
  },
  (t) => [
    index('checkout_orders_user_idx').on(t.userId),
    index('checkout_orders_venue_idx').on(t.venueId),
    index('checkout_orders_status_expires_idx').on(t.status, t.expiresAt),
  ],
);
export type CheckoutOrderRow = typeof checkoutOrders.$inferSelect;

/**
 * One row per sold or held slot. The CHECK plus the UNIQUE index are the slot limits of spec 01 §9
 * (MAX_SLOTS_PER_DAY in promotion/tiers.ts, the rule's one home; test/unit/one-home.test.ts keeps the CHECK equal): a claim for a full day cannot be inserted, so a
 * batch that claims it fails as a whole. Holds of expired checkouts are deleted, freeing the slot.
 */
export const promotionSlotClaims = sqliteTable(
  'promotion_slot_claims',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => checkoutOrders.id, { onDelete: 'cascade' }),
    quizId: text('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    citySlug: text('city_slug').notNull(),
    date: text('date').notNull(),
    tier: text('tier', { enum: PROMOTION_TIERS }).notNull(),
    slotNo: integer('slot_no').notNull(),
    /** 'held' while checkout is open, 'sold' once paid. */
    state: text('state', { enum: ['held', 'sold'] })
      .notNull()
      .default('held'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('slot_claims_slot_uq').on(t.citySlug, t.date, t.tier, t.slotNo),
    index('slot_claims_order_idx').on(t.orderId),
    index('slot_claims_quiz_idx').on(t.quizId),
    check('slot_claims_limit_ck', sql`(tier = 'premium' AND slot_no = 1) OR (tier = 'recommended' AND slot_no BETWEEN 1 AND 3)`),
  ],
);
export type PromotionSlotClaimRow = typeof promotionSlotClaims.$inferSelect;

/** The unified promotion record (spec 01 §3, 02 §3). Counts only while status='active' and end_date >= today. */
export const promotions = sqliteTable(
  'promotions',
  {
    id: text('id').primaryKey(),
    quizId: text('quiz_id')
      .notNull()
      .references(() => quizzes.id, { onDelete: 'cascade' }),
    orderId: text('order_id').references(() => checkoutOrders.id, { onDelete: 'set null' }),
    productType: text('product_type', { enum: PROMOTION_TIERS }).notNull(),
    status: text('status', { enum: ['active', 'cancelled'] })
      .notNull()
      .default('active'),
    /** YYYY-MM-DD inclusive, Stockholm dates. */
    startDate: text('start_date').notNull(),
    endDate: text('end_date').notNull(),
    weeks: integer('weeks'),
    /** öre */
    amountPaid: integer('amount_paid').notNull().default(0),
    metadata: text('metadata'),
    ...timestamps,
  },
  (t) => [
    index('promotions_quiz_idx').on(t.quizId),
    index('promotions_order_idx').on(t.orderId),
    index('promotions_status_end_idx').on(t.status, t.endDate),
    uniqueIndex('promotions_order_quiz_type_uq').on(t.orderId, t.quizId, t.productType),
  ],
);
export type PromotionRow = typeof promotions.$inferSelect;

/**
 * Money that arrived for an order we could not (fully) deliver: its quizzes were gone, or its hold had
 * already been released. One row per order (the unique index makes the webhook's insert idempotent);
 * the payments port refunds it and the superadmin sees it under 'Att återbetala'.
 */
export const REFUND_STATUSES = ['pending', 'refunded', 'needs_manual'] as const;
export const paymentRefunds = sqliteTable(
  'payment_refunds',
  {
    id: text('id').primaryKey(),
    orderId: text('order_id')
      .notNull()
      .references(() => checkoutOrders.id, { onDelete: 'cascade' }),
    /** öre */
    amount: integer('amount').notNull(),
    /**
     * 'items_gone' (some or all bought quizzes no longer exist), 'items_changed' (a bought quiz is no longer
     * on the bought date or in the bought city) or 'order_closed' (paid after the hold was released).
     */
    reason: text('reason', { enum: ['items_gone', 'items_changed', 'order_closed'] }).notNull(),
    status: text('status', { enum: REFUND_STATUSES }).notNull().default('pending'),
    stripeSessionId: text('stripe_session_id'),
    paymentIntentId: text('payment_intent_id'),
    /** The provider's refund id once refunded. */
    providerRefundId: text('provider_refund_id'),
    /** Why the automatic refund failed (for the superadmin). */
    error: text('error'),
    ...timestamps,
  },
  (t) => [uniqueIndex('payment_refunds_order_uq').on(t.orderId), index('payment_refunds_status_idx').on(t.status, t.createdAt)],
);
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;

/** Stripe event ids already applied; written in the same batch as the state change (idempotency). */
export const paymentEvents = sqliteTable('payment_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  orderId: text('order_id'),
  receivedAt: text('received_at').notNull().default(nowIso),
});
export type PaymentEventRow = typeof paymentEvents.$inferSelect;
