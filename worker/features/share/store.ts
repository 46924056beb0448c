/**
 * Rendered share cards in R2 (issue 26.4): a card is rendered at most once per content. An uncached
 * render costs ~200 ms of CPU (docs/features/share-card-cost.md), so the edge cache alone — per data centre, and
 * missed by every data-version bump and every deployment — is not enough.
 *
 * The object key is the card (its og path) plus a SHA-256 of exactly what the card draws (CardData) and
 * the template version: the public-data version and the Stockholm date reach the card only through its
 * data, so a write that changes a card's text makes a new key, and a write that does not (another city's
 * quiz) reuses the stored PNG. Old objects are never read again; a bucket lifecycle rule removes them.
 *
 * A miss renders, and renders are limited per client (D1 rate limit, OG_RENDER_CLIENT_LIMIT per
 * OG_RENDER_WINDOW_MS): an edge-cache hit and a stored card cost no render and count nothing. R2 is an
 * optimisation: if it fails, the card is rendered (and limited) as if it were missing.
 */
import type { Db } from '../../db/client';
import { rateLimited } from '../../lib/errors';
import { takeAttempt } from '../../lib/rate-limit';
import type { CardData } from './card';
import { ogImagePath, type CardRef } from './service';

/** Bump when the template (card.tsx), its fonts or the renderer change how a card looks: every card renders anew. */
export const CARD_TEMPLATE_VERSION = 1;
/** Renders (cards neither edge-cached nor stored) one client may cause per window. */
export const OG_RENDER_CLIENT_LIMIT = 10;
export const OG_RENDER_WINDOW_MS = 60_000;

export interface CardStoreDeps {
  /** The CARDS bucket (absent: every miss renders). */
  cards: R2Bucket | undefined;
  db: Db;
  now: Date;
  /** The requesting client (rate-limit.ts clientKeyOf). */
  clientKey: string;
  /** Runs the R2 write after the response is sent (ctx.waitUntil). */
  defer: (work: Promise<unknown>) => void;
}

export interface StoredCard {
  png: Uint8Array;
  /** 'store': read from R2; 'render': rendered by this request (and being stored). */
  source: 'store' | 'render';
  /** The texts the card draws (only known when rendered here). */
  texts?: string[];
}

/** The R2 key of a card with this content: `t{template}/{kind}/{…path}/{sha256}.png`. */
export async function cardObjectKey(ref: CardRef, data: CardData): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(JSON.stringify([CARD_TEMPLATE_VERSION, ref.kind, data])));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  // ogImagePath is '/og/<kind>/<…>.png' with each segment URI-encoded: safe as an object key.
  return `t${CARD_TEMPLATE_VERSION}/${ogImagePath(ref).slice('/og/'.length, -'.png'.length)}/${hex}.png`;
}

/** Refusal when a client asks for too many renders (429, Retry-After). */
function tooManyRenders(retryAfterMs: number) {
  return rateLimited('För många nya delningsbilder från din anslutning. Försök igen om en minut.', Math.ceil(retryAfterMs / 1000));
}

/**
 * The card's PNG from R2, or rendered with `render` (one counted render for the client; past the limit a
 * 429) and stored. `render` throws on a render failure; nothing is stored then.
 */
export async function storedOrRendered(
  deps: CardStoreDeps,
  ref: CardRef,
  data: CardData,
  render: () => Promise<{ png: Uint8Array; texts: string[] }>,
): Promise<StoredCard> {
  const key = await cardObjectKey(ref, data);
  if (deps.cards) {
    try {
      const hit = await deps.cards.get(key);
      if (hit) return { png: new Uint8Array(await hit.arrayBuffer()), source: 'store' };
    } catch (err) {
      console.warn(JSON.stringify({ msg: 'share card store: read failed, rendering', key, error: String(err) }));
    }
  }
  await takeAttempt(deps.db, `og-render:${deps.clientKey}`, OG_RENDER_CLIENT_LIMIT, OG_RENDER_WINDOW_MS, deps.now, tooManyRenders);
  const { png, texts } = await render();
  if (deps.cards) {
    deps.defer(
      deps.cards.put(key, png, { httpMetadata: { contentType: 'image/png' } }).catch((err: unknown) => {
        console.warn(JSON.stringify({ msg: 'share card store: write failed', key, error: String(err) }));
      }),
    );
  }
  return { png, source: 'render', texts };
}
