/**
 * The no-JavaScript floor of a public page (issue 19 §1): the very same HTML the app served, with every
 * stylesheet inlined and every script (also JSON and JSON-LD) and modulepreload removed — what the page
 * would cost if it shipped no JavaScript at all. Test/bench only: the transformation runs here, on HTML
 * fetched from the app, and the result is served by a tiny loopback server that answers everything else
 * (icons, CSS, images) by proxying to the app, so the only difference Lighthouse sees is the HTML.
 * Nothing of this is reachable in production.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

/** The floor of `html`: stylesheets inlined (text from `css(href)`), scripts and modulepreloads gone. */
export async function floorHtml(html: string, css: (href: string) => Promise<string>): Promise<string> {
  let out = html;
  for (const m of [...out.matchAll(/<link rel="stylesheet" href="([^"]+)"[^>]*>/g)]) {
    out = out.replace(m[0], `<style>${await css(m[1]!.replace(/&amp;/g, '&'))}</style>`);
  }
  return out
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, '')
    .replace(/<link rel="modulepreload"[^>]*>/g, '')
    .replace(/<link rel="preload" as="script"[^>]*>/g, '');
}

/** Gzipped like the app answers (wrangler dev and Cloudflare compress text), so transfer sizes compare. */
function send(req: IncomingMessage, res: ServerResponse, status: number, type: string, cacheControl: string, body: Buffer) {
  const gzip = /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? '')) && /^(text\/|application\/(json|xml|javascript)|image\/svg)/.test(type);
  res.writeHead(status, { 'content-type': type, 'cache-control': cacheControl, ...(gzip ? { 'content-encoding': 'gzip', vary: 'accept-encoding' } : {}) });
  res.end(gzip ? gzipSync(body) : body);
}

export interface FloorServer {
  /** Base URL of the floor server; `${base}${path}` is the floor of `${app}${path}`. */
  base: string;
  close(): Promise<void>;
}

/**
 * Fetches each path from `app` once, builds its floor and serves it from 127.0.0.1 on a free port
 * (from memory: no slower than the app's edge-cache hit). Any other path is proxied to the app.
 */
export async function startFloorServer(app: string, paths: string[]): Promise<FloorServer> {
  const floors = new Map<string, string>();
  const css = async (href: string) => {
    const res = await fetch(new URL(href, app));
    if (!res.ok) throw new Error(`floor: ${href} answered ${res.status}`);
    return res.text();
  };
  for (const p of paths) {
    const res = await fetch(app + p);
    if (!res.ok) throw new Error(`floor: ${p} answered ${res.status}`);
    floors.set(p, await floorHtml(await res.text(), css));
  }
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const floor = floors.get(path);
    if (floor !== undefined) {
      send(req, res, 200, 'text/html; charset=utf-8', 'no-store', Buffer.from(floor));
      return;
    }
    fetch(app + path, { headers: { accept: req.headers.accept ?? '*/*' } })
      .then(async (r) => {
        send(
          req,
          res,
          r.status,
          r.headers.get('content-type') ?? 'application/octet-stream',
          r.headers.get('cache-control') ?? 'no-store',
          Buffer.from(await r.arrayBuffer()),
        );
      })
      .catch(() => {
        res.writeHead(502).end();
      });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (!addr || typeof addr !== 'object') throw new Error('floor server: no port');
  return {
    base: `http://127.0.0.1:${addr.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
