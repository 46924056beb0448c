#!/usr/bin/env node
/**
 * npm start: build the web app, apply local D1 migrations, seed demo data into an empty database, and
 * serve everything with wrangler on http://localhost:8787 (PORT and PERSIST_DIR override, used by tests).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (name) => join(root, 'node_modules', '.bin', name);
const port = process.env.PORT ?? '8787';
// Children (wrangler, tsx) must run on the project's Node 22 even when this script is started directly.
process.env.PATH = `${join(root, 'node_modules', '.bin')}:${process.env.PATH ?? ''}`;
const persist = process.env.PERSIST_DIR ? ['--persist-to', process.env.PERSIST_DIR] : [];
const run = (cmd, args, env = {}) => {
  const r = spawnSync(cmd, args, { stdio: 'inherit', cwd: root, env: { ...process.env, ...env } });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

// ASSETS_DIR: build into (and serve from) a private folder, so parallel test runs never share dist/.
const assetsDir = process.env.ASSETS_DIR;
// NODE_ENV=production: Vite follows an inherited NODE_ENV (vitest sets "test"), which would bundle React's
// development build (~60 KB gz more) into the e2e server's pages.
if (!process.env.SKIP_BUILD) run(bin('vite'), ['build', '--logLevel', 'warn', ...(assetsDir ? ['--outDir', assetsDir] : [])], { NODE_ENV: 'production' });
// MIGRATED_DB=1 (the e2e apps, test/e2e/support/app.ts): PERSIST_DIR is a fresh copy of a database with every
// migration applied and no rows yet, so neither the migrations nor the seed's "is it empty?" look-up need a
// wrangler start of their own.
const migrated = process.env.MIGRATED_DB === '1' && persist.length > 0;
if (!migrated) run(bin('wrangler'), ['d1', 'migrations', 'apply', 'DB', '--local', ...persist]);
const seedArgs = [join(root, 'scripts', 'seed.ts'), ...(migrated ? [] : ['--if-empty']), ...persist];

const vars = {
  APP_ENV: process.env.APP_ENV ?? 'development',
  APP_URL: `http://localhost:${port}`,
  SUPERADMIN_EMAILS: process.env.SUPERADMIN_EMAILS ?? 'admin@quizkvall.local',
  ...(process.env.CLOCK_NOW ? { CLOCK_NOW: process.env.CLOCK_NOW } : {}),
};

// WORKER_BUNDLE=<dir> (the e2e apps, test/e2e/support/app.ts): serve the Worker built into <dir> on Miniflare
// directly (scripts/serve-bundle.mjs), without wrangler dev's proxy; an empty <dir> is built first, beside the seed.
const bundleDir = process.env.WORKER_BUNDLE;
if (bundleDir) {
  if (!persist.length) throw new Error('WORKER_BUNDLE needs PERSIST_DIR');
  const { buildWorkerBundle, serveBundle } = await import('./serve-bundle.mjs');
  const seeded = new Promise((resolve) => {
    spawn(bin('tsx'), seedArgs, { stdio: 'inherit', cwd: root }).on('exit', (code) => (code === 0 ? resolve() : process.exit(code ?? 1)));
  });
  if (!existsSync(join(bundleDir, 'index.js'))) buildWorkerBundle(bundleDir, { assetsDir });
  await seeded;
  const mf = await serveBundle({ bundleDir, port: Number(port), persistDir: process.env.PERSIST_DIR, assetsDir, vars });
  console.log(`Quizkväll på http://127.0.0.1:${port} (Miniflare, ${bundleDir})`);
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => mf.dispose().finally(() => process.exit(0)));
} else {
  run(bin('tsx'), seedArgs);
  startWranglerDev();
}

function startWranglerDev() {
  const child = spawn(
    bin('wrangler'),
    [
      'dev',
      '--port',
      port,
      '--ip',
      '127.0.0.1',
      '--show-interactive-dev-session=false',
      ...persist,
      ...(assetsDir ? ['--assets', assetsDir] : []),
      ...Object.entries(vars).flatMap(([k, v]) => ['--var', `${k}:${v}`]),
    ],
    // NODE_ENV=production: wrangler dev bundles the Worker with React's development build otherwise, whose
    // server rendering is several times slower than what `wrangler deploy` ships (and what `npm run bench` measures).
    { stdio: 'inherit', cwd: root, env: { ...process.env, NODE_ENV: 'production' } },
  );
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => child.kill(sig));
  child.on('exit', (code) => process.exit(code ?? 0));
}
