/**
 * Calendar downloads and feeds (issue 16), read back with a parser no one on the team wrote (ical.js):
 * Stockholm times on both sides of the 2026-10-25 DST change, stable UIDs, cancelled dates, hidden
 * businesses, hostile text, unknown slugs, the edge cache and the public-data version.
 */
import ICAL from 'ical.js';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { slugify } from '../../worker/lib/slug';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, unique, uniqueTown } from '../factories';

/** Saturday 10 October 2026, noon in Stockholm: the 8-week window reaches 4 December (DST ends 25 October). */
const CLOCK = '2026-10-10T10:00:00Z';

interface Ev {
  uid: string;
  summary: string;
  description: string;
  location: string;
  start: string;
  end: string;
  status: string | null;
  url: string | null;
  geo: number[] | null;
}

function parse(text: string): { name: string | null; events: Ev[] } {
  const cal = new ICAL.Component(ICAL.parse(text));
  const events = cal.getAllSubcomponents('vevent').map((v) => {
    const e = new ICAL.Event(v);
    return {
      uid: e.uid,
      summary: e.summary,
      description: e.description,
      location: e.location,
      start: e.startDate.toJSDate().toISOString(),
      end: e.endDate.toJSDate().toISOString(),
      status: (v.getFirstPropertyValue('status') as string | null) ?? null,
      url: (v.getFirstPropertyValue('url') as string | null) ?? null,
      geo: (v.getFirstPropertyValue('geo') as number[] | null) ?? null,
    };
  });
  return { name: (cal.getFirstPropertyValue('x-wr-calname') as string | null) ?? null, events };
}

async function ics(path: string, clock = CLOCK) {
  const res = await call(path, { clock });
  const text = await res.text();
  return { res, status: res.status, text };
}

/** A public owner in a fresh city with a weekly Tuesday series at 19:00 created through the API. */
async function world(opts: { venueName?: string; description?: string } = {}) {
  const owner = await createUser();
  const tag = unique('k');
  const city = uniqueTown();
  const citySlug = slugify(city);
  const venue = await createVenue(owner.id, { name: opts.venueName ?? `Kalenderpuben ${tag}`, slug: `kalenderpuben-${tag}` });
  const location = await createLocation(venue.id, { city, name: venue.name, address: 'Storgatan 1', latitude: 56.66, longitude: 16.36 });
  const created = await callJson('/api/owner/quizzes', {
    cookie: owner.cookie,
    clock: CLOCK,
    body: {
      locationId: location.id,
      date: '2026-10-13',
      startTime: '19:00',
      category: 'allmänbildning',
      quizmaster: 'Ada',
      teamSize: 6,
      price: 40,
      description: opts.description ?? 'Välkomna',
      recurring: true,
      pattern: 'weekly',
      until: '2027-03-30',
    },
  });
  expect(created.status).toBe(201);
  const rid = created.body.recurrenceId as string;
  const rows = await testDb().all<{ id: string; date: string }>(sql`SELECT id, date FROM quizzes WHERE recurrence_id = ${rid} ORDER BY date`);
  return { owner, venue, location, city, citySlug, rid, rows };
}

describe('single .ics download', () => {
  it('GET /api/calendar/quiz/{id}.ics: one VEVENT with UID, DTSTAMP, UTC start/end (2 h 30), summary, location, URL, description, GEO', async () => {
    const w = await world();
    const first = w.rows[0]!;
    const { res, status, text } = await ics(`/api/calendar/quiz/${first.id}.ics`);
    expect(status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="quiz-.*\.ics"$/);
    expect(text).toMatch(/^DTSTAMP:\d{8}T\d{6}Z\r$/m);
    const { events } = parse(text);
    expect(events).toHaveLength(1);
    const e = events[0]!;
    expect(e.uid).toBe(`${first.id}@quizkvall.se`);
    expect(e.start).toBe('2026-10-13T17:00:00.000Z'); // 19:00 CEST
    expect(e.end).toBe('2026-10-13T19:30:00.000Z');
    expect(e.summary).toBe(`Pubquiz på ${w.venue.name}`);
    expect(e.location).toBe(`${w.venue.name}\nStorgatan 1, ${w.city}`);
    expect(e.url).toBe(`http://localhost/quiz/${w.citySlug}/${w.venue.slug}`);
    expect(e.description).toContain('Kategori: Allmänbildning');
    expect(e.description).toContain('Pris: 40 kr');
    expect(e.description).toContain('Quizmaster: Ada');
    expect(e.description).toContain('Max lagstorlek: 6 personer');
    expect(e.status).toBe('CONFIRMED');
    expect(e.geo).toEqual([56.66, 16.36]);
  });

  it('unknown id, a missing .ics suffix and a hidden business answer 404', async () => {
    const w = await world();
    expect((await ics('/api/calendar/quiz/no-such-quiz.ics')).status).toBe(404);
    expect((await ics(`/api/calendar/quiz/${w.rows[0]!.id}`)).status).toBe(404);
    const hiddenOwner = await createUser();
    const hidden = await createVenue(hiddenOwner.id, { isPublic: false });
    const loc = await createLocation(hidden.id, { city: w.city });
    const q = await createQuiz(loc.id, { date: '2026-10-14' });
    const r = await ics(`/api/calendar/quiz/${q.id}.ics`);
    expect(r.status).toBe(404);
    expect(r.res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('feeds', () => {
  it('city feed: next 8 weeks, one VEVENT per date, 19:00 on both sides of 25 October, past and later dates dropped', async () => {
    const w = await world();
    const { res, status, text } = await ics(`/api/calendar/city/${w.citySlug}.ics`);
    expect(status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const { name, events } = parse(text);
    expect(name).toBe(`Quiz i ${w.city} – Quizkväll`);
    // Tuesdays 13 Oct … 1 Dec (window 10 Oct – 4 Dec).
    expect(events.map((e) => e.start)).toEqual([
      '2026-10-13T17:00:00.000Z',
      '2026-10-20T17:00:00.000Z',
      '2026-10-27T18:00:00.000Z', // 19:00 CET after the change
      '2026-11-03T18:00:00.000Z',
      '2026-11-10T18:00:00.000Z',
      '2026-11-17T18:00:00.000Z',
      '2026-11-24T18:00:00.000Z',
      '2026-12-01T18:00:00.000Z',
    ]);
    expect(new Set(events.map((e) => e.uid)).size).toBe(8);
    // Later in the season the earliest dates fall out of the window (past dropped).
    const later = parse((await ics(`/api/calendar/city/${w.citySlug}.ics`, '2026-10-21T10:00:00Z')).text).events;
    expect(later[0]!.start).toBe('2026-10-27T18:00:00.000Z');
  });

  it("UIDs are the single downloads' UIDs, stable across requests and across an owner edit; a cancelled date stays with STATUS:CANCELLED", async () => {
    const w = await world();
    const path = `/api/calendar/city/${w.citySlug}.ics`;
    const a = parse((await ics(path)).text).events;
    const b = parse((await ics(path)).text).events;
    expect(b.map((e) => e.uid)).toEqual(a.map((e) => e.uid));
    const single = parse((await ics(`/api/calendar/quiz/${w.rows[1]!.id}.ics`)).text).events[0]!;
    expect(a[1]!.uid).toBe(single.uid);

    const edit = await call(`/api/owner/series/${w.rid}`, {
      method: 'PATCH',
      cookie: w.owner.cookie,
      clock: CLOCK,
      body: { startTime: '20:00', category: 'allmänbildning', quizmaster: 'Bo', teamSize: 6, price: 40, description: 'Välkomna' },
    });
    expect(edit.status).toBe(200);
    const cancel = await call(`/api/owner/quizzes/${w.rows[3]!.id}/cancel`, { cookie: w.owner.cookie, clock: CLOCK, body: { cancelled: true } });
    expect(cancel.status).toBe(200);
    const c = parse((await ics(path)).text).events;
    expect(c.map((e) => e.uid)).toEqual(a.map((e) => e.uid));
    expect(c[0]!.start).toBe('2026-10-13T18:00:00.000Z'); // the edit is visible at once: the data version is in the cache key
    expect(c[0]!.description).toContain('Quizmaster: Bo');
    expect(c.map((e) => e.status)).toEqual(['CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CANCELLED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED', 'CONFIRMED']);
  });

  it('city + weekday feed holds that weekday only; venue feed holds the venue; unknown slugs 404', async () => {
    const w = await world();
    const thursday = await createQuiz(w.location.id, { date: '2026-10-15', startTime: '18:30:00' });
    await bumpDataVersion(testDb());
    const tue = parse((await ics(`/api/calendar/city/${w.citySlug}/tisdag.ics`)).text);
    expect(tue.name).toBe(`Quiz på tisdag i ${w.city} – Quizkväll`);
    expect(tue.events).toHaveLength(8);
    const thu = parse((await ics(`/api/calendar/city/${w.citySlug}/torsdag.ics`)).text).events;
    expect(thu.map((e) => e.uid)).toEqual([`${thursday.id}@quizkvall.se`]);
    expect(thu[0]!.start).toBe('2026-10-15T16:30:00.000Z');
    const venue = parse((await ics(`/api/calendar/venue/${w.citySlug}/${w.venue.slug}.ics`)).text).events;
    expect(venue).toHaveLength(9);

    for (const p of [
      '/api/calendar/city/no-such-city.ics',
      `/api/calendar/city/${w.citySlug}/noday.ics`,
      `/api/calendar/city/${w.citySlug}/tisdag`,
      `/api/calendar/venue/${w.citySlug}/no-such-venue.ics`,
      `/api/calendar/venue/no-such-city/${w.venue.slug}.ics`,
    ]) {
      const r = await call(p, { clock: CLOCK });
      expect(r.status, p).toBe(404);
      expect((await r.json()) as unknown).toMatchObject({ error: { code: 'not_found' } });
    }
  });

  it('hidden businesses never appear: not in the city, weekday, search or venue feed', async () => {
    const w = await world();
    const hiddenOwner = await createUser();
    const hidden = await createVenue(hiddenOwner.id, { isPublic: false, name: `Dold ${unique('d')}` });
    const loc = await createLocation(hidden.id, { city: w.city });
    const q = await createQuiz(loc.id, { date: '2026-10-13', description: 'Kalenderhemlis' });
    await bumpDataVersion(testDb());
    for (const p of [
      `/api/calendar/city/${w.citySlug}.ics`,
      `/api/calendar/city/${w.citySlug}/tisdag.ics`,
      `/api/calendar/listing.ics?city=${w.citySlug}`,
      '/api/calendar/listing.ics?search=Kalenderhemlis',
    ]) {
      const r = await ics(p);
      expect(r.status, p).toBe(200);
      expect(r.text, p).not.toContain(q.id);
      expect(r.text, p).not.toContain(hidden.name);
    }
    expect((await ics(`/api/calendar/venue/${w.citySlug}/${hidden.slug}.ics`)).status).toBe(404);
    // Even a signed-in owner's own hidden business stays out: feeds are the anonymous view.
    const own = await call(`/api/calendar/city/${w.citySlug}.ics`, { clock: CLOCK, cookie: hiddenOwner.cookie });
    expect(await own.text()).not.toContain(q.id);
  });

  it('listing search feed takes the /api/listing query: city + weekday (biweekly series kept every other week), free text, bad input 400', async () => {
    const w = await world();
    const biRid = `bi-${unique('r')}`;
    const bi = [];
    for (const d of ['2026-10-22', '2026-11-05', '2026-11-19', '2026-12-03']) {
      bi.push(
        await createQuiz(w.location.id, {
          date: d,
          startTime: '19:00:00',
          isRecurring: true,
          recurrenceId: biRid,
          recurrencePattern: 'biweekly',
          title: 'Varannan torsdag',
        }),
      );
    }
    await bumpDataVersion(testDb());
    const thu = parse((await ics(`/api/calendar/listing.ics?city=${w.citySlug}&weekday=torsdag`)).text).events;
    expect(thu.map((e) => e.uid)).toEqual(bi.map((q) => `${q.id}@quizkvall.se`));
    // A week later the next biweekly date is 13 days away: the listing's weekday mode would drop it; the feed keeps it.
    const later = parse((await ics(`/api/calendar/listing.ics?city=${w.citySlug}&weekday=torsdag`, '2026-10-23T10:00:00Z')).text).events;
    expect(later).toHaveLength(3);
    const tue = parse((await ics(`/api/calendar/listing.ics?city=${w.citySlug}&weekday=tisdag`)).text).events;
    expect(tue).toHaveLength(8);
    const search = parse((await ics(`/api/calendar/listing.ics?search=${encodeURIComponent(w.venue.name)}`)).text).events;
    expect(search).toHaveLength(12);
    const date = parse((await ics(`/api/calendar/listing.ics?city=${w.citySlug}&date=2026-11-05`)).text).events;
    expect(date.map((e) => e.uid)).toEqual([`${bi[1]!.id}@quizkvall.se`]);
    const bad = await callJson('/api/calendar/listing.ics?weekday=blurgdag', { clock: CLOCK });
    expect(bad.status).toBe(400);
    expect(bad.body.error.issues[0].path).toBe('weekday');
  });

  it('listing search feed holds every matching unit when there are more than two pages of them (the total is only a lower bound)', async () => {
    const owner = await createUser();
    const tag = unique('Flersida');
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) {
      const venue = await createVenue(owner.id, { name: `${tag} ${i}` });
      ids.push((await createQuiz((await createLocation(venue.id, { city: 'Kalmar' })).id, { date: '2026-10-14' })).id);
    }
    await bumpDataVersion(testDb());
    const events = parse((await ics(`/api/calendar/listing.ics?search=${encodeURIComponent(tag)}`)).text).events;
    expect(events.map((e) => e.uid).sort()).toEqual(ids.map((id) => `${id}@quizkvall.se`).sort());
  });

  it('listing search feed passes the near mode through: places within the radius only', async () => {
    const w = await world();
    const farOwner = await createUser();
    const far = await createVenue(farOwner.id, { name: `Fjärran ${unique('f')}` });
    const farLoc = await createLocation(far.id, { city: w.city, latitude: 67.85, longitude: 20.22 });
    const farQuiz = await createQuiz(farLoc.id, { date: '2026-10-14' });
    await bumpDataVersion(testDb());
    const near = await ics(`/api/calendar/listing.ics?near=56.661,16.361&radius=5&weekday=tisdag`);
    expect(near.status).toBe(200);
    const events = parse(near.text).events;
    expect(events.filter((e) => e.summary === `Pubquiz på ${w.venue.name}`)).toHaveLength(8);
    expect(near.text).not.toContain(farQuiz.id);
  });

  it('hostile text (newlines, commas, semicolons, </script>, emoji) round-trips exactly', async () => {
    const name = `Bar "Ö;l", <b>&</b> </script><script>alert(1)</script> 🍺🎉`;
    const description = 'Rad ett, med komma; semikolon\nRad två: \\backslash </script> 😀\n\nsista';
    const w = await world({ venueName: name, description });
    const { text } = await ics(`/api/calendar/quiz/${w.rows[0]!.id}.ics`);
    const e = parse(text).events[0]!;
    expect(e.summary).toBe(`Pubquiz på ${name}`);
    expect(e.description).toContain(`\n\n${description}\n\n`);
    expect(e.location.startsWith(name)).toBe(true);
    const feed = parse((await ics(`/api/calendar/venue/${w.citySlug}/${w.venue.slug}.ics`)).text).events;
    expect(feed[0]!.summary).toBe(`Pubquiz på ${name}`);
    expect(feed[0]!.description).toBe(e.description);
    // Every content line is folded at 75 octets (RFC 5545 §3.1).
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
  });

  it('is edge-cached (HIT on the second request) with ETag and 304; a session cookie bypasses', async () => {
    const w = await world();
    const path = `/api/calendar/city/${w.citySlug}.ics`;
    const a = await call(path, { clock: CLOCK });
    await a.text();
    const b = await call(path, { clock: CLOCK });
    expect(b.headers.get('x-cache')).toBe('HIT');
    const etag = b.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(b.headers.get('cache-control')).toContain('public');
    const c = await call(path, { clock: CLOCK, headers: { 'if-none-match': etag } });
    expect(c.status).toBe(304);
    const d = await call(path, { clock: CLOCK, cookie: w.owner.cookie });
    expect(d.headers.get('x-cache')).toBe('BYPASS');
    expect(d.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('feed order without a sort in SQL (issue 19 §2: D1 counts the rows of a temporary b-tree)', () => {
  it('a window sorted in the Worker and one over the cap sorted in SQL give the same events in the same order', async () => {
    const { firstInFeedOrder } = await import('../../worker/features/calendar/queries');
    const owner = await createUser();
    const place = await createLocation((await createVenue(owner.id)).id, { city: uniqueTown() });
    // Ids against the time order; no time counts as 19:00; ties on date and time by id.
    const ids = [
      (await createQuiz(place.id, { id: `zz-${unique('q')}`, date: '2026-10-12', startTime: '18:00:00' })).id,
      (await createQuiz(place.id, { id: `aa-${unique('q')}`, date: '2026-10-12', startTime: null })).id,
      (await createQuiz(place.id, { id: `ab-${unique('q')}`, date: '2026-10-12', startTime: '19:00:00' })).id,
      (await createQuiz(place.id, { id: `zz-${unique('q')}`, date: '2026-10-11', startTime: '21:00:00' })).id,
      (await createQuiz(place.id, { id: `aa-${unique('q')}`, date: '2026-10-13', startTime: '17:00:00' })).id,
    ];
    const events = sql`SELECT * FROM (SELECT q.id AS id, q.date AS date, q.start_time AS startTime FROM quizzes q WHERE q.location_id = ${place.id})`;
    // The 11th; then on the 12th 18:00, 19:00 (none) and 19:00 by id (aa- before ab-); the 13th is past the limit.
    const expected = [ids[3], ids[0], ids[1], ids[2]];
    const inWorker = (await firstInFeedOrder(testDb(), events, 4)).map((r) => r.id);
    const inSql = (await firstInFeedOrder(testDb(), events, 4, 2)).map((r) => r.id);
    expect(inWorker).toEqual(expected);
    expect(inSql).toEqual(inWorker);
  });

  it("a venue's next few dates (share card, widget): the place's range ends at its n-th date, that date's later-created earlier quiz included", async () => {
    const { venueOccurrences } = await import('../../worker/features/calendar/queries');
    const owner = await createUser();
    const venue = await createVenue(owner.id);
    const place = await createLocation(venue.id, { city: uniqueTown() });
    const other = await createLocation(venue.id, { city: place.city });
    const first = await createQuiz(place.id, { date: '2026-10-12', startTime: '19:00:00' });
    const second = await createQuiz(place.id, { date: '2026-10-13', startTime: '19:00:00' });
    const late = await createQuiz(place.id, { date: '2026-10-14', startTime: '21:00:00' });
    const early = await createQuiz(place.id, { date: '2026-10-14', startTime: '17:00:00' }); // created later, earlier that evening
    const elsewhere = await createQuiz(other.id, { date: '2026-10-20', startTime: '20:00:00' });
    await createQuiz(place.id, { date: '2026-10-09' }); // before `from`
    const next3 = await venueOccurrences(testDb(), venue.id, '2026-10-10', '9999-12-31', 3);
    expect(next3.map((r) => r.id)).toEqual([first.id, second.id, early.id]);
    const next5 = await venueOccurrences(testDb(), venue.id, '2026-10-10', '9999-12-31', 5);
    expect(next5.map((r) => r.id)).toEqual([first.id, second.id, early.id, late.id, elsewhere.id]);
    expect(next5[4]!.lName).toBe(other.name);
    expect(next5[0]!.vName).toBe(venue.name);
  });
});
