/**
 * The small server-rendered Swedish page behind a signed link in owner mail ("Ja, vi kör", "Ställ in",
 * "Stämmer fortfarande"): no session, no JavaScript, never cached or indexed. A GET only shows what the
 * link will do with one button; the button POSTs (mail scanners prefetch GETs). Text is escaped by hono/html.
 */
import type { Context } from 'hono';
import { html } from 'hono/html';
import type { HtmlEscapedString } from 'hono/utils/html';
import { AppError } from './errors';

export type LinkPageBody = HtmlEscapedString | Promise<HtmlEscapedString>;

/** The statuses a link page answers with: 200, or the status of the refusal it shows. */
export type LinkPageStatus = 200 | 400 | 404 | 409 | 429 | 503;

export function linkPage(c: Context, title: string, body: LinkPageBody, status: LinkPageStatus = 200) {
  c.header('cache-control', 'no-store');
  c.header('referrer-policy', 'no-referrer');
  return c.html(
    html`<!doctype html><html lang="sv"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title} | Quizkväll</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1f2937}button{font:inherit;padding:.5rem 1rem;border-radius:.5rem;border:1px solid #92400e;background:#b45309;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#92400e}li{margin:.75rem 0}form{display:inline}</style>
</head><body><main><p><a href="/">Quizkväll</a></p><h1>${title}</h1>${body}</main></body></html>`,
    status,
  );
}

/** A form whose one button POSTs back to the same link. */
export function linkButton(path: string, token: string, label: string) {
  return html`<form method="post" action="${path}?t=${encodeURIComponent(token)}"><button type="submit">${label}</button></form>`;
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
