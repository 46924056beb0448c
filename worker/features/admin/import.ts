/**
 * CSV import of gathered venues (issue 7). Everything is validated first; a file with any bad row
 * stores nothing. Valid, non-duplicate rows become unclaimed businesses (house account) with one place
 * and one open-ended series (occurrences up to SERIES_HORIZON_DAYS ahead, recurrence_until null, same
 * row shape as the quizzes feature), written in batches of whole businesses (≤ 100 params/statement).
 */
import { runBatch, type BatchStatement } from '../../db/batch';
import type { Db } from '../../db/client';
import { getTableColumns, sql, type SQL } from 'drizzle-orm';
import { locations, profiles, quizzes, userRoles, users, venues } from '../../db/schema';
import { addDays, nextWeekdayOnOrAfter } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { invalidInput, type FieldIssue } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { slugify } from '../../lib/slug';
import { houseAccountId } from '../takeover/service';
import type { Deps } from '../../ports/deps';
import { swedishSortKey } from './contract';
import { parseCsv, uncsvCell } from './csv';
import {
  IMPORT_COLUMNS,
  ImportRowSchema,
  MAX_IMPORT_ROWS,
  REQUIRED_COLUMNS,
  type ImportColumn,
  type ImportPreview,
  type ImportResult,
  type ImportRow,
} from './import-contract';
import { existingNameAddress, takenSlugs } from './queries';

/** "Forever" in the create form: 6 × 30 days (spec 02 §5). */
const IMPORT_HORIZON_DAYS = 180;
/** Businesses per db.batch (3 statements each). */
const BATCH_ROWS = 30;

interface Analysed {
  preview: ImportPreview;
  valid: Array<{ line: number; row: ImportRow; duplicate: boolean }>;
}

export const addressKey = (a: string) => swedishSortKey(a).replace(/\s+/g, ' ');

/** Which file column feeds which import column (first matching header wins). */
export function mapColumns(header: string[]): Map<ImportColumn, number> {
  const colIndex = new Map<ImportColumn, number>();
  header.forEach((h, i) => {
    const key = h.trim().toLowerCase();
    for (const [col, aliases] of Object.entries(IMPORT_COLUMNS) as Array<[ImportColumn, readonly string[]]>) {
      if (aliases.includes(key) && !colIndex.has(col)) colIndex.set(col, i);
    }
  });
  return colIndex;
}

/** One file record as the contract's input: every column a string ('' when absent). */
export function rawRow(cells: string[], colIndex: Map<ImportColumn, number>): Record<ImportColumn, string> {
  return Object.fromEntries((Object.keys(IMPORT_COLUMNS) as ImportColumn[]).map((c) => [c, colIndex.has(c) ? uncsvCell(cells[colIndex.get(c)!] ?? '') : ''])) as Record<ImportColumn, string>;
}

/** Duplicate key: Swedish-folded name + address. */
export const nameAddressKey = (name: string, address: string) => `${swedishSortKey(name)}\u0000${addressKey(address)}`;

export async function analyseImport(deps: Pick<Deps, 'db'>, input: { csv: string }): Promise<Analysed> {
  const { db } = deps;
  const { csv } = input;
  const table = parseCsv(csv);
  const fileErrors: string[] = [];
  const colIndex = mapColumns(table.header);
  const missing = REQUIRED_COLUMNS.filter((c) => !colIndex.has(c));
  if (!table.header.length) fileErrors.push('Filen saknar rubrikrad.');
  else if (missing.length) fileErrors.push(`Kolumner saknas: ${missing.join(', ')}`);
  if (!table.records.length) fileErrors.push('Filen innehåller inga rader.');
  for (const e of table.errors) fileErrors.push(`Rad ${e.line}: ${e.message}`);
  if (table.records.length > MAX_IMPORT_ROWS) fileErrors.push(`Högst ${MAX_IMPORT_ROWS} rader per fil (filen har ${table.records.length}).`);

  const parsed = table.records.slice(0, MAX_IMPORT_ROWS).map(({ line, cells }) => {
    const raw = rawRow(cells, colIndex);
    const result = ImportRowSchema.safeParse(raw);
    const errors = result.success ? [] : result.error.issues.map((i) => `${String(i.path[0] ?? 'rad')}: ${i.message}`);
    return { line, raw, row: result.success ? result.data : null, errors };
  });

  const existing = missing.length ? [] : await existingNameAddress(db, parsed.map((p) => swedishSortKey(p.raw.name ?? '')));
  const dbKeys = new Set(existing.map((e) => `${e.nameKey}\u0000${addressKey(e.address)}`));
  const seen = new Set<string>();
  const rows = parsed.map((p) => {
    const key = `${swedishSortKey(p.raw.name ?? '')}\u0000${addressKey(p.raw.address ?? '')}`;
    let duplicate: 'file' | 'db' | null = null;
    const cityAddress = `${swedishSortKey(p.raw.name ?? '')}\u0000${addressKey(`${p.raw.address ?? ''}, ${p.raw.city ?? ''}`)}`;
    if (dbKeys.has(key) || dbKeys.has(cityAddress)) duplicate = 'db';
    else if (seen.has(key)) duplicate = 'file';
    seen.add(key);
    return { ...p, duplicate };
  });

  const invalid = rows.filter((r) => r.errors.length).length;
  const duplicates = rows.filter((r) => r.duplicate).length;
  const toImport = rows.filter((r) => !r.errors.length && !r.duplicate).length;
  const preview: ImportPreview = {
    rows: rows.map((r) => ({
      line: r.line,
      name: r.raw.name ?? '',
      address: r.raw.address ?? '',
      city: r.raw.city ?? '',
      weekday: r.row?.weekday.name ?? r.raw.weekday ?? '',
      startTime: r.row ? (r.row.start_time ?? '19:00:00').slice(0, 5) : (r.raw.start_time ?? ''),
      pattern: r.row?.pattern ?? r.raw.pattern ?? '',
      category: r.row?.category ?? r.raw.category ?? '',
      errors: r.errors,
      duplicate: r.duplicate,
    })),
    fileErrors,
    summary: { total: rows.length, valid: rows.length - invalid, invalid, duplicates, toImport },
    canImport: fileErrors.length === 0 && invalid === 0 && toImport > 0,
  };
  return { preview, valid: rows.filter((r) => r.row && !r.errors.length).map((r) => ({ line: r.line, row: r.row!, duplicate: !!r.duplicate })) };
}

/** The house account's id, creating the account (no password, cannot log in) when missing. */
export async function ensureHouseUser(db: Db, houseEmail: string): Promise<string> {
  const found = await houseAccountId({ db }, { houseEmail });
  if (found) return found;
  const id = newId();
  await db.batch([
    db.insert(users).values({ id, email: houseEmail.toLowerCase(), emailVerifiedAt: new Date(0).toISOString() }).onConflictDoNothing(),
    db.insert(profiles).values({ userId: id }).onConflictDoNothing(),
    db.insert(userRoles).values({ userId: id, role: 'admin' }).onConflictDoNothing(),
  ]);
  const again = await houseAccountId({ db }, { houseEmail });
  if (!again) throw new Error('house account could not be created');
  return again;
}

/** Occurrence dates from the first matching weekday on/after today to today + horizon. */
export function seriesDates(today: string, isoWeekday: number, pattern: 'weekly' | 'biweekly', horizonDays = IMPORT_HORIZON_DAYS): string[] {
  const until = addDays(today, horizonDays);
  const out: string[] = [];
  for (let d = nextWeekdayOnOrAfter(today, isoWeekday); d <= until; d = addDays(d, pattern === 'weekly' ? 7 : 14)) out.push(d);
  return out;
}

/**
 * One INSERT … SELECT per series: only (id, date) vary per occurrence, the rest is bound once, so a
 * weekly series of 26 occurrences needs 2 × 26 + 17 = 69 parameters (D1 allows 100). Columns follow
 * the table definition (drizzle inserts into every insertable column in schema order).
 */
export function seriesInsert(
  db: Db,
  s: { locationId: string; dates: string[]; startTime: string | null; category: string; theme: string | null; quizmaster: string | null; price: number | null; recurrenceId: string; pattern: string; days: string; nowIso: string },
) {
  const value: Record<string, SQL> = {
    id: sql`column1`,
    locationId: sql`${s.locationId}`,
    date: sql`column2`,
    startTime: sql`${s.startTime}`,
    category: sql`${s.category}`,
    theme: sql`${s.theme}`,
    quizmaster: sql`${s.quizmaster}`,
    price: sql`${s.price}`,
    isRecurring: sql`1`,
    recurrenceId: sql`${s.recurrenceId}`,
    recurrencePattern: sql`${s.pattern}`,
    recurrenceDays: sql`${s.days}`,
    recurrenceUntil: sql`NULL`,
    isCancelled: sql`0`,
    createdAt: sql`${s.nowIso}`,
    updatedAt: sql`${s.nowIso}`,
  };
  const columns = Object.entries(getTableColumns(quizzes)).filter(([, col]) => !(col as unknown as { shouldDisableInsert(): boolean }).shouldDisableInsert());
  const select = sql.join(columns.map(([key]) => value[key] ?? sql`NULL`), sql`, `);
  const rows = sql.join(s.dates.map((d) => sql`(${newId()}, ${d})`), sql`, `);
  return db.insert(quizzes).select(sql`SELECT ${select} FROM (VALUES ${rows})`);
}

export async function commitImport(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { csv: string }): Promise<ImportResult> {
  const { db } = deps;
  const { csv } = input;
  const ctx = { today: deps.clock.today(), now: deps.clock.now(), houseEmail: deps.config.houseAccountEmail };
  const { preview, valid } = await analyseImport(deps, { csv });
  if (preview.fileErrors.length || preview.summary.invalid) {
    const issues: FieldIssue[] = [
      ...preview.fileErrors.map((m) => ({ path: 'csv', message: m })),
      ...preview.rows.flatMap((r) => r.errors.map((m) => ({ path: `rad ${r.line}`, message: m }))),
    ];
    throw invalidInput(`Filen innehåller fel – inget har sparats. ${issues.slice(0, 3).map((i) => `${i.path === 'csv' ? '' : `Rad ${i.path.slice(4)}, `}${i.message}`).join('; ')}`, issues);
  }
  const toCreate = valid.filter((v) => !v.duplicate);
  if (!toCreate.length) return { created: 0, skippedDuplicates: valid.length, quizzesCreated: 0 };

  const houseId = await ensureHouseUser(db, ctx.houseEmail);
  const nowIso = ctx.now.toISOString();
  const slugs = await planSlugs(db, toCreate.map((t) => t.row));
  let quizzesCreated = 0;
  const statements: Array<{ stmts: BatchStatement[] }> = [];
  for (const [i, { row }] of toCreate.entries()) {
    const slug = slugs[i]!;
    const venueId = newId();
    const locationId = newId();
    const recurrenceId = newId();
    const dates = seriesDates(ctx.today, row.weekday.iso, row.pattern);
    quizzesCreated += dates.length;
    statements.push({
      stmts: [
        db.insert(venues).values({
          id: venueId, userId: houseId, name: row.name, slug, address: row.address, city: row.city,
          phone: row.phone || null, website: row.website || null, isPublic: true, createdAt: nowIso, updatedAt: nowIso,
        }),
        db.insert(locations).values({
          id: locationId, venueId, name: row.name, address: row.address, city: row.city, citySlug: slugify(row.city),
          phone: row.phone || null, website: row.website || null, latitude: row.lat, longitude: row.lng, createdAt: nowIso, updatedAt: nowIso,
        }),
        seriesInsert(db, {
          locationId, dates, startTime: row.start_time, category: row.category, theme: row.category === 'tema' ? row.theme : null,
          quizmaster: row.quizmaster || null, price: row.price, recurrenceId, pattern: row.pattern, days: JSON.stringify([row.weekday.name]), nowIso,
        }),
      ],
    });
  }
  for (let i = 0; i < statements.length; i += BATCH_ROWS) {
    const chunk = statements.slice(i, i + BATCH_ROWS).flatMap((s) => s.stmts);
    await runBatch(db, [...chunk, bumpDataVersion(db)]);
  }
  return { created: toCreate.length, skippedDuplicates: valid.length - toCreate.length, quizzesCreated };
}



/** Unique slugs for all rows with one chunked lookup: name, else name-city, else name-city-random. */
export async function planSlugs(db: Db, rows: ImportRow[]): Promise<string[]> {
  const candidates = rows.map((r) => {
    const base = slugify(r.name) || 'verksamhet';
    return [base, `${base}-${slugify(r.city)}`];
  });
  const taken = await takenSlugs(db, candidates.flat());
  return candidates.map(([base, withCity]) => {
    const pick = [base!, withCity!].find((c) => !taken.has(c)) ?? `${withCity}-${newId().slice(0, 8)}`;
    taken.add(pick);
    return pick;
  });
}
