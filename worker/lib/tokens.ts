import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { sha256 } from '@oslojs/crypto/sha2';
import { decodeHex, encodeHexLowerCase } from '@oslojs/encoding';

/** SHA-256 of a token, hex. Only hashes of tokens are stored (sessions, e-mail links). */
export function hashToken(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

/** Constant-time comparison of two hex digests. */
export function hashesEqual(a: string, b: string): boolean {
  if (a.length !== b.length || a.length % 2 !== 0) return false;
  try {
    return constantTimeEqual(decodeHex(a), decodeHex(b));
  } catch {
    return false;
  }
}
