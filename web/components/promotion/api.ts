/**
 * Calls of paid promotion (worker/features/promotion and payments). Types come from the shared contracts.
 */
import { useEffect, useState } from 'react';
import type { VerifyResponse } from '../../../worker/features/payments/contract';
import type { AvailabilityResponse, CheckoutResponse, MarketingCheckoutInput, PromotionCheckoutInput } from '../../../worker/features/promotion/contract';
import { api } from '../../lib/api';
import { fetchPricing } from '../../lib/pricing';

export const promotionApi = {
  pricing: fetchPricing,
  availability: (quizIds: string[], signal?: AbortSignal) => api<AvailabilityResponse>('/api/promotion/availability', { body: { quizIds }, signal }),
  marketingCheckout: (body: MarketingCheckoutInput) => api<CheckoutResponse>('/api/promotion/marketing-checkout', { body }),
  promotionCheckout: (body: PromotionCheckoutInput) => api<CheckoutResponse>('/api/promotion/checkout', { body }),
  verify: (sessionId: string) => api<VerifyResponse>(`/api/payments/verify?session_id=${encodeURIComponent(sessionId)}`),
  cancel: (orderId: string) => api<{ status: string }>('/api/payments/cancel', { body: { orderId } }),
  support: () => api<{ supportEmail: string }>('/api/payments/support'),
};

/** The one pricing hook lives in web/lib/pricing.ts (zod-free: the public marketing dialog uses it too). */
export { usePricing } from '../../lib/pricing';

/** Sends the buyer to the checkout (Stripe, or the local checkout page). Same tab: see README. */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}

const SV_DATE = new Intl.DateTimeFormat('sv-SE', { weekday: 'short', day: 'numeric', month: 'short', timeZone: 'UTC' });
/** "tis 12 mars" for a YYYY-MM-DD date. */
export function shortDate(date: string): string {
  return SV_DATE.format(new Date(`${date}T12:00:00Z`));
}

/** Availability of the given quizzes' dates (02 §3), reloaded when the set of ids changes. */
export function useAvailability(quizIds: readonly string[]): { availability: AvailabilityResponse | null; checking: boolean; failed: boolean } {
  const key = quizIds.join(',');
  const [state, setState] = useState<{ availability: AvailabilityResponse | null; checking: boolean; failed: boolean }>({
    availability: null,
    checking: quizIds.length > 0,
    failed: false,
  });
  useEffect(() => {
    if (!key) return;
    const ctrl = new AbortController();
    setState((s) => ({ ...s, checking: true, failed: false }));
    promotionApi.availability(key.split(','), ctrl.signal).then(
      (availability) => setState({ availability, checking: false, failed: false }),
      (err) => {
        if ((err as Error).name !== 'AbortError') setState((s) => ({ ...s, checking: false, failed: true }));
      },
    );
    return () => ctrl.abort();
  }, [key]);
  return state;
}
