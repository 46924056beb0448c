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
import { BACKUP_CRON, BACKUP_PREFIX, backupsToKeep, listBackups } from '../../worker/features/backup/service';
import { restoreStatements } from '../../worker/lib/backup-format.mjs';
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

async function runBackupCron(at: string) {
  await using introspector = await introspectWorkflow(env.BACKUP_WORKFLOW);
  await introspector.modifyAll(async (m) => {
    await m.disableRetryDelays();
  });
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: BACKUP_CRON }), env as Env, ctx);
  await waitOnExecutionContext(ctx);
  const [instance] = await introspector.get();
  await instance!.waitForStatus('complete');
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
