/**
 * Reading the owner kit's files back in tests (issue 48.7): the QR code of a PDF (the filled rectangles of its /QR
 * marked-content section, rasterised) or of a PNG (decoded pixels), decoded with jsQR; a PNG's size and pixels.
 * Runs in workerd and Node alike (DecompressionStream, no node: imports).
 */
import jsQR from 'jsqr';
import { decodePDFRawStream, PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, type PDFObject } from 'pdf-lib';

async function inflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([new Uint8Array(bytes)]).stream().pipeThrough(new DecompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The decoded content streams of every page, as text. */
export async function pdfContentText(bytes: Uint8Array): Promise<{ pages: number; size: [number, number]; text: string; embeddedFonts: string[] }> {
  const doc = await PDFDocument.load(bytes);
  const pages = doc.getPages();
  let text = '';
  for (const page of pages) {
    const contents: PDFObject | undefined = page.node.Contents();
    const streams = contents instanceof PDFArray ? contents.asArray().map((r) => doc.context.lookup(r)) : [contents];
    for (const s of streams) if (s instanceof PDFRawStream) text += `${new TextDecoder('latin1').decode(decodePDFRawStream(s).decode())}\n`;
  }
  const { width, height } = pages[0]!.getSize();
  // Font descriptors with an embedded font file: their names.
  const embeddedFonts: string[] = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('FontDescriptor')) continue;
    if (['FontFile', 'FontFile2', 'FontFile3'].some((k) => obj.has(PDFName.of(k)))) embeddedFonts.push(String(obj.get(PDFName.of('FontName'))));
  }
  return { pages: pages.length, size: [width, height], text, embeddedFonts };
}

/** Rasterises the rectangles of the PDF's /QR section (1 module = `px` pixels, 4 modules of quiet zone) and decodes them. */
export async function pdfQrText(bytes: Uint8Array, px = 6): Promise<string | null> {
  const { text } = await pdfContentText(bytes);
  const section = /\/QR BMC([\s\S]*?)EMC/.exec(text)?.[1];
  if (!section) return null;
  const rects = [...section.matchAll(/(-?[\d.]+) (-?[\d.]+) (-?[\d.]+) (-?[\d.]+) re/g)].map(
    (m) => m.slice(1, 5).map(Number) as [number, number, number, number],
  );
  if (!rects.length) return null;
  const m = rects[0]![2];
  const minX = Math.min(...rects.map((r) => r[0]));
  const maxY = Math.max(...rects.map((r) => r[1] + r[3]));
  const cells = rects.map(([x, y]) => [Math.round((x - minX) / m), Math.round((maxY - y) / m) - 1] as const);
  const n = Math.max(...cells.flat()) + 1 + 8;
  const side = n * px;
  const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
  for (const [col, row] of cells) {
    for (let dy = 0; dy < px; dy++) {
      for (let dx = 0; dx < px; dx++) {
        const i = (((row + 4) * px + dy) * side + (col + 4) * px + dx) * 4;
        rgba[i] = rgba[i + 1] = rgba[i + 2] = 0;
      }
    }
  }
  return jsQR(rgba, side, side)?.data ?? null;
}

/** Width and height from the IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const sig = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (sig.some((b, i) => bytes[i] !== b)) throw new Error('not a PNG');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** RGBA pixels of an 8-bit, non-interlaced RGB or RGBA PNG (what resvg writes). */
export async function pngPixels(bytes: Uint8Array): Promise<{ width: number; height: number; rgba: Uint8ClampedArray }> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const { width, height } = pngSize(bytes);
  const depth = bytes[24]!;
  const colorType = bytes[25]!;
  if (depth !== 8 || (colorType !== 6 && colorType !== 2) || bytes[28] !== 0) throw new Error(`unsupported PNG: depth ${depth}, colour type ${colorType}`);
  const bpp = colorType === 6 ? 4 : 3;
  const idat: Uint8Array[] = [];
  for (let off = 8; off < bytes.length; ) {
    const len = view.getUint32(off);
    const type = new TextDecoder().decode(bytes.subarray(off + 4, off + 8));
    if (type === 'IDAT') idat.push(bytes.subarray(off + 8, off + 8 + len));
    off += 12 + len;
  }
  const all = new Uint8Array(idat.reduce((s, c) => s + c.length, 0));
  let o = 0;
  for (const c of idat) {
    all.set(c, o);
    o += c.length;
  }
  const raw = await inflate(all);
  const stride = width * bpp;
  const out = new Uint8Array(height * stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]!;
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    for (let x = 0; x < stride; x++) {
      const a = x >= bpp ? out[y * stride + x - bpp]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= bpp && y > 0 ? out[(y - 1) * stride + x - bpp]! : 0;
      let v = line[x]!;
      if (filter === 1) v += a;
      else if (filter === 2) v += b;
      else if (filter === 3) v += (a + b) >> 1;
      else if (filter === 4) {
        const p = a + b - c;
        const pa = Math.abs(p - a);
        const pb = Math.abs(p - b);
        const pc = Math.abs(p - c);
        v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      }
      out[y * stride + x] = v & 0xff;
    }
  }
  const rgba = new Uint8ClampedArray(width * height * 4);
  for (let i = 0, j = 0; i < width * height; i++, j += bpp) {
    rgba[i * 4] = out[j]!;
    rgba[i * 4 + 1] = out[j + 1]!;
    rgba[i * 4 + 2] = out[j + 2]!;
    rgba[i * 4 + 3] = bpp === 4 ? out[j + 3]! : 255;
  }
  return { width, height, rgba };
}

/** The text of the QR code found in a PNG, or null. */
export async function pngQrText(bytes: Uint8Array): Promise<string | null> {
  const { width, height, rgba } = await pngPixels(bytes);
  return jsQR(rgba, width, height)?.data ?? null;
}
