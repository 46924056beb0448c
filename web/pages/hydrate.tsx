/**
 * The second step of a public page's start (web/public-entry.tsx): the page's React tree. Imported on its own
 * task after React itself, so that neither evaluation is one long task on a slow phone (issue 29.13); the
 * Worker preloads this module's chunks with the entry's (worker/lib/assets.ts, HYDRATION_MODULE).
 */
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { registerMapLoader } from '../components/map/loader';
import { PublicApp } from './PublicApp';
import type { PublicPageData } from './types';

// The map (Leaflet) is a lazy chunk, fetched only when a visitor opens a map (issue 15).
registerMapLoader(() => import('../components/map/QuizMap'));

/** Hydrates the server-rendered page in a transition: React yields to the browser every few ms (issue 19 §1). */
export async function hydratePublicPage(root: HTMLElement, data: PublicPageData): Promise<void> {
  // The results and team pages are a chunk of their own (page-registry.ts): loaded before hydrating such a page.
  if (data.kind === 'results' || data.kind === 'team' || data.kind === 'league') (await import('./results-pages')).registerResultPages();
  startTransition(() => {
    hydrateRoot(root, <PublicApp data={data} />);
  });
}
