/**
 * Exports (issue 21): an owner's own data (JSON), own quizzes (CSV), the catalogue in the import's
 * format (superadmin) and its round trip through the import job; formula-injection neutralisation.
 */
import { introspectWorkflowInstance, SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { checkoutOrders, locations, venues } from '../../worker/db/schema';
import { ensureHouseUser } from '../../worker/features/admin/import';
import { CATALOGUE_HEADER, QUIZ_CSV_HEADER } from '../../worker/features/exports/service';
import { toCsv, uncsvCell } from '../../worker/lib/csv';
import { parseCsv } from '../../worker/lib/csv-parse';
import { newId } from '../../worker/lib/ids';
import { call, callJson, createLocation, createQuiz, createUser, createVenue, ORIGIN, testDb, unique, type TestUser } from '../factories';

const CLOCK = '2030-03-05T10:00:00Z';
const HOUSE = (env as unknown as { HOUSE_ACCOUNT_EMAIL: string }).HOUSE_ACCOUNT_EMAIL ?? 'house@test.local';

let superadmin: TestUser;
let a: TestUser;
let b: TestUser;
let aVenue: { id: string; name: string };
let bVenue: { id: string };

beforeAll(async () => {
  superadmin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(CLOCK) });
  a = await createUser({ now: new Date(CLOCK) });
  b = await createUser({ now: new Date(CLOCK) });
  aVenue = await createVenue(a.id, { name: `Egna ${unique('a')}` });
  const aPlace = await createLocation(aVenue.id, { city: 'Lund' });
  await createQuiz(aPlace.id, { date: '2030-03-12', startTime: '19:30:00', quizmaster: '=HYPERLINK("http://x","klick")', theme: '+SUM(1)', category: 'tema' });
  await createQuiz(aPlace.id, { date: '2030-03-19', title: 'Vanlig, "citerad"\nrad' });
  bVenue = await createVenue(b.id, { name: `Andras ${unique('b')}` });
  const bPlace = await createLocation(bVenue.id);
  await createQuiz(bPlace.id, { date: '2030-03-12' });
  await testDb()
    .insert(checkoutOrders)
    .values({ id: newId(), userId: a.id, venueId: aVenue.id, kind: 'promotion', status: 'paid', amountTotal: 4900, items: '[]', expiresAt: 0 });
});

describe('GET /api/exports/me', () => {
  it("gives the signed-in owner their own account, profile, businesses, places, quizzes and orders as a JSON download — nobody else's", async () => {
    const res = await call('/api/exports/me', { cookie: a.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="quizkvall-mina-data-2030-03-05.json"');
    expect(res.headers.get('cache-control')).toContain('no-store');
    const body = await res.json<any>();
    expect(body).toMatchObject({ format: 'quizkvall-export', version: 1, account: { id: a.id, email: a.email } });
    expect(Object.keys(body).sort()).toEqual(expect.arrayContaining(['account', 'profile', 'businesses', 'places', 'quizzes', 'promotions', 'orders']));
    expect(body.businesses.map((v: { id: string }) => v.id)).toEqual([aVenue.id]);
    expect(body.places).toHaveLength(1);
    expect(body.quizzes.map((q: { date: string }) => q.date)).toEqual(['2030-03-12', '2030-03-19']);
    expect(body.orders).toHaveLength(1);
    expect(body.orders[0].items).toEqual([]);
    const text = JSON.stringify(body);
    expect(text).not.toContain(bVenue.id);
    expect(text).not.toMatch(/password|hash|secret|token/i);
  });
  it('is 401 for a visitor', async () => {
    expect((await callJson('/api/exports/me')).status).toBe(401);
  });
});

describe('GET /api/exports/quizzes.csv', () => {
  it("lists the owner's quiz dates with formula cells neutralised and quoting intact", async () => {
    const res = await call('/api/exports/quizzes.csv', { cookie: a.cookie, clock: CLOCK });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/csv');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="quiz-2030-03-05\.csv"$/);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]); // UTF-8 BOM so Excel reads å/ä/ö
    const raw = new TextDecoder().decode(bytes);
    expect(raw).toContain(`"'=HYPERLINK(""http://x"",""klick"")"`);
    const t = parseCsv(raw);
    expect(t.header).toEqual(QUIZ_CSV_HEADER);
    expect(t.records.map((r) => r.cells[0])).toEqual(['2030-03-12', '2030-03-19']);
    const first = Object.fromEntries(t.header.map((h, i) => [h, t.records[0]!.cells[i]]));
    expect(first).toMatchObject({
      veckodag: 'tisdag',
      starttid: '19:30',
      verksamhet: aVenue.name,
      stad: 'Lund',
      quizledare: `'=HYPERLINK("http://x","klick")`,
      tema: "'+SUM(1)",
    });
    expect(t.records[1]!.cells[11]).toBe('Vanlig, "citerad"\nrad');
  });
  it("is 403 for someone else's business, 404 for a missing one, 401 for a visitor", async () => {
    expect((await callJson(`/api/exports/quizzes.csv?venueId=${bVenue.id}`, { cookie: a.cookie })).status).toBe(403);
    expect((await callJson('/api/exports/quizzes.csv?venueId=no-such', { cookie: a.cookie })).status).toBe(404);
    expect((await callJson('/api/exports/quizzes.csv')).status).toBe(401);
    const own = await call(`/api/exports/quizzes.csv?venueId=${aVenue.id}`, { cookie: a.cookie });
    expect(own.status).toBe(200);
    // B's own export does not contain A's quizzes.
    const bText = await (await call('/api/exports/quizzes.csv', { cookie: b.cookie })).text();
    expect(bText).not.toContain(aVenue.name);
  });
});

async function importCsv(csv: string) {
  const up = await SELF.fetch(`${ORIGIN}/api/admin/import/jobs?name=roundtrip.csv`, {
    method: 'POST',
    body: csv,
    headers: { origin: ORIGIN, cookie: superadmin.cookie, 'x-clock-now': CLOCK, 'content-type': 'text/csv' },
  });
  expect(up.status).toBe(201);
  const job = await up.json<{ id: string }>();
  await using instance = await introspectWorkflowInstance(env.IMPORT_WORKFLOW, job.id);
  const start = await call(`/api/admin/import/jobs/${job.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
  expect(start.status).toBe(200);
  await instance.waitForStatus('complete');
}

async function catalogueLines(towns: string[]): Promise<string[][]> {
  const res = await call('/api/exports/catalogue.csv', { cookie: superadmin.cookie, clock: CLOCK });
  expect(res.status).toBe(200);
  const t = parseCsv(await res.text());
  expect(t.header).toEqual(CATALOGUE_HEADER);
  return t.records.map((r) => r.cells).filter((c) => towns.includes(c[2]!));
}

describe('GET /api/exports/catalogue.csv', () => {
  it('is for the superadmin only', async () => {
    expect((await callJson('/api/exports/catalogue.csv', { cookie: a.cookie })).status).toBe(403);
    expect((await callJson('/api/exports/catalogue.csv')).status).toBe(401);
  });

  it('round trip: import → export equals the file; wipe → import the export → the same export again', async () => {
    await ensureHouseUser(testDb(), HOUSE);
    const p = unique('Rt');
    // Known towns (issue 43.6), one with å, that no other test of this file uses.
    const towns = ['Gävle', 'Åmål'];
    const rows = [
      [
        `${p} Krogen "Hörnan", bar`,
        'Drottninggatan 9',
        towns[0],
        '+46 26 778899',
        'https://www.hornan.se',
        'måndag',
        '20:00',
        'weekly',
        'tema',
        'Film & TV',
        '=Quiz-Kalle',
        '0',
        '60.6749',
        '17.1413',
      ],
      [`${p} Ölstugan`, 'Storgatan 12', towns[1], '', '', 'onsdag', '19:30', 'biweekly', 'allmänbildning', '', '', '', '', ''],
      [`${p} Ölstugan`, 'Storgatan 12', towns[1], '', '', 'lördag', '19:00', 'weekly', 'allmänbildning', '', '-Lisa-', '45', '', ''],
      // Category and price unknown (a tip, a synced calendar; issue 44.3): empty both ways, never 'allmänbildning' or 0.
      [`${p} Anka`, 'Kyrkgatan 3', towns[0], '', '', 'fredag', '19:00', 'weekly', '', '', '', '', '', ''],
    ];
    const toCsvText = (rs: string[][]) =>
      [
        CATALOGUE_HEADER.join(','),
        ...rs.map((r) =>
          r
            .map((c) => (/^[=+\-@]/.test(c) ? `'${c}` : c))
            .map((c) => (/[",\n]/.test(c) ? `"${c.replace(/"/g, '""')}"` : c))
            .join(','),
        ),
      ].join('\r\n');
    await importCsv(toCsvText(rows));
    // The two Ölstugan lines are the same business+address: the second is a duplicate by the import's rule.
    const rawExport = await catalogueLines(towns);
    const exported = rawExport.map((c) => c.map(uncsvCell));
    expect(exported).toEqual([rows[3], rows[0], rows[1]]);
    expect(rawExport[1]![10]).toBe("'=Quiz-Kalle"); // neutralised in the file

    // Wipe those businesses (an empty catalogue for them), import the export, export again.
    const ids = (await testDb().select({ id: locations.venueId }).from(locations).where(inArray(locations.city, towns))).map((r) => r.id);
    await testDb().delete(venues).where(inArray(venues.id, ids));
    expect(await catalogueLines(towns)).toEqual([]);
    // The export's own lines (the server's writer, byte for byte) are the new import file.
    await importCsv(toCsv(CATALOGUE_HEADER, rawExport));
    const again = (await catalogueLines(towns)).map((c) => c.map(uncsvCell));
    expect(again).toEqual(exported);
    const [n] = await testDb().all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM venues WHERE instr(name, ${p}) = 1`);
    expect(n!.n).toBe(3);
    const [anka] = await testDb().all<{ price: number | null; category: string | null }>(
      sql`SELECT DISTINCT q.price, q.category FROM quizzes q JOIN locations l ON l.id = q.location_id JOIN venues v ON v.id = l.venue_id WHERE v.name = ${`${p} Anka`}`,
    );
    expect(anka).toEqual({ price: null, category: null });
  });
});
