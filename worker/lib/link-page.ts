/**
 * The server-rendered Swedish page behind a signed link in mail ("Ja, vi kör", "Ställ in", "Stämmer fortfarande",
 * "Mina bevakningar", "Radera min adress"): no session, never cached or indexed. A GET only shows what the link
 * will do with one button; the button POSTs (mail scanners prefetch GETs). Text is escaped by hono/html.
 * Issue 44.7: the page wears the site's frame — header, footer and the public pages' stylesheet, inlined and cut to
 * what the page uses (web/pages/LinkFrame.tsx) — and still needs no JavaScript.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { createElement } from 'react';
import { LINK_BUTTON, LinkFrame } from '../../web/pages/LinkFrame';
import { getPublicAssets } from './assets';
import { splitCss } from './critical-css';
import { reactServer } from './ssr';
import { AppError } from './errors';

export { LINK_BUTTON, LINK_BUTTON_SECONDARY } from '../../web/pages/LinkFrame';

export type LinkPageBody = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The statuses a link page answers with: 200, or the status of the refusal it shows. */
export type LinkPageStatus = 200 | 400 | 404 | 409 | 429 | 503;

const BODY_CLASS = 'bg-slate-50 text-slate-900 antialiased';
const escapeText = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The whole document: the frame around `body`, with the site's CSS inlined (none without a build). */
async function renderLinkPage(assetsBinding: Fetcher | undefined, title: string, body: LinkPageBody): Promise<string> {
  // The React renderer is a lazy module (docs/decisions/0017-lazy-module-rule.md), as for the public pages.
  const { renderToStaticMarkup } = await reactServer();
  const frame = renderToStaticMarkup(createElement(LinkFrame, { title, bodyHtml: String(await body) }));
  const assets = await getPublicAssets(assetsBinding);
  const css = assets.inlineCss === null ? null : splitCss(assets.inlineCss, `<body class="${BODY_CLASS}">${frame}`).critical;
  return `<!doctype html><html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><meta name="theme-color" content="#4338ca"><link rel="icon" href="/favicon.svg" type="image/svg+xml">
<title>${escapeText(title)} | Quizkväll</title>${css === null ? '' : `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>`}
</head><body class="${BODY_CLASS}">${frame}</body></html>`;
}

export function linkPage(c: Context, title: string, body: LinkPageBody, status: LinkPageStatus = 200) {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  return c.html(renderLinkPage((c.env as { ASSETS?: Fetcher } | undefined)?.ASSETS, title, body), status);
}

/** A form whose one button POSTs back to the same link. */
export function linkButton(path: string, token: string, label: string) {
  return html`<form method="post" action="${path}?t=${encodeURIComponent(token)}"><button type="submit" class="${LINK_BUTTON}">${label}</button></form>`;
}

/**
 * A refused link (bad, expired or used token; gone row; links switched off) as a page that keeps the
 * error's own status (issue 27.4: a 503 "links do not work right now" was answered as a 400). Anything
 * that is not a shown refusal is thrown on to the one error handler. `after` follows the refusal's text (e.g. a
 * link to the start page).
 */
export function linkErrorPage(c: Context, title: string, err: unknown, after: LinkPageBody | '' = ''): Response | Promise<Response> {
  if (err instanceof AppError && (err.status === 400 || err.status === 404 || err.status === 409 || err.status === 429 || err.status === 503)) {
    return linkPage(c, title, html`<p>${err.message}</p>${after}`, err.status);
  }
  throw err;
}

/**
 * The one signed-link page guard (issue 28.7): runs the page's work and answers a refusal it throws as a
 * link page with the refusal's own status (`linkErrorPage`, `after` below its text); anything else goes on
 * to the error handler.
 */
export async function linkGuard(c: Context, title: string, work: () => Response | Promise<Response>, after: LinkPageBody | '' = ''): Promise<Response> {
  try {
    return await work();
  } catch (err) {
    return linkErrorPage(c, title, err, after);
  }
}
