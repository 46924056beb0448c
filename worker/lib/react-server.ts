/**
 * react-dom/server as a lazy module (worker/lazy/react-server.bundle.js): only the server-rendered pages and the
 * embed widgets render React, so API requests, jobs and webhooks never load the renderer (~220 KB). Reach it
 * through reactServer() in ssr.ts, never by importing this file.
 *
 * FOOTGUN: the bundle must render with the main module's React (hooks dispatch through React's shared internals;
 * a second copy of React makes every hook throw). scripts/build-lazy-modules.mjs therefore answers the bundle's
 * `require('react')` with the React that ssr.ts puts on globalThis under HOST_REACT before loading it, and builds
 * it with the NODE_ENV wrangler uses for the main module (a production renderer cannot render with React's
 * development build: ssr.ts refuses the pair with a message).
 */
export { renderToStaticMarkup, renderToString } from 'react-dom/server';

/** The build this renderer is (React's production or development build): must be the main module's (ssr.ts). */
export const RENDERER_PRODUCTION = process.env.NODE_ENV === 'production';
