/**
 * Which hashed files a server-rendered page needs: read from Vite's manifest.json in the static assets
 * (dist/client) once per isolate, together with the text of the public stylesheet, which every page
 * inlines (issue 19 §1: no render-blocking request besides the HTML). Without a build (some tests)
 * pages render without CSS/JS; a failed load is logged and tried again after ASSETS_RETRY_MS.
 */
import { createOnceMemo } from './version-memo';

interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
}
export interface PageAssets {
  /** The public entry module (hashed file name), or null without a build. */
  script: string | null;
  /**
   * The site's stylesheet (web/styles.css, the SPA entry's CSS: the public entry imports none, vite.config.ts
   * isShellStylesheet): linked only when its text could not be read.
   */
  styles: string[];
  /**
   * The entry's static imports and the hydration module's ({@link HYDRATION_MODULE}), transitively: preloaded by the
   * boot script together with the entry, after first paint.
   */
  preloads: string[];
  /** The stylesheets' text, inlined into every page; null when it could not be read. */
  inlineCss: string | null;
}

/**
 * The page's React tree, which the entry imports dynamically so that its evaluation is a task of its own
 * (web/public-entry.tsx, issue 29.13). Its chunks are needed on every page, unlike the entry's other dynamic
 * imports (the map, the service worker's registration), so they are preloaded as if imported statically.
 */
export const HYDRATION_MODULE = 'pages/hydrate.tsx';

const NONE: PageAssets = { script: null, styles: [], preloads: [], inlineCss: null };

/** How long a request waits for another request's manifest load before loading itself (ms). */
const ASSETS_JOIN_WAIT_MS = 250;
/** After a failed load, pages render without CSS/JS for this long before the next try (ms): no retry storm. */
export const ASSETS_RETRY_MS = 10_000;

/** Thrown when there is no build at all (no manifest): expected without `npm run build`, not an error. */
class NoBuild extends Error {}

// The value, not a promise, is shared across requests (worker/lib/version-memo.ts: a promise belongs to
// the request that made it; if that request is cancelled, everyone awaiting it could hang).
const memo = createOnceMemo<PageAssets>({ joinWaitMs: ASSETS_JOIN_WAIT_MS, afterWait: 'load' });
let failedAt = -Infinity;
let noBuildLogged = false;

export async function getPublicAssets(assets: Fetcher | undefined): Promise<PageAssets> {
  if (!assets) return NONE;
  if (Date.now() - failedAt < ASSETS_RETRY_MS) return NONE;
  try {
    return await memo.get(() => load(assets));
  } catch (err) {
    failedAt = Date.now();
    if (err instanceof NoBuild) {
      if (!noBuildLogged) console.warn(JSON.stringify({ msg: 'no web build (manifest.json missing): public pages render without CSS/JS', error: err.message }));
      noBuildLogged = true;
    } else {
      // Pages stay up without CSS/JS, but this is a broken deployment or an ASSETS fault: say so.
      console.error(
        JSON.stringify({ msg: 'public assets: manifest load failed, pages render without CSS/JS', error: err instanceof Error ? err.message : String(err) }),
      );
    }
    return NONE;
  }
}

async function load(assets: Fetcher): Promise<PageAssets> {
  const res = await assets.fetch('http://assets.local/manifest.json');
  if (res.status === 404) throw new NoBuild('manifest.json: 404');
  if (!res.ok) throw new Error(`manifest.json: ${res.status}`);
  const manifest = (await res.json()) as Record<string, ManifestEntry>;
  const entry = manifest['public-entry.tsx'];
  if (!entry) throw new Error('no public entry in manifest');
  // The SPA's entry owns the site's stylesheet; the public closure has CSS of its own only if something there
  // imports some (then it is needed too).
  const styles = new Set<string>([...(manifest['index.html']?.css ?? []), ...(entry.css ?? [])]);
  // The entry's whole static closure, not only its direct imports: a chunk imported by an imported chunk is
  // fetched at once too, and found one round trip late when the boot script does not name it.
  const preloads: string[] = [];
  const seen = new Set<string>();
  const walk = (keys: readonly string[]) => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) continue;
      seen.add(key);
      preloads.push(`/${chunk.file}`);
      for (const c of chunk.css ?? []) styles.add(c);
      walk(chunk.imports ?? []);
    }
  };
  walk(entry.imports ?? []);
  if (entry.dynamicImports?.includes(HYDRATION_MODULE)) walk([HYDRATION_MODULE]);
  const hrefs = [...styles].map((s) => `/${s}`);
  let inlineCss: string | null = '';
  for (const href of hrefs) {
    const css = await assets.fetch(`http://assets.local${href}`);
    if (!css.ok) {
      // The page still works with the stylesheet linked instead of inlined.
      console.warn(JSON.stringify({ msg: 'public assets: stylesheet not readable, linked instead of inlined', href, status: css.status }));
      await css.body?.cancel();
      inlineCss = null;
      break;
    }
    inlineCss += await css.text();
  }
  return { script: `/${entry.file}`, styles: hrefs, preloads, inlineCss };
}
