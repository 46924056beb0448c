/**
 * The precompiled wasm the share renderer bundles (worker/features/share/wasm/) must be exactly what
 * the installed satori embeds and builds, or the shim stops recognising it after an upgrade and every
 * share card falls back to the static image. Re-run `node scripts/satori-harfbuzz-wasm.mjs` when this fails.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { callbackSignature, HARFBUZZ_PLACEHOLDER_TEXT, isHarfbuzzPlaceholder } from '../../worker/features/share/wasm-signature';
// @ts-expect-error plain .mjs script without types
import { CALLBACK_SIGNATURES, callbackModule, embeddedHarfbuzz } from '../../scripts/satori-harfbuzz-wasm.mjs';
// @ts-expect-error plain .mjs script without types
import { HARFBUZZ_PLACEHOLDER_TEXT as SCRIPT_PLACEHOLDER, stripEmbeddedHarfbuzz } from '../../scripts/build-lazy-modules.mjs';

const dir = new URL('../../worker/features/share/wasm/', import.meta.url);

describe('share image wasm', () => {
  it('harfbuzz.wasm equals the copy embedded in the installed satori, and HARFBUZZ_BYTES is its length', () => {
    const file = readFileSync(new URL('harfbuzz.wasm', dir));
    const embedded: Buffer = embeddedHarfbuzz();
    expect(file.equals(embedded)).toBe(true);
    const shim = readFileSync(new URL('../wasm-shim.ts', dir), 'utf8');
    expect(Number(/HARFBUZZ_BYTES = ([\d_]+)/.exec(shim)![1]!.replaceAll('_', ''))).toBe(file.length);
  });

  it('each callback module file is the one Emscripten builds for its signature, and is recognised as that signature', () => {
    const shim = readFileSync(new URL('../wasm-shim.ts', dir), 'utf8');
    for (const sig of CALLBACK_SIGNATURES as string[]) {
      const bytes = new Uint8Array(readFileSync(new URL(`fn-${sig}.wasm`, dir)));
      expect([...bytes]).toEqual([...callbackModule(sig)]);
      expect(callbackSignature(bytes)).toBe(sig);
      expect(shim).toContain(`import fn${sig[0]!.toUpperCase()}${sig.slice(1)} from './wasm/fn-${sig}.wasm';`);
    }
    // satori's own builder (in its bundle) writes the same bytes as ours.
    const satori = readFileSync(new URL('../../../../node_modules/satori/dist/standalone.js', dir), 'utf8');
    expect(satori).toContain(
      'Uint8Array.of(0,97,115,109,1,0,0,0,1,...PA([1,96,...$A(BA.slice(1)),...$A(BA[0]==="v"?"":BA[0])]),2,7,1,1,101,1,102,0,0,7,5,1,1,102,0,0)',
    );
  });

  it('the lazy bundle carries a placeholder instead of the embedded copy, and the shim answers exactly that placeholder', () => {
    expect(SCRIPT_PLACEHOLDER).toBe(HARFBUZZ_PLACEHOLDER_TEXT);
    const satori = readFileSync(new URL('../../../../node_modules/satori/dist/standalone.js', dir), 'utf8');
    const file = readFileSync(new URL('harfbuzz.wasm', dir));
    const stripped: string = stripEmbeddedHarfbuzz(satori, file);
    expect(satori.length - stripped.length).toBeGreaterThan(500_000);
    expect(stripped).toContain(`"${Buffer.from(HARFBUZZ_PLACEHOLDER_TEXT).toString('base64')}"`);
    expect(stripped).not.toMatch(/[A-Za-z0-9+/]{100000,}/);
    // A different HarfBuzz than wasm/harfbuzz.wasm fails the build instead of shipping a broken renderer.
    expect(() => stripEmbeddedHarfbuzz(satori, file.subarray(1))).toThrow(/satori-harfbuzz-wasm/);
    expect(isHarfbuzzPlaceholder(new TextEncoder().encode(HARFBUZZ_PLACEHOLDER_TEXT))).toBe(true);
    expect(isHarfbuzzPlaceholder(new TextEncoder().encode(`${HARFBUZZ_PLACEHOLDER_TEXT.slice(0, -1)}x`))).toBe(false);
    expect(isHarfbuzzPlaceholder(new Uint8Array(file))).toBe(false);
  });

  it('anything else is not a callback module', () => {
    expect(callbackSignature(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]))).toBeNull();
    const other = callbackModule('vi');
    other[other.length - 1] = 1;
    expect(callbackSignature(other)).toBeNull();
    expect(callbackSignature(new Uint8Array(100))).toBeNull();
  });
});
