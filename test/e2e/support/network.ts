/**
 * Connections a story's HTTP client may reuse after the server has closed them.
 *
 * wrangler dev (workerd) closes a keep-alive connection after 5 s idle. Playwright's request context
 * (`page.request`, `context.request`) keeps idle connections in a Node agent with no idle limit of its own,
 * so a call made about 5 s after the previous one can be written to a socket the server is closing at that
 * moment: the call fails with "socket hang up (ECONNRESET)" before the server has read it. CI read exactly
 * that on a POST after a story's sign-in (issue 27: tests that do not flake).
 *
 * A browser retries a request that fails this way on a reused connection; Playwright does so when asked
 * (`maxRetries`, ECONNRESET only, after 250 ms). Every request context the stories use gets that default here.
 */
import type { APIRequestContext } from 'playwright-core';

/** Retries of a request whose connection was reset before any answer (Playwright retries ECONNRESET only). */
export const CONNECTION_RESET_RETRIES = 2;

const METHODS = ['fetch', 'get', 'post', 'put', 'patch', 'delete', 'head'] as const;

/** Makes every call on `request` retry a reset connection, unless the call sets `maxRetries` itself. Returns `request`. */
export function retryConnectionResets(request: APIRequestContext): APIRequestContext {
  for (const method of METHODS) {
    const original = request[method].bind(request) as (url: unknown, options?: Record<string, unknown>) => unknown;
    Object.defineProperty(request, method, {
      configurable: true,
      value: (url: unknown, options: Record<string, unknown> = {}) => original(url, { maxRetries: CONNECTION_RESET_RETRIES, ...options }),
    });
  }
  return request;
}

/** What Node's fetch (undici) says when the connection was reset: it retries a GET by itself, never a POST. */
function isConnectionReset(error: unknown): boolean {
  const code = (error as { cause?: { code?: string } })?.cause?.code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET';
}

/** The fetches retryingFetch made. */
const retrying = new WeakSet<typeof fetch>();

/**
 * Node's fetch with the same rule for the stories' own calls (`/dev/mail.json`, setup POSTs): undici closes an idle
 * connection after 4 s, one second before the server, so the race needs a busy machine, but a POST on a reset
 * connection is not retried by undici. A body that can be sent twice (none, or a string) is retried up to
 * {@link CONNECTION_RESET_RETRIES} times; a stream is not.
 */
export function retryingFetch(base: typeof fetch): typeof fetch {
  // The setup file wraps globalThis.fetch before every story file; files that share a worker's globals (vitest's
  // `isolate: false`) must not stack one retry loop on another.
  if (retrying.has(base)) return base;
  const wrapped: typeof fetch = async (input, init) => {
    const resendable = init?.body === undefined || init.body === null || typeof init.body === 'string';
    for (let attempt = 0; ; attempt++) {
      try {
        return await base(input, init);
      } catch (error) {
        if (!resendable || attempt >= CONNECTION_RESET_RETRIES || !isConnectionReset(error)) throw error;
        await new Promise((resolve) => setTimeout(resolve, 250 * 2 ** attempt));
      }
    }
  };
  retrying.add(wrapped);
  return wrapped;
}
