import { z } from 'zod';

/**
 * Prices and options of paid promotion (spec 01 §9, spec 02 §9). The live weekly prices come from two
 * Stripe Price objects; these fallbacks are used when they cannot be read. Premium is 98 kr everywhere
 * (the spec's 499 kr purchase-summary fallback is a known inconsistency, see README).
 */
export const FALLBACK_WEEKLY_PRICE_SEK = { recommended: 49, premium: 98 } as const;
export const TIER_LABELS = { recommended: 'Rekommenderat', premium: 'Premium Utvald' } as const;
export const MAX_SLOTS_PER_DAY = { recommended: 3, premium: 1 } as const;
/** 1, 2 or 4 weeks at 1×, 1.6×, 2.4× the weekly price (rounded SEK); exposure 7/14/28 days. */
export const WEEK_OPTIONS = [
  { weeks: 1, factor: 1, exposureDays: 7, popular: false },
  { weeks: 2, factor: 1.6, exposureDays: 14, popular: true },
  { weeks: 4, factor: 2.4, exposureDays: 28, popular: false },
] as const;

export const TierSchema = z.enum(['recommended', 'premium'], { error: 'Välj marknadsföringstyp' });
export type Tier = z.infer<typeof TierSchema>;

export interface PricingOption {
  weeks: number;
  priceSek: number;
  exposureDays: number;
  popular: boolean;
}
/** GET /api/promotion/pricing */
export interface PricingResponse {
  recommended: { weeklyPriceSek: number; options: PricingOption[] };
  premium: { weeklyPriceSek: number; options: PricingOption[] };
  /** 'fallback' when the live prices could not be read (show a neutral price-load notice). */
  source: 'live' | 'fallback';
}

export function pricingFor(weekly: { recommended: number; premium: number }, source: 'live' | 'fallback'): PricingResponse {
  const options = (base: number): PricingOption[] =>
    WEEK_OPTIONS.map((o) => ({ weeks: o.weeks, priceSek: Math.round(base * o.factor), exposureDays: o.exposureDays, popular: o.popular }));
  return {
    recommended: { weeklyPriceSek: weekly.recommended, options: options(weekly.recommended) },
    premium: { weeklyPriceSek: weekly.premium, options: options(weekly.premium) },
    source,
  };
}
