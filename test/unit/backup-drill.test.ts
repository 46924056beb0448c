/**
 * Backup drill on a production-like database (issues 21, 26.1): a fresh local D1 with the demo data, plus
 * sent mails, follows, import jobs and rows, analytics, orders, refunds, job runs, dead letters …, then
 * hostile text (line breaks, CR, NUL, U+2028, quotes, emoji, SQL) in every free text column of every table
 * and one row without its parent (password_credentials of no user)
 * → `db:backup` (quizzes span two pages of 1 000 rows, so paging is exercised) → the database folder deleted → `db:restore` into a
 * new, empty database (schema only: the migrated template) → the orphan dropped and reported, every table equal row by row (a hash of
 * each table's typed values), and the search, date and near listings answer a fixed set of queries exactly as before.
 *
 * Runs the real scripts and wrangler; the hostile rows are written and the tables read with node:sqlite
 * straight on the local D1 file (the same SQLite, triggers included; much faster than one wrangler call
 * per statement). About 30 s on an idle machine, most of it wrangler calls (each starts workerd: ~2.7 s idle, far more
 * on a loaded machine, hence the generous timeout).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, describe, expect, it } from 'vitest';
import { migratedDatabase } from '../migrated-db';

const root = join(import.meta.dirname, '..', '..');
const bin = (name: string) => join(root, 'node_modules', '.bin', name);
const dir = mkdtempSync(join(tmpdir(), 'qk-drill-'));
const persist = join(dir, 'state');
const file = join(dir, 'backup.sql');

const sh = (cmd: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(cmd, args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });

/** The local D1's SQLite file (wrangler keeps one per database under --persist-to). */
function openDb(): DatabaseSync {
  const d = join(persist, 'v3', 'd1', 'miniflare-D1DatabaseObject');
  const f = readdirSync(d).find((n) => n.endsWith('.sqlite') && n !== 'metadata.sqlite');
  if (!f) throw new Error(`no D1 file in ${d}`);
  const db = new DatabaseSync(join(d, f));
  db.exec('PRAGMA foreign_keys = ON');
  return db;
}

/** Files and folders a restore may leave in the project's .wrangler folder (where it writes its SQL). */
function restoreLeftovers(): string[] {
  const d = join(root, '.wrangler');
  return existsSync(d) ? readdirSync(d).filter((n) => /^(restore|r2-backup)-/.test(n)) : [];
}

/** Rows of the data a site's people make (users, venues, quizzes) in the local D1: 0 in a new database. */
function peopleRows(): number {
  const db = openDb();
  try {
    return ['users', 'venues', 'quizzes'].reduce((n, t) => n + (db.prepare(`SELECT count(*) AS n FROM ${q(t)}`).get() as { n: number }).n, 0);
  } finally {
    db.close();
  }
}

/** Everything a value can hold that a line-based or naive SQL writer loses. */
const HOSTILE = [
  'Rad ett\nRad två\r\nCRLF\rbara CR',
  'NUL\u0000efter NUL',
  "citat ' och '' dubbla \"dq\" ); DROP TABLE users; -- kommentar",
  'INSERT INTO "users" VALUES (1);\nINSERT INTO x',
  'LS\u2028PS\u2029NEL\u0085BOM\ufeffTAB\tDEL\u007f',
  "emoji 🍺🧠 åäö ÅÄÖ é ß 中文 \\ backslash X'00'",
].join(' | ');

function tables(db: DatabaseSync): string[] {
  return (db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).all() as Array<{ name: string }>)
    .map((t) => t.name)
    .filter((n) => !/^(sqlite_|_cf_|d1_migrations$|listing_search)/.test(n));
}
const cols = (db: DatabaseSync, t: string) =>
  db.prepare(`SELECT name, type, pk, hidden FROM pragma_table_xinfo('${t}')`).all() as Array<{ name: string; type: string; pk: number; hidden: number }>;
const q = (n: string) => `"${n}"`;

/** Rows the demo seed has none of: what a running production database holds after a while. */
function addProductionRows(db: DatabaseSync) {
  const user = 'seed-user-owner';
  const venue = (db.prepare(`SELECT id FROM venues ORDER BY id LIMIT 1`).get() as { id: string }).id;
  const loc = (db.prepare(`SELECT id FROM locations ORDER BY id LIMIT 1`).get() as { id: string }).id;
  const quiz = (db.prepare(`SELECT id FROM quizzes ORDER BY id LIMIT 1`).get() as { id: string }).id;
  const rid = (db.prepare(`SELECT recurrence_id AS r FROM quizzes WHERE recurrence_id IS NOT NULL LIMIT 1`).get() as { r: string }).r;
  const order = (db.prepare(`SELECT id FROM checkout_orders LIMIT 1`).get() as { id: string }).id;
  const stmts: Array<[string, unknown[]]> = [];
  for (let i = 0; i < 40; i++) {
    stmts.push([
      `INSERT INTO mail_outbox (id, to_email, subject, text, html, status, sent_at, headers, send_key) VALUES (?, ?, ?, ?, ?, 'sent', '2026-11-20T08:00:00.000Z', ?, ?)`,
      [
        `drill-mail-${i}`,
        `gast${i}@example.se`,
        `Påminnelse: quiz ikväll ${i}`,
        `Hej!\n\nQuiz ikväll kl. 19:00.\r\nVälkommen ${i}\n-- \nQuizkväll`,
        `<p>Hej!</p>\n<p>Quiz "ikväll"</p>`,
        JSON.stringify({ 'List-Unsubscribe': '<https://x/u>' }),
        `drill-key-${i}`,
      ],
    ]);
  }
  stmts.push(
    [`INSERT INTO follow_addresses (id, email, confirmed_at) VALUES ('drill-addr', 'foljare@example.se', '2026-11-01T10:00:00.000Z')`, []],
    [`INSERT INTO follows (id, user_id, kind, location_id, target_key) VALUES ('drill-follow-1', ?, 'place', ?, ?)`, [user, loc, `place:${loc}`]],
    [
      `INSERT INTO follows (id, address_id, kind, filters, target_key) VALUES ('drill-follow-2', 'drill-addr', 'search', ?, 'search:göteborg')`,
      [JSON.stringify({ city: 'goteborg', q: 'musik\nquiz' })],
    ],
    [
      `INSERT INTO import_jobs (id, created_by, file_name, file_key, rows_key, encoding, status, total_rows, processed_rows, preview, today) VALUES ('drill-import', ?, 'quiz lista.csv', 'imports/x.csv', 'imports/x.rows', 'utf-8', 'done', 3, 3, ?, '2026-11-20')`,
      [
        user,
        JSON.stringify([
          ['Namn', 'Stad'],
          ['Puben', 'Malmö'],
        ]),
      ],
    ],
    ...[1, 2, 3].map((n): [string, unknown[]] => [
      `INSERT INTO import_rows (job_id, row_no, result, message, venue_id, data) VALUES ('drill-import', ?, 'created', ?, ?, ?)`,
      [n, `rad ${n}`, venue, JSON.stringify({ namn: `Pub ${n}`, beskrivning: 'två\nrader' })],
    ]),
    ...['2026-11-18', '2026-11-19', '2026-11-20'].map((d): [string, unknown[]] => [
      `INSERT INTO analytics_daily (day, venue_id, location_id, quiz_id, metric, count) VALUES (?, ?, ?, ?, 'view', ?)`,
      [d, venue, loc, quiz, d.length * 7],
    ]),
    [
      `INSERT INTO checkout_orders (id, user_id, venue_id, kind, status, stripe_session_id, amount_total, items, expires_at) VALUES ('drill-order', ?, ?, 'promotion', 'paid', 'cs_test_drill', 49900, ?, 1764000000)`,
      [user, venue, JSON.stringify([{ quizId: quiz, tier: 'premium' }])],
    ],
    [`INSERT INTO payment_refunds (id, order_id, amount, reason, status) VALUES ('drill-refund', ?, 19900, 'dubbelbokad', 'done')`, [order]],
    [`INSERT INTO payment_events (id, type, order_id) VALUES ('evt_drill', 'checkout.session.completed', 'drill-order')`, []],
    [
      `INSERT INTO job_runs (id, job, status, started_at, finished_at, result) VALUES ('drill-run', 'sessions', 'done', '2026-11-20T02:15:00.000Z', '2026-11-20T02:15:01.000Z', '{"deleted":3}')`,
      [],
    ],
    [
      `INSERT INTO dead_letters (id, queue, message_id, body, attempts, reason) VALUES ('drill-dl', 'quizkvall-mail', 'm1', '{"kind":"reminder"}', 5, 'timeout')`,
      [],
    ],
    [`INSERT INTO holiday_decisions (recurrence_id, date, holiday, decision) VALUES (?, '2026-12-24', 'Julafton', 'skip')`, [rid]],
    [`INSERT INTO used_links (token_hash, purpose, expires_at) VALUES ('drill-hash', 'unsubscribe', '2026-12-20T00:00:00.000Z')`, []],
    [
      `INSERT INTO calendar_feeds (id, location_id, url, last_synced_at, last_status, last_error, last_result) VALUES ('drill-feed', ?, 'https://kalender.example.se/a.ics', '2026-11-20T02:15:00.000Z', 'partial', NULL, ?)`,
      [loc, JSON.stringify({ created: 1, skipped: [{ date: '2026-12-01', title: 'Quiz "ett"\nrad två', reason: 'Betald' }] })],
    ],
    [`INSERT INTO calendar_sync_items (feed_id, key, quiz_id, synced_hash) VALUES ('drill-feed', 'uid-1@example.se|2026-12-01', ?, '0badc0de')`, [quiz]],
    [`INSERT INTO email_tokens (id, user_id, purpose, token_hash, expires_at, payload) VALUES ('drill-token', ?, 'reset', 'h', 1764000000, '{}')`, [user]],
    [`INSERT INTO sessions (id, secret_hash, user_id, expires_at) VALUES ('drill-session', 'h', ?, 1764000000)`, [user]],
    [`INSERT INTO totp_factors (id, user_id, secret) VALUES ('drill-totp', ?, 'JBSWY3DPEHPK3PXP')`, [user]],
    [`INSERT INTO oauth_accounts (provider, provider_user_id, user_id) VALUES ('google', '1234567890', ?)`, [user]],
    [`INSERT INTO rate_limits (key, count, window_start, last_attempt) VALUES ('login:drill', 3, 1764000000000, 1764000000500)`, []],
    [
      `INSERT INTO feedback (id, category, title, description, sender_email, quiz_id, report_unit) VALUES ('drill-feedback', 'report', 'Fel tid', 'Det står 19:00\nmen är 20:00', 'x@example.se', ?, ?)`,
      [quiz, rid],
    ],
  );
  for (const [sql, args] of stmts) db.prepare(sql).run(...(args as never[]));
}

/**
 * Hostile text in every free text column of every table: one row per column (spread over the rows), the
 * table and column named in the value. Keys, foreign keys and the machine-written dates and times (ISO
 * strings the listing computes with: a hostile `listing_state.today` or quiz date would only empty the
 * listings the drill compares) keep their values; a column whose CHECK or JSON shape refuses plain text gets the text inside a
 * JSON object instead. Returns the columns that hold hostile text.
 */
function addHostileText(db: DatabaseSync): string[] {
  const done: string[] = [];
  for (const t of tables(db)) {
    if (t === 'listing_dates') continue; // derived: refilled on restore from listing_series and quizzes
    const fkCols = new Set((db.prepare(`SELECT "from" AS c FROM pragma_foreign_key_list('${t}')`).all() as Array<{ c: string }>).map((r) => r.c));
    const rowids = (db.prepare(`SELECT rowid AS r FROM ${q(t)} ORDER BY rowid`).all() as Array<{ r: number }>).map((r) => r.r);
    if (!rowids.length) continue;
    const text = cols(db, t).filter(
      (c) =>
        c.hidden === 0 &&
        /TEXT/i.test(c.type) &&
        c.pk === 0 &&
        !fkCols.has(c.name) &&
        !/(^id$|_id$|_key$|^key$|^date$|_date$|^today$|^day$|_at$|_time$|_until$)/.test(c.name),
    );
    text.forEach((c, i) => {
      const rowid = rowids[(i * 7) % rowids.length]!;
      const value = `${t}.${c.name}: ${HOSTILE}`;
      for (const expr of ['?', `json_object('v', ?)`]) {
        try {
          db.prepare(`UPDATE ${q(t)} SET ${q(c.name)} = ${expr} WHERE rowid = ?`).run(value, rowid);
          done.push(`${t}.${c.name}`);
          return;
        } catch {
          // a CHECK refuses this shape: try the next
        }
      }
    });
  }
  return done;
}

/** Row count + SHA-256 of every table's rows with their exact types (sorted: insertion order does not matter). */
function state(db: DatabaseSync): Record<string, string> {
  return Object.fromEntries(
    tables(db).map((t) => {
      const exprs = cols(db, t).map(
        (c) => `typeof(${q(c.name)}) || ':' || CASE typeof(${q(c.name)}) WHEN 'real' THEN printf('%!.20e', ${q(c.name)}) ELSE hex(${q(c.name)}) END`,
      );
      const rows = (db.prepare(`SELECT ${exprs.join(` || '|' || `)} AS r FROM ${q(t)}`).all() as Array<{ r: string }>).map((r) => r.r).sort();
      return [t, `${rows.length}:${createHash('sha256').update(rows.join('\n')).digest('hex').slice(0, 16)}`];
    }),
  );
}

/** A fixed set of listing questions: free text (both indexes), date mode (listing_dates), near mode (box + distance). */
function listings(db: DatabaseSync) {
  const all = (sql: string, ...args: unknown[]) =>
    db
      .prepare(sql)
      .all(...(args as never[]))
      .map((r) => Object.values(r as object).join(','));
  const today = (db.prepare(`SELECT today FROM listing_state`).get() as { today: string }).today;
  return {
    search: ['"quiz"', '"pub"', '"Rad två"', '"🍺"', '"kväll"'].map((m) =>
      all(`SELECT CAST(rowid AS TEXT) AS k FROM listing_search WHERE listing_search MATCH ? ORDER BY rowid`, m),
    ),
    words: ['k*', 'musik*', 'rad*', 'citat*'].map((m) =>
      all(`SELECT CAST(rowid AS TEXT) AS k FROM listing_search_words WHERE listing_search_words MATCH ? ORDER BY rowid`, m),
    ),
    dates: [0, 1, 2, 6].map((d) =>
      all(`SELECT date, tier, shuffle, uid, city, qid FROM listing_dates WHERE date = date(?, '+${d} days') ORDER BY date, tier, shuffle, uid LIMIT 24`, today),
    ),
    near: [
      [59.3293, 18.0686],
      [57.7089, 11.9746],
      [55.605, 13.0038],
    ].map(([lat, lng]) =>
      all(
        `SELECT id, key, next_date, tier FROM listing_series WHERE tier < 2 AND lat BETWEEN ? - 1 AND ? + 1 AND lng BETWEEN ? - 2 AND ? + 2
         ORDER BY (lat - ?) * (lat - ?) + (lng - ?) * (lng - ?) * 0.3, id LIMIT 24`,
        lat,
        lat,
        lng,
        lng,
        lat,
        lat,
        lng,
        lng,
      ),
    ),
  };
}

afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('backup drill', () => {
  it('a production-like database with hostile text: backup → wipe → restore gives the same tables and listings', () => {
    const t0 = performance.now();
    // A fresh local D1 with every migration applied: a copy of the one `wrangler d1 migrations apply` made for this
    // set of migrations (shared with the e2e apps; ~25 s of one wrangler start per migration saved when it exists).
    // The restore below still applies the migrations itself, into the emptied folder.
    cpSync(migratedDatabase(root), persist, { recursive: true });
    sh(bin('tsx'), ['scripts/seed.ts', '--persist-to', persist]);
    let db = openDb();
    addProductionRows(db);
    const hostile = addHostileText(db);
    const before = state(db);
    const found = listings(db);
    // A row whose parent is not in the backup, as when a nightly backup reads the child table after a new parent
    // (its table already read) got a child: the restore must drop it and say so, and keep everything else.
    db.exec('PRAGMA foreign_keys = OFF');
    db.prepare(`INSERT INTO password_credentials (user_id, hash) VALUES ('drill-ghost-user', 'pbkdf2-sha256$1$x$y')`).run();
    db.close();
    const tSeeded = performance.now();

    // Every table that has rows got hostile text in its free text columns, the ones of the issue among them.
    expect(hostile).toEqual(
      expect.arrayContaining([
        'mail_outbox.text',
        'mail_outbox.html',
        'mail_outbox.subject',
        'quizzes.description',
        'quizzes.title',
        'venues.description',
        'feedback.description',
        'import_rows.data',
        'follows.filters',
        'checkout_orders.items',
        'job_runs.result',
      ]),
    );
    expect(hostile.length).toBeGreaterThan(80);
    expect(found.search[2]!.length).toBeGreaterThan(0); // the hostile quiz text is found
    expect(found.dates.flat().length).toBeGreaterThan(0);
    expect(found.near.flat().length).toBeGreaterThan(0);

    sh('node', ['scripts/d1-backup.mjs', 'backup', '--persist-to', persist, '--out', file]);
    const sql = readFileSync(file, 'utf8');
    expect(sql).not.toMatch(/INSERT INTO "listing_(search|series_fts|series_words|dates)/);
    expect(sql).not.toContain('\u0000');
    expect(sql).not.toMatch(/[\r\u2028\u2029]/);
    // One statement per line: every line is a comment or a whole INSERT.
    expect(sql.split('\n').filter((l) => l && !l.startsWith('-- ') && !/^INSERT INTO ".*\);$/.test(l))).toEqual([]);
    expect(sql).toMatch(/^-- table quizzes 1\d{3}$/m);

    const t1 = performance.now();
    rmSync(persist, { recursive: true, force: true });
    expect(existsSync(persist)).toBe(false);
    // The lost database's replacement: a new one, with no one's data (the migrations' reference rows, such as
    // towns, only). Its schema comes from the migrations, as the restore's own
    // first step (`wrangler d1 migrations apply`) gives it; here from the template that same command built, because
    // wrangler starts one workerd per migration (27: ~22 s of CPU, the drill's largest step, issue 27). On this
    // copy the restore's migration step finds nothing left to apply.
    cpSync(migratedDatabase(root), persist, { recursive: true });
    expect(peopleRows()).toBe(0);
    const leftBefore = restoreLeftovers();
    const restored = sh('node', ['scripts/d1-backup.mjs', 'restore', file, '--persist-to', persist]);
    expect(restored).toContain('1 rader utan förälder (skrivna medan säkerhetskopian lästes) togs bort: password_credentials 1.');
    // The restore's SQL (every row of the database) does not stay behind in .wrangler.
    expect(restoreLeftovers()).toEqual(leftBefore);

    console.log(
      `backup drill: seed ${Math.round(tSeeded - t0)} ms, backup ${Math.round(t1 - tSeeded)} ms, restore ${Math.round(performance.now() - t1)} ms; hostile text in ${hostile.length} columns`,
    );
    db = openDb();
    expect(state(db)).toEqual(before);
    expect(listings(db)).toEqual(found);
    db.close();
  }, 900_000);
});
