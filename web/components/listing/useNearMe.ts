import { useCallback, useRef, useState } from 'react';

/** Same as NEAR_DECIMALS in the listing contract (not imported: that would put zod in the public bundle). */
const NEAR_DECIMALS = 3;
/** Spec (issue 15): give up after 10 s and offer the city select instead. */
export const NEAR_TIMEOUT_MS = 10_000;

export type NearState = { kind: 'idle' } | { kind: 'locating' } | { kind: 'failed'; reason: 'denied' | 'unavailable' | 'timeout' };

export const NEAR_MESSAGES: Record<'denied' | 'unavailable' | 'timeout', string> = {
  denied: 'Du har inte gett webbläsaren lov att dela din position. Välj en stad i stället – eller tillåt platsåtkomst och försök igen.',
  unavailable: 'Din position gick inte att hämta just nu. Välj en stad i stället.',
  timeout: 'Det tog för lång tid att hämta din position. Välj en stad i stället, eller försök igen.',
};

/** "57.708,11.974": the position as it goes into the listing URL (≈ 110 m; nothing finer leaves the device). */
export function nearParam(lat: number, lng: number): string {
  return `${lat.toFixed(NEAR_DECIMALS)},${lng.toFixed(NEAR_DECIMALS)}`;
}

/**
 * Asks the browser for the position only when called (after a tap), with a 10 s limit. The position is
 * handed to `onPosition` and nowhere else: the caller puts it into the listing request.
 */
export function useNearMe(onPosition: (near: string) => void) {
  const [state, setState] = useState<NearState>({ kind: 'idle' });
  const attempt = useRef(0);
  const locate = useCallback(() => {
    const no = ++attempt.current;
    if (typeof navigator === 'undefined' || !navigator.geolocation) {
      setState({ kind: 'failed', reason: 'unavailable' });
      return;
    }
    setState({ kind: 'locating' });
    // Our own timer as well: some browsers never call back while the permission prompt is open.
    const timer = setTimeout(() => no === attempt.current && setState({ kind: 'failed', reason: 'timeout' }), NEAR_TIMEOUT_MS + 500);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        clearTimeout(timer);
        if (no !== attempt.current) return;
        setState({ kind: 'idle' });
        onPosition(nearParam(pos.coords.latitude, pos.coords.longitude));
      },
      (err) => {
        clearTimeout(timer);
        if (no !== attempt.current) return;
        setState({ kind: 'failed', reason: err.code === 1 ? 'denied' : err.code === 3 ? 'timeout' : 'unavailable' });
      },
      { enableHighAccuracy: false, timeout: NEAR_TIMEOUT_MS, maximumAge: 5 * 60_000 },
    );
  }, [onPosition]);
  return { state, locate, dismiss: () => setState({ kind: 'idle' }) };
}
