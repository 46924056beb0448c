/**
 * The installable app (issue 32, docs/features/pwa.md): vite-plugin-pwa builds web/pwa/sw.ts (injectManifest:
 * our own Workbox routes, the plugin only injects the precache list) into dist/client/sw.js and writes
 * dist/client/manifest.webmanifest. Registration is ours (web/pwa/register.ts, after load), so nothing is
 * added to the public pages' first paint.
 */
import type { VitePWAOptions } from 'vite-plugin-pwa';

/** Brand indigo of the design (web/styles.css --color-brand-600) and the page background (slate-50). */
export const THEME_COLOR = '#4338ca';
export const BACKGROUND_COLOR = '#f8fafc';

export const pwaOptions: Partial<VitePWAOptions> = {
  strategies: 'injectManifest',
  srcDir: 'pwa',
  filename: 'sw.ts',
  injectRegister: false,
  includeManifestIcons: true,
  manifest: {
    id: '/',
    name: 'Quizkväll – pubquiz nära dig',
    short_name: 'Quizkväll',
    description: 'Hitta veckans pubquiz i din stad: tider, ställen och bevakningar.',
    lang: 'sv',
    dir: 'ltr',
    start_url: '/',
    scope: '/',
    display: 'standalone',
    theme_color: THEME_COLOR,
    background_color: BACKGROUND_COLOR,
    icons: [
      { src: '/icons/icon-192.png', sizes: '192x192', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-512.png', sizes: '512x512', type: 'image/png', purpose: 'any' },
      { src: '/icons/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
    ],
  },
  injectManifest: {
    // The shell: the public entry's script and the stylesheet. Every other hashed file a public page loads is
    // cached when it is first used (web/pwa/sw.ts); owner and superadmin chunks are never precached.
    globPatterns: ['assets/public-*.js', 'assets/*.css', 'favicon.svg', 'offline.html', 'offline.js'],
  },
};
