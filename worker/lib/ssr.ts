/**
 * The React server renderer, loaded on first use (react-server.ts, a lazy module; docs/decisions/0017-lazy-module-rule.md).
 * The bundle has no React of its own: it uses this one, handed over on globalThis under HOST_REACT.
 */
import React from 'react';
import { loadPublicApp, loadReactServer } from '../lazy';

/** Must equal HOST_REACT in scripts/build-lazy-modules.mjs. */
export const HOST_REACT = Symbol.for('quizkvall:react');

/** renderToString / renderToStaticMarkup of react-dom/server, rendering with the main module's React. */
export async function reactServer(): Promise<Awaited<ReturnType<typeof loadReactServer>>> {
  (globalThis as Record<symbol, unknown>)[HOST_REACT] ??= React;
  const server = await loadReactServer();
  if (server.RENDERER_PRODUCTION !== (process.env.NODE_ENV === 'production'))
    throw new Error(
      `react-server.bundle.js was built with NODE_ENV=${server.RENDERER_PRODUCTION ? 'production' : 'development'}, the Worker with React's other build: run wrangler with the same NODE_ENV as the lazy-module build (npm start sets production)`,
    );
  return server;
}

/** The public pages' tree and renderer (worker/features/pages/public-app.tsx), loaded on first use as reactServer(). */
export async function publicAppRenderer(): Promise<Awaited<ReturnType<typeof loadPublicApp>>> {
  (globalThis as Record<symbol, unknown>)[HOST_REACT] ??= React;
  const renderer = await loadPublicApp();
  if (renderer.RENDERER_PRODUCTION !== (process.env.NODE_ENV === 'production'))
    throw new Error(
      `public-app.bundle.js was built with NODE_ENV=${renderer.RENDERER_PRODUCTION ? 'production' : 'development'}, the Worker with React's other build: run wrangler with the same NODE_ENV as the lazy-module build (npm start sets production)`,
    );
  return renderer;
}
