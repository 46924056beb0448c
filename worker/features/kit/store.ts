/**
 * Rendered kit items in R2 (issue 48.7), in the share cards' bucket (CARDS) under `kit/`: an item is rendered at
 * most once per content. The key is the item plus a SHA-256 of exactly what it draws (KitData) and the template
 * version, so the item's data version is its content: a write that changes what the poster says (a new date, a
 * new price, the next Stockholm day) makes a new key; anything else finds the stored bytes and renders nothing.
 *
 * A miss renders, limited per account (KIT_RENDER_LIMIT per KIT_RENDER_WINDOW_MS, D1 rate limit). R2 is an
 * optimisation: a failed read or write is a warning and the item is rendered as if it were missing.
 */
import type { Db } from '../../db/client';
import { rateLimited } from '../../lib/errors';
import { takeAttempt } from '../../lib/rate-limit';
import type { KitFile, KitUnitKind } from './contract';
import type { KitData } from './data';

/** Bump when renderer.ts, images.tsx, look.ts or the fonts change how an item looks: every item renders anew. */
export const KIT_TEMPLATE_VERSION = 1;
/** Renders (items not stored) one account may cause per window. */
export const KIT_RENDER_LIMIT = 20;
export const KIT_RENDER_WINDOW_MS = 60_000;

export interface KitStoreDeps {
  /** The CARDS bucket (absent: every download renders). */
  bucket: R2Bucket | undefined;
  db: Db;
  now: Date;
  userId: string;
  /** Runs the R2 write after the response is sent (ctx.waitUntil). */
  defer: (work: Promise<unknown>) => void;
}

export interface KitItemRef {
  unit: KitUnitKind;
  id: string;
  file: KitFile;
}

/** `kit/t{template}/{unit}/{id}/{file stem}/{sha256}.{ext}` */
export async function kitObjectKey(ref: KitItemRef, data: KitData): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([KIT_TEMPLATE_VERSION, ref.file, data])));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  const dot = ref.file.lastIndexOf('.');
  return `kit/t${KIT_TEMPLATE_VERSION}/${ref.unit}/${encodeURIComponent(ref.id)}/${ref.file.slice(0, dot)}/${hex}${ref.file.slice(dot)}`;
}

function tooManyRenders(retryAfterMs: number) {
  return rateLimited('För många nya filer på kort tid. Försök igen om en minut.', Math.ceil(retryAfterMs / 1000));
}

/** The item's bytes from R2, or rendered with `render` (one counted render for the account) and stored. */
export async function storedOrRendered(
  deps: KitStoreDeps,
  ref: KitItemRef,
  data: KitData,
  contentType: string,
  render: () => Promise<{ bytes: Uint8Array; texts?: string[] }>,
): Promise<{ bytes: Uint8Array; source: 'store' | 'render'; texts?: string[] }> {
  const key = await kitObjectKey(ref, data);
  if (deps.bucket) {
    try {
      const hit = await deps.bucket.get(key);
      if (hit) return { bytes: new Uint8Array(await hit.arrayBuffer()), source: 'store' };
    } catch (err) {
      console.warn(JSON.stringify({ msg: 'kit store: read failed, rendering', key, error: String(err) }));
    }
  }
  await takeAttempt(deps.db, `kit-render:${deps.userId}`, KIT_RENDER_LIMIT, KIT_RENDER_WINDOW_MS, deps.now, tooManyRenders);
  const { bytes, texts } = await render();
  if (deps.bucket) {
    deps.defer(
      deps.bucket.put(key, bytes, { httpMetadata: { contentType } }).catch((err: unknown) => {
        console.warn(JSON.stringify({ msg: 'kit store: write failed', key, error: String(err) }));
      }),
    );
  }
  return { bytes, source: 'render', ...(texts ? { texts } : {}) };
}
