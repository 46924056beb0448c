/**
 * A request body the handler never read is read before the answer (worker/middleware/drain-body.ts): workerd resets
 * the keep-alive connection otherwise, and the client's next request on it fails. The soak found it after every
 * signed-link confirmation POST; an early refusal (401, 403, 429) leaves a body unread the same way.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../worker/app';
import { MAX_UNREAD_BODY_BYTES } from '../../worker/middleware/drain-body';
import { productionPorts } from '../../worker/ports/deps';

const app = createApp(productionPorts);
const ORIGIN = 'http://localhost:8787';

async function post(path: string, body: BodyInit, headers: Record<string, string>) {
  const req = new Request(`${ORIGIN}${path}`, { method: 'POST', headers: { origin: ORIGIN, 'sec-fetch-site': 'same-origin', ...headers }, body });
  const ctx = createExecutionContext();
  const res = await app.fetch(req, env as unknown as Env, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return { req, status: res.status };
}

describe('an unread request body', () => {
  const form = { 'content-type': 'application/x-www-form-urlencoded' };
  it.each([
    ['a follow confirmation (the form button)', '/bevakningar/bekrafta?t=x', 'x=1', form],
    ['a one-click unsubscribe (RFC 8058)', '/bevakningar/avsluta?t=x', 'List-Unsubscribe=One-Click', form],
    ['a "Vi kommer" confirmation', '/vi-kommer/bekrafta?t=x', 'x=1', form],
    ['an owner route refused before its body (401)', '/api/owner/quizzes', '{"date":"2049-01-01"}', { 'content-type': 'application/json' }],
  ])('%s is read before the answer', async (_label, path, body, headers) => {
    const { req, status } = await post(path, body, headers);
    expect(status).toBeGreaterThanOrEqual(400);
    expect(req.bodyUsed, path).toBe(true);
  });

  it('past the bound, or of unknown length, it is cancelled, not read', async () => {
    const big = 'x'.repeat(MAX_UNREAD_BODY_BYTES + 1);
    const known = await post('/bevakningar/bekrafta?t=x', big, form);
    expect(known.req.bodyUsed).toBe(true);
    let pulled = 0;
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        controller.enqueue(new Uint8Array(16 * 1024));
      },
    });
    const unknown = await post('/bevakningar/bekrafta?t=x', endless, form);
    expect(unknown.req.bodyUsed).toBe(true);
    expect(pulled).toBeLessThan(8);
  });
});
