/**
 * Weekly prices of the two tiers, read from the two Stripe Price objects named in configuration and
 * cached per isolate. When they cannot be read (no key, no price ids, Stripe unreachable or a price
 * without a SEK amount) the fallback 49 / 98 kr is answered with source 'fallback' (spec 01 §5, 02 §9).
 */
import type { Deps } from '../../ports/deps';
import { FALLBACK_WEEKLY_PRICE_SEK, pricingFor, type PricingResponse, type Tier } from './contract';

export const PRICE_CACHE_TTL_MS = 10 * 60 * 1000;
/** A failed read is retried sooner than a good one is refreshed. */
export const PRICE_FAILURE_TTL_MS = 60 * 1000;

export interface PriceCache {
  entry: { key: string; until: number; value: PricingResponse } | null;
}
const isolateCache: PriceCache = { entry: null };

export async function getPricing(deps: Pick<Deps, 'payments' | 'config' | 'clock'>, cache: PriceCache = isolateCache): Promise<PricingResponse> {
  const port = deps.payments;
  const stripeConfig = deps.config.stripe;
  const now = deps.clock.now();
  const { priceRecommended, pricePremium } = stripeConfig;
  if (port.kind === 'local' || !priceRecommended || !pricePremium) return pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback', 'unconfigured');
  const key = `${priceRecommended}|${pricePremium}`;
  const t = now.getTime();
  if (cache.entry && cache.entry.key === key && cache.entry.until > t) return cache.entry.value;
  let value: PricingResponse;
  try {
    const amounts = await port.getPriceAmounts([priceRecommended, pricePremium]);
    value = pricingFor({ recommended: Math.round(amounts[priceRecommended]! / 100), premium: Math.round(amounts[pricePremium]! / 100) }, 'live');
    if (!(value.recommended.weeklyPriceSek > 0 && value.premium.weeklyPriceSek > 0)) throw new Error('non-positive price');
  } catch (err) {
    console.warn('promotion prices could not be read, using fallback', err instanceof Error ? err.message : err);
    value = pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback', 'unavailable');
  }
  cache.entry = { key, until: t + (value.source === 'live' ? PRICE_CACHE_TTL_MS : PRICE_FAILURE_TTL_MS), value };
  return value;
}

/** Price in öre of one tier for a number of weeks (1, 2 or 4), from a pricing response. */
export function amountOre(pricing: PricingResponse, tier: Tier, weeks: number): number {
  const option = pricing[tier].options.find((o) => o.weeks === weeks);
  if (!option) throw new Error(`no option for ${weeks} weeks`);
  return option.priceSek * 100;
}
