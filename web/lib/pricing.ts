/**
 * The one pricing hook (GET /api/promotion/pricing), shared by the owner screens and the public
 * marketing dialog. It imports only the zod-free promotion tiers, so the public bundle stays free of zod.
 */
import { useEffect, useState } from 'react';
import { FALLBACK_WEEKLY_PRICE_SEK, pricesFailed, pricingFor, type PricingResponse } from '../../worker/features/promotion/tiers';
import { api } from './api';

export interface PricingState {
  pricing: PricingResponse;
  /** Live prices could not be read: show the neutral PRICE_LOAD_FAILED notice (never for 'unconfigured'). */
  failed: boolean;
  loading: boolean;
}

/** The state for an answer of the pricing route (a missing or malformed one counts as failed). */
export function pricingState(answer: PricingResponse | null | undefined): PricingState {
  if (!answer?.recommended || !answer?.premium) return failedPricing();
  return { pricing: answer, failed: pricesFailed(answer), loading: false };
}

function failedPricing(): PricingState {
  return { pricing: pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback', 'unavailable'), failed: true, loading: false };
}

let pricingCache: Promise<PricingResponse> | null = null;

export const fetchPricing = () => api<PricingResponse>('/api/promotion/pricing');

/** Prices (live or fallback), read once per page load and shared by every caller. */
export function usePricing(): PricingState {
  const [state, setState] = useState<PricingState>(() => ({ pricing: pricingFor(FALLBACK_WEEKLY_PRICE_SEK, 'fallback'), failed: false, loading: true }));
  useEffect(() => {
    let live = true;
    pricingCache ??= fetchPricing().catch((err) => {
      pricingCache = null;
      throw err;
    });
    pricingCache.then(
      (p) => live && setState(pricingState(p)),
      () => live && setState(failedPricing()),
    );
    return () => {
      live = false;
    };
  }, []);
  return state;
}
