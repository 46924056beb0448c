/**
 * Registers the service worker (issue 32, docs/features/pwa.md), loaded as a lazy chunk by the public entry
 * after the page's `load` event and an idle moment, so it never competes with the first paint or hydration
 * (test/e2e/lighthouse.test.ts, test/e2e/budgets.test.ts).
 *
 *  - The first visit: the page and the files it loaded are handed to the new worker (CACHE_URLS), so the
 *    page a visitor has just seen opens offline too.
 *  - A new build: its worker waits; a quiet bar "Ny version finns – ladda om" lets the visitor switch
 *    (SKIP_WAITING, then one reload when the new worker has taken over).
 *  - "Lägg till på hemskärmen": offered from the second visit on (visits counted in localStorage, no id),
 *    never on the first, and never again after "Inte nu".
 *  - "Lägg till i kalender" clicks keep that quiz in this browser for offline use (web/pwa/saved.ts).
 * The bars are plain DOM (this chunk carries no React) with the app's Tailwind classes.
 */

import { rememberCalendarClicks } from './saved';

const VISITS_KEY = 'qk-visits';
const INSTALL_DISMISSED_KEY = 'qk-install-dismissed';

interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

function bar(id: string, text: string, buttons: Array<{ label: string; primary?: boolean; onClick: () => void }>): HTMLElement {
  document.getElementById(id)?.remove();
  const el = document.createElement('div');
  el.id = id;
  el.setAttribute('role', 'status');
  el.className =
    'fixed inset-x-2 bottom-2 z-50 mx-auto flex max-w-xl flex-wrap items-center gap-3 rounded-lg border border-slate-200 bg-white p-3 text-sm text-slate-900 shadow-lg';
  const p = document.createElement('p');
  p.className = 'flex-1';
  p.textContent = text;
  el.appendChild(p);
  for (const b of buttons) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = b.label;
    button.className = b.primary
      ? 'rounded-md bg-brand-600 px-3 py-1.5 font-medium text-white hover:bg-brand-700'
      : 'rounded-md border border-slate-300 px-3 py-1.5 text-slate-700 hover:bg-slate-50';
    button.addEventListener('click', b.onClick);
    el.appendChild(button);
  }
  document.body.appendChild(el);
  return el;
}

function offerUpdate(waiting: ServiceWorker, onAccept: () => void) {
  bar('qk-update', 'Ny version finns – ladda om för att använda den.', [
    {
      label: 'Ladda om',
      primary: true,
      onClick: () => {
        onAccept();
        waiting.postMessage({ type: 'SKIP_WAITING' });
      },
    },
  ]);
}

/** Counts this visit; returns the count (1 on the first visit). */
function countVisit(): number {
  try {
    const n = (Number(localStorage.getItem(VISITS_KEY)) || 0) + 1;
    localStorage.setItem(VISITS_KEY, String(n));
    return n;
  } catch {
    return 1;
  }
}

function offerInstall(visits: number) {
  let dismissed = false;
  try {
    dismissed = localStorage.getItem(INSTALL_DISMISSED_KEY) === '1';
  } catch {
    // storage blocked: offer as usual
  }
  if (visits < 2 || dismissed || window.matchMedia('(display-mode: standalone)').matches) return;
  window.addEventListener('beforeinstallprompt', (e) => {
    e.preventDefault();
    const prompt = e as BeforeInstallPromptEvent;
    const el = bar('qk-install', 'Vill du ha Quizkväll som en app i telefonen?', [
      {
        label: 'Lägg till på hemskärmen',
        primary: true,
        onClick: () => {
          el.remove();
          void prompt.prompt();
        },
      },
      {
        label: 'Inte nu',
        onClick: () => {
          el.remove();
          try {
            localStorage.setItem(INSTALL_DISMISSED_KEY, '1');
          } catch {
            // nothing to remember it in
          }
        },
      },
    ]);
  });
}

export async function registerServiceWorker(): Promise<void> {
  // "Lägg till i kalender" clicks keep that quiz for offline use (localStorage; web/pwa/saved.ts).
  rememberCalendarClicks();
  if (!('serviceWorker' in navigator)) return;
  offerInstall(countVisit());
  const hadController = navigator.serviceWorker.controller !== null;
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });

  let accepted = false;
  navigator.serviceWorker.addEventListener('controllerchange', () => {
    if (accepted) window.location.reload();
  });
  const accept = () => {
    accepted = true;
  };
  if (registration.waiting && hadController) offerUpdate(registration.waiting, accept);
  registration.addEventListener('updatefound', () => {
    const next = registration.installing;
    next?.addEventListener('statechange', () => {
      // "installed" with a worker already in control: a new build is waiting. (The very first install has none.)
      if (next.state === 'installed' && navigator.serviceWorker.controller) offerUpdate(next, accept);
    });
  });

  if (!hadController) {
    const ready = await navigator.serviceWorker.ready;
    const files = performance
      .getEntriesByType('resource')
      .map((e) => e.name)
      .filter((u) => u.startsWith(`${location.origin}/assets/`));
    ready.active?.postMessage({ type: 'CACHE_URLS', urls: [location.href, ...files] });
  }
  document.documentElement.dataset.sw = 'registered';
}
