import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { VitePWA } from 'vite-plugin-pwa';
import { pwaOptions } from './web/pwa/options';

/**
 * Builds the browser side into dist/client (served by the Worker's static assets):
 *  - index.html + main.tsx: the SPA (login, register, owner dashboard, superadmin), code-split per screen;
 *  - public-entry.tsx: hydrates the server-rendered public pages; kept lean (no router, no owner code).
 * manifest.json tells the Worker which hashed files a server-rendered page must link.
 *  - sw.js + manifest.webmanifest (issue 32, docs/features/pwa.md): the installable app's service worker and manifest.
 *
 * Chunks are named after their contents (issue 28.9): libraries in `vendor-*` groups (rolldown's
 * output.codeSplitting, https://rolldown.rs/in-depth/manual-code-splitting), and every other chunk by
 * chunkName below — e.g. the code shared by the public pages and the SPA (header, footer, session, ui)
 * is `shell-*.js`, not whichever module rolldown met first.
 */
/** One chunk per library family; a higher priority claims a module first (react before react-router). */
const VENDOR_GROUPS = [
  { name: 'vendor-react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 30 },
  { name: 'vendor-router', test: /node_modules[\\/](react-router|@remix-run)[\\/]/, priority: 20 },
  { name: 'vendor-query', test: /node_modules[\\/]@tanstack[\\/]/, priority: 20 },
  { name: 'vendor-zod', test: /node_modules[\\/]zod[\\/]/, priority: 20 },
  { name: 'vendor-form', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/, priority: 20 },
  { name: 'vendor-leaflet', test: /node_modules[\\/]leaflet[\\/]/, priority: 20 },
];

/** Chunk file names that say what is inside (names that would repeat, like `contract` or `api`, get their folder). */
export function chunkName(chunk: { name: string; moduleIds: readonly string[] }): string {
  if (chunk.name.startsWith('vendor-')) return chunk.name;
  const ids = chunk.moduleIds.map((id) => id.replace(/\\/g, '/'));
  if (ids.some((id) => id.endsWith('/web/components/layout/Header.tsx'))) return 'shell';
  if (!GENERIC_NAMES.has(chunk.name)) return chunk.name;
  const own = ids.find((id) => new RegExp(`/${chunk.name}\\.tsx?$`).test(id));
  const folder = own?.split('/').at(-2);
  return folder ? `${folder}-${chunk.name}` : chunk.name;
}
/**
 * The site's stylesheet (web/styles.css): imported by the SPA's entry only (index.html → main.tsx), so it is that entry's
 * CSS. The public entry imports none: a public page inlines the sheet (worker/lib/critical-css.ts), and a CSS dependency
 * of the public chunks would make Vite's preload helper link the whole sheet again on hydration (issue 29.13).
 */
export function isShellStylesheet(asset: { names?: readonly string[]; originalFileNames?: readonly string[] }): boolean {
  return (asset.names ?? []).some((n) => n.endsWith('.css')) && (asset.originalFileNames ?? []).includes('index.html');
}
const GENERIC_NAMES = new Set(['api', 'contract', 'index', 'messages', 'components', 'schemas', 'types']);

export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), VitePWA(pwaOptions)],
  build: {
    outDir: resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    manifest: 'manifest.json',
    rolldownOptions: {
      input: {
        app: resolve(import.meta.dirname, 'web/index.html'),
        public: resolve(import.meta.dirname, 'web/public-entry.tsx'),
      },
      output: {
        codeSplitting: { groups: VENDOR_GROUPS },
        chunkFileNames: (chunk) => `assets/${chunkName(chunk)}-[hash].js`,
        // The site's stylesheet is named after the shell it styles, not after the entry that imports it (`app`).
        assetFileNames: (asset) => (isShellStylesheet(asset) ? 'assets/shell-[hash][extname]' : 'assets/[name]-[hash][extname]'),
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8787' } },
});
