/**
 * react-dom/server as a lazy module (worker/lazy/react-server.bundle.js): only the server-rendered pages and the
 * embed widgets render React, so API requests, jobs and webhooks never load the renderer (~220 KB). Reach it
 * through reactServer() in ssr.ts, never by importing this file.
 *
 * FOOTGUN: the bundle must render with the main module's React (hooks dispatch through React's shared internals;
 * a second copy of React makes every hook throw). scripts/build-lazy-modules.mjs therefore answers the bundle's
 * `require('react')` with the React that ssr.ts puts on globalThis under HOST_REACT before loading it.
 */
export { renderToStaticMarkup, renderToString } from 'react-dom/server';
