import * as z from 'zod';
import { countText } from '../../lib/swedish';
import { MAX_SLOTS_PER_DAY, PRICE_LOAD_FAILED, type PricingResponse } from './tiers';
import { lazySchema } from '../../lib/lazy-schema';

/**
 * Prices, options, caps and texts of paid promotion live in the zod-free `./tiers` (the public bundle
 * imports them without zod); re-exported here so server and owner screens keep one import.
 */
export * from './tiers';

export const TierSchema = lazySchema(() => z.enum(['recommended', 'premium'], { error: 'Välj marknadsföringstyp' }));
export type Tier = z.infer<typeof TierSchema>;

// ---------------------------------------------------------------- purchase (spec 02 §4.2, §5, §7)

/** At most this many occurrences in one order (keeps every statement under D1's bound-parameter cap). */
export const MAX_ITEMS_PER_ORDER = 60;
export const WEEKS = [1, 2, 4] as const;

/**
 * Issue 26.3: what one account and one business may hold without paying (docs/features/orders-holds-and-refunds.md). Each
 * bound applies to the account and to the business separately. A hold lasts ORDER_HOLD_TTL_MS.
 */
export const HOLD_LIMITS = {
  /** Open (unpaid) checkouts at a time. */
  openCheckouts: 2,
  /** Slot-days (one quiz date in one tier) held unpaid at a time: one full order. */
  heldDays: MAX_ITEMS_PER_ORDER,
  /** Checkouts an account may start per hour (refused ones count too). */
  checkoutsPerHour: 6,
  /** A city-day released by an unpaid checkout (cancelled or expired) is left to others this long. */
  cooldownMinutes: 30,
} as const;
const minutesText = (n: number) => countText(n, 'minut', 'minuter');
export const HOLD_LIMIT_MESSAGES = {
  openCheckouts: `Du har redan ${HOLD_LIMITS.openCheckouts} påbörjade betalningar som inte är klara. Högst ${HOLD_LIMITS.openCheckouts} obetalda beställningar åt gången per konto och verksamhet – slutför eller avbryt en av dem först.`,
  heldDays: (held: number) =>
    `Högst ${HOLD_LIMITS.heldDays} obetalda marknadsföringsdagar kan reserveras åt gången per konto och verksamhet, och ${held} är redan reserverade. Slutför eller avbryt en påbörjad betalning, eller välj färre datum.`,
  cooldown: (minutes: number) =>
    `Du släppte nyss ett eller flera av de här datumen utan att betala. De hålls lediga för andra i ${minutesText(HOLD_LIMITS.cooldownMinutes)} – försök igen om ${minutesText(minutes)}.`,
  rate: (minutes: number) =>
    `Du har startat många betalningar på kort tid. Högst ${HOLD_LIMITS.checkoutsPerHour} per timme – försök igen om ${minutesText(minutes)}.`,
} as const;
/**
 * Issue 43.3: unpaid Premium holds in one city, all buyers together (docs/features/orders-holds-and-refunds.md).
 * HOLD_LIMITS bound one account; throwaway accounts are cheap, so the city has bounds of its own. An order is
 * refused when, counting it, the city's unpaid held Premium days would exceed `bulkPremiumDays` — unless its
 * buyer (account and business) then holds at most `smallDays` there: such an order may fill the city up to
 * `premiumDays`. So hoarders (more than a month of a weekly quiz each) together hold at most `bulkPremiumDays`,
 * and an ordinary owner still finds room above them. Held days past their expiry never count.
 */
export const CITY_HOLD_LIMITS = {
  /** Unpaid held Premium days in one city at a time, all buyers together: the hard bound. */
  premiumDays: 60,
  /** The most an order may leave held in the city when its buyer holds more than `smallDays` there. */
  bulkPremiumDays: 30,
  /** Unpaid Premium days one buyer holds in a city and still counts as small: the 4-week option of a weekly quiz. */
  smallDays: Math.max(...WEEKS),
} as const;
const datesText = (n: number) => countText(n, 'datum', 'datum');
export const CITY_HOLD_MESSAGES = {
  /** Nothing more fits in the city until a hold ends. */
  full: (city: string, minutes: number) =>
    `Just nu kan inga fler Premium-dagar i ${city} reserveras: många är redan reserverade i betalningar som inte är klara. Försök igen om ${minutesText(minutes)}.`,
  /** Fewer dates would fit; `room` = the most Premium dates in the city this order could take now. */
  fewer: (city: string, room: number, minutes: number) =>
    `Många Premium-dagar i ${city} är just nu reserverade i betalningar som inte är klara. Välj högst ${datesText(room)} med Premium i ${city}, eller försök igen om ${minutesText(minutes)}.`,
} as const;
export const PROMOTION_MESSAGES = {
  noQuizzes: 'Inga quiz valda – Välj minst ett quiz att marknadsföra',
  noTier: 'Välj marknadsföringstyp',
  recommendedFull: 'Rekommenderade slots inte tillgängliga',
  premiumFull: 'Premium slots inte tillgängliga',
  alreadyPromoted: 'Quizet är redan marknadsfört',
  checkoutFailed: 'Kunde inte skapa betalning. Försök igen.',
  paymentsUnavailable: 'Betalning är inte tillgänglig just nu. Försök igen senare eller kontakta supporten.',
  pastQuiz: 'Quizet har redan varit',
  cancelledQuiz: 'Quizet är inställt',
  priceLoadFailed: PRICE_LOAD_FAILED,
} as const;

const IdSchema = lazySchema(() => z.string({ error: 'Saknas' }).trim().min(1, 'Saknas').max(100, 'Ogiltigt id'));

export const QuizIdsSchema = lazySchema(() =>
  z
    .array(IdSchema, { error: PROMOTION_MESSAGES.noQuizzes })
    .min(1, PROMOTION_MESSAGES.noQuizzes)
    .max(MAX_ITEMS_PER_ORDER, `Högst ${MAX_ITEMS_PER_ORDER} quiz per beställning`)
    .describe('Quiz'),
);

/** POST /api/promotion/availability (check-marketing-availability). */
export const AvailabilityRequestSchema = lazySchema(() => z.object({ quizIds: QuizIdsSchema }));
export type AvailabilityRequest = z.infer<typeof AvailabilityRequestSchema>;

/** POST /api/promotion/marketing-checkout (create-marketing-checkout): one tier per occurrence. */
export const MarketingCheckoutSchema = lazySchema(() =>
  z.object({
    venueId: IdSchema.describe('Verksamhet'),
    items: z
      .array(z.object({ quizId: IdSchema.describe('Quiz'), tier: TierSchema.describe('Marknadsföringstyp') }), { error: PROMOTION_MESSAGES.noQuizzes })
      .min(1, PROMOTION_MESSAGES.noQuizzes)
      .max(MAX_ITEMS_PER_ORDER, `Högst ${MAX_ITEMS_PER_ORDER} quiz per beställning`)
      .refine((items) => new Set(items.map((i) => i.quizId)).size === items.length, 'Samma quiz är valt flera gånger')
      .describe('Quiz'),
  }),
);
export type MarketingCheckoutInput = z.infer<typeof MarketingCheckoutSchema>;

/** POST /api/promotion/checkout (create-promotion-checkout): one quiz for 1, 2 or 4 weeks. */
export const PromotionCheckoutSchema = lazySchema(() =>
  z.object({
    quizId: IdSchema.describe('Quiz'),
    tier: TierSchema.describe('Marknadsföringstyp'),
    weeks: z
      .number({ error: 'Välj 1, 2 eller 4 veckor' })
      .refine((w) => (WEEKS as readonly number[]).includes(w), 'Välj 1, 2 eller 4 veckor')
      .describe('Veckor'),
  }),
);
export type PromotionCheckoutInput = z.infer<typeof PromotionCheckoutSchema>;

export interface TierAvailability {
  isAvailable: boolean;
  availableSlots: number;
  userHasPurchased: boolean;
}
/** The marketing availability response (spec 02 §3). */
export interface AvailabilityResponse {
  byDate: Array<{
    date: string;
    citySlug: string;
    city: string;
    recommended: TierAvailability;
    premium: TierAvailability;
    quizzes: Array<{ id: string }>;
  }>;
  overall: { recommended: { canProceed: boolean }; premium: { canProceed: boolean } };
  maxRecommendedSlotsPerDay: number;
  maxPremiumSlotsPerDay: number;
}

/** One bought occurrence, stored as JSON in checkout_orders.items. */
export interface OrderItem {
  quizId: string;
  tier: Tier;
  date: string;
  citySlug: string;
  weeks: number | null;
  /** öre actually paid for this occurrence (after its share of a volume discount) */
  amount: number;
  /** öre before the discount (absent in orders made before the discount existed) */
  listAmount?: number;
}

/** Relative return paths; Stripe gets them absolute. {CHECKOUT_SESSION_ID} is filled in by Stripe. */
export function returnPaths(venueId: string, orderId: string, sessionId = '{CHECKOUT_SESSION_ID}') {
  const v = encodeURIComponent(venueId);
  return {
    success: `/admin?payment=success&session_id=${sessionId}&venueId=${v}`,
    cancel: `/admin?payment=cancelled&order_id=${encodeURIComponent(orderId)}&venueId=${v}`,
  };
}

export interface CheckoutResponse {
  /** Where to send the buyer: Stripe Checkout, or /dev/checkout/{orderId} locally. */
  url: string;
  orderId: string;
  sessionId: string;
  /** öre charged (after the volume discount) */
  amountTotal: number;
  /** öre before the discount, and the discount (0 when none applies) */
  subtotal: number;
  discount: number;
}

/**
 * Availability label shown per occurrence and tier (spec 02 §4.2, issue 29.2). A one-slot tier (Premium
 * Utvald) is simply free or taken: "Begränsat" is kept for a tier with several slots when only its last
 * one is left, so it never cries wolf. The slot calendar (analytics slotStatus) uses the same words.
 */
export type AvailabilityStatus = 'available' | 'limited' | 'soldout' | 'purchased' | 'unknown';
export const AVAILABILITY_LABELS: Record<AvailabilityStatus, string> = {
  available: 'Ledigt',
  limited: 'Begränsat',
  soldout: 'Upptaget',
  purchased: 'Köpt',
  unknown: 'Okänd',
};
export function availabilityStatus(a: TierAvailability | undefined | null, tier: Tier): AvailabilityStatus {
  if (!a) return 'unknown';
  if (a.userHasPurchased) return 'purchased';
  if (!a.isAvailable || a.availableSlots <= 0) return 'soldout';
  if (MAX_SLOTS_PER_DAY[tier] > 1 && a.availableSlots === 1) return 'limited';
  return 'available';
}

/** Weekly price (SEK) of one occurrence in a marketing order. */
export function occurrencePriceSek(pricing: PricingResponse, tier: Tier): number {
  return pricing[tier].weeklyPriceSek;
}

// ---------------------------------------------------------------- deleting what was bought (issue 13.2)

export type DeleteTarget = 'quiz' | 'series' | 'location' | 'venue' | 'user';
const TARGET_WORDS: Record<DeleteTarget, { of: string; it: string; subject: string }> = {
  quiz: { of: 'det här quizet', it: 'det', subject: 'Quizet' },
  series: { of: 'den här serien', it: 'den', subject: 'Serien' },
  location: { of: 'ett quiz på den här platsen', it: 'platsen', subject: 'Platsen' },
  venue: { of: 'ett quiz i den här verksamheten', it: 'verksamheten', subject: 'Verksamheten' },
  user: { of: 'ett quiz i det här kontot', it: 'kontot', subject: 'Kontot' },
};
/**
 * What an owner write does to the quizzes an order bought (issue 26.2): deletes them, or changes their
 * date, their place's city or their series. Every such write goes through one guard (purchaseGuarded).
 */
export type PurchaseChange = 'delete' | 'date' | 'city';
const CHANGE_WORDS: Record<Exclude<PurchaseChange, 'delete'>, { verb: string; the: string }> = {
  date: { verb: 'flyttar det till ett annat datum', the: 'datumet' },
  city: { verb: 'ändrar ort', the: 'orten' },
};
/** 409 while a checkout for something in the target is open. */
export const openCheckoutMessage = (t: DeleteTarget, change: PurchaseChange = 'delete') =>
  `Det finns en pågående betalning för ${TARGET_WORDS[t].of}. Vänta tills den är klar eller avbruten innan du ${change === 'delete' ? `tar bort ${TARGET_WORDS[t].it}` : CHANGE_WORDS[change].verb}.`;
/** 409 while a paid promotion in the target has not run yet: deleting or moving it would lose what was bought. */
export const paidPromotionMessage = (t: DeleteTarget, until: string, change: PurchaseChange = 'delete') =>
  change === 'delete'
    ? `${TARGET_WORDS[t].subject} har betald marknadsföring som visas till och med ${until} och kan inte tas bort innan dess. Kontakta supporten om ${TARGET_WORDS[t].it} måste tas bort, så återbetalar vi det som inte har visats.`
    : `${TARGET_WORDS[t].subject} har betald marknadsföring som visas till och med ${until}, och den gäller ${CHANGE_WORDS[change].the} som köptes. Därför kan ${CHANGE_WORDS[change].the} inte ändras innan dess. Kontakta supporten om ${CHANGE_WORDS[change].the} måste ändras, så återbetalar vi det som inte har visats.`;

// ---------------------------------------------------------------- volume discount (spec 02 §9, issue 13.13)

/**
 * "Mängdrabatt dras automatiskt när fler än tre veckor köps i samma beställning": an order that buys
 * more than three weeks gets VOLUME_DISCOUNT_PERCENT off its total. Weeks bought = the week option
 * (1, 2 or 4) of a one-quiz purchase, or the number of distinct ISO weeks among the chosen dates of a
 * per-date (series) purchase. The discount is rounded to whole öre (half up) and shown as its own line.
 */
export const VOLUME_DISCOUNT_PERCENT = 10;
export const VOLUME_DISCOUNT_MIN_WEEKS = 4;
export const volumeDiscountLabel = () => `Mängdrabatt ${VOLUME_DISCOUNT_PERCENT} %`;

/** ISO-8601 week of a YYYY-MM-DD date, as 'YYYY-Www' (the week-numbering year). */
export function isoWeekKey(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  const weekday = d.getUTCDay() || 7; // Monday 1 … Sunday 7
  d.setUTCDate(d.getUTCDate() + 4 - weekday); // the Thursday of this week decides the year
  const year = d.getUTCFullYear();
  const week = Math.ceil(((d.getTime() - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** Distinct ISO weeks among dates. */
export const distinctIsoWeeks = (dates: readonly string[]): number => new Set(dates.map(isoWeekKey)).size;

export interface OrderAmounts {
  /** öre, before the discount */
  subtotal: number;
  /** öre, ≥ 0 */
  discount: number;
  /** öre, what is charged */
  total: number;
  weeks: number;
}

/** The amounts of an order (öre) that buys `weeks` weeks for `subtotal` öre. */
export function orderAmounts(subtotal: number, weeks: number): OrderAmounts {
  const discount = weeks >= VOLUME_DISCOUNT_MIN_WEEKS ? Math.round((subtotal * VOLUME_DISCOUNT_PERCENT) / 100) : 0;
  return { subtotal, discount, total: subtotal - discount, weeks };
}

/**
 * Spreads a discount over item amounts (öre) in proportion, so the items still add up to the total
 * (each bought occurrence records what was actually paid for it). The rounding rest goes to the first.
 */
export function spreadDiscount(amounts: readonly number[], discount: number): number[] {
  const subtotal = amounts.reduce((s, a) => s + a, 0);
  if (discount <= 0 || subtotal <= 0) return [...amounts];
  const shares = amounts.map((a) => Math.floor((discount * a) / subtotal));
  shares[0]! += discount - shares.reduce((s, a) => s + a, 0);
  return amounts.map((a, i) => a - shares[i]!);
}

/** An amount in öre as Swedish kronor: "98 kr", "23,50 kr", "−23,50 kr". */
export function formatOre(ore: number): string {
  const sign = ore < 0 ? '−' : '';
  const abs = Math.abs(Math.round(ore));
  const kr = Math.floor(abs / 100);
  const rest = abs % 100;
  return `${sign}${kr.toLocaleString('sv-SE')}${rest ? `,${String(rest).padStart(2, '0')}` : ''} kr`;
}
