import { describe, expect, it } from 'vitest';
import { imageDimensions, photoSvg, photoTarget, withinPixelLimit } from './photo';

const png = (w: number, h: number) => {
  const b = new Uint8Array(24);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, w);
  new DataView(b.buffer).setUint32(20, h);
  return b;
};

describe('quizmaster photo: size from the header, target size', () => {
  it('reads PNG, JPEG (after other segments) and the three WebP kinds', () => {
    expect(imageDimensions(png(2000, 1500), 'image/png')).toEqual({ width: 2000, height: 1500 });
    const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0xff, 0xff, 0xc2, 0x00, 0x11, 0x08, 0x01, 0xe0, 0x02, 0x80, 0x03]);
    expect(imageDimensions(jpeg, 'image/jpeg')).toEqual({ width: 640, height: 480 });
    const riff = (chunk: string, body: number[]) =>
      new Uint8Array([...new TextEncoder().encode(`RIFF\0\0\0\0WEBP${chunk}`), ...body, ...new Array(20).fill(0)]);
    expect(imageDimensions(riff('VP8X', [0, 0, 0, 0, 0, 0, 0, 0, 0x2b, 0x01, 0x00, 0xc7, 0x00, 0x00]), 'image/webp')).toEqual({ width: 300, height: 200 });
    // VP8L: signature 0x2f, then 14 bits width-1 and 14 bits height-1.
    const bits = 299 | (199 << 14);
    expect(imageDimensions(riff('VP8L', [0, 0, 0, 0, 0x2f, bits & 0xff, (bits >> 8) & 0xff, (bits >> 16) & 0xff, (bits >> 24) & 0xff]), 'image/webp')).toEqual({
      width: 300,
      height: 200,
    });
  });

  it('answers null, never throws, for truncated or hostile headers', () => {
    expect(imageDimensions(png(1, 1).slice(0, 20), 'image/png')).toBeNull();
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff]), 'image/jpeg')).toBeNull();
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x00, 0, 0, 0, 0, 0, 0]), 'image/jpeg')).toBeNull(); // length 0
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xda, 0, 2, 0, 0, 0, 0, 0, 0]), 'image/jpeg')).toBeNull(); // scan before a frame
    expect(imageDimensions(new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0xff, 0xff, 0, 0, 0, 0, 0, 0]), 'image/jpeg')).toBeNull(); // jumps past the end
    expect(imageDimensions(new TextEncoder().encode('RIFF\0\0\0\0WEBPXXXX'.padEnd(40, '\0')), 'image/webp')).toBeNull();
  });

  it('keeps the aspect with the longest side at 480, never enlarges, and bounds the decoded pixels', () => {
    expect(photoTarget({ width: 2000, height: 1500 })).toEqual({ width: 480, height: 360 });
    expect(photoTarget({ width: 1500, height: 2000 })).toEqual({ width: 360, height: 480 });
    expect(photoTarget({ width: 300, height: 200 })).toEqual({ width: 300, height: 200 });
    expect(photoTarget({ width: 4096, height: 1 })).toEqual({ width: 480, height: 1 });
    expect(withinPixelLimit({ width: 4032, height: 3024 })).toBe(true);
    expect(withinPixelLimit({ width: 4097, height: 10 })).toBe(false);
    expect(withinPixelLimit({ width: 4096, height: 4096 })).toBe(false);
    expect(withinPixelLimit({ width: 0, height: 10 })).toBe(false);
    expect(photoSvg(new Uint8Array([1, 2, 3]), 'image/png', { width: 480, height: 360 })).toContain('href="data:image/png;base64,AQID"');
  });
});
