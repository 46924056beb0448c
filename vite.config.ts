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
 */
export default defineConfig({
  root: 'web',
  publicDir: 'public',
  plugins: [react(), tailwindcss(), VitePWA(pwaOptions)],
  build: {
    outDir: resolve(import.meta.dirname, 'dist/client'),
    emptyOutDir: true,
    manifest: 'manifest.json',
    rollupOptions: {
      input: {
        app: resolve(import.meta.dirname, 'web/index.html'),
        public: resolve(import.meta.dirname, 'web/public-entry.tsx'),
      },
    },
  },
  server: { proxy: { '/api': 'http://localhost:8787' } },
});
