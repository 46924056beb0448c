/**
 * The durable bulk import (issue 21): upload → preview → Workflow → report, near-duplicate review,
 * crash mid-way and resume, parser cases through the real upload route (workerd).
 */
import { introspectWorkflow, introspectWorkflowInstance, SELF } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { importJobs, importRows, locations, quizzes, venues } from '../../worker/db/schema';
import { ensureHouseUser } from '../../worker/features/admin/import';
import { STEP_ROWS } from '../../worker/features/admin/import-files';
import { finishImportRun, resumeImportJob, startImportJob } from '../../worker/features/admin/import-run';
import { processImportChunk } from '../../worker/features/admin/import-step';
import { JOB_MAX_BYTES } from '../../worker/features/admin/import-job-contract';
import { parseCsv } from '../../worker/lib/csv-parse';
import { call, callJson, ORIGIN, createLocation, createUser, createVenue, snapshot, testDb, testDeps, unique, type TestUser } from '../factories';
import { HOSTILE_CITIES } from '../fixtures/hostile-cities';
import { bulkRow, KNOWN_TOWNS } from '../fixtures/towns';
import { faultyD1 } from './security/faulty-d1';
import { INVARIANTS } from './security/invariants';

const CLOCK = '2030-03-05T10:00:00Z';
const HOUSE = (env as unknown as { HOUSE_ACCOUNT_EMAIL: string }).HOUSE_ACCOUNT_EMAIL ?? 'house@test.local';
const HEADER = 'name,address,city,phone,website,weekday,start_time,pattern,category,theme,quizmaster,price,lat,lng';

let superadmin: TestUser;
let owner: TestUser;

beforeAll(async () => {
  superadmin = await createUser({ roles: ['admin', 'superadmin'], now: new Date(CLOCK) });
  owner = await createUser({ now: new Date(CLOCK) });
  await ensureHouseUser(testDb(), HOUSE);
});

async function upload(body: BodyInit, opts: { cookie?: string; type?: string; name?: string } = {}) {
  const res = await SELF.fetch(`${ORIGIN}/api/admin/import/jobs?name=${encodeURIComponent(opts.name ?? 'test.csv')}`, {
    method: 'POST',
    body,
    headers: { origin: ORIGIN, cookie: opts.cookie ?? superadmin.cookie, 'x-clock-now': CLOCK, 'content-type': opts.type ?? 'text/csv' },
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}

async function invariantsHold() {
  const broken: string[] = [];
  for (const inv of INVARIANTS) {
    const rows = await testDb().all(sql.raw(inv.sql));
    if (rows.length) broken.push(`${inv.name}: ${JSON.stringify(rows.slice(0, 3))}`);
  }
  expect(broken).toEqual([]);
}

/** The towns this file's own tests name; bigCsv spreads its rows over every other known town (issue 43.6). */
const NAMED_TOWNS = new Set(['Umeå', 'Malmö', 'Växjö', 'Hjo', 'Trosa', 'Mariefred', 'Vadstena']);
const BIG_TOWNS = KNOWN_TOWNS.filter((n) => !NAMED_TOWNS.has(n));

/** Row `i` of bigCsv: a business of its own in a known town, at an address no other file row or call has. */
const bigRow = (prefix: string, i: number) => bulkRow(prefix, i, BIG_TOWNS, ['', '', 'tisdag', '19:00', 'biweekly', '', '', '', '', '', '']);

/**
 * `n` valid rows whose names share no more than the prefix (so none is a near-duplicate of another), spread over the
 * known towns, plus the extras given. Each is a
 * biweekly Tuesday series: 13 quizzes a row within the 180-day horizon, not a weekly series' 26.
 * The quizzes' inserts (and their listing triggers) are nearly all of an import's time; the rows, steps and batches
 * this file checks are the same either way (weekly series: the review test below and admin.test.ts).
 */
function bigCsv(prefix: string, n: number, extras: string[] = []): string {
  const lines = [HEADER];
  for (let i = 0; i < n; i++) lines.push(bigRow(prefix, i));
  return [...lines, ...extras].join('\n');
}

describe('upload and preview', () => {
  it('reads RFC 4180 quoting, line breaks in cells, a BOM and ; separators; previews counts and the column mapping', async () => {
    const p = unique('Prev');
    const csv = `\uFEFFnamn;adress;stad;veckodag;okänd\r\n"${p} ""Hörnan""";"Gata 1; vån 2";Malmö;tisdag;x\r\n"${p} Två\r\nrader";Gata 2;Malmö;onsdag;\r\n${p} Fel;Gata 3;Malmö;blurgdag;\r\n"${p} ""Hörnan""";"Gata 1; vån 2";Malmö;tisdag;x\r\n`;
    const { status, body } = await upload(csv);
    expect(status).toBe(201);
    expect(body.status).toBe('uploaded');
    expect(body.encoding).toBe('utf-8');
    expect(body.totalRows).toBe(4);
    expect(body.preview.columns).toEqual([
      { header: 'namn', column: 'name' },
      { header: 'adress', column: 'address' },
      { header: 'stad', column: 'city' },
      { header: 'veckodag', column: 'weekday' },
      { header: 'okänd', column: null },
    ]);
    expect(body.preview.rows.map((r: { line: number; name: string; result: string }) => [r.line, r.name, r.result])).toEqual([
      [2, `${p} "Hörnan"`, 'new'],
      [3, `${p} Två\nrader`, 'invalid'], // a line break in a one-line field (issue 26.7)
      [5, `${p} Fel`, 'invalid'],
      [6, `${p} "Hörnan"`, 'duplicate'],
    ]);
    expect(body.preview.rows[0].address).toBe('Gata 1; vån 2');
    expect(body.preview.rows[1].message).toBe('name: Får inte innehålla kontrolltecken');
    expect(body.preview.rows[2].message).toBe('weekday: Ange en veckodag (måndag–söndag)');
    expect(body.preview.counts).toEqual({ new: 1, duplicate: 1, invalid: 2 });
    // Stored: the job row and its file in R2; no business yet.
    const [job] = await testDb().select().from(importJobs).where(eq(importJobs.id, body.id));
    expect(job!.totalRows).toBe(4);
    expect(await env.IMPORTS.head(job!.fileKey)).not.toBeNull();
    expect(await testDb().select().from(venues).where(sql`instr(${venues.name}, ${p}) > 0`)).toEqual([]);
  });

  it("applies the forms' text rules: NUL, CR/LF, NEL, U+2028, BEL and ESC in a name or address make the row invalid, and nothing of it reaches a page (issue 26.7)", async () => {
    const p = unique('Ctl');
    const bad = { NUL: '\u0000', CR: '\r', LF: '\n', NEL: '\u0085', LS: '\u2028', BEL: '\u0007', ESC: '\u001b' };
    const lines = [
      HEADER,
      ...Object.entries(bad).map(([k, ch], i) => `"${p} ${k}${ch}krog",${i % 2 ? `"Gata${ch}1"` : 'Gata 1'},Umeå,,,tisdag,,,,,,,,`),
      `${p} Ren krog,Gata 9,Umeå,,,tisdag,,,,,,,,`,
    ];
    const up = await upload(lines.join('\r\n'));
    expect(up.status).toBe(201);
    expect(up.body.preview.counts).toEqual({ new: 1, duplicate: 0, invalid: 7 });
    expect(up.body.preview.rows.slice(0, 7).map((r: { message: string }) => r.message)).toEqual(
      Object.keys(bad).map((_, i) =>
        i % 2 ? 'name: Får inte innehålla kontrolltecken; address: Får inte innehålla kontrolltecken' : 'name: Får inte innehålla kontrolltecken',
      ),
    );
    await using instance = await introspectWorkflowInstance(env.IMPORT_WORKFLOW, up.body.id);
    await call(`/api/admin/import/jobs/${up.body.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    await instance.waitForStatus('complete');
    const stored = await testDb().select({ name: venues.name, address: venues.address }).from(venues).where(sql`instr(${venues.name}, ${p}) = 1`);
    expect(stored).toEqual([{ name: `${p} Ren krog`, address: 'Gata 9' }]);
    // The JSON preview reads the same rules (NUL and NEL in a JSON body are refused for the whole request first).
    const preview = await callJson('/api/admin/import/preview', {
      body: { csv: lines.join('\n').replaceAll('\u0000', '').replaceAll('\u0085', '').replaceAll('\u0007', '').replaceAll('\u001b', '') },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(preview.body).toMatchObject({ summary: { invalid: 3 } });
  });

  it('the city column: a known town in its spelling, anything else an invalid row naming the column; nothing stored (issue 43.6)', async () => {
    const p = unique('Ort');
    const quoted = (v: string) => `"${v.replaceAll('"', '""')}"`;
    // A lone surrogate has no bytes in an uploaded file (a decoder gives U+FFFD); JSON bodies are tested in admin.test.ts.
    const rows = HOSTILE_CITIES.filter(([, v]) => !/[\uD800-\uDFFF]/u.test(v));
    const csv = [
      'namn,adress,stad,veckodag',
      `${p} Bra,Gata 0,malmo,tisdag`,
      ...rows.map(([, city], i) => `${p} Krog ${i},Gata ${i + 1},${quoted(city)},tisdag`),
    ].join('\r\n');
    const up = await upload(csv);
    expect(up.status).toBe(201);
    expect(up.body.preview.counts).toEqual({ new: 1, duplicate: 0, invalid: rows.length });
    const messages = ['', ...rows.map(([, , message]) => `city: ${message}`)];
    expect(up.body.preview.rows.map((r: { message: string }) => r.message)).toEqual(messages.slice(0, up.body.preview.rows.length));
    await using instance = await introspectWorkflowInstance(env.IMPORT_WORKFLOW, up.body.id);
    await call(`/api/admin/import/jobs/${up.body.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    await instance.waitForStatus('complete');
    const report = parseCsv(await (await call(`/api/admin/import/jobs/${up.body.id}/report`, { cookie: superadmin.cookie })).text());
    expect(report.records.map((r) => r.cells[2] ?? '')).toEqual(messages);
    const stored = await testDb().select({ city: locations.city, citySlug: locations.citySlug }).from(locations).where(sql`instr(${locations.name}, ${p}) = 1`);
    expect(stored).toEqual([{ city: 'Malmö', citySlug: 'malmo' }]);
  });

  it('an unbalanced quote is "Rad N: citattecken saknas", not the rest of the file read as one row; nothing stored', async () => {
    const p = unique('Quote');
    const before = await snapshot(['import_jobs', 'venues']);
    const csv = [
      HEADER,
      `${p} Ett,Gata 1,Umeå,,,tisdag,,,,,,,,`,
      `"${p} Två,Gata 2,Umeå,,,tisdag,,,,,,,,`,
      `${p} Tre,Gata 3,Umeå,,,tisdag,,,,,,,,`,
      `${p} Fyra,Gata 4,Umeå,,,tisdag,,,,,,,,`,
    ].join('\n');
    const up = await upload(csv);
    expect(up.status).toBe(400);
    expect(up.body.error.message).toBe('Rad 3: citattecken saknas');
    const preview = await callJson('/api/admin/import/preview', { body: { csv }, cookie: superadmin.cookie, clock: CLOCK });
    expect(preview.body.fileErrors).toEqual(['Rad 3: citattecken saknas']);
    expect(preview.body.canImport).toBe(false);
    expect(await snapshot(['import_jobs', 'venues'])).toEqual(before);
  });

  it('detects a Windows-1252 file (invalid UTF-8) and decodes å/ä/ö', async () => {
    // "namn;adress;stad;veckodag\r\nKällaren Åsa;Storgatan 1;Växjö;lördag" in cp1252, + an en dash (0x96)
    const text = 'namn;adress;stad;veckodag\r\nKällaren Åsa – Ö;Storgatan 1;Växjö;lördag\r\n';
    const bytes = new Uint8Array([...text].map((ch) => (ch === '–' ? 0x96 : ch.charCodeAt(0))));
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const { status, body } = await upload(bytes, { type: 'application/octet-stream' });
    expect(status).toBe(201);
    expect(body.encoding).toBe('windows-1252');
    expect(body.preview.rows[0]).toMatchObject({ name: 'Källaren Åsa – Ö', city: 'Växjö', weekday: 'lördag', result: 'new' });
  });

  it('refuses bad files with a Swedish message and stores nothing', async () => {
    const before = await snapshot(['import_jobs', 'venues']);
    const missing = await upload('namn,stad\nA,B\n');
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('Kolumner saknas: address, weekday');
    const empty = await upload('');
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('Filen är tom');
    const json = await upload('{"csv":"x"}', { type: 'application/json' });
    expect(json.status).toBe(400);
    expect(json.body.error.message).toBe('Filen måste laddas upp som CSV (text/csv)');
    const tooMany = await upload(bigCsv('Max', 20_001));
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.error.message).toBe('Högst 20\u00a0000 rader per fil (filen har 20001).');
    expect(await snapshot(['import_jobs', 'venues'])).toEqual(before);
  });

  it('is for the superadmin only: 401 visitor, 403 owner, nothing stored', async () => {
    const before = await snapshot(['import_jobs']);
    const visitor = await call('/api/admin/import/jobs', { method: 'POST', body: `${HEADER}\n`, headers: { 'content-type': 'text/csv' } });
    expect(visitor.status).toBe(401);
    const asOwner = await upload(`${HEADER}\nA,B,C,,,tisdag,,,,,,,,`, { cookie: owner.cookie });
    expect(asOwner.status).toBe(403);
    for (const path of ['/api/admin/import/jobs', '/api/admin/import/jobs/x', '/api/admin/import/jobs/x/report', '/api/admin/import/jobs/x/reviews']) {
      expect((await call(path, { cookie: owner.cookie })).status).toBe(403);
      expect((await call(path)).status).toBe(401);
    }
    expect((await call('/api/admin/import/jobs/x/start', { method: 'POST', cookie: owner.cookie })).status).toBe(403);
    expect(await snapshot(['import_jobs'])).toEqual(before);
    expect((await callJson('/api/admin/import/jobs/nope', { cookie: superadmin.cookie })).status).toBe(404);
  });
});

describe('the Workflow run', () => {
  // The full 20 000-row file (JOB_MAX_ROWS) runs in the bench (test/bench/import.ts), where time is
  // measured; the suite proves exactly-once with a 2 000-row file (20 steps), which needs no timing.
  it('imports 2 000 rows once each, even with a retried step, a crash mid-way and a resume; report and counts exact', async () => {
    const p = unique('Big');
    const N = 2_000 - 5; // + 5 extra lines below = a 2 000-row file
    // 3 invalid rows, 2 exact duplicates of rows in the file.
    const extras = [
      `${p} trasig 1,Gata,Umeå,,,blurgdag,,,,,,,,`,
      `${p} trasig 2,,Umeå,,,tisdag,,,,,,,,`,
      `${p} trasig 3,Gata,Umeå,,,tisdag,25:00,,,,,,,`,
      bigRow(p, 5),
      bigRow(p, 1499),
    ];
    const up = await upload(bigCsv(p, N, extras));
    expect(up.status).toBe(201);
    const total = N + extras.length;
    expect(up.body.preview.counts).toEqual({ new: N, duplicate: 2, invalid: 3 });
    const jobId: string = up.body.id;
    const db = testDb();
    const [job] = await db.select().from(importJobs).where(eq(importJobs.id, jobId));

    // A crash in an earlier attempt: chunk 3 is half written (its 2nd batch is lost), then the job
    // is recorded as failed — as if the instance died there.
    await db.update(importJobs).set({ status: 'running', today: '2030-03-05', startedAt: CLOCK }).where(eq(importJobs.id, jobId));
    const deps = (d: typeof db) => testDeps({ db: d, now: CLOCK, config: { houseAccountEmail: HOUSE } });
    for (const chunk of [0, 1, 2]) await processImportChunk(deps(db), { bucket: env.IMPORTS, id: jobId, chunk });
    const faulty = faultyD1(env.DB, 4 * 20 + 2 + 10); // inside the 2nd batch of chunk 3
    await expect(processImportChunk(deps(faulty.db), { bucket: env.IMPORTS, id: jobId, chunk: 3 })).rejects.toThrow('injected D1 fault');
    expect(faulty.fired).toBe(true);
    await finishImportRun(deps(db), { id: jobId, error: 'instansen försvann' });
    const [mid] = await db.select().from(importJobs).where(eq(importJobs.id, jobId));
    expect(mid!.status).toBe('failed');
    expect(mid!.processedRows).toBe(3 * STEP_ROWS + 20); // three whole chunks + chunk 3's first batch
    await invariantsHold();

    // "Fortsätt": a new instance; one of its steps fails twice and is retried by the engine.
    await using introspector = await introspectWorkflow(env.IMPORT_WORKFLOW);
    await introspector.modifyAll(async (m) => {
      await m.disableRetryDelays();
      await m.mockStepError({ name: 'rows-7' }, new Error('D1 overloaded'), 2);
    });
    const resumed = await callJson(`/api/admin/import/jobs/${jobId}/resume`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    expect(resumed.status).toBe(200);
    expect(resumed.body.status).toBe('running');
    const [instance] = await introspector.get();
    await instance!.waitForStatus('complete');

    const [end] = await db.select().from(importJobs).where(eq(importJobs.id, jobId));
    expect(end).toMatchObject({
      status: 'done',
      totalRows: total,
      processedRows: total,
      createdCount: N,
      duplicateCount: 2,
      invalidCount: 3,
      reviewCount: 0,
      error: null,
    });
    expect(end!.finishedAt).not.toBeNull();
    // Exactly one row per line, one business per valid line, none twice.
    const [counts] = await db.all<{ rows: number; lines: number }>(
      sql`SELECT COUNT(*) AS rows, COUNT(DISTINCT row_no) AS lines FROM import_rows WHERE job_id = ${jobId}`,
    );
    expect(counts).toEqual({ rows: total, lines: total });
    const [vs] = await db.all<{ n: number; names: number }>(sql`SELECT COUNT(*) AS n, COUNT(DISTINCT name) AS names FROM venues WHERE instr(name, ${p}) = 1`);
    expect(vs).toEqual({ n: N, names: N });
    const [qs] = await db.all<{ n: number }>(sql`SELECT COUNT(*) AS n FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE instr(l.name, ${p}) = 1`);
    expect(qs!.n).toBe(N * 13); // every other Tuesday from 2030-03-05 to +180 days: 13 dates each
    await invariantsHold();
    const run = await db.all<{ status: string; result: string }>(sql`SELECT status, result FROM job_runs WHERE id = ${`import:${jobId}`}`);
    expect(run[0]!.status).toBe('done');
    expect(JSON.parse(run[0]!.result)).toMatchObject({ processed: total, created: N, duplicate: 2, invalid: 3 });
    void job;

    // The report: one line per row, in file order, with the Swedish result and message.
    const report = await call(`/api/admin/import/jobs/${jobId}/report`, { cookie: superadmin.cookie });
    expect(report.status).toBe(200);
    expect(report.headers.get('content-type')).toContain('text/csv');
    expect(report.headers.get('content-disposition')).toMatch(/^attachment; filename="importrapport-/);
    const t = parseCsv(await report.text());
    expect(t.header).toEqual(['rad', 'resultat', 'meddelande', 'verksamhet']);
    expect(t.records.length).toBe(total);
    expect(t.records.map((r) => Number(r.cells[0]))).toEqual(Array.from({ length: total }, (_, i) => i + 2));
    expect(t.records[N]!.cells.slice(0, 3)).toEqual([String(N + 2), 'ogiltig', 'weekday: Ange en veckodag (måndag–söndag)']);
    expect(t.records[N + 3]!.cells.slice(0, 3)).toEqual([String(N + 5), 'dubblett', 'Samma namn och adress finns redan']);
    expect(t.records[0]!.cells[1]).toBe('skapad');

    // Polling after a reload: the job view has the same progress.
    const view = await callJson(`/api/admin/import/jobs/${jobId}`, { cookie: superadmin.cookie });
    expect(view.body).toMatchObject({ status: 'done', processedRows: total, totalRows: total });
  }, 600_000); // a guard against a hang, not a time limit (165 s at load average ≈ 20 on 2 cores, 2026-11-27)

  it('a second "Importera" is a 409 and starts nothing', async () => {
    const p = unique('Twice');
    const up = await upload(bigCsv(p, 3));
    await using instance = await introspectWorkflowInstance(env.IMPORT_WORKFLOW, up.body.id);
    const first = await callJson(`/api/admin/import/jobs/${up.body.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    expect(first.status).toBe(200);
    const second = await callJson(`/api/admin/import/jobs/${up.body.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    expect(second.status).toBe(409);
    expect(second.body.error.message).toBe('Importen är redan startad');
    await instance.waitForStatus('complete');
    const [end] = await testDb().select().from(importJobs).where(eq(importJobs.id, up.body.id));
    expect(end).toMatchObject({ status: 'done', processedRows: 3, createdCount: 3 });
  });
});

describe('a Workflow that cannot be created (issue 27.1)', () => {
  const broken = {
    create: async () => {
      throw new Error('workflows unavailable');
    },
  } as unknown as Workflow;
  const deps = () => testDeps({ db: testDb(), now: CLOCK, config: { houseAccountEmail: HOUSE } });
  const row = async (id: string) => (await testDb().select().from(importJobs).where(eq(importJobs.id, id)))[0]!;

  it('"Importera" and "Fortsätt importen" both put the job back as it was, so it can be pressed again', async () => {
    const up = await upload(bigCsv(unique('Stuck'), 3));
    const id: string = up.body.id;
    await expect(startImportJob(deps(), { workflow: broken, id })).rejects.toThrow('workflows unavailable');
    expect(await row(id)).toMatchObject({ status: 'uploaded', startedAt: null });

    // A run that failed: "Fortsätt" whose instance cannot be created leaves it failed, with its error.
    await testDb()
      .update(importJobs)
      .set({ status: 'failed', today: '2030-03-05', startedAt: CLOCK, finishedAt: CLOCK, error: 'instansen försvann' })
      .where(eq(importJobs.id, id));
    const failed = await row(id);
    await expect(resumeImportJob(deps(), { workflow: broken, id })).rejects.toThrow('workflows unavailable');
    expect(await row(id)).toEqual(failed);

    // …and the next press works.
    await using introspector = await introspectWorkflow(env.IMPORT_WORKFLOW);
    const resumed = await callJson(`/api/admin/import/jobs/${id}/resume`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    expect(resumed.status).toBe(200);
    const [instance] = await introspector.get();
    await instance!.waitForStatus('complete');
    expect(await row(id)).toMatchObject({ status: 'done', processedRows: 3, createdCount: 3, error: null });
  });
});

describe('one planner for previews, steps and the 300-row import (issues 27.4, 28.7)', () => {
  it('"adress, stad": a business whose address holds the town is a duplicate in the preview, the job and the old import alike', async () => {
    const p = unique('Stad');
    const town = 'Hjo';
    const house = await ensureHouseUser(testDb(), HOUSE);
    await createVenue(house, { name: `${p} Krogen`, address: `Storgatan 1, ${town}`, city: town }); // no place: only the business's address
    const csv = [HEADER, `${p} Krogen,Storgatan 1,${town},,,tisdag,,,,,,,,`].join('\n');
    const up = await upload(csv);
    expect(up.body.preview.counts).toEqual({ new: 0, duplicate: 1, invalid: 0 });
    await using instance = await introspectWorkflowInstance(env.IMPORT_WORKFLOW, up.body.id);
    await call(`/api/admin/import/jobs/${up.body.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    await instance.waitForStatus('complete');
    const [job] = await testDb().select().from(importJobs).where(eq(importJobs.id, up.body.id));
    expect(job).toMatchObject({ status: 'done', createdCount: 0, duplicateCount: 1 });
    const old = await callJson('/api/admin/import', { body: { csv }, cookie: superadmin.cookie, clock: CLOCK });
    expect(old.body).toMatchObject({ created: 0, skippedDuplicates: 1 });
    expect(await testDb().select().from(venues).where(sql`instr(${venues.name}, ${p}) = 1`)).toHaveLength(1);
  });

  it('stores one R2 object per step, and a step reads only its own', async () => {
    const p = unique('Chunk');
    const up = await upload(bigCsv(p, STEP_ROWS * 2 + 7));
    const [job] = await testDb().select().from(importJobs).where(eq(importJobs.id, up.body.id));
    const listed = await env.IMPORTS.list({ prefix: `${job!.rowsKey}-` });
    expect(listed.objects.map((o) => o.key).sort()).toEqual([0, 1, 2].map((i) => `${job!.rowsKey}-${i}.json`));
    const last = await (await env.IMPORTS.get(`${job!.rowsKey}-2.json`))!.json<Array<{ line: number }>>();
    expect(last.map((r) => r.line)).toEqual(Array.from({ length: 7 }, (_, i) => STEP_ROWS * 2 + 2 + i));
    // Without the other steps' objects, step 2 still runs.
    await env.IMPORTS.delete([`${job!.rowsKey}-0.json`, `${job!.rowsKey}-1.json`]);
    await testDb().update(importJobs).set({ status: 'running', today: '2030-03-05' }).where(eq(importJobs.id, up.body.id));
    const r = await processImportChunk(testDeps({ db: testDb(), now: CLOCK, config: { houseAccountEmail: HOUSE } }), {
      bucket: env.IMPORTS,
      id: up.body.id,
      chunk: 2,
    });
    expect(r).toMatchObject({ created: 7, skipped: 0 });
  });

  it('a job without a date imports from today in Stockholm (00:30 on Tuesday there is still Monday in UTC)', async () => {
    const p = unique('Natt');
    const up = await upload([HEADER, `${p} Krog,Gata 1,Trosa,,,måndag,,,,,,,,`].join('\n'));
    await testDb().update(importJobs).set({ status: 'running', today: null }).where(eq(importJobs.id, up.body.id));
    await processImportChunk(testDeps({ db: testDb(), now: '2030-03-04T23:30:00Z', config: { houseAccountEmail: HOUSE } }), {
      bucket: env.IMPORTS,
      id: up.body.id,
      chunk: 0,
    });
    const dates = await testDb().all<{ date: string }>(
      sql`SELECT q.date FROM quizzes q JOIN locations l ON l.id = q.location_id WHERE l.name = ${`${p} Krog`} ORDER BY q.date LIMIT 1`,
    );
    expect(dates[0]!.date).toBe('2030-03-11'); // the first Monday from Tuesday 2030-03-05, not Monday 2030-03-04 (yesterday)
  });

  it('stops reading a chunked upload at 10 MB instead of buffering it whole', async () => {
    let sent = 0;
    const chunk = new TextEncoder().encode(`${HEADER}\n${'x'.repeat(64 * 1024 - HEADER.length - 2)}\n`);
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 4 * JOB_MAX_BYTES) return controller.close();
        sent += chunk.length;
        controller.enqueue(chunk);
      },
    });
    const res = await SELF.fetch(`${ORIGIN}/api/admin/import/jobs?name=big.csv`, {
      method: 'POST',
      body,
      headers: { origin: ORIGIN, cookie: superadmin.cookie, 'x-clock-now': CLOCK, 'content-type': 'text/csv' },
      duplex: 'half',
    } as RequestInit);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('Filen får vara högst 10 MB');
    expect(sent).toBeLessThan(2 * JOB_MAX_BYTES);
  });
});

describe('near-duplicates are listed for review, never merged silently', () => {
  it('same town + similar name, or same address → review; "Slå ihop" adds the quiz to the existing business, "Skapa ny" creates it; each once', async () => {
    const p = unique('Near');
    const town = 'Mariefred';
    const house = await ensureHouseUser(testDb(), HOUSE);
    const existing = await createVenue(house, { name: `${p} Bishops Arms Södermalm`, address: 'Hornsgatan 1', city: town });
    await createLocation(existing.id, { name: existing.name, address: 'Hornsgatan 1', city: town });
    const other = await createVenue(house, { name: `${p} Olssons`, address: 'Torget 2', city: town });
    await createLocation(other.id, { name: other.name, address: 'Torget 2', city: town });
    const csv = [
      HEADER,
      `${p} Bishop Arms Södermalm,Hornsgatan 3,${town},,,fredag,20:00,,,,,,,`, // similar name → review
      `${p} Helt Annat,Torget 2,${town},,,lördag,,,,,,,,`, // same address → review
      `${p} Bishops Arms Södermalm,Hornsgatan 1,${town},,,tisdag,,,,,,,,`, // exact → duplicate
      `${p} Bishop Arms Södermalm,Hornsgatan 3,Vadstena,,,fredag,,,,,,,,`, // other town → created
    ].join('\n');
    const up = await upload(csv);
    await using instance = await introspectWorkflowInstance(env.IMPORT_WORKFLOW, up.body.id);
    await call(`/api/admin/import/jobs/${up.body.id}/start`, { method: 'POST', cookie: superadmin.cookie, clock: CLOCK });
    await instance.waitForStatus('complete');
    const [job] = await testDb().select().from(importJobs).where(eq(importJobs.id, up.body.id));
    expect(job).toMatchObject({ createdCount: 1, duplicateCount: 1, reviewCount: 2 });

    const list = await callJson(`/api/admin/import/jobs/${up.body.id}/reviews`, { cookie: superadmin.cookie });
    expect(list.body.reviews).toEqual([
      expect.objectContaining({
        rowNo: 2,
        name: `${p} Bishop Arms Södermalm`,
        match: expect.objectContaining({ id: existing.id }),
        resolved: null,
        message: expect.stringMatching(/^Liknar .* i samma ort \(0,\d\d\)$/),
      }),
      expect.objectContaining({
        rowNo: 3,
        name: `${p} Helt Annat`,
        match: expect.objectContaining({ id: other.id }),
        resolved: null,
        message: `Samma adress som ${p} Olssons`,
      }),
    ]);
    // Nothing merged silently: the existing business still has one place.
    expect(await testDb().select().from(locations).where(eq(locations.venueId, existing.id))).toHaveLength(1);

    const merge = await callJson(`/api/admin/import/jobs/${up.body.id}/reviews/2`, {
      method: 'POST',
      body: { action: 'merge' },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(merge.status).toBe(200);
    expect(merge.body.resolved).toBe('merged');
    const places = await testDb().select().from(locations).where(eq(locations.venueId, existing.id));
    expect(places).toHaveLength(2);
    expect(
      await testDb()
        .select()
        .from(quizzes)
        .where(eq(quizzes.locationId, places.find((l) => l.address === 'Hornsgatan 3')!.id)),
    ).toHaveLength(26);
    const again = await callJson(`/api/admin/import/jobs/${up.body.id}/reviews/2`, {
      method: 'POST',
      body: { action: 'create' },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(again.status).toBe(409);

    const create = await callJson(`/api/admin/import/jobs/${up.body.id}/reviews/3`, {
      method: 'POST',
      body: { action: 'create' },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(create.status).toBe(200);
    expect(create.body.resolved).toBe('created');
    expect(
      await testDb()
        .select()
        .from(venues)
        .where(eq(venues.name, `${p} Helt Annat`)),
    ).toHaveLength(1);
    const [after] = await testDb().select().from(importJobs).where(eq(importJobs.id, up.body.id));
    expect(after).toMatchObject({ createdCount: 2, reviewCount: 0 });
    const bad = await callJson(`/api/admin/import/jobs/${up.body.id}/reviews/3`, {
      method: 'POST',
      body: { action: 'kasta' },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(bad.status).toBe(400);
    const notReview = await callJson(`/api/admin/import/jobs/${up.body.id}/reviews/5`, {
      method: 'POST',
      body: { action: 'create' },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(notReview.status).toBe(404);
    expect(
      await testDb()
        .select()
        .from(importRows)
        .where(and(eq(importRows.jobId, up.body.id), eq(importRows.result, 'review'))),
    ).toEqual([]);
    await invariantsHold();
  });
});

describe('a review answer reads its own row', () => {
  it('the row past the review list (500 rows) is answered with its item, not an empty body', async () => {
    const p = unique('Many');
    const jobId = unique('job');
    const n = 501;
    await testDb()
      .insert(importJobs)
      .values({ id: jobId, fileName: 'm.csv', fileKey: 'k', rowsKey: 'r', encoding: 'utf-8', status: 'done', totalRows: n, reviewCount: n, preview: '{}' });
    // n review rows (2..n+1) in one statement: the CSV's columns, empty but for name, address, town and weekday.
    const template = JSON.stringify({ ...Object.fromEntries(HEADER.split(',').map((c) => [c, ''])), city: 'Mölndal', weekday: 'fredag' });
    const rowNos = Array.from({ length: n }, (_, i) => i + 2);
    await testDb().run(sql`INSERT INTO import_rows (job_id, row_no, result, message, data)
      SELECT ${jobId}, value, 'review', 'Liknar', json_set(${template}, '$.name', ${p} || ' krog ' || value, '$.address', 'Gatan ' || value)
      FROM json_each(${JSON.stringify(rowNos)})`);
    const last = n + 1;
    const res = await callJson(`/api/admin/import/jobs/${jobId}/reviews/${last}`, {
      method: 'POST',
      body: { action: 'create' },
      cookie: superadmin.cookie,
      clock: CLOCK,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ rowNo: last, name: `${p} krog ${last}`, resolved: 'created' });
  });
});
