import './styles.css';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { startCounting } from './components/analytics/beacon';
import { registerMapLoader } from './components/map/loader';
import { PublicApp } from './pages/PublicApp';
import type { PublicPageData } from './pages/types';

// The map (Leaflet) is a lazy chunk, fetched only when a visitor opens a map (issue 15).
registerMapLoader(() => import('./components/map/QuizMap'));

const root = document.getElementById('root');
const dataEl = document.getElementById('__DATA__');
if (root && dataEl?.textContent) {
  const data = JSON.parse(dataEl.textContent) as PublicPageData;
  // Issue 19 §1: started by the boot script after the first paint; a transition hydrates in slices
  // (yielding to the browser every few ms) instead of one long task, so input is never blocked for long.
  // Clicks on buttons before hydration were held by the boot script: replay them once hydrated.
  new MutationObserver((_, observer) => {
    if (document.documentElement.dataset.hydrated !== 'true') return;
    observer.disconnect();
    const held = (window as unknown as { __qkBoot?: { stop(): HTMLElement[] } }).__qkBoot?.stop() ?? [];
    for (const button of held) if (button.isConnected) button.click();
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
  startTransition(() => {
    hydrateRoot(root, <PublicApp data={data} />);
  });
  // Privacy-first counting (issue 18): no cookie, no id; see components/analytics/beacon.ts.
  startCounting(root, { venueId: data.kind === 'venue' ? data.venue.id : undefined });
}
