/**
 * Lazy modules: heavy, rarely used code uploaded as separate Worker modules and loaded with a dynamic
 * import() on first use, so the main module every cold start parses stays small (issue 19 §6; README
 * "Speed at scale", lazy modules). wrangler's esbuild does not split code, so each `*.bundle.js` here is
 * pre-bundled by scripts/build-lazy-modules.mjs (run by wrangler's [build] command and by
 * vitest.config.ts; gitignored) and found by `find_additional_modules` with `base_dir = "worker/lazy"`.
 *
 * FOOTGUN: the specifiers below must stay literal and relative to THIS folder: esbuild keeps them as
 * written, and at run time they resolve against the main module, which sits at the root of base_dir.
 * Import a lazy module only through these loaders. Types: the `*.bundle.d.ts` beside each bundle.
 * When code goes lazy, and the footguns (a bundle's own copies of classes): docs/decisions/0017-lazy-module-rule.md.
 */

/** satori + resvg (worker/features/share/renderer.ts). */
export const loadShareRenderer = () => import('./share-renderer.bundle.js');

/** The Stripe SDK (its workerd build). */
export const loadStripeSdk = () => import('./stripe.bundle.js');

/** ical.js: reading calendar feeds (worker/features/calendar-sync/ics.ts; the sync, its preview and job). */
export const loadCalendarParser = () => import('./calendar-parser.bundle.js');

/** ical-generator: writing .ics downloads and feeds (worker/features/calendar/ics.ts). */
export const loadCalendarWriter = () => import('./calendar-writer.bundle.js');

/** papaparse: reading CSV files (worker/lib/csv-parse.ts; the admin import). */
export const loadCsvParser = () => import('./csv-parser.bundle.js');

/** pdf-lib + fontkit + uqr: the owner kit's PDFs and QR codes (worker/features/kit/renderer.ts). */
export const loadKitRenderer = () => import('./kit-renderer.bundle.js');

/**
 * react-dom/server, rendering with the main module's React (worker/lib/ssr.ts reactServer(); embeds, link pages), in
 * the same build as that React: production, or development (vitest, `wrangler dev` without NODE_ENV=production).
 */
export const loadReactServer = () => (process.env.NODE_ENV === 'production' ? import('./react-server.bundle.js') : import('./react-server-dev.bundle.js'));

/**
 * The public pages' React tree with react-dom/server (worker/features/pages/public-app.tsx; lib/ssr.ts publicAppRenderer()),
 * in both of React's builds as the renderer above.
 */
export const loadPublicApp = () => (process.env.NODE_ENV === 'production' ? import('./public-app.bundle.js') : import('./public-app-dev.bundle.js'));
