/** Recognising the byte strings wasm-shim.ts answers with precompiled modules (pure; unit-tested in Node). */

const TYPE_CODES: Record<number, string> = { 127: 'i', 126: 'j', 125: 'f', 124: 'd', 111: 'e' };

export function bytesOf(source: unknown): Uint8Array | null {
  if (source instanceof ArrayBuffer) return new Uint8Array(source);
  if (ArrayBuffer.isView(source)) return new Uint8Array(source.buffer, source.byteOffset, source.byteLength);
  return null;
}

/** The signature of a callback module's bytes (e.g. 'viiii'), or null if they are anything else. */
export function callbackSignature(b: Uint8Array): string | null {
  // magic+version (8), type section id 1, size (2-byte LEB as Emscripten writes it), 1 type, 0x60
  if (b.length > 64 || b[0] !== 0 || b[1] !== 0x61 || b[8] !== 1 || b[11] !== 1 || b[12] !== 0x60) return null;
  const params = b[13]! & 0x7f;
  const p = [...b.subarray(15, 15 + params)].map((c) => TYPE_CODES[c] ?? '?').join('');
  const results = b[15 + params]! & 0x7f;
  const r = results ? (TYPE_CODES[b[17 + params]!] ?? '?') : 'v';
  const sig = r + p;
  const tail = b.subarray(17 + params + results);
  // import section "e"."f" func 0, export section "f" func 0
  const expected = [2, 7, 1, 1, 101, 1, 102, 0, 0, 7, 5, 1, 1, 102, 0, 0];
  if (tail.length !== expected.length || tail.some((x, i) => x !== expected[i])) return null;
  return sig;
}

/**
 * What scripts/build-lazy-modules.mjs puts in place of satori's embedded HarfBuzz base64 in the lazy
 * bundle (the same wasm is precompiled from wasm/harfbuzz.wasm): the ASCII bytes of this text.
 * Keep in step with the script (test/unit/share-wasm.test.ts).
 */
export const HARFBUZZ_PLACEHOLDER_TEXT = 'quizkvall:wasm/harfbuzz.wasm';

export function isHarfbuzzPlaceholder(b: Uint8Array): boolean {
  if (b.byteLength !== HARFBUZZ_PLACEHOLDER_TEXT.length) return false;
  for (let i = 0; i < b.byteLength; i++) if (b[i] !== HARFBUZZ_PLACEHOLDER_TEXT.charCodeAt(i)) return false;
  return true;
}
