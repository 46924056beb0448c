/**
 * Real images for upload tests (the quizmaster photo's resize): a PNG of any size encoded here (CompressionStream,
 * no node: imports, so it runs in workerd), and small JPEG and WebP files made once with sharp.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(new TextEncoder().encode(type), 4);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('deflate'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** An RGB PNG of the given size: a gradient (red across, green down). `idat` replaces the image data (hostile files). */
export async function encodePng(width: number, height: number, idat?: Uint8Array): Promise<Uint8Array<ArrayBuffer>> {
  const header = new Uint8Array(13);
  const hv = new DataView(header.buffer);
  hv.setUint32(0, width);
  hv.setUint32(4, height);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter, no interlace
  let data = idat;
  if (!data) {
    const raw = new Uint8Array(height * (1 + width * 3));
    for (let y = 0; y < height; y++) {
      const row = y * (1 + width * 3);
      for (let x = 0; x < width; x++) raw.set([(x * 255) / width, (y * 255) / height, 128], row + 1 + x * 3);
    }
    data = await deflate(raw);
  }
  const parts = [new Uint8Array(PNG_SIGNATURE), chunk('IHDR', header), chunk('IDAT', data), chunk('IEND', new Uint8Array())];
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const fromBase64 = (s: string) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));

/** A 300 × 200 WebP (lossy, one colour). */
export const WEBP_300x200 = fromBase64(
  'UklGRvoAAABXRUJQVlA4IO4AAAAQFACdASosAcgAPzmcy18vKyklICgB4CcJaQDXzutS+QBPYB77ZOQ99scQyIiIiGRERES2VdERZwRCIiIiWyIhl1iERZ71oiWyIhkREVdEREMpNEMusQi2wiIiLkvsQ/sQy7zREQylFcRVcRFRjXWIXi3XCLbCIs4dVxFWlGYijoiH/usqItkuNEWVERZPagiKiAAxFAxELzNX0RYCy2Iq6IioxrrELvAAAP7fgD9Jo29oP/yS/Y/+pKMS/ldJPdUZMrpJ7qjJldJPc3nj17G0eiPguBtGPOLgyd2PiltKiY/NAQAAAAAAAAAAAAAA',
);

/** A 640 × 480 WebP (lossy, one colour): larger than the stored photo's side. */
export const WEBP_640x480 = fromBase64(
  'UklGRmICAABXRUJQVlA4IFYCAADQQwCdASqAAuABP83m8XO/uDOsoAgD8DmJaW7hd2EbQAnsA99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99snIe+2TkPfbJyHvtk5D32ych77ZOQ99smIAAD+/w2DuKaZ/zttFpdoAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
);

/** A 640 × 480 JPEG (baseline, one colour, quality 5): its header, a run of zero bytes, the end of the scan. */
export function jpeg640x480(): Uint8Array<ArrayBuffer> {
  const head = fromBase64(
    '/9j/2wBDAKBueIx4ZKCMgoy0qqC+8P//8Nzc8P//////////////////////////////////////////////////////////2wBDAaq0tPDS8P//////////////////////////////////////////////////////////////////////////////wAARCAHgAoADASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAL/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFgEBAQEAAAAAAAAAAAAAAAAAAAED/8QAFBEBAAAAAAAAAAAAAAAAAAAAAP/aAAwDAQACEQMRAD8AkBGg',
  );
  const out = new Uint8Array(head.length + 1798 + 3);
  out.set(head);
  out.set([0x3f, 0xff, 0xd9], head.length + 1798);
  return out;
}
