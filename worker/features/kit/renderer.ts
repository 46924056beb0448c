/**
 * The owner kit's renderer (issue 48.7): the A4 poster and the A6 table tent as PDFs, drawn with pdf-lib and Inter
 * (embedded, subset), and the Instagram images' element tree (images.tsx, with its QR SVG), which render.ts hands to
 * the share engines. NOT imported by the Worker's main module: scripts/build-lazy-modules.mjs bundles this file into
 * worker/lazy/kit-renderer.bundle.js (pdf-lib + fontkit + uqr + the templates, ~1.4 MB), loaded by render.ts on the
 * first kit download (docs/decisions/0017-lazy-module-rule.md). It imports no font: render.ts passes Inter's .woff
 * bytes in.
 *
 * The QR code is drawn as filled rectangles inside a marked-content section tagged /QR (tests extract and decode
 * it), dark on white with a four-module quiet zone.
 */
import fontkit from '@pdf-lib/fontkit';
import {
  beginMarkedContent,
  endMarkedContent,
  fill,
  type PDFFont,
  PDFDocument,
  type PDFPage,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
} from 'pdf-lib';
import { encode, renderSVG } from 'uqr';
import type { ReactNode } from 'react';
import { clip, type KitData } from './data';
import { IMAGE_SIZES, type ImageKind, NextQuizImage, TopThreeImage } from './images';
import { KIT_COLORS, rgbOf } from './look';

export interface KitFonts {
  regular: ArrayBuffer;
  bold: ArrayBuffer;
}

/** A4 and A6 in PDF points (1/72 inch). */
export const PAGE_SIZES = { poster: [595.28, 841.89], tent: [297.64, 419.53] } as const;
export type PdfKind = keyof typeof PAGE_SIZES;

const color = (c: keyof typeof KIT_COLORS) => rgb(...rgbOf(KIT_COLORS[c]));

/** Words of `text` broken into lines no wider than `width` at `size` (a word longer than a line is cut). */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
      while (font.widthOfTextAtSize(line, size) > width && line.length > 1) line = line.slice(0, -1);
    }
  }
  if (line) lines.push(line);
  return lines;
}

/** The largest size from `max` down to `min` at which `text` fits in `maxLines` lines; clipped at `min`. */
function fitText(text: string, font: PDFFont, max: number, min: number, width: number, maxLines: number): { size: number; lines: string[] } {
  for (let size = max; size >= min; size -= 2) {
    const lines = wrap(text, font, size, width);
    if (lines.length <= maxLines) return { size, lines };
  }
  const lines = wrap(text, font, min, width);
  return { size: min, lines: lines.length > maxLines ? [...lines.slice(0, maxLines - 1), clip(lines[maxLines - 1]!, lines[maxLines - 1]!.length)] : lines };
}

/** Draws the QR code of `url` as a square of side `side` with its lower left corner at (x, y), quiet zone included. */
function drawQr(page: PDFPage, url: string, x: number, y: number, side: number): void {
  const qr = encode(url, { ecc: 'M', border: 4 });
  const n = qr.size;
  const m = side / n;
  const [r, g, b] = rgbOf(KIT_COLORS.ink);
  page.drawRectangle({ x, y, width: side, height: side, color: color('white') });
  const ops = [beginMarkedContent('QR'), pushGraphicsState(), setFillingRgbColor(r, g, b)];
  for (let row = 0; row < n; row++) {
    for (let col = 0; col < n; col++) {
      if (qr.data[row]![col]) ops.push(rectangle(x + col * m, y + side - (row + 1) * m, m, m));
    }
  }
  ops.push(fill(), popGraphicsState(), endMarkedContent());
  page.pushOperators(...ops);
}

/** The poster (A4) or table tent (A6) of one quiz or series. */
export async function renderKitPdf(kind: PdfKind, data: KitData, fonts: KitFonts): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  doc.setTitle(`Quiz på ${data.venueName}`);
  doc.setAuthor('Quizkväll');
  doc.setLanguage('sv-SE');
  doc.setCreator('Quizkväll');
  doc.setProducer('Quizkväll');
  const regular = await doc.embedFont(fonts.regular, { subset: true });
  const bold = await doc.embedFont(fonts.bold, { subset: true });
  const [W, H] = PAGE_SIZES[kind];
  const k = W / PAGE_SIZES.poster[0]; // scale of every measure: 1 on A4, 0.5 on A6
  const page = doc.addPage([W, H]);
  const margin = 44 * k;
  const inner = W - 2 * margin;

  // Header band: brand, kicker and the rhythm, white and lilac on indigo.
  const band = 300 * k;
  page.drawRectangle({ x: 0, y: H - band, width: W, height: band, color: color('indigo') });
  let y = H - margin - 30 * k;
  page.drawRectangle({ x: margin, y: y - 8 * k, width: 40 * k, height: 40 * k, color: color('amber') });
  page.drawText('?', { x: margin + 12 * k, y: y + 2 * k, size: 30 * k, font: bold, color: color('ink') });
  page.drawText('Quizkväll', { x: margin + 54 * k, y, size: 28 * k, font: bold, color: color('white') });
  y -= 58 * k;
  page.drawText(data.title ? clip(data.title, 60) : 'Pubquiz', { x: margin, y, size: 22 * k, font: regular, color: color('lilac') });
  const when = fitText(data.when, bold, 60 * k, 30 * k, inner, 2);
  for (const line of when.lines) {
    y -= when.size * 1.15;
    page.drawText(line, { x: margin, y, size: when.size, font: bold, color: color('white') });
  }

  // Venue and facts, dark on white.
  y = H - band - margin - 20 * k;
  const venue = fitText(data.venueName, bold, 40 * k, 22 * k, inner, 2);
  for (const line of venue.lines) {
    page.drawText(line, { x: margin, y, size: venue.size, font: bold, color: color('indigo') });
    y -= venue.size * 1.15;
  }
  for (const line of wrap(data.place, regular, 18 * k, inner).slice(0, 2)) {
    page.drawText(line, { x: margin, y, size: 18 * k, font: regular, color: color('slate') });
    y -= 24 * k;
  }
  y -= 14 * k;
  const facts: Array<[string, string]> = [
    ['Pris', data.price],
    ['Lag', data.teamSize ?? 'Valfri storlek'],
    ['Språk', data.language],
  ];
  for (const [label, value] of facts) {
    page.drawText(`${label}:`, { x: margin, y, size: 20 * k, font: bold, color: color('ink') });
    page.drawText(clip(value, 40), { x: margin + 80 * k, y, size: 20 * k, font: regular, color: color('ink') });
    y -= 30 * k;
  }

  // Next dates (left) and the QR code (right), above the footer. Six dates end above the footer even under a
  // two-line venue name and address; the dates' column ends left of the QR code.
  const qrSide = 190 * k;
  const qrX = W - margin - qrSide;
  const qrY = margin + 40 * k;
  const dates = data.dates.slice(0, kind === 'poster' ? 6 : 4);
  if (dates.length) {
    y -= 16 * k;
    page.drawText('Nästa datum', { x: margin, y, size: 20 * k, font: bold, color: color('indigo') });
    y -= 28 * k;
    for (const d of dates) {
      page.drawText(d, { x: margin, y, size: 18 * k, font: regular, color: color('ink') });
      y -= 25 * k;
    }
  }
  drawQr(page, data.url, qrX, qrY, qrSide);
  page.drawText('Skanna för alla datum', { x: qrX, y: qrY - 20 * k, size: 13 * k, font: bold, color: color('ink') });
  page.drawText(clip(data.urlText, 70), { x: margin, y: margin - 14 * k, size: 11 * k, font: regular, color: color('slate') });
  return doc.save();
}

/** The QR code of `url` as SVG (dark on white, quiet zone included): the Instagram images draw it as an image. */
export function qrSvg(url: string): string {
  return renderSVG(url, { ecc: 'M', border: 4, blackColor: KIT_COLORS.ink, whiteColor: KIT_COLORS.white, pixelSize: 10 });
}

/** An Instagram image of the next quiz: its element tree (for the share engines) and its size. */
export function nextQuizImage(kind: ImageKind, data: KitData): { element: ReactNode; size: { width: number; height: number } } {
  return { element: NextQuizImage({ kind, data, qrSvg: qrSvg(data.url) }), size: IMAGE_SIZES[kind] };
}

/** The "top 3" image of the latest night (data.night) at the post or story size, for the share engines. */
export function topThreeImage(kind: ImageKind, data: KitData): { element: ReactNode; size: { width: number; height: number } } {
  return { element: TopThreeImage({ kind, data, qrSvg: qrSvg(data.url) }), size: IMAGE_SIZES[kind] };
}
