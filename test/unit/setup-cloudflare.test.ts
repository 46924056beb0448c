/**
 * `npm run setup:cloudflare` (scripts/setup-cloudflare.mjs) against a recording stand-in for wrangler
 * (test/fixtures/fake-wrangler/wrangler, first on PATH) that answers from a JSON state file: a first run
 * provisions everything, a second run does nothing, a half-finished run does only the rest, and a dry
 * run changes nothing. The config file is a copy of the real wrangler.toml in a temporary directory.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import * as script from '../../scripts/setup-cloudflare.mjs';

const root = join(import.meta.dirname, '..', '..');
const fakeDir = join(root, 'test', 'fixtures', 'fake-wrangler');

interface FakeState {
  loggedIn: boolean;
  migrationCount: number;
  bindings: Record<string, string>;
  d1: Array<{ name: string; uuid: string; pending: number }>;
  r2: string[];
  queues: string[];
  secrets: Record<string, Record<string, string>>;
}

let dir = '';
/** Every world's folder, removed after the file (each test makes one or more). */
const made: string[] = [];
const oldPath = process.env.PATH;

beforeAll(() => {
  process.env.PATH = `${fakeDir}${delimiter}${oldPath}`;
});
afterAll(() => {
  process.env.PATH = oldPath;
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function world(state: Partial<FakeState> = {}) {
  dir = mkdtempSync(join(tmpdir(), 'setup-cf-'));
  made.push(dir);
  copyFileSync(join(root, 'wrangler.toml'), join(dir, 'wrangler.toml'));
  const full: FakeState = {
    loggedIn: true,
    migrationCount: 12,
    bindings: { production: 'quizkvall', staging: 'quizkvall-staging' },
    d1: [],
    r2: [],
    queues: [],
    secrets: {},
    ...state,
  };
  writeFileSync(join(dir, 'state.json'), JSON.stringify(full));
  writeFileSync(join(dir, 'calls.jsonl'), '');
  process.env.FAKE_WRANGLER_STATE = join(dir, 'state.json');
  process.env.FAKE_WRANGLER_LOG = join(dir, 'calls.jsonl');
}

const state = (): FakeState => JSON.parse(readFileSync(join(dir, 'state.json'), 'utf8'));
const calls = (): Array<{ args: string[]; stdin?: string }> =>
  readFileSync(join(dir, 'calls.jsonl'), 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
const writes = () => calls().filter((c) => ['create', 'put', 'apply'].includes(c.args[1]!) || c.args[2] === 'create' || c.args[2] === 'apply');
const toml = () => readFileSync(join(dir, 'wrangler.toml'), 'utf8');

async function run(opts: { env?: string; dryRun?: boolean; env_?: Record<string, string> } = {}) {
  const path = join(dir, 'wrangler.toml');
  return script.setup(
    { dryRun: opts.dryRun ?? false, env: opts.env ?? null, config: path },
    {
      wrangler: script.defaultWrangler,
      readConfig: script.defaultReadConfig,
      readConfigText: () => readFileSync(path, 'utf8'),
      writeConfigText: (t: string) => writeFileSync(path, t),
      env: opts.env_ ?? {},
      prompt: null,
    },
  );
}

/** Every name the real config asks for, production. */
const PROD = { db: 'quizkvall', buckets: ['quizkvall-imports'], queues: ['quizkvall-mail', 'quizkvall-mail-dlq'] };

describe('setup:cloudflare', () => {
  it('first run: creates the database, buckets and queues, writes the id, migrates, generates the link secret, sets given secrets', {
    timeout: 120_000,
  }, async () => {
    world();
    const result = await run({ env_: { STRIPE_SECRET_KEY: 'sk_test_x' } });
    const s = state();
    expect(s.d1.map((d) => d.name)).toEqual([PROD.db]);
    for (const b of PROD.buckets) expect(s.r2).toContain(b);
    for (const q of PROD.queues) expect(s.queues).toContain(q);
    // the dead-letter queue is created before the queue that names it
    expect(s.queues.indexOf('quizkvall-mail-dlq')).toBeLessThan(s.queues.indexOf('quizkvall-mail'));
    expect(s.d1[0]!.pending).toBe(0);
    expect(toml()).toContain(`database_id = "${s.d1[0]!.uuid}"`);
    // only the production block was rewritten
    expect(toml()).toMatch(/database_name = "quizkvall-staging"\ndatabase_id = "00000000-0000-0000-0000-000000000000"/);
    expect(s.secrets.production!.LINK_SIGNING_SECRET).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Web Push: one P-256 pair, generated together (raw uncompressed public key, private scalar d)
    const vapidPublic = Buffer.from(s.secrets.production!.VAPID_PUBLIC_KEY!, 'base64url');
    expect([vapidPublic.length, vapidPublic[0]]).toEqual([65, 4]);
    expect(Buffer.from(s.secrets.production!.VAPID_PRIVATE_KEY!, 'base64url').length).toBe(32);
    expect(s.secrets.production!.STRIPE_SECRET_KEY).toBe('sk_test_x');
    expect(result.problems).toEqual([]);
    expect(result.left.join('\n')).toMatch(/secret STRIPE_WEBHOOK_SECRET/);
    expect(result.left.join('\n')).toMatch(/https:\/\/quizkvall\.se\/api\/payments\/webhook/);
    expect(result.left.join('\n')).toMatch(/https:\/\/quizkvall\.se\/api\/auth\/google\/callback/);
    expect(result.left.join('\n')).not.toMatch(/secret STRIPE_SECRET_KEY/);
    // secrets go in through stdin, never on the command line
    const put = calls().find((c) => c.args[1] === 'put' && c.args[2] === 'LINK_SIGNING_SECRET')!;
    expect(put.args.join(' ')).not.toContain(s.secrets.production!.LINK_SIGNING_SECRET);

    // second run: nothing to do, no write command at all, the generated secret kept
    const secret = s.secrets.production!.LINK_SIGNING_SECRET;
    writeFileSync(join(dir, 'calls.jsonl'), '');
    const again = await run();
    expect(again.done).toEqual([]);
    expect(writes()).toEqual([]);
    expect(state().secrets.production!.LINK_SIGNING_SECRET).toBe(secret);
    expect(script.report(again)).toContain('Nothing to do');
  });

  it('half-finished run: only what is missing is done (database exists but id not written, one queue, migrations pending)', { timeout: 120_000 }, async () => {
    world({
      d1: [{ name: 'quizkvall', uuid: 'abcdabcd-0000-4000-8000-000000000001', pending: 3 }],
      r2: ['quizkvall-imports', 'quizkvall-cards', 'quizkvall-backups'],
      queues: ['quizkvall-mail-dlq', 'quizkvall-jobs-dlq', 'quizkvall-jobs'],
      secrets: { production: { LINK_SIGNING_SECRET: 'kept', MAIL_API_KEY: 're_x', VAPID_PUBLIC_KEY: 'kept', VAPID_PRIVATE_KEY: 'kept' } },
    });
    const result = await run();
    expect(result.done).toEqual([
      `write database_id abcdabcd-0000-4000-8000-000000000001 of quizkvall into ${join(dir, 'wrangler.toml')}`,
      'create queue quizkvall-mail',
      'apply pending migrations to quizkvall (remote)',
    ]);
    expect(writes().map((c) => c.args.join(' '))).toEqual(['queues create quizkvall-mail', 'd1 migrations apply DB --remote']);
    expect(state().secrets.production!.LINK_SIGNING_SECRET).toBe('kept');
    expect(state().d1[0]!.pending).toBe(0);
  });

  it('--dry-run --env staging: prints the plan, runs only read commands, changes nothing', { timeout: 120_000 }, async () => {
    world();
    const before = toml();
    const out = execFileSync(
      process.execPath,
      [join(root, 'scripts', 'setup-cloudflare.mjs'), '--dry-run', '--env', 'staging', '--config', join(dir, 'wrangler.toml'), '--no-input'],
      {
        encoding: 'utf8',
        env: { ...process.env },
      },
    );
    expect(out).toContain('dry run, nothing changed');
    expect(out).toContain('create D1 database quizkvall-staging');
    expect(out).toContain('create R2 bucket quizkvall-staging-imports');
    expect(out).toContain('create queue quizkvall-staging-mail-dlq');
    expect(out).toContain('generate and set secret LINK_SIGNING_SECRET');
    expect(out).toContain('https://staging.quizkvall.se/api/payments/webhook');
    expect(writes()).toEqual([]);
    expect(toml()).toBe(before);
    expect(state()).toMatchObject({ d1: [], r2: [], queues: [], secrets: {} });
  });

  it('refuses to start when wrangler is not logged in', { timeout: 60_000 }, async () => {
    world({ loggedIn: false });
    await expect(run()).rejects.toThrow(/not logged in/);
    expect(writes()).toEqual([]);
  });

  it('writeDatabaseId touches only the named block of the named environment', () => {
    const text = readFileSync(join(root, 'wrangler.toml'), 'utf8');
    const out = script.writeDatabaseId(text, 'staging', 'quizkvall-staging', 'feedfeed-0000-4000-8000-000000000000');
    expect(out).toMatch(/database_name = "quizkvall-staging"\ndatabase_id = "feedfeed-0000-4000-8000-000000000000"/);
    expect(out).toMatch(/database_name = "quizkvall"\ndatabase_id = "00000000-0000-0000-0000-000000000000"/);
    expect(() => script.writeDatabaseId(text, 'nope', 'quizkvall', 'x')).toThrow(/no \[\[env\.nope\.d1_databases\]\]/);
  });
});
