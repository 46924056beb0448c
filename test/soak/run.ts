/**
 * Soak (issue 9 item 7): `npm run soak`.
 *
 * Starts the real app (scripts/start.mjs with WORKER_BUNDLE: the Worker `wrangler deploy` would upload, on one
 * workerd, as the e2e apps run) on a free loopback port with a fresh database and asset folder, signs up owners through the real register → mail → verify flow, then runs
 * SOAK_SECONDS (60) of mixed traffic on SOAK_CONNECTIONS (50) concurrent keep-alive connections,
 * capped at SOAK_MAX_REQUESTS: public pages, listing and search, sign-ins, owner writes (profile,
 * business, new quizzes, quiz edits), counting beacons (issue 18) and contended promotion checkouts on the same city and days, some
 * paid through the local checkout (signed webhook), some abandoned. Hostile shapes (issue 43): a chain of
 * MAX_PLACES_PER_VENUE places (its page, feed and widget, and one place too many), ten registrations of one
 * new address at once, and pages with junk values of their known parameters (served from the cache).
 *
 * An error is a network failure, a timeout, a 5xx, or any status not expected for that request kind
 * (a sold-out 409 is expected for a checkout; a 500 never is). Afterwards the server is stopped and
 * every invariant of test/integration/security/invariants.ts plus the expected counts are checked in
 * D1 with `wrangler d1 execute DB --local --persist-to <dir> --json`. Exit code 1 on any error or
 * broken invariant.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { slugify } from '../../worker/lib/slug';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAX_PLACES_PER_VENUE } from '../../worker/features/venues/contract';
import { INVARIANTS } from '../integration/security/invariants';
import { Agent, fetch } from 'undici';

const repo = join(import.meta.dirname, '..', '..');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.SOAK_CONNECTIONS ?? 50);
const MAX_REQUESTS = Number(process.env.SOAK_MAX_REQUESTS ?? 40_000);
const OWNERS = Number(process.env.SOAK_OWNERS ?? 12);
const REQUEST_TIMEOUT_MS = 15_000;
/**
 * The clients' connections. workerd closes a keep-alive connection after 5 s without a request (kj's pipeline
 * timeout); a client that keeps idle sockets as long (undici's default is 4 s, and a busy soak process fires its
 * timers late) now and then sends on a socket the server has just closed: "other side closed", a transport race
 * of the load generator that a browser retries. Idle sockets here close after 1 s, well inside the server's 5 s.
 */
const dispatcher = new Agent({ keepAliveTimeout: 1_000, keepAliveMaxTimeout: 1_000 });
// A known town (issue 43.6: a place's city is a gazetteer locality), none of the demo data's.
const CITY = 'Enköping';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

const dir = mkdtempSync(join(tmpdir(), 'quizkvall-soak-'));
const persistDir = join(dir, 'state');
/**
 * The app runs from a snapshot of the sources (node_modules linked), because wrangler dev reloads the
 * Worker whenever a watched file changes, and a reload mid-soak drops in-flight requests.
 */
const root = join(dir, 'app');
function snapshotSources() {
  const skip = new Set(['node_modules', 'dist', '.git', '.wrangler', 'test']);
  cpSync(repo, root, { recursive: true, filter: (src) => !skip.has(src.slice(repo.length + 1).split('/')[0]!) });
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'), 'dir');
  // The root tsconfig references the tests' project (decision 0016); the build reads it even without the tests.
  mkdirSync(join(root, 'test'));
  copyFileSync(join(repo, 'test', 'tsconfig.json'), join(root, 'test', 'tsconfig.json'));
}
let server: ChildProcess | null = null;
let base = '';

function stopServer() {
  if (server?.pid) {
    try {
      process.kill(-server.pid, 'SIGTERM'); // the whole group: start.mjs, wrangler, workerd
    } catch {
      /* already gone */
    }
  }
  server = null;
}
process.on('exit', stopServer);
for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => process.exit(130));

async function startServer() {
  snapshotSources();
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  console.log(`[soak] starting the app on ${base} (fresh state in ${dir})`);
  server = spawn(process.execPath, [join(root, 'scripts', 'start.mjs')], {
    cwd: root,
    // WORKER_BUNDLE: no `wrangler dev` proxy in front of the Worker. Under this load that proxy loses its connection
    // to the Worker now and then and answers 500 "Network connection lost" (for writes, which it does not retry):
    // an error of the dev tool, not of the Worker, and production has no such hop (scripts/serve-bundle.mjs).
    env: {
      ...process.env,
      PORT: String(port),
      PERSIST_DIR: persistDir,
      ASSETS_DIR: join(dir, 'client'),
      SKIP_BUILD: '',
      NODE_ENV: 'production',
      WORKER_BUNDLE: join(dir, 'bundle'),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let log = '';
  server.stdout!.on('data', (d) => (log += d));
  server.stderr!.on('data', (d) => (log += d));
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`app exited early:\n${log.slice(-3000)}`);
    try {
      const res = await fetch(`${base}/api/health`, { dispatcher });
      if (res.ok) return () => log;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`app did not start in time:\n${log.slice(-3000)}`);
}

// ------------------------------------------------------------------ HTTP with bookkeeping

interface Stat {
  count: number;
  errors: number;
  statuses: Record<number, number>;
  latencies: number[];
}
const stats = new Map<string, Stat>();
const errorSamples: string[] = [];
let sent = 0;
let t0 = Date.now();

async function request(
  kind: string,
  path: string,
  opts: { method?: string; body?: unknown; cookie?: string; expect: number[]; headers?: Record<string, string> },
): Promise<{ status: number; json: any; headers: Headers } | null> {
  const stat = stats.get(kind) ?? { count: 0, errors: 0, statuses: {}, latencies: [] };
  stats.set(kind, stat);
  stat.count++;
  sent++;
  const started = performance.now();
  // Many visitors, not one: each request from its own client address (wrangler dev keeps the header),
  // as the per-client limits of sign-in and the mail endpoints see real traffic.
  const headers: Record<string, string> = { 'cf-connecting-ip': `198.51.${Math.floor(Math.random() * 256)}.${Math.floor(Math.random() * 256)}` };
  if (opts.method && opts.method !== 'GET') headers.origin = base;
  if (opts.cookie) headers.cookie = opts.cookie;
  Object.assign(headers, opts.headers);
  // Every write is JSON (JSON routes answer 415 for anything else), also without fields.
  const body = opts.body !== undefined ? opts.body : opts.method && opts.method !== 'GET' ? {} : undefined;
  if (body !== undefined) headers['content-type'] = 'application/json';
  try {
    const res = await fetch(`${base}${path}`, {
      method: opts.method ?? 'GET',
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      dispatcher,
    });
    const text = await res.text();
    stat.latencies.push(performance.now() - started);
    stat.statuses[res.status] = (stat.statuses[res.status] ?? 0) + 1;
    if (!opts.expect.includes(res.status)) {
      stat.errors++;
      if (errorSamples.length < 20)
        errorSamples.push(`t+${((Date.now() - t0) / 1000).toFixed(1)}s ${kind} ${opts.method ?? 'GET'} ${path} → ${res.status} ${text.slice(0, 200)}`);
      return null;
    }
    let json: any = null;
    if ((res.headers.get('content-type') ?? '').includes('json') && text) json = JSON.parse(text);
    return { status: res.status, json, headers: res.headers };
  } catch (err) {
    stat.latencies.push(performance.now() - started);
    stat.errors++;
    const cause = (err as Error & { cause?: { code?: string; message?: string } }).cause;
    if (errorSamples.length < 20)
      errorSamples.push(
        `t+${((Date.now() - t0) / 1000).toFixed(1)}s ${kind} ${path} → ${(err as Error).name}: ${(err as Error).message}${cause ? ` (${cause.code ?? ''} ${cause.message ?? ''})` : ''}`,
      );
    return null;
  }
}

function cookieOf(headers: Headers): string {
  const c = headers.getSetCookie().find((x) => x.startsWith('qk_session='));
  if (!c) throw new Error('no session cookie');
  return c.split(';')[0]!;
}

// ------------------------------------------------------------------ setup: real owners

interface Owner {
  email: string;
  password: string;
  cookie: string;
  venueId: string;
  venueSlug: string;
  locationId: string;
  quizIds: string[];
}

function addDays(date: string, n: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
}

async function signUpOwner(i: number, runTag: string, today: string): Promise<Owner> {
  const email = `soak-${runTag}-${i}@test.local`;
  const password = `soak-lösen-${i}`;
  const reg = await request('setup', '/api/auth/register', { method: 'POST', body: { email, password, confirmPassword: password }, expect: [201] });
  if (!reg) throw new Error(`register ${email} failed`);
  let token: string | null = null;
  for (let attempt = 0; attempt < 40 && !token; attempt++) {
    const mails = await request('setup', '/dev/mail.json', { expect: [200] });
    const mail = (mails?.json as Array<{ to: string; links: string[] }> | undefined)?.find((m) => m.to === email);
    const link = mail?.links.find((l) => l.includes('/verify'));
    if (link) token = new URL(link).searchParams.get('token');
    else await new Promise((r) => setTimeout(r, 250));
  }
  if (!token) throw new Error(`no verification mail for ${email}`);
  const verified = await request('setup', '/api/auth/verify', { method: 'POST', body: { token }, expect: [200] });
  if (!verified) throw new Error(`verify ${email} failed`);
  const cookie = cookieOf(verified.headers);
  const venue = await request('setup', '/api/owner/venues/register', {
    method: 'POST',
    cookie,
    body: { name: `Soakpuben ${runTag} ${i}`, address: `Soakgatan ${i}`, city: CITY, description: 'Quiz under belastning' },
    expect: [201],
  });
  if (!venue) throw new Error('register venue failed');
  const owner: Owner = {
    email,
    password,
    cookie,
    venueId: venue.json.venue.id,
    venueSlug: venue.json.venue.slug,
    locationId: venue.json.locationId,
    quizIds: [],
  };
  // Every owner has a quiz on the same contested day.
  const quiz = await request('setup', '/api/owner/quizzes', {
    method: 'POST',
    cookie,
    body: { locationId: owner.locationId, date: addDays(today, 10), startTime: '19:00', category: 'allmänbildning', recurring: false },
    expect: [201],
  });
  if (!quiz) throw new Error('create quiz failed');
  owner.quizIds.push(quizIdOf(quiz.json));
  return owner;
}

function quizIdOf(json: any): string {
  return json?.firstId;
}

// ------------------------------------------------------------------ the mix

const counters = {
  logins: 0,
  quizzesCreated: 0,
  checkouts: 0,
  paid: 0,
  events: 0,
  follows: 0,
  followsConfirmed: 0,
  raceAddresses: 0,
  junkHits: 0,
  junkPages: 0,
};
const BROWSER_UA = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
/** Follow requests whose confirmation link has not been used yet (issue 17). */
const pendingFollows = new Set<string>();
const usedConfirmLinks = new Set<string>();
let followRunTag = '';
let beaconClients = 0;
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(Math.random() * xs.length)]!;

type Action = (ctx: { owners: Owner[]; cities: string[]; venuePaths: string[]; today: string; chain: string }) => Promise<unknown>;

const SEARCHES = ['quiz', 'musik', 'pub', 'tema', 'allmänbildning', 'Soakpuben', 'stockholm', 'ö'];
const WEEKDAYS = ['mandag', 'tisdag', 'onsdag', 'torsdag', 'fredag', 'lordag', 'sondag'];

const MIX: Array<[number, string, Action]> = [
  [14, 'page /', () => request('page /', '/', { expect: [200] })],
  [8, 'page city', ({ cities }) => request('page city', `/quiz/${pick(cities)}`, { expect: [200] })],
  [6, 'page city+weekday', ({ cities }) => request('page city+weekday', `/quiz/${pick(cities)}/${pick(WEEKDAYS)}`, { expect: [200] })],
  [6, 'page venue', ({ venuePaths }) => request('page venue', pick(venuePaths), { expect: [200] })],
  [2, 'sitemap', () => request('sitemap', '/sitemap.xml', { expect: [200] })],
  [14, 'api listing', ({ cities }) => request('api listing', `/api/listing?city=${pick(cities)}&page=${1 + Math.floor(Math.random() * 2)}`, { expect: [200] })],
  [10, 'api search', () => request('api search', `/api/listing?search=${encodeURIComponent(pick(SEARCHES))}`, { expect: [200] })],
  [3, 'api cities', () => request('api cities', '/api/listing/cities', { expect: [200] })],
  [
    6,
    'beacon',
    async ({ owners }) => {
      // A visitor's beacon (issue 18): 1–50 card views and detail opens of the soak owners' quizzes. Each beacon is its
      // own client (a unique address): a client's repeats of one (event, quiz) count once a day (issue 26.6).
      const n = 1 + Math.floor(Math.random() * 50);
      const events = Array.from({ length: n }, () => ({ t: Math.random() < 0.8 ? 'impression' : 'detail_open', q: pick(pick(owners).quizIds) }));
      const client = beaconClients++;
      const ip = `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
      const r = await request('beacon', '/api/events', {
        method: 'POST',
        body: { events },
        headers: { 'user-agent': BROWSER_UA, 'cf-connecting-ip': ip },
        expect: [204],
      });
      if (r) counters.events += new Set(events.map((e) => `${e.t}|${e.q}`)).size;
    },
  ],
  [
    2,
    'sign-in',
    async ({ owners }) => {
      const o = pick(owners);
      const r = await request('sign-in', '/api/auth/login', { method: 'POST', body: { email: o.email, password: o.password }, expect: [200] });
      if (r) counters.logins++;
    },
  ],
  [4, 'session', ({ owners }) => request('session', '/api/auth/session', { cookie: pick(owners).cookie, expect: [200] })],
  [5, 'owner dashboard', ({ owners }) => request('owner dashboard', '/api/owner/dashboard', { cookie: pick(owners).cookie, expect: [200] })],
  [
    3,
    'owner profile write',
    ({ owners }) =>
      request('owner profile write', '/api/owner/profile', {
        method: 'PUT',
        cookie: pick(owners).cookie,
        body: { firstName: 'Soak', lastName: `Nr ${Math.floor(Math.random() * 1e6)}` },
        expect: [200],
      }),
  ],
  [
    3,
    'owner business write',
    ({ owners }) => {
      const o = pick(owners);
      return request('owner business write', `/api/owner/venues/${o.venueId}`, {
        method: 'PATCH',
        cookie: o.cookie,
        body: {
          name: `Soakpuben ${o.email.split('-')[1]} ${o.email.split('-')[2]!.split('@')[0]}`,
          description: `Uppdaterad ${Date.now()}`,
          address: 'Soakgatan 1',
          city: CITY,
          isPublic: true,
        },
        expect: [200],
      });
    },
  ],
  [
    4,
    'owner new quiz',
    async ({ owners, today }) => {
      const o = pick(owners);
      const r = await request('owner new quiz', '/api/owner/quizzes', {
        method: 'POST',
        cookie: o.cookie,
        body: {
          locationId: o.locationId,
          date: addDays(today, 1 + Math.floor(Math.random() * 30)),
          startTime: '19:30',
          category: 'tema',
          theme: 'Musik',
          recurring: false,
          price: 40,
        },
        expect: [201],
      });
      if (r) {
        counters.quizzesCreated++;
        const id = quizIdOf(r.json);
        if (id) o.quizIds.push(id);
      }
    },
  ],
  [
    2,
    'owner quiz edit',
    ({ owners, today }) => {
      const o = pick(owners);
      return request('owner quiz edit', `/api/owner/quizzes/${pick(o.quizIds)}`, {
        method: 'PATCH',
        cookie: o.cookie,
        body: { date: addDays(today, 10), startTime: '20:00', category: 'allmänbildning', quizmaster: 'Soak' },
        // A quiz with an open checkout or a paid promotion keeps its date (issue 26.2): 409 is correct, and
        // the invariant 'every paid order has delivered promotions or a refund row' checks it held.
        expect: [200, 409],
      });
    },
  ],
  [
    2,
    'promotion availability',
    ({ owners }) => {
      const o = pick(owners);
      return request('promotion availability', '/api/promotion/availability', {
        method: 'POST',
        cookie: o.cookie,
        body: { quizIds: o.quizIds.slice(0, 20) },
        expect: [200],
      });
    },
  ],
  [
    3,
    'promotion checkout',
    async ({ owners }) => {
      const o = pick(owners);
      // Every owner competes for the same city's slots; sold out (409) is a correct answer, and so are the
      // hold limits (409) and the per-account checkout rate limit (429) of issue 26.3.
      const r = await request('promotion checkout', '/api/promotion/marketing-checkout', {
        method: 'POST',
        cookie: o.cookie,
        body: { venueId: o.venueId, items: [{ quizId: pick(o.quizIds), tier: Math.random() < 0.4 ? 'premium' : 'recommended' }] },
        expect: [201, 409, 429],
      });
      if (r?.status === 201) {
        counters.checkouts++;
        // Half are paid through the local checkout (a signed webhook event), half abandoned.
        if (Math.random() < 0.5) {
          const paid = await request('checkout pay', `/dev/checkout/${r.json.orderId}/pay`, { method: 'POST', cookie: o.cookie, expect: [303] });
          if (paid) counters.paid++;
        }
      }
    },
  ],
];
// Issue 17: visitors follow a place by e-mail (always 202) and confirm from the outbox once the queue sent the mail.
MIX.push(
  [
    2,
    'follow place',
    async ({ owners }) => {
      const email = `soak-follow-${followRunTag}-${counters.follows + pendingFollows.size}-${Math.floor(Math.random() * 1e9)}@test.local`;
      const r = await request('follow place', '/api/follows', { method: 'POST', body: { placeId: pick(owners).locationId, email }, expect: [202] });
      if (r) {
        counters.follows++;
        pendingFollows.add(email);
      }
    },
  ],
  [
    1,
    'follow confirm',
    async () => {
      const r = await request('follow outbox', '/dev/mail.json', { expect: [200] });
      const mail = ((r?.json ?? []) as Array<{ to: string; subject: string; links: string[] }>).find(
        (m) =>
          pendingFollows.has(m.to) && m.subject.includes('Bekräfta') && m.links.some((l) => l.includes('/bevakningar/bekrafta') && !usedConfirmLinks.has(l)),
      );
      if (!mail) return;
      const link = mail.links.find((l) => l.includes('/bevakningar/bekrafta'))!;
      usedConfirmLinks.add(link);
      pendingFollows.delete(mail.to);
      const u = new URL(link);
      const ok = await request('follow confirm', `${u.pathname}${u.search}`, { method: 'POST', expect: [200] });
      if (ok) counters.followsConfirmed++;
    },
  ],
);
// Issue 43: hostile shapes. `chain` is "{city}/{venue}" of owner 0's business with MAX_PLACES_PER_VENUE places.
/** Junk values of the parameters a page knows (the page ignores them; the cache key must too). */
const JUNK = ['weekday=x', 'sprak=x', 'near=a', 'date=x', 'radius=x', 'price=x', 'city=%00'];
MIX.push(
  [3, 'chain page', ({ chain }) => request('chain page', `/quiz/${chain}`, { expect: [200] })],
  [1, 'chain feed', ({ chain }) => request('chain feed', `/api/calendar/venue/${chain}.ics`, { expect: [200] })],
  [1, 'chain widget', ({ chain }) => request('chain widget', `/embed/${chain}`, { expect: [200] })],
  [
    1,
    'chain place too many',
    ({ owners }) =>
      request('chain place too many', `/api/owner/venues/${owners[0]!.venueId}/locations`, {
        method: 'POST',
        cookie: owners[0]!.cookie,
        body: { name: 'En för mycket', address: 'Soakgatan 99', city: CITY },
        expect: [409],
      }),
  ],
  [
    4,
    'page junk',
    async ({ cities }) => {
      const path = pick(['/', `/quiz/${pick(cities)}`, `/stad/${pick(cities)}`]);
      const junk = pick(JUNK).replace(/=(.*)$/, `=$1${Math.floor(Math.random() * 1e9)}`);
      const r = await request('page junk', `${path}?${junk}`, { expect: [200] });
      counters.junkPages++;
      if (r?.headers.get('x-cache') === 'HIT') counters.junkHits++;
    },
  ],
  [
    1,
    'register race',
    async () => {
      // A double-clicked sign-up, ten times over: five accepted (REGISTER_LIMIT per address), five told to wait.
      const email = `soak-race-${followRunTag}-${counters.raceAddresses++}@test.local`;
      const body = { email, password: 'soak-lösen', confirmPassword: 'soak-lösen' };
      await Promise.all(Array.from({ length: 10 }, () => request('register race', '/api/auth/register', { method: 'POST', body, expect: [201, 429] })));
    },
  ],
);
const TOTAL_WEIGHT = MIX.reduce((s, [w]) => s + w, 0);
function chooseAction(): Action {
  let x = Math.random() * TOTAL_WEIGHT;
  for (const [w, , action] of MIX) {
    x -= w;
    if (x < 0) return action;
  }
  return MIX[0]![2];
}

// ------------------------------------------------------------------ D1 checks

function d1(sqlText: string): any[] {
  const r = spawnSync(
    join(root, 'node_modules', '.bin', 'wrangler'),
    ['d1', 'execute', 'DB', '--local', '--persist-to', persistDir, '--json', '--command', sqlText],
    {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  if (r.status !== 0) throw new Error(`wrangler d1 execute failed: ${r.stderr || r.stdout}`);
  const parsed = JSON.parse(r.stdout);
  return (Array.isArray(parsed) ? parsed : [parsed]).flatMap((x: { results?: unknown[] }) => x.results ?? []);
}

function percentile(xs: number[], p: number): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

// ------------------------------------------------------------------ main

async function main() {
  const serverLog = await startServer();
  const runTag = Date.now().toString(36);
  followRunTag = runTag;
  const listing = await request('setup', '/api/listing', { expect: [200] });
  const today: string = listing!.json.today;
  const owners: Owner[] = [];
  for (let i = 0; i < OWNERS; i++) owners.push(await signUpOwner(i, runTag, today));
  // Owner 0's business becomes a chain of MAX_PLACES_PER_VENUE places in the soak's city, a quiz at each (issue 43.1).
  const chainOwner = owners[0]!;
  for (let i = 1; i < MAX_PLACES_PER_VENUE; i++) {
    const place = await request('setup', `/api/owner/venues/${chainOwner.venueId}/locations`, {
      method: 'POST',
      cookie: chainOwner.cookie,
      body: { name: `Soakkedjan ${i}`, address: `Kedjegatan ${i}`, city: CITY },
      expect: [201],
    });
    if (!place) throw new Error('chain place failed');
    const quiz = await request('setup', '/api/owner/quizzes', {
      method: 'POST',
      cookie: chainOwner.cookie,
      body: { locationId: place.json.id, date: addDays(today, 1 + (i % 28)), startTime: '19:00', category: 'allmänbildning', recurring: false },
      expect: [201],
    });
    if (!quiz) throw new Error('chain quiz failed');
    counters.quizzesCreated++;
  }
  const chain = `${slugify(CITY)}/${chainOwner.venueSlug}`;
  const cities: string[] = ((await request('setup', '/api/listing/cities', { expect: [200] }))!.json.cities as Array<{ slug: string }>).map((c) => c.slug);
  const venuePaths = new Set<string>();
  for (const city of cities.slice(0, 20)) {
    const r = await request('setup', `/api/listing?city=${city}`, { expect: [200] });
    for (const item of (r?.json.items ?? []) as Array<{ location: { citySlug: string }; venue: { slug: string } }>)
      venuePaths.add(`/quiz/${item.location.citySlug}/${item.venue.slug}`);
  }
  const setupErrors = stats.get('setup')?.errors ?? 0;
  stats.delete('setup');
  sent = 0;
  console.log(
    `[soak] ${owners.length} owners signed up, ${cities.length} cities, ${venuePaths.size} venue pages; traffic: ${SECONDS} s × ${CONNECTIONS} connections (max ${MAX_REQUESTS} requests)`,
  );

  const ctx = { owners, cities, venuePaths: [...venuePaths], today, chain };
  const started = Date.now();
  t0 = started;
  const deadline = started + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (Date.now() < deadline && sent < MAX_REQUESTS) await chooseAction()(ctx);
    }),
  );
  const elapsed = (Date.now() - started) / 1000;

  let total = 0;
  let errors = setupErrors;
  const all: number[] = [];
  console.log('\n[soak] kind                      requests  errors   p50 ms   p95 ms   p99 ms  statuses');
  for (const [kind, s] of [...stats.entries()].sort((a, b) => b[1].count - a[1].count)) {
    total += s.count;
    errors += s.errors;
    all.push(...s.latencies);
    console.log(
      `[soak] ${kind.padEnd(25)} ${String(s.count).padStart(8)} ${String(s.errors).padStart(7)} ${percentile(s.latencies, 50).toFixed(0).padStart(8)} ${percentile(s.latencies, 95).toFixed(0).padStart(8)} ${percentile(s.latencies, 99).toFixed(0).padStart(8)}  ${JSON.stringify(s.statuses)}`,
    );
  }
  console.log(
    `[soak] total ${total} requests in ${elapsed.toFixed(1)} s (${(total / elapsed).toFixed(0)} req/s), p50 ${percentile(all, 50).toFixed(0)} ms, p99 ${percentile(all, 99).toFixed(0)} ms, errors ${errors}`,
  );
  for (const e of errorSamples) console.log(`[soak]   error: ${e.split('\n')[0]}`);

  // Stop the server so every write is on disk, then check D1 directly.
  stopServer();
  await new Promise((r) => setTimeout(r, 2000));

  const problems: string[] = [];
  for (const inv of INVARIANTS) {
    const rows = d1(inv.sql);
    console.log(`[soak] invariant ${rows.length === 0 ? 'ok  ' : 'FAIL'} ${inv.name}`);
    if (rows.length) problems.push(`${inv.name}: ${JSON.stringify(rows.slice(0, 3))}`);
  }
  const soakUsers = `(SELECT id FROM users WHERE email LIKE 'soak-${runTag}-%')`;
  const expectations: Array<[string, string, number]> = [
    ['soak owners', `SELECT COUNT(*) AS n FROM users WHERE email LIKE 'soak-${runTag}-%' AND email_verified_at IS NOT NULL`, owners.length],
    ['their businesses', `SELECT COUNT(*) AS n FROM venues WHERE user_id IN ${soakUsers}`, owners.length],
    [
      'their quizzes (one each + every 201 of "owner new quiz")',
      `SELECT COUNT(*) AS n FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE v.user_id IN ${soakUsers}`,
      owners.length + counters.quizzesCreated,
    ],
    [
      'their sessions (one per verification + one per sign-in)',
      `SELECT COUNT(*) AS n FROM sessions WHERE user_id IN ${soakUsers}`,
      owners.length + counters.logins,
    ],
    ['their checkout orders (every 201 checkout)', `SELECT COUNT(*) AS n FROM checkout_orders WHERE user_id IN ${soakUsers}`, counters.checkouts],
    [
      'their paid orders (every paid local checkout)',
      `SELECT COUNT(*) AS n FROM checkout_orders WHERE status = 'paid' AND user_id IN ${soakUsers}`,
      counters.paid,
    ],
    [
      // An owner who moves a quiz while its checkout is being created pays for a date the quiz left: that payment
      // is refunded ('items_changed', issue 26.2), not delivered. Nothing else may refund here (no quiz is deleted,
      // no hold outlives the run).
      'their promotions (one per paid order that was not refunded because its quiz moved: single-item orders)',
      `SELECT COUNT(*) AS n FROM promotions WHERE order_id IN (SELECT id FROM checkout_orders WHERE user_id IN ${soakUsers})`,
      counters.paid -
        Number(
          d1(
            `SELECT COUNT(*) AS n FROM payment_refunds WHERE reason = 'items_changed' AND order_id IN (SELECT id FROM checkout_orders WHERE status = 'paid' AND user_id IN ${soakUsers})`,
          )[0]?.n,
        ),
    ],
    [
      'their refunds for any other reason',
      `SELECT COUNT(*) AS n FROM payment_refunds WHERE reason <> 'items_changed' AND order_id IN (SELECT id FROM checkout_orders WHERE user_id IN ${soakUsers})`,
      0,
    ],
    [
      'their counted events (every distinct event of every 204 beacon, one client each; issues 18, 26.6)',
      `SELECT COALESCE(SUM(count), 0) AS n FROM analytics_daily WHERE venue_id IN (SELECT id FROM venues WHERE user_id IN ${soakUsers})`,
      counters.events,
    ],
    [
      'follows by soak visitors (every 202 follow request: unique addresses)',
      `SELECT COUNT(*) AS n FROM follows f JOIN follow_addresses a ON a.id = f.address_id WHERE a.email LIKE 'soak-follow-${runTag}-%'`,
      counters.follows,
    ],
    [
      'confirmed follows (every 200 confirmation)',
      `SELECT COUNT(*) AS n FROM follows f JOIN follow_addresses a ON a.id = f.address_id WHERE a.email LIKE 'soak-follow-${runTag}-%' AND f.confirmed_at IS NOT NULL`,
      counters.followsConfirmed,
    ],
  ];
  expectations.push(
    [
      `chain places (MAX_PLACES_PER_VENUE, every extra refused)`,
      `SELECT COUNT(*) AS n FROM locations WHERE venue_id = '${chainOwner.venueId}'`,
      MAX_PLACES_PER_VENUE,
    ],
    ['accounts of raced registrations (one per address)', `SELECT COUNT(*) AS n FROM users WHERE email LIKE 'soak-race-${runTag}-%'`, counters.raceAddresses],
  );
  for (const [label, q, expected] of expectations) {
    const got = Number(d1(q)[0]?.n);
    const ok = got === expected;
    console.log(`[soak] count     ${ok ? 'ok  ' : 'FAIL'} ${label}: ${got}${ok ? '' : ` (expected ${expected})`}`);
    if (!ok) problems.push(`${label}: ${got}, expected ${expected}`);
  }
  const [slots] = d1(
    `SELECT COUNT(*) AS n, COALESCE(MAX(c), 0) AS maxPremium FROM (SELECT COUNT(*) AS c FROM promotion_slot_claims WHERE tier = 'premium' GROUP BY city_slug, date)`,
  );
  console.log(`[soak] junk-parameter pages: ${counters.junkPages}, ${counters.junkHits} served from the cache`);
  console.log(`[soak] premium slots in use: ${slots?.n ?? 0} city-days, at most ${slots?.maxPremium ?? 0} claim per city-day`);

  const ok = errors === 0 && problems.length === 0;
  console.log(
    `\n[soak] ${ok ? 'PASS' : 'FAIL'}: ${total} requests, ${errors} errors, ${INVARIANTS.length} invariants and ${expectations.length} counts checked${problems.length ? `, ${problems.length} broken` : ''}`,
  );
  for (const p of problems) console.log(`[soak]   broken: ${p}`);
  if (!ok && process.env.SOAK_VERBOSE) console.log(serverLog().slice(-5000));
  if (!process.env.SOAK_KEEP) rmSync(dir, { recursive: true, force: true });
  process.exit(ok ? 0 : 1);
}

main().catch((err) => {
  console.error('[soak] failed:', err);
  stopServer();
  process.exit(1);
});
