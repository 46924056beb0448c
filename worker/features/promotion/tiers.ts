/**
 * Paid promotion's tiers, prices, caps and how the listing is ranked (spec 01 §4 and §9, spec 02 §9):
 * the one home of these rules and texts, without zod so the public bundle (the marketing dialog,
 * /annonsera) imports them as cheaply as the owner screens. `contract.ts` re-exports everything here.
 */
import { countText } from '../../lib/swedish';

/**
 * The live weekly prices come from two Stripe Price objects; these fallbacks are used when they cannot
 * be read. Premium is 98 kr everywhere (the spec's 499 kr purchase-summary fallback is a known
 * inconsistency, see README).
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
  /**
   * Why the fallback is used: 'unconfigured' (no Stripe key or price ids, e.g. local development: no
   * notice needed) or 'unavailable' (Stripe could not be read: show the price-load notice).
   */
  reason?: 'unconfigured' | 'unavailable';
}

/** Whole kronor as prices are shown: "98 kr". */
export const priceText = (sek: number) => `${sek} kr`;
/** "1 vecka", "4 veckor". */
export const weeksText = (weeks: number) => countText(weeks, 'vecka', 'veckor');
/** A tier's weekly price: "98 kr/vecka". */
export const weeklyPriceText = (sek: number) => `${priceText(sek)}/vecka`;
/** A week option with its price: "4 veckor: 235 kr". */
export const optionPriceText = (o: Pick<PricingOption, 'weeks' | 'priceSek'>) => `${weeksText(o.weeks)}: ${priceText(o.priceSek)}`;

export function pricingFor(weekly: { recommended: number; premium: number }, source: 'live' | 'fallback', reason?: PricingResponse['reason']): PricingResponse {
  const options = (base: number): PricingOption[] =>
    WEEK_OPTIONS.map((o) => ({ weeks: o.weeks, priceSek: Math.round(base * o.factor), exposureDays: o.exposureDays, popular: o.popular }));
  return {
    recommended: { weeklyPriceSek: weekly.recommended, options: options(weekly.recommended) },
    premium: { weeklyPriceSek: weekly.premium, options: options(weekly.premium) },
    source,
    ...(reason ? { reason } : {}),
  };
}

/** The neutral notice shown when live prices could not be read (not when they are unconfigured). */
export const PRICE_LOAD_FAILED = 'Kunde inte hämta aktuella priser. Visar ordinarie priser.';

/**
 * Whether to show PRICE_LOAD_FAILED: only when Stripe could not be read. With `reason: 'unconfigured'`
 * (no key or price ids, e.g. local development) the fallback prices are simply the prices.
 */
export function pricesFailed(p: Pick<PricingResponse, 'source' | 'reason'>): boolean {
  return p.source === 'fallback' && p.reason !== 'unconfigured';
}

/** "Högst 3 platser per stad och dag." — the cap of one tier (MAX_SLOTS_PER_DAY). */
export function slotCapText(tier: keyof typeof MAX_SLOTS_PER_DAY): string {
  const n = MAX_SLOTS_PER_DAY[tier];
  return `Högst ${countText(n, 'plats', 'platser')} per stad och dag.`;
}

/**
 * Where a paid quiz is shown, one sentence per tier: the one description of each tier (issue 44.1), read by the
 * marketing dialog, the dashboard's help box, the purchase dialogs, the preview and /annonsera.
 */
export const TIER_PLACEMENT = {
  premium: 'Visas först i listan för sitt datum, i ett stort kort över hela bredden med beskrivning och telefonnummer.',
  recommended: `Visas före de vanliga quizen med etiketten ${TIER_LABELS.recommended}.`,
} as const;

/** A tier's whole description: where it is shown and how many there are ("… Högst 1 plats per stad och dag."). */
export const tierDescription = (tier: keyof typeof TIER_PLACEMENT) => `${TIER_PLACEMENT[tier]} ${slotCapText(tier)}`;

/**
 * How the listing is ranked, in order (EU regulation 2019/1150 art. 5): the one text of /annonsera and
 * the owner dashboard. It must match worker/features/listing (rankPromoted, rankOrderSql): Premium by
 * date and time; Rekommenderat, then real accounts, then the house account's quizzes, each in the day's
 * shuffle (a fixed random order rotated by a per-day seed).
 */
export const RANKING_STEPS = [
  { title: TIER_LABELS.premium, text: 'quiz med betald premiumplacering visas först, i datum- och tidsordning.' },
  { title: TIER_LABELS.recommended, text: 'därefter quiz med betald rekommendation, i en blandad ordning som slumpas om varje dag.' },
  {
    title: 'Övriga ställen',
    text: 'alla andra quiz i en blandad ordning som slumpas om varje dag, så att inget ställe alltid hamnar överst utan att betala.',
  },
  { title: 'Ställen som ingen har tagit kontroll över', text: 'quiz som vi har lagt in och som ingen ägare ännu sköter visas sist.' },
] as const;

/** What the ranking order applies to, and what payment never changes. */
export const RANKING_SCOPE = `Det du väljer i filtren (stad, veckodag, datum och sökord) avgör vilka quiz som visas; ordningen ovan gäller inom det urvalet. Betalning påverkar bara placeringen, aldrig om ett quiz visas eller vad det står om det. Antalet betalda platser är begränsat till ${MAX_SLOTS_PER_DAY.recommended} ${TIER_LABELS.recommended} och ${MAX_SLOTS_PER_DAY.premium} ${TIER_LABELS.premium} per stad och dag, så att listan förblir användbar.`;
