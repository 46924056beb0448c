/**
 * The Worker's app with some ports replaced by fakes — the same door as production (createApp in
 * worker/app.ts, ports/deps.ts), no module-level override. Call it with `call(path, { app: testApp({…}) })`.
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createApp } from '../worker/app';
import { productionPorts, type PortFactories } from '../worker/ports/deps';

export function testApp(ports: Partial<PortFactories>) {
  const app = createApp({ ...productionPorts, ...ports });
  return {
    async fetch(req: Request): Promise<Response> {
      const ctx = createExecutionContext();
      const res = await app.fetch(req, env as unknown as Env, ctx);
      await waitOnExecutionContext(ctx);
      return res;
    },
  };
}
