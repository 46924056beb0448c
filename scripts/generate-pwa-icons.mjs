/**
 * Generates the app icons of the web app manifest (issue 32) from the favicon's design: a white "Q" on the
 * brand indigo (#4338ca). Run once after a design change (`node scripts/generate-pwa-icons.mjs`); the PNGs
 * under web/public/icons are committed (small, and the build then needs no image tooling).
 *  - icon-192.png, icon-512.png: purpose "any" (rounded square, as the favicon);
 *  - icon-maskable-512.png: purpose "maskable" (full bleed, the Q inside the 80 % safe zone).
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import sharp from 'sharp';

const out = resolve(import.meta.dirname, '..', 'web', 'public', 'icons');
mkdirSync(out, { recursive: true });

const any = (size) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4338ca"/><text x="16" y="23" font-family="Arial,DejaVu Sans,sans-serif" font-size="20" font-weight="700" text-anchor="middle" fill="#fff">Q</text></svg>`;
const maskable = (size) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 32 32"><rect width="32" height="32" fill="#4338ca"/><text x="16" y="21.5" font-family="Arial,DejaVu Sans,sans-serif" font-size="14" font-weight="700" text-anchor="middle" fill="#fff">Q</text></svg>`;

for (const [name, svg, size] of [
  ['icon-192.png', any(192), 192],
  ['icon-512.png', any(512), 512],
  ['icon-maskable-512.png', maskable(512), 512],
]) {
  await sharp(Buffer.from(svg)).resize(size, size).png({ compressionLevel: 9, palette: true }).toFile(resolve(out, name));
  console.log(`wrote web/public/icons/${name}`);
}
