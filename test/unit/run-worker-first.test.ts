/**
 * Every page the Worker serves must be in `run_worker_first` (wrangler.toml): otherwise the assets layer
 * answers a browser's HTML navigation with the SPA's index.html and the Worker never sees it (the
 * signed-link pages /helgdag and /bekrafta-quiz were missing). The Worker's routes are the keys of the
 * authorization matrix (test/integration/security/route-table.ts, read as text: it imports the
 * workerd-only test factories).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function runWorkerFirst(): string[] {
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8');
  const block = /run_worker_first\s*=\s*\[([\s\S]*?)\]/.exec(toml);
  if (!block) throw new Error('no run_worker_first in wrangler.toml');
  return [...block[1]!.matchAll(/"([^"]+)"/g)].map((m) => m[1]!);
}

/** wrangler's patterns: an exact path, or a prefix ending in "/*". */
function covered(path: string, patterns: string[]): boolean {
  return patterns.some((p) => (p.endsWith('/*') ? path.startsWith(p.slice(0, -1)) : p === path));
}

function workerGetPaths(): string[] {
  const table = readFileSync(join(root, 'test', 'integration', 'security', 'route-table.ts'), 'utf8');
  return [...new Set([...table.matchAll(/^\s*'GET (\/[^' ]*)'\s*:/gm)].map((m) => m[1]!))];
}

describe('run_worker_first', () => {
  it('covers every GET route of the Worker (API, pages, feeds, images, signed links, dev)', () => {
    const paths = workerGetPaths();
    expect(paths.length).toBeGreaterThan(50);
    const patterns = runWorkerFirst();
    // A route parameter stands for any segment: /quiz/:slug is covered by "/quiz/*".
    const missing = paths.filter((p) => !covered(p.replace(/:[a-zA-Z]+/g, 'x'), patterns));
    expect(missing).toEqual([]);
  });

  it('the matcher is strict: an unlisted page is caught', () => {
    expect(covered('/helgdag', ['/api/*', '/bevakningar'])).toBe(false);
    expect(covered('/bevakningar/bekrafta', ['/bevakningar/*'])).toBe(true);
    expect(covered('/bevakningar', ['/bevakningar/*'])).toBe(false);
  });
});
