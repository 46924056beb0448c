/**
 * Serves a built Worker on Miniflare directly, the way the e2e apps run (scripts/start.mjs with WORKER_BUNDLE).
 *
 * `wrangler dev` (what `npm start` runs) puts a second workerd (its proxy) and a Node process in front of the
 * Worker, and every console line of the Worker travels to Node over the inspector: ~13 ms of CPU a request on top of
 * the Worker's own ~8 ms (docs/testing.md, "One workerd per story app"). Here one workerd answers, with the same
 * bindings: they come from wrangler.toml through wrangler's own `unstable_getMiniflareWorkerOptions`, and the state
 * lives where `wrangler dev --persist-to` keeps it (<persist>/v3), so the seed (`wrangler d1 execute`) and this
 * server share one database.
 *
 * The bundle is what `wrangler deploy` uploads: `wrangler deploy --dry-run --outdir <dir>` (buildWorkerBundle).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { convertV4MiniflareOptions, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';

const root = join(import.meta.dirname, '..');

/** Builds the Worker as `wrangler deploy` would (NODE_ENV=production: React's production build) into `outDir`. */
export function buildWorkerBundle(outDir, { assetsDir } = {}) {
  const r = spawnSync(
    join(root, 'node_modules', '.bin', 'wrangler'),
    ['deploy', '--dry-run', '--env', '', '--outdir', outDir, ...(assetsDir ? ['--assets', assetsDir] : [])],
    { cwd: root, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } },
  );
  if (r.status !== 0) throw new Error(`wrangler deploy --dry-run failed (${r.status ?? r.signal})`);
  if (!existsSync(join(outDir, 'index.js'))) throw new Error(`no index.js in ${outDir}`);
}

/** The bundle's modules, entry first: JS modules, compiled wasm and the data files (fonts, the fallback card). */
export function bundleModules(dir) {
  const type = (name) => (name.endsWith('.js') ? 'ESModule' : name.endsWith('.wasm') ? 'CompiledWasm' : 'Data');
  const rest = readdirSync(dir).filter((n) => n !== 'index.js' && !n.endsWith('.map') && n !== 'README.md');
  return ['index.js', ...rest.sort()].map((name) => ({ type: type(name), path: join(dir, name) }));
}

/**
 * Starts the Worker in `bundleDir` on 127.0.0.1:`port` with wrangler.toml's bindings, `vars` over its [vars], the
 * static assets from `assetsDir` (wrangler.toml's directory when absent) and its state under `persistDir`/v3.
 * Cron triggers can be fired by hand at /cdn-cgi/handler/scheduled, as in `wrangler dev`.
 */
export async function serveBundle({ bundleDir, port, persistDir, assetsDir, vars }) {
  // modulesRules describe how wrangler finds modules; the bundle lists them (bundleModules).
  const { modulesRules: _rules, ...fromConfig } = unstable_getMiniflareWorkerOptions(join(root, 'wrangler.toml')).workerOptions;
  const mf = new Miniflare(
    convertV4MiniflareOptions({
      ...fromConfig,
      name: 'quizkvall',
      modulesRoot: bundleDir,
      modules: bundleModules(bundleDir),
      bindings: { ...fromConfig.bindings, ...vars },
      ...(assetsDir ? { assets: { ...fromConfig.assets, directory: assetsDir } } : {}),
      host: '127.0.0.1',
      port,
      resourcePersistencePath: join(persistDir, 'v3'),
      // request.cf as a fixed placeholder: Miniflare would otherwise download it (tests never reach the network).
      cf: false,
      unsafeTriggerHandlers: true,
    }),
  );
  await mf.ready;
  return mf;
}
