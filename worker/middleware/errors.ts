import type { ErrorHandler, NotFoundHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { AppEnv } from '../context';
import { AppError, errorBody } from '../lib/errors';
import { isOpenCheckoutAbort, openCheckoutConflict } from '../lib/open-checkout';
import { isSpaPath } from '../lib/spa-routes';

/** The one onError: AppError → its envelope; anything else → logged with the request id, generic 500. */
export const onError: ErrorHandler<AppEnv> = (err, c) => {
  if (err instanceof AppError) {
    if (err.status === 429 && err.details?.retryAfterSeconds) {
      c.header('Retry-After', String(err.details.retryAfterSeconds));
    }
    return c.json(errorBody(err), err.status);
  }
  // Backstop: a delete path that does not map the open-checkout trigger itself still answers 409.
  if (isOpenCheckoutAbort(err)) return c.json(errorBody(openCheckoutConflict()), 409);
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own validators throw these, e.g. for malformed JSON bodies.
    const code = err.status === 400 ? 'invalid_input' : err.status === 401 ? 'unauthorized' : 'forbidden';
    const message = err.status === 400 ? 'Ogiltig begäran: kontrollera att innehållet är giltig JSON.' : 'Begäran avvisades.';
    return c.json({ error: { code, message } }, err.status);
  }
  console.error(`[${c.get('requestId') ?? '-'}] unexpected error`, err);
  return c.json({ error: { code: 'internal', message: 'Något gick fel. Försök igen senare.' } }, 500);
};

/**
 * JSON 404 under /api. Everything else that reaches here is no static file (wrangler.toml
 * `not_found_handling = "none"` sends those to the Worker): a screen of the SPA (SPA_ROUTE_PATHS) gets
 * its index.html with 200; any other path the same page, whose router shows 'Ops! Sidan hittades inte',
 * with status 404 (issue 29.10).
 */
export const onNotFound: NotFoundHandler<AppEnv> = async (c) => {
  if (c.req.path.startsWith('/api/') || c.req.path === '/api') {
    return c.json({ error: { code: 'not_found', message: 'Resursen hittades inte.' } }, 404);
  }
  const screen = (c.req.method === 'GET' || c.req.method === 'HEAD') && isSpaPath(c.req.path);
  const index = await c.env.ASSETS.fetch(new Request(new URL('/index.html', c.req.url)));
  return new Response(c.req.method === 'HEAD' ? null : index.body, {
    status: screen ? 200 : 404,
    // The shell names hashed assets: a screen is always revalidated; an error page is never stored.
    headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': screen ? 'no-cache' : 'no-store' },
  });
};
