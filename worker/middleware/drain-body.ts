/**
 * A request body the handler never read is read to its end before the response goes out.
 *
 * Signed-link pages take their POST (the page's form button, a mail client's RFC 8058 one-click
 * "List-Unsubscribe=One-Click") by the token in the URL and never read the body. workerd then resets the
 * keep-alive connection after the response, and the browser's next request on it fails ("connection reset";
 * the soak found it: every failure followed a confirmation POST). Reading the rest keeps the connection.
 * Bounded: a body past MAX_UNREAD_BODY_BYTES is cancelled instead (the connection may close, the answer stands).
 */
import type { MiddlewareHandler } from 'hono';

export const MAX_UNREAD_BODY_BYTES = 64 * 1024;

export const drainUnreadBody: MiddlewareHandler = async (c, next) => {
  await next();
  const req = c.req.raw;
  if (!req.body || req.bodyUsed) return;
  const length = Number(req.headers.get('content-length') ?? Number.NaN);
  if (!(length <= MAX_UNREAD_BODY_BYTES)) {
    await req.body.cancel().catch(() => undefined);
    return;
  }
  await req.arrayBuffer().catch(() => undefined);
};
