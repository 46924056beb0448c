/** TOTP (RFC 6238, 30 s, 6 digits) on the request clock, with replay protection by time step. */
import { decodeBase64 } from '@oslojs/encoding';
import { generateHOTP } from '@oslojs/otp';
import { constantTimeEqual } from '@oslojs/crypto/subtle';

export const TOTP_PERIOD_S = 30;
export const TOTP_DIGITS = 6;

/**
 * Returns the accepted time step (current ±1 step of clock drift) or null. A step at or below
 * `lastUsedStep` is refused so a code cannot be replayed.
 */
export function verifyTotpAt(secretB64: string, code: string, now: Date, lastUsedStep: number | null): number | null {
  const key = decodeBase64(secretB64);
  const step = Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S);
  const enc = new TextEncoder();
  for (const s of [step, step - 1, step + 1]) {
    if (lastUsedStep !== null && s <= lastUsedStep) continue;
    const expected = generateHOTP(key, BigInt(s), TOTP_DIGITS);
    if (expected.length === code.length && constantTimeEqual(enc.encode(expected), enc.encode(code))) return s;
  }
  return null;
}

/** The code an authenticator app shows at `now` (tests use it). */
export function totpCodeAt(secretB64: string, now: Date): string {
  return generateHOTP(decodeBase64(secretB64), BigInt(Math.floor(now.getTime() / 1000 / TOTP_PERIOD_S)), TOTP_DIGITS);
}
