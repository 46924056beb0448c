import { describe, expect, it } from 'vitest';
import { FALLBACK_WEEKLY_PRICE_SEK, pricingFor } from '../../worker/features/promotion/tiers';
import { pricingState } from './pricing';

describe('pricingState (the one pricing hook)', () => {
  it('no price-load notice when prices are simply not configured', () => {
    const s = pricingState(pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback', 'unconfigured'));
    expect(s).toMatchObject({ failed: false, loading: false });
    expect(s.pricing.recommended.weeklyPriceSek).toBe(FALLBACK_WEEKLY_PRICE_SEK.recommended);
  });

  it('the notice when Stripe could not be read, or the answer is unusable', () => {
    expect(pricingState(pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback', 'unavailable')).failed).toBe(true);
    expect(pricingState(null).failed).toBe(true);
    expect(pricingState({} as never).failed).toBe(true);
  });

  it('live prices: no notice', () => {
    const s = pricingState(pricingFor({ recommended: 59, premium: 119 }, 'live'));
    expect(s.failed).toBe(false);
    expect(s.pricing.premium.weeklyPriceSek).toBe(119);
  });
});
