/**
 * Which hashed files a server-rendered page needs: read from Vite's manifest.json in the static assets
 * (dist/client) once per isolate, together with the text of the public stylesheet, which every page
 * inlines (issue 19 §1: no render-blocking request besides the HTML). Without a build (some tests)
 * pages render without CSS/JS.
 */
interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
}
export interface PageAssets {
  /** The public entry module (hashed file name), or null without a build. */
  script: string | null;
  /** Stylesheet URLs of the entry (linked only when their text could not be read). */
  styles: string[];
  /** The entry's static imports: preloaded by the boot script together with the entry, after first paint. */
  preloads: string[];
  /** The stylesheets' text, inlined into every page; null when it could not be read. */
  inlineCss: string | null;
}

const NONE: PageAssets = { script: null, styles: [], preloads: [], inlineCss: null };
let cached: Promise<PageAssets> | null = null;

export function getPublicAssets(assets: Fetcher | undefined): Promise<PageAssets> {
  if (!cached) {
    cached = load(assets).catch(() => {
      cached = null;
      return NONE;
    });
  }
  return cached;
}

async function load(assets: Fetcher | undefined): Promise<PageAssets> {
  if (!assets) return NONE;
  const res = await assets.fetch('http://assets.local/manifest.json');
  if (!res.ok) throw new Error('no manifest');
  const manifest = (await res.json()) as Record<string, ManifestEntry>;
  const entry = manifest['public-entry.tsx'];
  if (!entry) throw new Error('no public entry in manifest');
  const styles = new Set<string>(entry.css ?? []);
  const preloads: string[] = [];
  for (const key of entry.imports ?? []) {
    const chunk = manifest[key];
    if (!chunk) continue;
    preloads.push(`/${chunk.file}`);
    chunk.css?.forEach((c) => styles.add(c));
  }
  const hrefs = [...styles].map((s) => `/${s}`);
  let inlineCss: string | null = '';
  for (const href of hrefs) {
    const css = await assets.fetch(`http://assets.local${href}`);
    if (!css.ok) {
      inlineCss = null;
      break;
    }
    inlineCss += await css.text();
  }
  return { script: `/${entry.file}`, styles: hrefs, preloads, inlineCss };
}
