/**
 * Paid promotion (spec 02 §4.2, §5, §7): availability per date, city and tier, and checkout creation.
 * A checkout first inserts the order and claims every slot in ONE db.batch (a full day fails the whole
 * batch, so two buyers can never both get the last slot), then creates the provider's Checkout Session
 * with our order id in its metadata. The webhook (features/payments) turns holds into sold slots.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { checkoutOrders, promotionSlotClaims, type PromotionTier } from '../../db/schema';
import { canManageVenue, requireActor, authorizeQuiz, authorizeVenue, type Actor } from '../../lib/authz';
import { addDays } from '../../lib/clock';
import { AppError, conflict, forbidden, invalidInput, notFound, rateLimited, unavailable } from '../../lib/errors';
import { takeAttempt } from '../../lib/rate-limit';
import { newId } from '../../lib/ids';
import type { Deps } from '../../ports/deps';
import { PaymentsNotConfiguredError, type PaymentsPort } from '../../ports/payments';
import {
  CITY_HOLD_LIMITS,
  CITY_HOLD_MESSAGES,
  HOLD_LIMITS,
  HOLD_LIMIT_MESSAGES,
  MAX_SLOTS_PER_DAY,
  PROMOTION_MESSAGES,
  TIER_LABELS,
  openCheckoutMessage,
  paidPromotionMessage,
  returnPaths,
  type AvailabilityResponse,
  type DeleteTarget,
  type PurchaseChange,
  type CheckoutResponse,
  type MarketingCheckoutInput,
  type OrderItem,
  type OrderAmounts,
  distinctIsoWeeks,
  orderAmounts,
  spreadDiscount,
  volumeDiscountLabel,
  weeksText,
  type PricingResponse,
  type PromotionCheckoutInput,
  type Tier,
} from './contract';
import { isOpenCheckoutAbort } from '../../lib/open-checkout';
import {
  claimedQuizIds,
  claimSlotStatement,
  claimsForCityDates,
  cityPremiumHolds,
  expiredOpenOrderIds,
  expireOrdersStatements,
  insertOrderWithinLimitsStatement,
  loadPromotableQuizzes,
  recentlyReleasedItems,
  unpaidHolds,
  loadSeriesWindow,
  pendingPurchasesIn,
  type CityDays,
  type DeleteScope,
  type PromotableQuiz,
} from './queries';

export type { DeleteScope } from './queries';
export type { OrderItem } from './contract';
/** Prices for other features (the public /annonsera page). */
export { getPricing } from './pricing';
import { getPricing } from './pricing';

/** Our hold outlives the provider's session (31 min), so a session can never be paid after its hold is gone. */
export const STRIPE_SESSION_TTL_S = 31 * 60;
export const ORDER_HOLD_TTL_MS = 35 * 60 * 1000;

/** What a checkout needs: the database, the clock, the config (APP_URL, Stripe prices) and the payments port. */
export type CheckoutDeps = Pick<Deps, 'db' | 'clock' | 'config' | 'payments'>;

/** One checkout's view of its deps: the buyer, the prices (read once through the port) and the clock's instant. */
interface CheckoutRun {
  db: Db;
  actor: Actor;
  payments: PaymentsPort;
  pricing: PricingResponse;
  clock: Deps['clock'];
  now: Date;
  today: string;
  appUrl: string;
}

async function checkoutRun(deps: CheckoutDeps, actor: Actor): Promise<CheckoutRun> {
  return {
    db: deps.db,
    actor,
    payments: deps.payments,
    pricing: await getPricing(deps),
    clock: deps.clock,
    now: deps.clock.now(),
    today: deps.clock.today(),
    appUrl: deps.config.appUrl,
  };
}

/** Loads the quizzes and checks the actor may manage every one of them (404 missing, 403 someone else's). */
async function authorizeQuizzes(db: Db, actor: Actor, quizIds: string[]): Promise<PromotableQuiz[]> {
  requireActor(actor);
  const rows = await loadPromotableQuizzes(db, [...new Set(quizIds)]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const missing = quizIds.filter((id) => !byId.has(id));
  if (missing.length) throw notFound('Quizet hittades inte.');
  for (const r of rows) if (!canManageVenue(actor, { userId: r.venueUserId })) throw forbidden();
  return quizIds.map((id) => byId.get(id)!);
}

export async function checkAvailability(deps: Pick<Deps, 'db' | 'clock'>, actor: Actor, input: { quizIds: string[] }): Promise<AvailabilityResponse> {
  const { db } = deps;
  const quizzes = await authorizeQuizzes(db, actor, input.quizIds);
  await releaseExpiredHolds(deps);
  const groups = new Map<string, { date: string; citySlug: string; city: string; quizzes: PromotableQuiz[] }>();
  for (const q of quizzes) {
    const key = `${q.citySlug}|${q.date}`;
    const g = groups.get(key) ?? { date: q.date, citySlug: q.citySlug, city: q.city, quizzes: [] };
    g.quizzes.push(q);
    groups.set(key, g);
  }
  const byCity = new Map<string, string[]>();
  for (const g of groups.values()) byCity.set(g.citySlug, [...(byCity.get(g.citySlug) ?? []), g.date]);
  const claims: Array<{ citySlug: string; quizId: string; date: string; tier: PromotionTier }> = [];
  for (const [citySlug, dates] of byCity) {
    for (const c of await claimsForCityDates(db, citySlug, [...new Set(dates)])) claims.push({ ...c, citySlug });
  }
  const byDate = [...groups.values()]
    .sort((a, b) => a.date.localeCompare(b.date) || a.citySlug.localeCompare(b.citySlug))
    .map((g) => {
      const ids = new Set(g.quizzes.map((q) => q.id));
      const tier = (t: Tier) => {
        const taken = claims.filter((c) => c.citySlug === g.citySlug && c.date === g.date && c.tier === t);
        const availableSlots = Math.max(0, MAX_SLOTS_PER_DAY[t] - taken.length);
        return { isAvailable: availableSlots > 0, availableSlots, userHasPurchased: taken.some((c) => ids.has(c.quizId)) };
      };
      return {
        date: g.date,
        citySlug: g.citySlug,
        city: g.city,
        recommended: tier('recommended'),
        premium: tier('premium'),
        quizzes: g.quizzes.map((q) => ({ id: q.id })),
      };
    });
  return {
    byDate,
    overall: {
      recommended: { canProceed: byDate.every((d) => d.recommended.isAvailable) },
      premium: { canProceed: byDate.every((d) => d.premium.isAvailable) },
    },
    maxRecommendedSlotsPerDay: MAX_SLOTS_PER_DAY.recommended,
    maxPremiumSlotsPerDay: MAX_SLOTS_PER_DAY.premium,
  };
}

/** create-marketing-checkout: one tier per chosen occurrence, each at the tier's weekly price. */
export async function createMarketingCheckout(runDeps: CheckoutDeps, buyer: Actor, input: MarketingCheckoutInput): Promise<CheckoutResponse> {
  requireActor(buyer);
  const deps = await checkoutRun(runDeps, buyer);
  const { db, actor } = deps;
  const venue = await authorizeVenue(db, actor, input.venueId);
  const quizzes = await authorizeQuizzes(
    db,
    actor,
    input.items.map((i) => i.quizId),
  );
  if (quizzes.some((q) => q.venueId !== venue.id))
    throw invalidInput('Quizet hör inte till verksamheten.', [{ path: 'items', message: 'Quizet hör inte till verksamheten.' }]);
  if (quizzes.some((q) => q.date < deps.today)) throw invalidInput(PROMOTION_MESSAGES.pastQuiz, [{ path: 'items', message: PROMOTION_MESSAGES.pastQuiz }]);
  if (quizzes.some((q) => q.isCancelled)) throw invalidInput(PROMOTION_MESSAGES.cancelledQuiz, [{ path: 'items', message: PROMOTION_MESSAGES.cancelledQuiz }]);
  const list = input.items.map((it) => deps.pricing[it.tier].weeklyPriceSek * 100);
  // Weeks bought = distinct ISO weeks of the chosen dates (volume discount, spec 02 §9).
  const amounts = orderAmounts(
    list.reduce((s, a) => s + a, 0),
    distinctIsoWeeks(quizzes.map((q) => q.date)),
  );
  const paid = spreadDiscount(list, amounts.discount);
  const items: OrderItem[] = input.items.map((it, i) => {
    const q = quizzes[i]!;
    return { quizId: q.id, tier: it.tier, date: q.date, citySlug: q.citySlug, weeks: null, amount: paid[i]!, listAmount: list[i]! };
  });
  const names = new Map(quizzes.map((q) => [q.id, `${q.locationName} ${q.date}${q.startTime ? ` ${q.startTime.slice(0, 5)}` : ''}`]));
  return openCheckout(deps, {
    kind: 'marketing',
    venueId: venue.id,
    cityNames: new Map(quizzes.map((q) => [q.citySlug, q.city])),
    items,
    amounts,
    lineItems: items.map((it) => ({ name: `${TIER_LABELS[it.tier]} – ${names.get(it.quizId)}`, amount: it.listAmount! })),
  });
}

/**
 * create-promotion-checkout: one quiz for 1, 2 or 4 weeks. The bought period starts at the quiz's
 * date; for a series it covers every not yet promoted occurrence in those weeks (each claims its day's
 * slot), for a single quiz the quiz itself. The price is the week option's price (spec 02 §9).
 */
export async function createPromotionCheckout(runDeps: CheckoutDeps, buyer: Actor, input: PromotionCheckoutInput): Promise<CheckoutResponse> {
  requireActor(buyer);
  const deps = await checkoutRun(runDeps, buyer);
  const { db, actor } = deps;
  const { quiz, venue } = await authorizeQuiz(db, actor, input.quizId);
  if (quiz.date < deps.today) throw invalidInput(PROMOTION_MESSAGES.pastQuiz, [{ path: 'quizId', message: PROMOTION_MESSAGES.pastQuiz }]);
  if (quiz.isCancelled) throw invalidInput(PROMOTION_MESSAGES.cancelledQuiz, [{ path: 'quizId', message: PROMOTION_MESSAGES.cancelledQuiz }]);
  const [self] = await loadPromotableQuizzes(db, [quiz.id]);
  let occurrences = quiz.recurrenceId ? await loadSeriesWindow(db, quiz.recurrenceId, quiz.date, addDays(quiz.date, input.weeks * 7 - 1)) : [self!];
  const claimed = await claimedQuizIds(
    db,
    occurrences.map((o) => o.id),
  );
  if (claimed.has(quiz.id)) throw conflict(PROMOTION_MESSAGES.alreadyPromoted);
  occurrences = occurrences.filter((o) => o.id === quiz.id || (!claimed.has(o.id) && !o.isCancelled));
  const option = deps.pricing[input.tier].options.find((o) => o.weeks === input.weeks)!;
  // Weeks bought = the week option (volume discount from more than three weeks, spec 02 §9).
  const amounts = orderAmounts(option.priceSek * 100, input.weeks);
  const split = (total: number) => {
    const share = Math.floor(total / occurrences.length);
    return occurrences.map((_, i) => (i === 0 ? total - share * (occurrences.length - 1) : share));
  };
  const list = split(amounts.subtotal);
  const paid = split(amounts.total);
  const items: OrderItem[] = occurrences.map((o, i) => ({
    quizId: o.id,
    tier: input.tier,
    date: o.date,
    citySlug: o.citySlug,
    weeks: input.weeks,
    amount: paid[i]!,
    listAmount: list[i]!,
  }));
  const weeksLabel = weeksText(input.weeks);
  return openCheckout(deps, {
    kind: 'promotion',
    venueId: venue.id,
    cityNames: new Map(occurrences.map((o) => [o.citySlug, o.city])),
    items,
    amounts,
    lineItems: [{ name: `${TIER_LABELS[input.tier]} – ${weeksLabel} (${self!.locationName}, från ${quiz.date})`, amount: amounts.subtotal }],
  });
}

async function openCheckout(
  deps: CheckoutRun,
  order: {
    kind: 'marketing' | 'promotion';
    venueId: string;
    /** Display names of the order's cities (for the city bound's message). */
    cityNames: Map<string, string>;
    items: OrderItem[];
    amounts: OrderAmounts;
    lineItems: Array<{ name: string; amount: number }>;
  },
): Promise<CheckoutResponse> {
  const { db, actor, now } = deps;
  requireActor(actor);
  // Holds of abandoned checkouts must not block this buyer.
  await releaseExpiredHolds(deps);
  const who = { userId: actor.id, venueId: order.venueId };
  await checkHoldLimits(db, who, order.items, now);
  const premiumByCity = premiumDaysByCity(order.items);
  const cityLimit = () => cityHoldError(deps, who, premiumByCity, order.cityNames);
  const refused = await cityLimit();
  if (refused) throw refused;
  const orderId = newId();
  const amountTotal = order.amounts.total;
  try {
    await db.batch([
      insertOrderWithinLimitsStatement(
        db,
        {
          id: orderId,
          ...who,
          kind: order.kind,
          amountTotal,
          items: JSON.stringify(order.items),
          expiresAt: now.getTime() + ORDER_HOLD_TTL_MS,
          itemCount: order.items.length,
          premiumByCity,
          nowMs: now.getTime(),
          today: deps.today,
        },
        HOLD_LIMITS,
        CITY_HOLD_LIMITS,
      ),
      ...order.items.map((it) => claimSlotStatement(db, { id: newId(), orderId, quizId: it.quizId, citySlug: it.citySlug, date: it.date, tier: it.tier })),
    ]);
  } catch (err) {
    // A concurrent checkout (of this buyer, or of anyone in the city) took the last of a bound between the check and the batch.
    const limit = (await holdLimitError(db, who, order.items.length)) ?? (await cityLimit());
    if (limit) throw limit;
    throw await explainClaimFailure(db, order.items, err);
  }

  const paths = returnPaths(order.venueId, orderId);
  let session: { id: string; url: string };
  try {
    session = await deps.payments.createCheckoutSession({
      orderId,
      lineItems: order.lineItems,
      ...(order.amounts.discount > 0 ? { discount: { name: volumeDiscountLabel(), amount: order.amounts.discount } } : {}),
      successUrl: `${deps.appUrl}${paths.success}`,
      cancelUrl: `${deps.appUrl}${paths.cancel}`,
      expiresAt: Math.floor(now.getTime() / 1000) + STRIPE_SESSION_TTL_S,
      customerEmail: actor.email,
      idempotencyKey: `checkout-${orderId}`,
    });
  } catch (err) {
    // Nothing can be paid: give the slots back at once.
    if (!(err instanceof PaymentsNotConfiguredError)) console.error('checkout session could not be created', err);
    await db.batch([
      db.update(checkoutOrders).set({ status: 'failed', updatedAt: now.toISOString() }).where(eq(checkoutOrders.id, orderId)),
      db.delete(promotionSlotClaims).where(eq(promotionSlotClaims.orderId, orderId)),
    ]);
    // A missing configuration is not a fault of this request: 503 (the port logs it once per isolate).
    if (err instanceof PaymentsNotConfiguredError) throw unavailable(PROMOTION_MESSAGES.paymentsUnavailable);
    throw new AppError(500, 'internal', PROMOTION_MESSAGES.checkoutFailed);
  }
  await db.update(checkoutOrders).set({ stripeSessionId: session.id, updatedAt: now.toISOString() }).where(eq(checkoutOrders.id, orderId));
  return { url: session.url, orderId, sessionId: session.id, amountTotal, subtotal: order.amounts.subtotal, discount: order.amounts.discount };
}

/**
 * Issue 26.3: what one account and one business may hold unpaid (HOLD_LIMITS, docs/features/orders-holds-and-refunds.md).
 * Counts the attempt first (checkouts per hour, 429), then refuses (409, the rule in Swedish) a checkout
 * over the open-checkout or held-day bound, or one that takes back a city-day this buyer released unpaid
 * within the cool-down. The order insert re-checks the bounds atomically (insertOrderWithinLimitsStatement).
 */
async function checkHoldLimits(db: Db, who: { userId: string; venueId: string }, items: OrderItem[], now: Date) {
  await takeAttempt(db, `checkout:${who.userId}`, HOLD_LIMITS.checkoutsPerHour, 3_600_000, now, (ms) =>
    rateLimited(HOLD_LIMIT_MESSAGES.rate(Math.max(1, Math.ceil(ms / 60_000))), Math.ceil(ms / 1000)),
  );
  const limit = await holdLimitError(db, who, items.length);
  if (limit) throw limit;
  const cooldownMs = HOLD_LIMITS.cooldownMinutes * 60_000;
  const wanted = new Set(items.map((it) => `${it.citySlug}|${it.date}|${it.tier}`));
  let until = 0;
  for (const r of await recentlyReleasedItems(db, who, now.getTime() - cooldownMs)) {
    const released = JSON.parse(r.items) as OrderItem[];
    if (released.some((it) => wanted.has(`${it.citySlug}|${it.date}|${it.tier}`))) until = Math.max(until, r.expires_at + cooldownMs);
  }
  if (until > now.getTime()) {
    const minutes = Math.max(1, Math.ceil((until - now.getTime()) / 60_000));
    throw conflict(HOLD_LIMIT_MESSAGES.cooldown(minutes), { reason: 'hold_cooldown', retryAfterMinutes: minutes });
  }
}

async function holdLimitError(db: Db, who: { userId: string; venueId: string }, itemCount: number): Promise<AppError | null> {
  const held = await unpaidHolds(db, who);
  if (held.openCheckouts >= HOLD_LIMITS.openCheckouts) return conflict(HOLD_LIMIT_MESSAGES.openCheckouts, { reason: 'hold_limit', limit: 'open_checkouts' });
  if (held.heldDays + itemCount > HOLD_LIMITS.heldDays)
    return conflict(HOLD_LIMIT_MESSAGES.heldDays(held.heldDays), { reason: 'hold_limit', limit: 'held_days' });
  return null;
}

/** The order's Premium days per city, in the order's city order. */
function premiumDaysByCity(items: OrderItem[]): CityDays[] {
  const days = new Map<string, number>();
  for (const it of items) if (it.tier === 'premium') days.set(it.citySlug, (days.get(it.citySlug) ?? 0) + 1);
  return [...days].map(([citySlug, n]) => ({ citySlug, days: n }));
}

/**
 * Issue 43.3: refuses (409, Swedish, "try again in n minutes") an order that would take a city's unpaid Premium
 * holds past CITY_HOLD_LIMITS (see there). The order insert re-checks the same rule atomically; this read only
 * words it. The minutes run to the first moment one of the city's holds ends.
 */
async function cityHoldError(
  run: Pick<CheckoutRun, 'db' | 'now' | 'today'>,
  who: { userId: string; venueId: string },
  premiumByCity: CityDays[],
  cityNames: Map<string, string>,
): Promise<AppError | null> {
  const nowMs = run.now.getTime();
  for (const { citySlug, days } of premiumByCity) {
    const held = await cityPremiumHolds(run.db, who, citySlug, nowMs, run.today);
    const small = held.buyer + days <= CITY_HOLD_LIMITS.smallDays;
    if (held.total + days <= (small ? CITY_HOLD_LIMITS.premiumDays : CITY_HOLD_LIMITS.bulkPremiumDays)) continue;
    const minutes = Math.max(1, Math.ceil(((held.firstEnd ?? nowMs) - nowMs) / 60_000));
    const city = cityNames.get(citySlug) ?? citySlug;
    // The most this order could take instead: as a small order (when the buyer is still small there) or as a bulk one.
    const asSmall = held.buyer < CITY_HOLD_LIMITS.smallDays ? Math.min(CITY_HOLD_LIMITS.smallDays - held.buyer, CITY_HOLD_LIMITS.premiumDays - held.total) : 0;
    const room = Math.max(0, asSmall, CITY_HOLD_LIMITS.bulkPremiumDays - held.total);
    const text = room > 0 ? CITY_HOLD_MESSAGES.fewer(city, room, minutes) : CITY_HOLD_MESSAGES.full(city, minutes);
    return conflict(text, { reason: 'hold_limit', limit: 'city_premium_days', citySlug, retryAfterMinutes: minutes });
  }
  return null;
}

/** After a failed claim batch: which rule refused it, in the words of spec 02 §5. */
async function explainClaimFailure(db: Db, items: OrderItem[], err: unknown): Promise<AppError> {
  const text = String((err as { cause?: unknown })?.cause ?? err);
  if (!/constraint|UNIQUE|CHECK|NOT NULL/i.test(text)) {
    console.error('slot claim batch failed', err);
    return new AppError(500, 'internal', PROMOTION_MESSAGES.checkoutFailed);
  }
  const claimed = await claimedQuizIds(
    db,
    items.map((i) => i.quizId),
  );
  if (claimed.size > 0) return conflict(PROMOTION_MESSAGES.alreadyPromoted, { reason: 'already_promoted', quizIds: [...claimed] });
  const full = new Set<Tier>();
  for (const it of items) {
    const taken = (await claimsForCityDates(db, it.citySlug, [it.date])).filter((c) => c.tier === it.tier).length;
    if (taken >= MAX_SLOTS_PER_DAY[it.tier]) full.add(it.tier);
  }
  // A concurrent buyer may have taken the slot between the batch and this read: still the tier's message.
  const tier: Tier = full.has('premium') || (!full.size && items.some((i) => i.tier === 'premium')) ? 'premium' : 'recommended';
  return conflict(tier === 'premium' ? PROMOTION_MESSAGES.premiumFull : PROMOTION_MESSAGES.recommendedFull, { reason: 'sold_out', tier });
}

/**
 * Issues 13.2 and 26.2, the one guard of what was bought: a write that deletes quizzes in `scope`, or
 * changes their date or their place's city, must not silently lose (or move away from) what an order
 * bought. Refuses (409, Swedish message naming the write) while a checkout for anything in `scope` is
 * open, and while a paid promotion in it has not run yet (our choice: refuse outright rather than move
 * the promotion — a moved date may be sold out; the owner contacts support, who refunds). Expired
 * holds are released first so an abandoned checkout never blocks. The database triggers on
 * promotion_slot_claims (delete) and on quizzes/locations (date, place, city) are the backstop for a
 * checkout opened between this check and `run`: their abort becomes the same 409.
 */
export async function purchaseGuarded<T>(
  db: Db,
  change: PurchaseChange,
  target: DeleteTarget,
  scope: DeleteScope,
  clock: Deps['clock'],
  run: () => Promise<T>,
): Promise<T> {
  await releaseExpiredHolds({ db, clock });
  const pending = await pendingPurchasesIn(db, scope, clock.today());
  const what = change === 'delete' ? {} : { change };
  const open = () => conflict(openCheckoutMessage(target, change), { reason: 'open_checkout', ...what });
  if (pending.openCheckout) throw open();
  if (pending.paidUntil)
    throw conflict(paidPromotionMessage(target, pending.paidUntil, change), { reason: 'paid_promotion', paidUntil: pending.paidUntil, ...what });
  try {
    return await run();
  } catch (err) {
    if (isOpenCheckoutAbort(err)) throw open();
    throw err;
  }
}

/** A deletion through the guard (issue 13.2). */
export function deleteGuarded<T>(db: Db, target: DeleteTarget, scope: DeleteScope, clock: Deps['clock'], run: () => Promise<T>): Promise<T> {
  return purchaseGuarded(db, 'delete', target, scope, clock, run);
}

/** Orders whose holds one round of releaseExpiredHolds expires (≤ 100 bound parameters per statement). */
export const RELEASE_CHUNK = 40;

/**
 * Marks open orders past their expiry as expired and deletes their holds, in chunks of RELEASE_CHUNK
 * orders (indexed: status + expires_at, claims by order; ≤ 100 bound parameters per statement).
 * Called before every claim/availability read and by the nightly job. Returns the orders expired. Holds are
 * promotion's slot claims, so their release lives here; payments depends on promotion, never the reverse (45.2).
 */
export async function releaseExpiredHolds(deps: Pick<Deps, 'db' | 'clock'>, input: { maxChunks?: number } = {}): Promise<number> {
  const { db } = deps;
  const maxChunks = input.maxChunks ?? 1;
  let total = 0;
  const nowMs = deps.clock.now().getTime();
  for (let i = 0; i < maxChunks; i++) {
    const rows = await expiredOpenOrderIds(db, nowMs, RELEASE_CHUNK);
    if (rows.length === 0) break;
    const [res] = await db.batch(expireOrdersStatements(db, rows, nowMs));
    total += (res as { meta?: { changes?: number } }).meta?.changes ?? 0;
    if (rows.length < RELEASE_CHUNK) break;
  }
  return total;
}
