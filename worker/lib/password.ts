/**
 * Password hashing with PBKDF2-SHA256 through SubtleCrypto. Production Workers reject more than
 * 100 000 iterations (local workerd does not), so the cap is enforced here, not trusted to config.
 */
import { constantTimeEqual } from '@oslojs/crypto/subtle';
import { decodeBase64, encodeBase64 } from '@oslojs/encoding';

const PBKDF2_MAX_ITERATIONS = 100_000;

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
  if (iterations > PBKDF2_MAX_ITERATIONS) throw new Error('PBKDF2 iterations above the Workers limit');
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt: salt as BufferSource, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string, iterations = PBKDF2_MAX_ITERATIONS): Promise<string> {
  const salt = new Uint8Array(16);
  crypto.getRandomValues(salt);
  const hash = await derive(password, salt, iterations);
  return `pbkdf2-sha256$${iterations}$${encodeBase64(salt)}$${encodeBase64(hash)}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iter, saltB64, hashB64] = stored.split('$');
  if (scheme !== 'pbkdf2-sha256' || !iter || !saltB64 || !hashB64) return false;
  const iterations = Number(iter);
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_MAX_ITERATIONS) return false;
  const expected = decodeBase64(hashB64);
  const actual = await derive(password, decodeBase64(saltB64), iterations);
  return constantTimeEqual(expected, actual);
}

/** A hash of a random password, verified against to keep timing equal when an account does not exist. */
export const DUMMY_PASSWORD_HASH = 'pbkdf2-sha256$100000$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
