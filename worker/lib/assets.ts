/**
 * Which hashed files a server-rendered page links: read from Vite's manifest.json in the static assets
 * (dist/client) once per isolate. Without a build (some tests) pages render without CSS/JS.
 */
interface ManifestEntry {
  file: string;
  css?: string[];
  imports?: string[];
}
export interface PageAssets {
  script: string | null;
  styles: string[];
  preloads: string[];
}

let cached: Promise<PageAssets> | null = null;

export function getPublicAssets(assets: Fetcher | undefined): Promise<PageAssets> {
  if (!cached) {
    cached = load(assets).catch(() => {
      cached = null;
      return { script: null, styles: [], preloads: [] };
    });
  }
  return cached;
}

async function load(assets: Fetcher | undefined): Promise<PageAssets> {
  if (!assets) return { script: null, styles: [], preloads: [] };
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
  return { script: `/${entry.file}`, styles: [...styles].map((s) => `/${s}`), preloads };
}
