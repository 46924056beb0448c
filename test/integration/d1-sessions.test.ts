/**
 * D1 read replicas through the Sessions API (issue 19 §5). middleware/context.ts opens one session per
 * request: anonymous reads `first-unconstrained` (any replica), writes and signed-in requests
 * `first-primary`, and a request carrying a bookmark (x-d1-bookmark header, else the qk_d1 cookie)
 * continues from it, so an owner reads their own writes on any replica. Every response with a bookmark
 * answers it in x-d1-bookmark; writes and signed-in requests also get it as the qk_d1 cookie, anonymous
 * GETs never get a Set-Cookie (they stay cacheable).
 */
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { app } from '../../worker/app';
import { sessionConstraint, validBookmark } from '../../worker/middleware/context';
import { call, callJson, createLocation, createUser, createVenue, unique, runListingDayAt, uniqueTown } from '../factories';

const CLOCK = '2031-05-06T09:00:00Z'; // a Tuesday

/** The app on a D1 binding that records the constraint or bookmark of every session it opens. */
async function constraintOf(path: string, init: RequestInit = {}): Promise<{ status: number; opened: Array<string | undefined>; res: Response }> {
  const opened: Array<string | undefined> = [];
  const DB = new Proxy(env.DB, {
    get(target, prop) {
      if (prop === 'withSession') {
        return (c?: string) => {
          opened.push(c);
          return target.withSession(c);
        };
      }
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  await runListingDayAt(CLOCK); // the cron's work before the request (issue 30.8)
  const ctx = createExecutionContext();
  const headers = new Headers(init.headers);
  headers.set('x-clock-now', CLOCK);
  headers.set('origin', 'http://localhost');
  const res = await app.fetch(new Request(`http://localhost${path}`, { ...init, headers }), { ...env, DB }, ctx);
  await res.arrayBuffer();
  await waitOnExecutionContext(ctx);
  return { status: res.status, opened, res };
}

async function owner() {
  const user = await createUser({ now: new Date(CLOCK) });
  const venue = await createVenue(user.id);
  const location = await createLocation(venue.id, { city: uniqueTown() });
  return { user, location };
}

function cookieValue(res: Response, name: string): string | null {
  const all = res.headers.getSetCookie();
  const hit = all.find((c) => c.startsWith(`${name}=`));
  return hit ? decodeURIComponent(hit.slice(name.length + 1).split(';')[0]!) : null;
}

/** A real bookmark from this database (any statement through a session returns one). */
async function someBookmark(): Promise<string> {
  const s = env.DB.withSession('first-primary');
  await s.prepare('SELECT 1').run();
  return s.getBookmark()!;
}

describe('which session a request opens', () => {
  it('anonymous GET: first-unconstrained; signed-in GET and any write: first-primary', async () => {
    const { user } = await owner();
    expect((await constraintOf('/api/listing')).opened).toEqual(['first-unconstrained']);
    expect((await constraintOf('/quiz/stockholm')).opened).toEqual(['first-unconstrained']);
    const signedIn = await constraintOf('/api/owner/quiz-places', { headers: { cookie: user.cookie } });
    expect(signedIn.status).toBe(200);
    expect(signedIn.opened).toEqual(['first-primary']);
    const write = await constraintOf('/api/feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(write.opened).toEqual(['first-primary']);
  });

  it('a bookmark in the header (first) or the qk_d1 cookie is continued; a malformed one is ignored', async () => {
    const b = await someBookmark();
    expect(validBookmark(b)).toBe(b);
    expect((await constraintOf('/api/listing', { headers: { cookie: `qk_d1=${b}` } })).opened).toEqual([b]);
    expect((await constraintOf('/api/listing', { headers: { 'x-d1-bookmark': b, cookie: 'qk_d1=00000001-00000001-00000001-0' } })).opened).toEqual([b]);
    const bad = await constraintOf('/api/listing', { headers: { cookie: 'qk_d1=first-primary', 'x-d1-bookmark': "'; DROP TABLE quizzes; --" } });
    expect(bad.status).toBe(200);
    expect(bad.opened).toEqual(['first-unconstrained']);
    expect(sessionConstraint({ bookmark: null, write: false, signedIn: false })).toBe('first-unconstrained');
    expect(sessionConstraint({ bookmark: null, write: false, signedIn: true })).toBe('first-primary');
    expect(sessionConstraint({ bookmark: null, write: true, signedIn: false })).toBe('first-primary');
    expect(sessionConstraint({ bookmark: b, write: true, signedIn: true })).toBe(b);
  });
});

describe('bookmark round trip', () => {
  it('a write answers its bookmark (header + HttpOnly cookie); the next request continues from it and reads the write', async () => {
    const { user, location } = await owner();
    const created = await call('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: {
        locationId: location.id,
        date: '2031-05-06',
        startTime: '19:00',
        category: 'allmänbildning',
        quizmaster: 'Ada',
        recurring: true,
        pattern: 'weekly',
        days: ['tisdag'],
      },
    });
    expect(created.status).toBe(201);
    const { recurrenceId } = (await created.json()) as { recurrenceId: string };
    const b1 = created.headers.get('x-d1-bookmark');
    expect(b1).toBeTruthy();
    expect(validBookmark(b1)).toBe(b1);
    expect(cookieValue(created, 'qk_d1')).toBe(b1);
    const setCookie = created.headers.getSetCookie().find((c) => c.startsWith('qk_d1='))!;
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    expect(setCookie).toMatch(/Path=\//);

    // The edit carries the session cookie and the bookmark cookie, as a browser would.
    const edit = await callJson(`/api/owner/series/${recurrenceId}`, {
      method: 'PATCH',
      cookie: `${user.cookie}; qk_d1=${b1}`,
      clock: CLOCK,
      body: { startTime: '20:30', category: 'tema', theme: 'Musik', quizmaster: 'Bo', teamSize: 4, price: 30, description: 'Efter bokmärket' },
    });
    expect(edit.status).toBe(200);
    const b2 = edit.res.headers.get('x-d1-bookmark')!;
    expect(b2 > b1!).toBe(true); // bookmarks order as strings (D1 compares them so)
    expect(cookieValue(edit.res, 'qk_d1')).toBe(b2);

    // The next read continues from b2 (any replica at least as new) and sees the edit.
    const read = await callJson(`/api/owner/series/${recurrenceId}`, { cookie: `${user.cookie}; qk_d1=${b2}`, clock: CLOCK });
    expect(read.status).toBe(200);
    expect(JSON.stringify(read.body)).toContain('Efter bokmärket');
    const b3 = read.res.headers.get('x-d1-bookmark')!;
    expect(b3 >= b2).toBe(true);
    // Unchanged bookmark: no new cookie; a newer one (the session renewal may write): the new one.
    const again = cookieValue(read.res, 'qk_d1');
    expect(again === null ? b3 === b2 : again === b3).toBe(true);
  });

  it('an API client may carry the bookmark in the x-d1-bookmark header instead', async () => {
    const { user, location } = await owner();
    const created = await call('/api/owner/quizzes', {
      cookie: user.cookie,
      clock: CLOCK,
      body: { locationId: location.id, date: '2031-05-08', startTime: '19:00', category: 'allmänbildning', recurring: false, quizmaster: 'Huvudmästaren' },
    });
    expect(created.status).toBe(201);
    const b1 = created.headers.get('x-d1-bookmark')!;
    const read = await call('/api/owner/quizzes', { cookie: user.cookie, clock: CLOCK, headers: { 'x-d1-bookmark': b1 } });
    expect(read.status).toBe(200);
    expect(await read.text()).toContain('Huvudmästaren');
    expect(read.headers.get('x-d1-bookmark')! >= b1).toBe(true);
  });

  it('anonymous public GETs answer the bookmark header but never a Set-Cookie, and stay publicly cacheable', async () => {
    const b = await someBookmark();
    for (const headers of [{}, { cookie: `qk_d1=${b}` }] as Array<Record<string, string>>) {
      const res = await call(`/api/listing?_b=${unique('b')}`, { clock: CLOCK, headers });
      await res.arrayBuffer();
      expect(res.status).toBe(200);
      expect(res.headers.get('x-d1-bookmark')).toBeTruthy();
      expect(res.headers.getSetCookie()).toEqual([]);
      expect(res.headers.get('cache-control')).toMatch(/^public/);
      expect(res.headers.get('etag')).toBeTruthy();
    }
    const page = await call(`/?_b=${unique('b')}`, { clock: CLOCK, headers: { accept: 'text/html' } });
    await page.arrayBuffer();
    expect(page.status).toBe(200);
    expect(page.headers.getSetCookie()).toEqual([]);
    expect(page.headers.get('cache-control')).toMatch(/^public/);
  });
});
