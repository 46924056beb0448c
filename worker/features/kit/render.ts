/**
 * Renders one owner-kit item (issue 48.7). PDFs: the lazy kit renderer (renderer.ts, pdf-lib) with Inter's bundled
 * .woff bytes. PNGs: the element tree the kit renderer builds (images.tsx), drawn by the share-card engines
 * (share/render.ts, satori + resvg, lazy too) at the image's size. Neither engine nor template is in the Worker's main
 * module (docs/decisions/0017-lazy-module-rule.md).
 */
import { loadKitRenderer } from '../../lazy';
import { INTER_FONTS, renderCard } from '../share/service';
import type { KitItemKind } from './contract';
import type { KitData } from './data';

export interface RenderedKitItem {
  bytes: Uint8Array;
  /** The texts a PNG render drew (satori); none for PDFs. */
  texts?: string[];
}

export async function renderKitItem(kind: KitItemKind, data: KitData): Promise<RenderedKitItem> {
  const kit = await loadKitRenderer();
  if (kind === 'poster' || kind === 'tent') return { bytes: await kit.renderKitPdf(kind, data, INTER_FONTS) };
  const image =
    kind === 'top3-post' ? kit.topThreeImage('post', data) : kind === 'top3-story' ? kit.topThreeImage('story', data) : kit.nextQuizImage(kind, data);
  const { png, texts } = await renderCard(image.element, image.size);
  return { bytes: png, texts };
}
