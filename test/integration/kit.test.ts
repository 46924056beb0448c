/**
 * Issue 48.7, the owner kit: an A4 poster and an A6 table tent (PDF) and an Instagram post and story (PNG) per series
 * or single quiz, rendered in the Worker, kept in R2 per content (a second download renders nothing), owner-only.
 * The QR codes are decoded with jsQR from the PDF's drawing and the PNG's pixels (test/kit-decode.ts).
 */
import { env } from 'cloudflare:workers';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { newId } from '../../worker/lib/ids';
import { bumpDataVersion } from '../../worker/lib/data-version';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, testDb, unique } from '../factories';
import { pdfContentText, pdfQrText, pngQrText, pngSize } from '../kit-decode';

const CLOCK = '2030-01-07T10:00:00Z'; // Monday 7 January 2030, Stockholm
const APP = 'http://localhost';

async function world() {
  const owner = await createUser({ now: new Date(CLOCK) });
  const tag = unique('k');
  const city = `Kalmar ${tag}`;
  const venue = await createVenue(owner.id, { name: `Affischpuben ${tag}`, slug: `affischpuben-${tag}` });
  const location = await createLocation(venue.id, { city, name: `Affischpuben ${tag}`, address: 'Storgatan 1' });
  const recurrenceId = newId();
  const series = {
    isRecurring: true,
    recurrenceId,
    recurrencePattern: 'weekly' as const,
    recurrenceDays: '["tisdag"]',
    startTime: '19:30:00',
    price: 40,
    teamSize: 4,
  };
  // Tuesdays; the one in the past and the cancelled one are not "next dates".
  const past = await createQuiz(location.id, { ...series, date: '2030-01-01' });
  for (const date of ['2030-01-08', '2030-01-22', '2030-01-29']) await createQuiz(location.id, { ...series, date });
  await createQuiz(location.id, { ...series, date: '2030-01-15', isCancelled: true });
  const single = await createQuiz(location.id, { date: '2030-02-14', startTime: '20:00:00', title: 'Alla hjärtans quiz', language: 'en', price: 0 });
  await bumpDataVersion(testDb());
  const citySlug = (await testDb().query.locations.findFirst({ where: (l, { eq }) => eq(l.id, location.id) }))!.citySlug;
  return { owner, venue, location, recurrenceId, past, single, citySlug, venueUrl: `${APP}/quiz/${citySlug}/${venue.slug}` };
}

async function download(path: string, cookie?: string) {
  const res = await call(path, { cookie, clock: CLOCK });
  return { res, status: res.status, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** The stored objects under a prefix, once there are `n` (the write runs after the response: waitUntil). */
async function storedObjects(prefix: string, n: number) {
  for (let i = 0; i < 250; i++) {
    const listed = await env.CARDS.list({ prefix });
    if (listed.objects.length >= n) return listed.objects;
    await new Promise((r) => setTimeout(r, 20));
  }
  return (await env.CARDS.list({ prefix })).objects;
}

const drawn = (res: Response): string[] => JSON.parse(decodeURIComponent(res.headers.get('x-kit-text') ?? '[]')) as string[];

describe('owner kit', () => {
  it('A4 poster and A6 table tent: PDFs whose QR code decodes to the venue page tagged affisch / bordsskylt', async () => {
    const w = await world();
    for (const [file, src, size] of [
      ['affisch.pdf', 'affisch', [595.28, 841.89]],
      ['bordsskylt.pdf', 'bordsskylt', [297.64, 419.53]],
    ] as const) {
      const { res, status, bytes } = await download(`/api/owner/kit/series/${w.recurrenceId}/${file}`, w.owner.cookie);
      expect(status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="quizkvall-${file}"`);
      expect(res.headers.get('x-kit-source')).toBe('render');
      expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
      const pdf = await pdfContentText(bytes);
      expect(pdf.pages).toBe(1);
      expect(pdf.size.map((n) => Math.round(n))).toEqual(size.map((n) => Math.round(n)));
      expect(await pdfQrText(bytes), file).toBe(`${w.venueUrl}?src=${src}`);
      // Inter is embedded (subsets of regular and bold), not a standard PDF font.
      expect(pdf.embeddedFonts.every((f) => /Inter/.test(f))).toBe(true);
      expect(pdf.embeddedFonts).toHaveLength(2);
    }
  });

  it('Instagram post 1080×1080 and story 1080×1920: the next quiz, the weekday and time, Swedish dates, the QR to the venue tagged instagram', async () => {
    const w = await world();
    for (const [file, size] of [
      ['instagram-inlagg.png', { width: 1080, height: 1080 }],
      ['instagram-story.png', { width: 1080, height: 1920 }],
    ] as const) {
      const { res, status, bytes } = await download(`/api/owner/kit/series/${w.recurrenceId}/${file}`, w.owner.cookie);
      expect(status, file).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(pngSize(bytes), file).toEqual(size);
      const texts = drawn(res);
      expect(texts).toContain('Varje tisdag 19:30');
      expect(texts).toContain(w.venue.name);
      expect(texts).toContain('40 kr · Max 4 per lag · Svenska');
      expect(texts).toContain('tisdag 8 januari');
      expect(texts).not.toContain('tisdag 15 januari'); // cancelled
      expect(texts).not.toContain('tisdag 1 januari'); // past
      expect(texts).toContain(`${w.venueUrl.replace('http://', '')}?src=instagram`);
      expect(await pngQrText(bytes), file).toBe(`${w.venueUrl}?src=instagram`);
    }
  });

  it('a single quiz shows its date: "Torsdag 14 februari 20:00", free, in English', async () => {
    const w = await world();
    const { res, status } = await download(`/api/owner/kit/quiz/${w.single.id}/instagram-inlagg.png`, w.owner.cookie);
    expect(status).toBe(200);
    expect(drawn(res)).toEqual(expect.arrayContaining(['Torsdag 14 februari 20:00', 'Alla hjärtans quiz', 'Gratis · Engelska']));
    const pdf = await download(`/api/owner/kit/quiz/${w.single.id}/affisch.pdf`, w.owner.cookie);
    expect(await pdfQrText(pdf.bytes)).toBe(`${w.venueUrl}?src=affisch`);
  });

  it('a second download is served from R2 with no render; a change to what the item says renders anew', async () => {
    const w = await world();
    for (const file of ['affisch.pdf', 'instagram-story.png']) {
      const path = `/api/owner/kit/series/${w.recurrenceId}/${file}`;
      const first = await download(path, w.owner.cookie);
      expect(first.res.headers.get('x-kit-source'), file).toBe('render');
      const stored = await storedObjects(`kit/t1/series/${w.recurrenceId}/${file.replace(/\.[a-z]+$/, '')}/`, 1);
      expect(stored, file).toHaveLength(1);
      const second = await download(path, w.owner.cookie);
      expect(second.res.headers.get('x-kit-source'), file).toBe('store');
      expect(second.res.headers.get('x-kit-text'), 'no render drew anything').toBeNull();
      expect(second.bytes).toEqual(first.bytes);
    }
    // A new date changes the poster: a new object, rendered once.
    await createQuiz(w.location.id, {
      isRecurring: true,
      recurrenceId: w.recurrenceId,
      recurrencePattern: 'weekly',
      recurrenceDays: '["tisdag"]',
      startTime: '19:30:00',
      date: '2030-01-10',
    });
    const third = await download(`/api/owner/kit/series/${w.recurrenceId}/affisch.pdf`, w.owner.cookie);
    expect(third.res.headers.get('x-kit-source')).toBe('render');
  });

  it('owner-only: anonymous 401, another owner 403, a missing series or quiz 404, an unknown file 400; the superadmin may', async () => {
    const w = await world();
    const other = await createUser({ now: new Date(CLOCK) });
    const admin = await createUser({ roles: ['superadmin'], now: new Date(CLOCK) });
    const path = `/api/owner/kit/series/${w.recurrenceId}/affisch.pdf`;
    expect((await download(path)).status).toBe(401);
    expect((await download(`/api/owner/kit/series/${newId()}/affisch.pdf`)).status).toBe(401);
    const refused = await callJson(path, { cookie: other.cookie, clock: CLOCK });
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('forbidden');
    expect((await download(`/api/owner/kit/quiz/${w.single.id}/bordsskylt.pdf`, other.cookie)).status).toBe(403);
    expect((await callJson(`/api/owner/kit/series/${newId()}/affisch.pdf`, { cookie: w.owner.cookie, clock: CLOCK })).status).toBe(404);
    expect((await callJson(`/api/owner/kit/quiz/${newId()}/affisch.pdf`, { cookie: w.owner.cookie, clock: CLOCK })).status).toBe(404);
    const unknown = await callJson(`/api/owner/kit/series/${w.recurrenceId}/affisch.docx`, { cookie: w.owner.cookie, clock: CLOCK });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/Fil|fil/);
    expect((await download(path, admin.cookie)).status).toBe(200);
  });

  it('GET /api/owner/kit lists the business series and single quizzes with something coming, owner-only', async () => {
    const w = await world();
    const res = await callJson(`/api/owner/kit?venueId=${w.venue.id}`, { cookie: w.owner.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.body.units).toEqual([
      { unit: 'series', id: w.recurrenceId, label: `Varje tisdag 19:30 · ${w.location.name}`, next: '2030-01-08', results: false },
      { unit: 'quiz', id: w.single.id, label: `Torsdag 14 februari 20:00 · ${w.location.name} · Alla hjärtans quiz`, next: '2030-02-14', results: false },
    ]);
    const other = await createUser({ now: new Date(CLOCK) });
    expect((await callJson(`/api/owner/kit?venueId=${w.venue.id}`, { cookie: other.cookie, clock: CLOCK })).status).toBe(403);
    expect((await callJson(`/api/owner/kit?venueId=${w.venue.id}`, { clock: CLOCK })).status).toBe(401);
  });

  it('"last night\'s top 3": 404 in Swedish before results; then post and story PNGs with ties as posted, no hidden team, stored once', async () => {
    const w = await world();
    const post = `/api/owner/kit/series/${w.recurrenceId}/topp3-inlagg.png`;
    const before = await callJson(post, { cookie: w.owner.cookie, clock: CLOCK });
    expect(before.status).toBe(404);
    expect(before.body.error.message).toMatch(/inga resultat/i);
    expect((await callJson(`/api/owner/kit/quiz/${w.single.id}/topp3-story.png`, { cookie: w.owner.cookie, clock: CLOCK })).status).toBe(404);
    // Someone else's series is refused before anything about its results is said.
    const other = await createUser({ now: new Date(CLOCK) });
    expect((await callJson(post, { cookie: other.cookie, clock: CLOCK })).status).toBe(403);

    // Short enough that "{t} Gamma" (16 characters) is drawn whole: the story clips a team name at 22.
    const t = unique('L').slice(0, 10);
    const text = [`${t} Alfa;50`, `${t} Beta;45`, `${t} Dolda;45`, `${t} Gamma;45`, `${t} Delta;30,5`].join('\n');
    const posted = await callJson(`/api/owner/quizzes/${w.past.id}/results`, { method: 'PUT', body: { text }, cookie: w.owner.cookie, clock: CLOCK });
    expect(posted.status).toBe(200);
    await testDb().run(sql`UPDATE teams SET hidden_at = ${CLOCK} WHERE name = ${`${t} Dolda`}`);

    const list = await callJson(`/api/owner/kit?venueId=${w.venue.id}`, { cookie: w.owner.cookie, clock: CLOCK });
    expect(list.body.units.map((u: { results: boolean }) => u.results)).toEqual([true, false]);

    for (const [file, size] of [
      ['topp3-inlagg.png', { width: 1080, height: 1080 }],
      ['topp3-story.png', { width: 1080, height: 1920 }],
    ] as const) {
      const path = `/api/owner/kit/series/${w.recurrenceId}/${file}`;
      const first = await download(path, w.owner.cookie);
      expect(first.status, file).toBe(200);
      expect(first.res.headers.get('content-type')).toBe('image/png');
      expect(first.res.headers.get('x-kit-source')).toBe('render');
      expect(pngSize(first.bytes), file).toEqual(size);
      const texts = drawn(first.res);
      expect(texts).toEqual(expect.arrayContaining(['Senaste kvällens topp 3', 'tisdag 1 januari', w.venue.name, 'Varje tisdag 19:30']));
      // Ranks as posted: 1, 2, 2 (the hidden team shared rank 2 and is left out); rank 5 is not on the podium.
      const rows = texts.filter((x) => x.startsWith(t) || /^\d$/.test(x) || / p$/.test(x));
      expect(rows).toEqual(['1', `${t} Alfa`, '50 p', '2', `${t} Beta`, '45 p', '2', `${t} Gamma`, '45 p']);
      expect(texts.join('|')).not.toContain('Dolda');
      expect(texts.join('|')).not.toContain('Delta');
      expect(await pngQrText(first.bytes), file).toBe(`${w.venueUrl}?src=instagram`);
      await storedObjects(`kit/t1/series/${w.recurrenceId}/${file.replace(/\.png$/, '')}/`, 1);
      const second = await download(path, w.owner.cookie);
      expect(second.res.headers.get('x-kit-source'), file).toBe('store');
      expect(second.res.headers.get('x-kit-text')).toBeNull();
      expect(second.bytes).toEqual(first.bytes);
    }
    // The occurrence itself, as a single quiz id, shows the same night.
    expect((await download(`/api/owner/kit/quiz/${w.past.id}/topp3-inlagg.png`, w.owner.cookie)).status).toBe(200);
  });
});
