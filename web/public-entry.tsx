// No stylesheet import: a public page inlines all of web/styles.css (worker/lib/critical-css.ts), so nothing here may
// make Vite's preload helper link the whole sheet again (a restyle of the whole page, issue 29.13).
import { startCounting } from './components/analytics/beacon';
import type { PublicPageData } from './pages/types';

/** The next task: what follows runs after the browser has had its turn (input, paint). */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Text typed or a choice made before hydration (a fast visitor types into "Sök" while the page is still
 * static): React adopts the DOM's value without an onChange, so the listing would never hear of it.
 * Announce each such field once, as the browser would have: React's value tracker is first told the
 * server's value (the instance setter), the typed value is put back past it (the prototype setter), and
 * the input/change event then reaches the component's onChange.
 */
function announceEarlyEdits(scope: HTMLElement) {
  for (const el of scope.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea')) {
    if (['checkbox', 'radio', 'hidden', 'submit', 'button'].includes(el.type) || el.value === el.defaultValue) continue;
    const typed = el.value;
    el.value = el.defaultValue;
    Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el) as object, 'value')?.set?.call(el, typed);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  for (const el of scope.querySelectorAll('select')) {
    if ([...el.options].some((o) => o.selected !== o.defaultSelected)) el.dispatchEvent(new Event('change', { bubbles: true }));
  }
}

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
    announceEarlyEdits(root);
  }).observe(document.documentElement, { attributes: true, attributeFilter: ['data-hydrated'] });
  // Privacy-first counting (issue 18): no cookie, no id; see components/analytics/beacon.ts.
  startCounting(root, { venueId: data.kind === 'venue' ? data.venue.id : undefined, resultsVenueId: data.kind === 'results' ? data.venue.id : undefined });
  void hydrate(root, data);
}

/**
 * Issue 29.13: evaluating React and evaluating the page's components were one task of ~35 ms (×4 on a slow phone),
 * most of the pages' Total Blocking Time. Each is now a task of its own, and the hydration (a transition, in
 * slices) starts in a third. The chunks are preloaded by the boot script already; these imports only evaluate.
 */
async function hydrate(root: HTMLElement, data: PublicPageData) {
  await import('react-dom/client');
  await nextTask();
  const { hydratePublicPage } = await import('./pages/hydrate');
  await nextTask();
  await hydratePublicPage(root, data);
}

// Issue 32: the service worker (offline, "Lägg till på hemskärmen", new versions) is registered by a lazy chunk
// after the page has loaded and the browser is idle: it adds nothing to the first paint or to hydration.
function startPwa() {
  const go = () => void import('./pwa/register').then((m) => m.registerServiceWorker()).catch(() => undefined);
  if ('requestIdleCallback' in window) window.requestIdleCallback(go, { timeout: 5000 });
  else setTimeout(go, 1000);
}
if (document.readyState === 'complete') startPwa();
else window.addEventListener('load', startPwa, { once: true });
