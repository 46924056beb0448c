import { encodeBase32LowerCaseNoPadding } from '@oslojs/encoding';

/** A new UUID v4 for primary keys and recurrence ids. */
export function newId(): string {
  return crypto.randomUUID();
}

/** `bytes` of cryptographic randomness as lower-case base32 (for tokens that travel in URLs and cookies). */
export function randomToken(bytes = 20): string {
  const buf = new Uint8Array(bytes);
  crypto.getRandomValues(buf);
  return encodeBase32LowerCaseNoPadding(buf);
}
