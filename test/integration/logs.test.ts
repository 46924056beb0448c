/**
 * Logs worth reading (issue 30 §3; worker/lib/log.ts): one JSON line per request with request id, route
 * pattern (not the raw path), status, duration, D1 rows and the edge cache's verdict; one per job run;
 * nothing personal (no e-mail, no IP, no session id, no query). A 5xx also bumps the hourly counter.
 */
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runListingDay } from '../../worker/jobs/nightly';
import { call, createUser, testDb, unique, uniqueTown } from '../factories';
import { expectConsoleError } from '../setup/console';
import { testApp } from '../test-app';

let lines: string[] = [];
let spy: { mockRestore(): void } | null = null;
beforeEach(() => {
  lines = [];
  spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  });
});
afterEach(() => spy?.mockRestore());

const parsed = () => lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>);
const requests = () => parsed().filter((l) => l.type === 'request');
const CLIENT_IP = '203.0.113.77';

describe('request log lines', () => {
  it('one line per request: id, method, route pattern, status, ms, D1 rows, cache', async () => {
    const email = `${unique('logged')}@example.se`;
    const res = await call(`/api/listing?q=${encodeURIComponent(email)}`, { headers: { 'cf-connecting-ip': CLIENT_IP } });
    expect(res.status).toBe(200);
    const [line, ...more] = requests();
    expect(more).toEqual([]);
    expect(line).toMatchObject({
      type: 'request',
      method: 'GET',
      route: '/api/listing',
      status: 200,
      requestId: res.headers.get('x-request-id') ?? expect.any(String),
    });
    expect(line!.ms).toEqual(expect.any(Number));
    expect(line!.d1).toEqual({ rowsRead: expect.any(Number), rowsWritten: expect.any(Number), statements: expect.any(Number) });
    expect(['HIT', 'MISS', 'BYPASS']).toContain(line!.cache);
    const text = lines.join('\n');
    expect(text).not.toContain(email);
    expect(text).not.toContain(CLIENT_IP);
  });

  it('a path parameter is logged as its pattern; a second anonymous read is an edge-cache HIT', async () => {
    const slug = unique('ingen-sadan-stad');
    await call(`/stad/${slug}`);
    await call(`/stad/${slug}`);
    const city = uniqueTown();
    await call(`/api/listing?city=${city}`);
    await call(`/api/listing?city=${city}`);
    const [a, , c, d] = requests();
    expect(a!.route).toBe('/stad/:city');
    expect(JSON.stringify(requests())).not.toContain(slug);
    expect([c!.cache, d!.cache]).toEqual(['MISS', 'HIT']);
  });

  it('a sign-in never logs the e-mail, the IP or the session', async () => {
    const user = await createUser();
    const res = await call('/api/auth/login', { body: { email: user.email, password: 'fel-lösenord-123' }, headers: { 'cf-connecting-ip': CLIENT_IP } });
    expect(res.status).toBeGreaterThanOrEqual(400);
    await call('/api/account', { cookie: user.cookie });
    const text = lines.join('\n');
    for (const secret of [user.email, CLIENT_IP, user.cookie.split('=')[1]!.split(';')[0]!, user.cookie.split('=')[1]!.split('.')[0]!])
      expect(text).not.toContain(secret);
    expect(requests().map((l) => l.route)).toEqual(['/api/auth/login', expect.stringMatching(/^\/api\/account/)]);
  });

  it("a 500 is logged with its status and counted in the hour's 5xx counter", async () => {
    const errors = expectConsoleError(/unexpected error/);
    const hour = '2031-03-04T10';
    const app = testApp({
      google: () => {
        throw new Error('google port broke');
      },
    });
    const res = await call('/api/auth/config', { app, clock: `${hour}:15:00.000Z` });
    expect(res.status).toBe(500);
    errors.verify();
    expect(requests()).toEqual([expect.objectContaining({ route: '/api/auth/config', status: 500 })]);
    const [row] = await testDb().all<{ count: number }>(sql`SELECT count FROM ops_counters WHERE name = '5xx' AND hour = ${hour}`);
    expect(row?.count).toBe(1);
  });
});

describe('job log lines', () => {
  it('a cron task writes one job line (name, run id, status, ms, counts)', async () => {
    await runListingDay(env, new Date('2033-01-10T23:05:00.000Z'));
    const jobs = parsed().filter((l) => l.type === 'job');
    expect(jobs).toEqual([{ type: 'job', job: 'listing-day', runId: expect.any(String), status: 'done', ms: expect.any(Number), result: expect.any(Object) }]);
  });
});
