/**
 * Nightly backups to R2 (issue 30.6): the backup cron starts the Workflow, which writes the database into
 * BACKUPS in the format of `npm run db:backup`; the newest object restored into an empty database
 * (RESTORE_DB, migrations applied, restoreStatements of worker/lib/backup-format.mjs — the statements
 * `npm run db:restore` runs) gives every table row by row and the same search and date listings. Also:
 * small pages (many steps), the job_runs row, and retention (30 daily + 12 monthly).
 */
import { applyD1Migrations, createExecutionContext, createScheduledController, introspectWorkflow, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';
import {
  BACKUP_CRON,
  BACKUP_PREFIX,
  backupLayout,
  backupPages,
  backupsToKeep,
  completeUpload,
  listBackups,
  planBackup,
  startUpload,
  STEP_UPLOAD_PARTS,
  UPLOAD_PART_BYTES,
  uploadParts,
  type BackupCursor,
  type PartInfo,
} from '../../worker/features/backup/service';
import { countSql, droppedRows, restoreStatements } from '../../worker/lib/backup-format.mjs';
import { expectConsoleError } from '../setup/console';
import { createLocation, createQuiz, createUser, createVenue, testDb, unique } from '../factories';
import { mailOutbox } from '../../worker/db/schema';

const HOSTILE = 'rad ett\nrad två\r\nNUL\u0000slut \' "dq" ); -- \u2028\u2029 🍺 åäö';

async function tables(d1: D1Database): Promise<string[]> {
  const r = await d1.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all<{ name: string }>();
  return r.results.map((t) => t.name).filter((n) => !/^(sqlite_|_cf_|d1_migrations$|listing_search)/.test(n));
}

/** Every table's rows with exact types (typeof + hex; reals printed with 20 digits), sorted. */
async function state(d1: D1Database): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const t of await tables(d1)) {
    const cols = (await d1.prepare(`SELECT name FROM pragma_table_xinfo('${t}')`).all<{ name: string }>()).results.map((c) => `"${c.name}"`);
    // One expression per column (D1 caps an expression's depth at 100: no long || chain).
    const expr = cols.map((c, i) => `typeof(${c}) || ':' || CASE typeof(${c}) WHEN 'real' THEN printf('%!.20e', ${c}) ELSE hex(${c}) END AS c${i}`).join(', ');
    out[t] = (await d1.prepare(`SELECT ${expr} FROM "${t}"`).all<Record<string, string>>()).results.map((r) => JSON.stringify(Object.values(r))).sort();
  }
  return out;
}

async function listings(d1: D1Database) {
  const keys = async (sqlText: string, ...args: unknown[]) =>
    (
      await d1
        .prepare(sqlText)
        .bind(...args)
        .all<{ k: string }>()
    ).results.map((r) => r.k);
  return {
    search: await Promise.all(
      ['"rad två"', '"quiz"', '"🍺"'].map((m) => keys(`SELECT CAST(rowid AS TEXT) AS k FROM listing_search WHERE listing_search MATCH ? ORDER BY rowid`, m)),
    ),
    words: await Promise.all(
      ['rad*', 'q*'].map((m) => keys(`SELECT CAST(rowid AS TEXT) AS k FROM listing_search_words WHERE listing_search_words MATCH ? ORDER BY rowid`, m)),
    ),
    dates: await keys(
      `SELECT date || ',' || tier || ',' || shuffle || ',' || uid || ',' || qid AS k FROM listing_dates ORDER BY date, tier, shuffle, uid LIMIT 200`,
    ),
  };
}

/** Restores a backup's text into `d1` as `npm run db:restore` does (one batch); returns the rows it dropped per table. */
async function restoreInto(d1: D1Database, text: string): Promise<{ dropped: Record<string, number> }> {
  await applyD1Migrations(d1, env.TEST_MIGRATIONS);
  const triggers = (await d1.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all<{ name: string; sql: string }>()).results;
  const { tables, statements } = restoreStatements(text, triggers, env.TEST_RESTORE_FILLS);
  await d1.batch(statements.map((s) => d1.prepare(s)));
  const counts = await d1.batch(tables.map((t) => d1.prepare(countSql(t.name))));
  return {
    dropped: droppedRows(
      tables,
      counts.map((c) => (c.results[0] as { n: number }).n),
    ),
  };
}

/** Fires the backup cron at `at` and waits for its Workflow to end in `status`; `failStep` is made to throw on every attempt. */
async function runBackupCron(at: string, opts: { status?: 'complete' | 'errored'; failStep?: { name: string; error: Error } } = {}) {
  await using introspector = await introspectWorkflow(env.BACKUP_WORKFLOW);
  await introspector.modifyAll(async (m) => {
    await m.disableRetryDelays();
    if (opts.failStep) await m.mockStepError({ name: opts.failStep.name }, opts.failStep.error);
  });
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: BACKUP_CRON }), env as Env, ctx);
  await waitOnExecutionContext(ctx);
  const [instance] = await introspector.get();
  await instance!.waitForStatus(opts.status ?? 'complete');
}

describe('nightly backup to R2', () => {
  it('the cron writes a backup that restores into an empty database identically, and records the run', async () => {
    const owner = await createUser();
    const venue = await createVenue(owner.id, { name: `Puben ${unique()}`, description: HOSTILE });
    const loc = await createLocation(venue.id);
    for (let i = 0; i < 3; i++) await createQuiz(loc.id, { date: `2030-01-0${i + 1}`, title: `Quiz ${i}`, description: `${HOSTILE} ${i}` });
    await testDb()
      .insert(mailOutbox)
      .values({
        id: unique('mail'),
        toEmail: 'a@example.se',
        subject: 'Hej\nrad',
        text: HOSTILE,
        html: `<p>${HOSTILE}</p>`,
        status: 'sent',
        sendKey: unique('k'),
      });

    await runBackupCron('2030-01-01T01:45:00.000Z');
    const keys = await listBackups(env.BACKUPS);
    const newest = keys.at(-1)!;
    expect(newest).toBe(`${BACKUP_PREFIX}quizkvall-2030-01-01T01-45-00-000Z.sql`);
    expect((await env.BACKUPS.list({ prefix: 'tmp/' })).objects).toEqual([]); // parts cleaned up
    const text = await (await env.BACKUPS.get(newest))!.text();
    expect(text).not.toContain('\u0000');
    expect(text.split('\n').filter((l) => l && !l.startsWith('-- ') && !/^INSERT INTO ".*\);$/.test(l))).toEqual([]);

    const runs = await env.DB.prepare(`SELECT status, result FROM job_runs WHERE job = 'backup' ORDER BY started_at DESC`).all<{
      status: string;
      result: string;
    }>();
    expect(runs.results[0]).toMatchObject({ status: 'done' });
    expect(JSON.parse(runs.results[0]!.result)).toMatchObject({ key: newest });

    // Restore into the empty second database exactly as db:restore does, then compare.
    await applyD1Migrations(env.RESTORE_DB, env.TEST_MIGRATIONS);
    const triggers = (
      await env.RESTORE_DB.prepare(`SELECT name, sql FROM sqlite_master WHERE type = 'trigger' ORDER BY name`).all<{ name: string; sql: string }>()
    ).results;
    const { statements } = restoreStatements(text, triggers, env.TEST_RESTORE_FILLS);
    await env.RESTORE_DB.batch(statements.map((s) => env.RESTORE_DB.prepare(s)));

    // The source as the backup saw it: the backup's own job_runs row was still running then.
    const source = await state(env.DB);
    const restored = await state(env.RESTORE_DB);
    const { job_runs: srcRuns, ...srcRest } = source;
    const { job_runs: dstRuns, ...dstRest } = restored;
    expect(dstRest).toEqual(srcRest);
    expect(dstRuns!.length).toBe(srcRuns!.length);
    expect(await listings(env.RESTORE_DB)).toEqual(await listings(env.DB));
    expect((await listings(env.DB)).search[0]!.length).toBeGreaterThan(0);
  });

  it('a database larger than three upload parts: equal parts, the run records its size and tables, the restore is identical', async () => {
    // Two tables of multi-line text (written as CAST(X'…' AS TEXT): twice their size in the file), one page each, of
    // different sizes: ~10 MB and ~9 MB of SQL, so parts cut at page ends (the old assembly) differ in size.
    const rows = (n: number, unit: string) =>
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${n}) SELECT i, replace(hex(zeroblob(${unit})), '00', 'rad två' || char(10)) || i AS body FROM n`;
    await env.DB.prepare(
      `INSERT INTO mail_outbox (id, to_email, subject, text, html, status) SELECT 'big-mail-' || i, 'a@example.se', 'Ämne ' || i, 'Hej' || char(10) || i, body, 'sent' FROM (${rows(1000, '560')})`,
    ).run();
    await env.DB.prepare(
      `INSERT INTO feedback (id, category, title, description) SELECT 'big-fb-' || i, 'other', 'Titel ' || i, body FROM (${rows(1000, '500')})`,
    ).run();

    await runBackupCron('2030-02-01T01:45:00.000Z');
    const key = `${BACKUP_PREFIX}quizkvall-2030-02-01T01-45-00-000Z.sql`;
    const run = await env.DB.prepare(`SELECT status, result FROM job_runs WHERE id = 'backup:backup-2030-02-01T01-45-00-000Z'`).first<{
      status: string;
      result: string;
    }>();
    expect(run?.status).toBe('done');
    const result = JSON.parse(run!.result) as {
      key: string;
      bytes: number;
      rows: number;
      tables: number;
      parts: number;
      uploadParts: number;
      tableRows: Record<string, number>;
    };
    const obj = (await env.BACKUPS.get(key))!;
    expect(result).toMatchObject({ key, bytes: obj.size });
    expect(result.bytes).toBeGreaterThan(2 * UPLOAD_PART_BYTES);
    expect(result.uploadParts).toBe(Math.ceil(result.bytes / UPLOAD_PART_BYTES));
    expect(result.uploadParts).toBeGreaterThanOrEqual(3);
    expect(result.tableRows).toMatchObject({ mail_outbox: expect.any(Number), feedback: expect.any(Number) });
    expect(result.tableRows.feedback).toBeGreaterThanOrEqual(1000);
    expect(Object.keys(result.tableRows)).toHaveLength(result.tables);
    expect(Object.values(result.tableRows).reduce((a, b) => a + b, 0)).toBe(result.rows);
    expect((await env.BACKUPS.list({ prefix: 'tmp/' })).objects).toEqual([]);

    const text = await obj.text();
    const restored = await restoreInto(env.RESTORE_DB, text);
    expect(restored.dropped).toEqual({});
    const { job_runs: _src, ...source } = await state(env.DB);
    const { job_runs: _dst, ...copy } = await state(env.RESTORE_DB);
    expect(Object.keys(copy)).toEqual(Object.keys(source));
    for (const t of Object.keys(source)) expect(copy[t], t).toEqual(source[t]);
    await env.DB.batch([env.DB.prepare(`DELETE FROM mail_outbox WHERE id LIKE 'big-mail-%'`), env.DB.prepare(`DELETE FROM feedback WHERE id LIKE 'big-fb-%'`)]);
  }, 120_000);

  it('rows written between the steps: a child whose parent table was already read is dropped by the restore and reported; every other row is identical', async () => {
    const owner = await createUser();
    await createVenue(owner.id, { name: `Puben ${unique()}`, description: HOSTILE });
    // The Workflow's steps by hand: a new account signs up after the users table was read, before its children's.
    const plan = await planBackup(env.DB, testDb(), {
      runId: 'backup:orphans',
      at: new Date('2030-04-01T01:45:00.000Z'),
      startedAt: '2030-04-01T01:45:00.000Z',
    });
    const usersAt = plan.tables.findIndex((t) => t.name === 'users');
    const parts: PartInfo[] = [];
    let cursor: BackupCursor | null = { table: 0, last: null };
    let late: { user: Awaited<ReturnType<typeof createUser>>; readFrom: number } | null = null;
    while (cursor) {
      // Pages of 3 rows: tables of many pages after empty ones in the same step (two page parts once shared a key).
      const r = await backupPages(env.DB, env.BACKUPS, plan, cursor, 3);
      parts.push(...r.parts);
      cursor = r.next;
      if (!late && cursor && cursor.table > usersAt) late = { user: await createUser(), readFrom: cursor.table };
    }
    const { uploadId, createdAt } = await startUpload(env.BACKUPS, plan, '2030-04-01T01:46:00.000Z');
    const layout = backupLayout(plan, parts, createdAt);
    const uploaded = await uploadParts(env.BACKUPS, plan, uploadId, layout, 0, STEP_UPLOAD_PARTS);
    await completeUpload(env.BACKUPS, plan, uploadId, layout, uploaded, parts);
    const text = await (await env.BACKUPS.get(plan.key))!.text();

    // Before: one such row failed the whole restore at commit (FOREIGN KEY constraint failed).
    const { dropped } = await restoreInto(env.RESTORE_DB, text);
    // The new account's rows in the tables read after it: password, profile, role, session (those of them the steps had not yet read).
    const children = ['password_credentials', 'profiles', 'user_roles', 'sessions'].filter((t) => plan.tables.findIndex((x) => x.name === t) >= late!.readFrom);
    expect(children.length).toBeGreaterThan(0);
    expect(dropped).toEqual(Object.fromEntries(children.map((t) => [t, 1])));
    // Apart from those, table by table the same as the source without the late account.
    await env.DB.prepare(`DELETE FROM users WHERE id = ?`).bind(late!.user.id).run();
    const source = await state(env.DB);
    const restored = await state(env.RESTORE_DB);
    expect(Object.keys(restored)).toEqual(Object.keys(source));
    for (const t of Object.keys(source)) expect(restored[t], t).toEqual(source[t]);
    const hex = [...new TextEncoder().encode(HOSTILE)].map((b) => b.toString(16).padStart(2, '0').toUpperCase()).join('');
    expect(restored.venues!.some((r) => r.includes(hex))).toBe(true); // the multi-line text came back
  });

  it('a run that fails after its retries is recorded as failed, with the reason, and its upload is not completed', async () => {
    expectConsoleError(/R2 svarade inte/);
    await runBackupCron('2030-03-01T01:45:00.000Z', { status: 'errored', failStep: { name: 'upload-done', error: new Error('R2 svarade inte (test)') } });
    expect(await env.BACKUPS.head(`${BACKUP_PREFIX}quizkvall-2030-03-01T01-45-00-000Z.sql`)).toBeNull();
    const run = await env.DB.prepare(`SELECT status, finished_at, result FROM job_runs WHERE id = 'backup:backup-2030-03-01T01-45-00-000Z'`).first<{
      status: string;
      finished_at: string | null;
      result: string;
    }>();
    expect(run).toMatchObject({ status: 'failed', finished_at: expect.any(String) });
    expect(JSON.parse(run!.result)).toEqual({ error: 'R2 svarade inte (test)' });
  });

  it('keeps the 30 newest daily backups and the first of each of the 12 newest months', () => {
    const keys: string[] = [];
    for (let d = new Date('2029-01-01T01:45:00Z'); d < new Date('2030-06-15T00:00:00Z'); d = new Date(d.getTime() + 86_400_000))
      keys.push(`d1/quizkvall-${d.toISOString().replace(/[:.]/g, '-')}.sql`);
    const keep = [...backupsToKeep(keys)].sort();
    const daily = keys.slice(-30);
    const monthly = ['2029-07', '2029-08', '2029-09', '2029-10', '2029-11', '2029-12', '2030-01', '2030-02', '2030-03', '2030-04', '2030-05', '2030-06'].map(
      (m) => `d1/quizkvall-${m}-01T01-45-00-000Z.sql`,
    );
    expect(keep).toEqual([...new Set([...daily, ...monthly])].sort());
    expect(keep).toHaveLength(30 + 11); // 2030-06-01 is among the 30 daily ones
  });
});
