/**
 * The database refuses to delete a slot held for an open checkout (trigger
 * `promotion_slot_claims_open_checkout_guard`, migration 0008): a quiz, series, place, business or
 * account with a checkout in progress cannot disappear by any path or foreign-key cascade. Nor can such
 * a quiz change its date or place, or its place its city (triggers of migration 0021, issue 26.2). This
 * recognises that abort so services (and, as a backstop, the one onError) answer 409 instead of 500.
 */
import { conflict, type AppError } from './errors';

export const OPEN_CHECKOUT_ABORT = 'open_checkout_hold';
export const OPEN_CHECKOUT_MESSAGE = 'Det finns en pågående betalning. Vänta tills den är klar eller avbruten innan du tar bort eller flyttar något.';

export function isOpenCheckoutAbort(err: unknown): boolean {
  for (let e: unknown = err, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (String((e as { message?: unknown }).message ?? e).includes(OPEN_CHECKOUT_ABORT)) return true;
  }
  return false;
}

export const openCheckoutConflict = (message = OPEN_CHECKOUT_MESSAGE): AppError => conflict(message, { reason: 'open_checkout' });
