#!/usr/bin/env node
/**
 * `npm run setup:cloudflare [-- --dry-run] [-- --env staging]` (issue 30 §1): takes a logged-in `wrangler`
 * to a deployable account, idempotently. Everything it provisions is read from wrangler.toml (through
 * wrangler's own config reader, which also validates it), so a binding another branch adds is covered:
 *
 *   1. the D1 database (found by name or created) and its id written into wrangler.toml;
 *   2. the R2 buckets and the queues (producers, consumers and their dead-letter queues);
 *   3. the remote migrations (`wrangler d1 migrations apply DB --remote`) when any is pending;
 *   4. the secrets: the ones we can make (GENERATED_SECRETS, e.g. LINK_SIGNING_SECRET) once, the others
 *      from the environment (or asked for on a terminal) — never overwritten when already set;
 *   5. a check of the resulting config, then what is left to do by hand (Stripe webhook, Google redirect).
 *
 * A second run finds everything in place and changes nothing. `--dry-run` prints the plan and runs
 * only wrangler's read commands. Workflows are created by `wrangler deploy` itself.
 * Tested without Cloudflare by test/unit/setup-cloudflare.test.ts (a recording stand-in for wrangler).
 */
import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { pathToFileURL } from 'node:url';

/** The placeholder id a fresh checkout carries (wrangler.toml); never deployable. */
export const PLACEHOLDER_DB_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Secrets this script can make itself, once (an existing one is never replaced: links already mailed
 * would stop working — rotate by hand, docs/runbook.md). `{ name, make, pairedWith? }`, where `make` returns
 * the value; a paired secret (Web Push's VAPID key pair, docs/features/pwa.md) is made only when neither half
 * is set, both from one key pair.
 */
export const GENERATED_SECRETS = [
  { name: 'LINK_SIGNING_SECRET', make: () => randomBytes(32).toString('base64url') },
  { name: 'VAPID_PUBLIC_KEY', make: () => vapidPair().publicKey, pairedWith: 'VAPID_PRIVATE_KEY' },
  { name: 'VAPID_PRIVATE_KEY', make: () => vapidPair().privateKey, pairedWith: 'VAPID_PUBLIC_KEY' },
];

let vapid = null;
/** One P-256 pair per run (RFC 8292): the raw uncompressed public key and the private scalar `d`, base64url. */
export function vapidPair() {
  if (!vapid) {
    const jwk = generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey.export({ format: 'jwk' });
    const raw = Buffer.concat([Buffer.from([4]), Buffer.from(jwk.x, 'base64url'), Buffer.from(jwk.y, 'base64url')]);
    vapid = { publicKey: raw.toString('base64url'), privateKey: jwk.d };
  }
  return vapid;
}

/** Secrets that only a person can provide: from the environment, or asked for on a terminal. */
export const SECRET_HINTS = {
  STRIPE_SECRET_KEY: 'Stripe → Developers → API keys (sk_live_… / sk_test_…)',
  STRIPE_WEBHOOK_SECRET: 'Stripe → Developers → Webhooks → the endpoint below → Signing secret (whsec_…)',
  GOOGLE_CLIENT_SECRET: 'Google Cloud → APIs & Services → Credentials → OAuth client',
  MAIL_API_KEY: 'the mail provider (Resend) → API keys',
};

export { defaultWrangler, defaultReadConfig };

export function parseArgs(argv) {
  const out = { dryRun: false, env: null, config: 'wrangler.toml', input: process.stdin.isTTY === true };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--dry-run') out.dryRun = true;
    else if (a === '--env' || a === '-e') out.env = argv[++i] ?? null;
    else if (a.startsWith('--env=')) out.env = a.slice(6);
    else if (a === '--config' || a === '-c') out.config = argv[++i] ?? out.config;
    else if (a === '--no-input') out.input = false;
    else throw new Error(`unknown option ${a} (use --dry-run, --env <name>, --config <file>, --no-input)`);
  }
  if (out.env === '' || out.env === 'production') out.env = null;
  return out;
}

/** Runs wrangler (the first on PATH: npm puts node_modules/.bin there); returns { code, stdout, stderr }. */
function defaultWrangler(args, input) {
  const r = spawnSync('wrangler', args, { encoding: 'utf8', input: input ?? '', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' } });
  if (r.error) throw new Error(`wrangler could not be started: ${r.error.message}`);
  return { code: r.status ?? 1, stdout: r.stdout ?? '', stderr: r.stderr ?? '' };
}

async function defaultReadConfig(configPath, env) {
  const { unstable_readConfig } = await import('wrangler');
  return unstable_readConfig({ config: configPath, env: env ?? undefined }, { hideWarnings: true });
}

/** Names in `wrangler r2 bucket list` (lines "name:  x") and `wrangler queues list` (a table). */
export function namesIn(text) {
  const names = new Set();
  for (const m of text.matchAll(/^\s*name:\s+(\S+)/gm)) names.add(m[1]);
  for (const line of text.split('\n')) {
    for (const cell of line.split(/[│|┃]/)) {
      const v = cell.trim();
      if (/^[a-z0-9][a-z0-9-]{1,62}$/.test(v)) names.add(v);
    }
  }
  return names;
}

function parseJson(text, what) {
  const start = text.search(/[[{]/);
  try {
    return JSON.parse(start >= 0 ? text.slice(start) : text);
  } catch {
    throw new Error(`could not read the output of ${what}:\n${text.slice(0, 500)}`);
  }
}

/** Rewrites database_id of the D1 block named `dbName` in the env's section of the TOML text. */
export function writeDatabaseId(toml, env, dbName, id) {
  const header = env ? `[[env.${env}.d1_databases]]` : '[[d1_databases]]';
  const lines = toml.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== header) continue;
    let end = i + 1;
    while (end < lines.length && !lines[end].trim().startsWith('[')) end++;
    const block = lines.slice(i + 1, end);
    if (!block.some((l) => new RegExp(`^\\s*database_name\\s*=\\s*"${dbName}"`).test(l))) continue;
    const at = block.findIndex((l) => /^\s*database_id\s*=/.test(l));
    if (at < 0) throw new Error(`${header} "${dbName}" has no database_id line`);
    lines[i + 1 + at] = lines[i + 1 + at].replace(/database_id\s*=\s*"[^"]*"\s*(#.*)?$/, `database_id = "${id}" # written by npm run setup:cloudflare`);
    return lines.join('\n');
  }
  throw new Error(`no ${header} block with database_name "${dbName}" in the config`);
}

/** The checks a deployable config passes; each failure is one Swedish-free, plain line for the operator. */
export function checkConfig(config, { envName }) {
  const problems = [];
  for (const db of config.d1_databases ?? []) {
    if (!db.database_id || db.database_id === PLACEHOLDER_DB_ID) problems.push(`D1 ${db.binding}: database_id is still the placeholder`);
  }
  if (!(config.d1_databases ?? []).some((d) => d.binding === 'DB')) problems.push('no D1 binding DB');
  const vars = config.vars ?? {};
  if (!/^https:\/\//.test(String(vars.APP_URL ?? ''))) problems.push('APP_URL must be an https:// origin');
  if (vars.APP_ENV !== 'production') problems.push(`APP_ENV is "${vars.APP_ENV}"; a deployed Worker runs as "production"`);
  if (vars.CLOCK_NOW) problems.push('CLOCK_NOW must be empty in a deployed Worker');
  if (!config.observability?.enabled) problems.push('[observability] enabled = true is missing (Workers Logs)');
  const producers = new Set((config.queues?.producers ?? []).map((p) => p.queue));
  const consumers = new Set((config.queues?.consumers ?? []).map((c) => c.queue));
  for (const q of producers) if (!consumers.has(q)) problems.push(`queue ${q} has a producer but no consumer`);
  for (const c of config.queues?.consumers ?? []) {
    if (c.dead_letter_queue && !consumers.has(c.dead_letter_queue)) problems.push(`dead-letter queue ${c.dead_letter_queue} has no consumer`);
  }
  if (envName && config.name === 'quizkvall') problems.push(`env ${envName} deploys over the production Worker name`);
  return problems;
}

/**
 * The whole run. `deps` are the world: wrangler (args, stdin) → { code, stdout, stderr }, readConfig,
 * the config file's text (read/write), the environment and an optional prompt. Returns what it did,
 * what it would do (dry run) and what is left.
 */
export async function setup(opts, deps) {
  const { dryRun, env } = opts;
  const envArgs = env ? ['--env', env] : [];
  const done = [];
  const planned = [];
  const left = [];
  const act = async (what, fn) => {
    if (dryRun) {
      planned.push(what);
      return;
    }
    await fn();
    done.push(what);
  };
  const w = (args, input) => {
    const r = deps.wrangler(args, input);
    return r;
  };
  const must = (args, input) => {
    const r = w(args, input);
    if (r.code !== 0) throw new Error(`wrangler ${args.join(' ')} failed (exit ${r.code}):\n${(r.stderr || r.stdout).trim().slice(0, 1000)}`);
    return r;
  };

  const who = w(['whoami']);
  if (who.code !== 0 || /not authenticated|You are not logged in/i.test(who.stdout + who.stderr)) {
    throw new Error('wrangler is not logged in: run `npx wrangler login` (or set CLOUDFLARE_API_TOKEN) first');
  }

  let config = await deps.readConfig(opts.config, env);

  // 1. D1
  const listDbs = () => parseJson(must(['d1', 'list', '--json']).stdout, 'wrangler d1 list --json');
  let dbs = listDbs();
  const dbIds = {};
  for (const db of config.d1_databases ?? []) {
    let found = dbs.find((d) => d.name === db.database_name);
    if (!found) {
      await act(`create D1 database ${db.database_name}`, async () => {
        must(['d1', 'create', db.database_name, '--location', 'weur']);
        dbs = listDbs();
        found = dbs.find((d) => d.name === db.database_name);
        if (!found) throw new Error(`D1 database ${db.database_name} was created but is not listed`);
      });
    }
    dbIds[db.binding] = found?.uuid ?? null;
    if (found && db.database_id !== found.uuid) {
      await act(`write database_id ${found.uuid} of ${db.database_name} into ${opts.config}`, async () => {
        deps.writeConfigText(writeDatabaseId(deps.readConfigText(), env, db.database_name, found.uuid));
      });
    } else if (!found && dryRun) {
      planned.push(`write the new database_id of ${db.database_name} into ${opts.config}`);
    }
  }

  // 2. R2 buckets
  const buckets = namesIn(must(['r2', 'bucket', 'list']).stdout);
  for (const b of config.r2_buckets ?? []) {
    if (!buckets.has(b.bucket_name)) await act(`create R2 bucket ${b.bucket_name}`, async () => void must(['r2', 'bucket', 'create', b.bucket_name]));
  }

  // 3. Queues (a dead-letter queue first: a consumer may name it)
  const queues = namesIn(must(['queues', 'list']).stdout);
  const wanted = [];
  for (const c of config.queues?.consumers ?? []) if (c.dead_letter_queue) wanted.push(c.dead_letter_queue);
  for (const p of config.queues?.producers ?? []) wanted.push(p.queue);
  for (const c of config.queues?.consumers ?? []) wanted.push(c.queue);
  for (const q of [...new Set(wanted)]) {
    if (!queues.has(q)) await act(`create queue ${q}`, async () => void must(['queues', 'create', q]));
  }

  // 4. Migrations (remote)
  for (const db of config.d1_databases ?? []) {
    if (!db.migrations_dir) continue;
    if (!dbIds[db.binding]) {
      planned.push(`apply every migration to ${db.database_name} (remote)`);
      continue;
    }
    if (dryRun && db.database_id !== dbIds[db.binding]) {
      planned.push(`apply pending migrations to ${db.database_name} (remote)`);
      continue;
    }
    const pending = must(['d1', 'migrations', 'list', db.binding, '--remote', ...envArgs]).stdout;
    if (/No migrations to apply/i.test(pending)) continue;
    await act(
      `apply pending migrations to ${db.database_name} (remote)`,
      async () => void must(['d1', 'migrations', 'apply', db.binding, '--remote', ...envArgs]),
    );
  }

  // 5. Secrets
  const listed = w(['secret', 'list', '--format', 'json', ...envArgs]);
  // A Worker that was never deployed has no secrets yet (wrangler answers an error): nothing is set.
  const have = new Set(listed.code === 0 ? parseJson(listed.stdout, 'wrangler secret list').map((s) => s.name) : []);
  const required = config.secrets?.required ?? [];
  const put = (name, value) => must(['secret', 'put', name, ...envArgs], value);
  for (const g of GENERATED_SECRETS) {
    if (have.has(g.name)) continue;
    if (g.pairedWith && have.has(g.pairedWith)) {
      left.push(`secret ${g.name}: missing while ${g.pairedWith} is set — put both halves of one key pair (docs/features/pwa.md)`);
      continue;
    }
    await act(`generate and set secret ${g.name}`, async () => void put(g.name, g.make()));
  }
  for (const name of required) {
    if (have.has(name) || GENERATED_SECRETS.some((g) => g.name === name)) continue;
    let value = (deps.env[name] ?? '').trim();
    if (!value && !dryRun && deps.prompt) value = (await deps.prompt(`${name} (${SECRET_HINTS[name] ?? 'secret'}; empty to skip): `)).trim();
    if (value) await act(`set secret ${name} (from ${deps.env[name] ? 'the environment' : 'the prompt'})`, async () => void put(name, value));
    else left.push(`secret ${name}: \`npx wrangler secret put ${name}${env ? ` --env ${env}` : ''}\` — ${SECRET_HINTS[name] ?? ''}`.trim());
  }

  // 6. Validate the config as it now is (dry run: as it would be)
  if (!dryRun) config = await deps.readConfig(opts.config, env);
  const problems = checkConfig(config, { envName: env }).filter((p) => !(dryRun && /placeholder/.test(p)));
  const appUrl = String(config.vars?.APP_URL ?? '').replace(/\/+$/, '');
  left.push(
    `Stripe webhook: add endpoint ${appUrl}/api/payments/webhook (events checkout.session.completed, checkout.session.async_payment_succeeded, checkout.session.async_payment_failed, checkout.session.expired) and put its signing secret as STRIPE_WEBHOOK_SECRET`,
  );
  left.push(`Google sign-in: add the authorised redirect URI ${appUrl}/api/auth/google/callback and set GOOGLE_CLIENT_ID in [${env ? `env.${env}.` : ''}vars]`);
  if (!String(config.vars?.SUPERADMIN_EMAILS ?? '').trim()) left.push(`SUPERADMIN_EMAILS is empty: nobody is superadmin and nobody gets the operations alerts`);
  left.push(`deploy: npm run ${env ? `deploy:${env}` : 'deploy'}`);
  return { dryRun, env, done, planned, left, problems };
}

export function report(result) {
  const title = `Cloudflare setup${result.env ? ` (env ${result.env})` : ' (production)'}${result.dryRun ? ' — dry run, nothing changed' : ''}`;
  const lines = [title];
  if (result.dryRun) {
    lines.push(result.planned.length ? 'Would do:' : 'Nothing to do: everything is in place.');
    for (const p of result.planned) lines.push(`  - ${p}`);
  } else {
    lines.push(result.done.length ? 'Done:' : 'Nothing to do: everything was already in place.');
    for (const d of result.done) lines.push(`  ✓ ${d}`);
    for (const p of result.planned) lines.push(`  - ${p}`);
  }
  if (result.problems.length) {
    lines.push('Config problems:');
    for (const p of result.problems) lines.push(`  ✗ ${p}`);
  }
  lines.push('Left to do by hand:');
  for (const l of result.left) lines.push(`  • ${l}`);
  return lines.join('\n');
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  const path = resolve(opts.config);
  let rl = null;
  const prompt = opts.input
    ? async (q) => {
        rl ??= createInterface({ input: process.stdin, output: process.stdout });
        return rl.question(q);
      }
    : null;
  try {
    const result = await setup(opts, {
      wrangler: defaultWrangler,
      readConfig: (p, env) => defaultReadConfig(p, env),
      readConfigText: () => readFileSync(path, 'utf8'),
      writeConfigText: (text) => writeFileSync(path, text),
      env: process.env,
      prompt,
    });
    console.log(report(result));
    process.exitCode = result.problems.length ? 1 : 0;
  } finally {
    rl?.close();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(`setup:cloudflare failed: ${err.message}`);
    process.exitCode = 1;
  });
}
