/**
 * The quizmaster photo's resize (issue 48): the image's size read from its header, the target size (longest side
 * PHOTO_SIDE, aspect kept, never enlarged) and the SVG that draws it there, which the share engines' resvg turns into
 * a PNG (share/render.ts rasterizeSvg, a lazy module). resvg decodes JPEG and PNG, not WebP: a WebP is kept as given
 * when it is already small enough, else refused. Pure: no I/O.
 */
import { PHOTO_MAX_PIXELS, PHOTO_MAX_SIDE, PHOTO_SIDE, type PhotoType } from './contract';

export interface Dimensions {
  width: number;
  height: number;
}

const be16 = (b: Uint8Array, i: number) => (b[i]! << 8) | b[i + 1]!;
const be32 = (b: Uint8Array, i: number) => ((b[i]! << 24) >>> 0) + (b[i + 1]! << 16) + (b[i + 2]! << 8) + b[i + 3]!;
const le16 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8);
const le24 = (b: Uint8Array, i: number) => b[i]! | (b[i + 1]! << 8) | (b[i + 2]! << 16);
const ascii = (b: Uint8Array, from: number, to: number) => String.fromCharCode(...b.subarray(from, to));

/** JPEG start-of-frame markers (baseline, progressive, lossless, arithmetic): they carry the size. */
const SOF = new Set([0xc0, 0xc1, 0xc2, 0xc3, 0xc5, 0xc6, 0xc7, 0xc9, 0xca, 0xcb, 0xcd, 0xce, 0xcf]);

/** The image's size from its header, or null when the header is not one we can read. Every read is bounds-checked. */
export function imageDimensions(b: Uint8Array, type: PhotoType): Dimensions | null {
  if (type === 'image/png') {
    if (b.length < 24 || ascii(b, 12, 16) !== 'IHDR') return null;
    return { width: be32(b, 16), height: be32(b, 20) };
  }
  if (type === 'image/jpeg') {
    let i = 2;
    while (i + 9 < b.length) {
      if (b[i] !== 0xff) return null;
      const marker = b[i + 1]!;
      if (marker === 0xff) {
        i++;
        continue;
      }
      if (SOF.has(marker)) return { height: be16(b, i + 5), width: be16(b, i + 7) };
      if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
        i += 2;
        continue;
      }
      if (marker === 0xd9 || marker === 0xda) return null; // end of image or scan data before any frame header
      const length = be16(b, i + 2);
      if (length < 2) return null;
      i += 2 + length;
    }
    return null;
  }
  // WebP: RIFF, then one of the three chunk kinds.
  if (b.length < 30 || ascii(b, 0, 4) !== 'RIFF' || ascii(b, 8, 12) !== 'WEBP') return null;
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8 ') return { width: le16(b, 26) & 0x3fff, height: le16(b, 28) & 0x3fff };
  if (chunk === 'VP8L') {
    if (b[20] !== 0x2f) return null;
    const bits = b[21]! | (b[22]! << 8) | (b[23]! << 16) | (b[24]! << 24);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') return { width: le24(b, 24) + 1, height: le24(b, 27) + 1 };
  return null;
}

/** Whether a decoded image of this size is allowed (decoding needs 4 bytes a pixel of the Worker's memory). */
export function withinPixelLimit(d: Dimensions): boolean {
  return d.width >= 1 && d.height >= 1 && Math.max(d.width, d.height) <= PHOTO_MAX_SIDE && d.width * d.height <= PHOTO_MAX_PIXELS;
}

/** The stored size: the longest side at most PHOTO_SIDE, the aspect kept, never enlarged. */
export function photoTarget(d: Dimensions): Dimensions {
  const scale = Math.min(1, PHOTO_SIDE / Math.max(d.width, d.height));
  return { width: Math.max(1, Math.round(d.width * scale)), height: Math.max(1, Math.round(d.height * scale)) };
}

function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** The SVG that draws the photo at the target size (resvg renders it to a PNG). */
export function photoSvg(bytes: Uint8Array, type: PhotoType, target: Dimensions): string {
  const { width, height } = target;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><image href="data:${type};base64,${base64(bytes)}" x="0" y="0" width="${width}" height="${height}" preserveAspectRatio="none"/></svg>`;
}
