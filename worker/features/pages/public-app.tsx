/** @jsxRuntime automatic @jsxImportSource react */
/**
 * The public pages' React tree with its renderer, as a lazy module (worker/lazy/public-app.bundle.js; decision 0017):
 * <PublicApp> and every web/ component it draws (~100 KB) are parsed only by a request that renders a page, not at
 * every cold start (issue 45: start-up). Reach it through publicAppRenderer() in lib/ssr.ts, never by importing it.
 *
 * The bundle renders with the main module's React (scripts/build-lazy-modules.mjs, hostReactPlugin), and it has its
 * own copy of every module it imports: the page registry below is this bundle's, so the result pages are registered
 * here, where <PublicApp> reads them.
 */
import { renderToString } from 'react-dom/server';
import { PublicApp } from '../../../web/pages/PublicApp';
import { registerResultPages } from '../../../web/pages/results-pages';
import type { PublicPageData } from './contract';

// The pages the browser loads as a chunk of their own are rendered here like every other (web/pages/page-registry.ts).
registerResultPages();

/** The page's body: the same tree the browser hydrates. */
export function renderPublicApp(data: PublicPageData): string {
  return renderToString(<PublicApp data={data} />);
}

/** The build this renderer is (React's production or development build): must be the main module's (ssr.ts). */
export const RENDERER_PRODUCTION = process.env.NODE_ENV === 'production';
