/**
 * CSV import of gathered venues (issue 7): the one planner (planRecords, issue 28.7) and the building
 * blocks both import paths share — reading the file, the duplicate keys, the house account, the
 * statements of one row (a house-account business, one place, one open-ended series with occurrences
 * up to IMPORT_HORIZON_DAYS ahead, recurrence_until null, ≤ 100 params/statement). The durable job
 * (import-job.ts) plans each Workflow step's records with it; the older 300-row JSON endpoints
 * (analyseImport, commitImport) are thin wrappers over it.
 */
import { runBatch, type BatchStatement } from '../../db/batch';
import { chunks } from '../../lib/chunks';
import type { Db } from '../../db/client';
import { locations, venues } from '../../db/schema';
import { addDays, nextWeekdayOnOrAfter } from '../../lib/clock';
import { bumpDataVersion } from '../../lib/data-version';
import { invalidInput, type FieldIssue } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { slugify } from '../../lib/slug';
import { houseAccountId } from '../takeover/service';
import type { Deps } from '../../ports/deps';
import { swedishSortKey } from './contract';
import { readCsv, uncsvCell } from './csv';
import { NEAR_DUPLICATE_SIMILARITY, trigramSimilarity } from './similarity';
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
import { SERIES_HORIZON_DAYS } from '../quizzes/contract';
import { existingNameAddress, houseUserStatements, placesInTowns, seriesInsert, takenSlugs } from './queries';

/** "Forever" in the create form (spec 02 §5): the series horizon, whose one home is the quizzes contract. */
const IMPORT_HORIZON_DAYS = SERIES_HORIZON_DAYS;
/** Businesses per db.batch (3 statements each). */
const BATCH_ROWS = 30;

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
  return Object.fromEntries(
    (Object.keys(IMPORT_COLUMNS) as ImportColumn[]).map((c) => [c, colIndex.has(c) ? uncsvCell(cells[colIndex.get(c)!] ?? '') : '']),
  ) as Record<ImportColumn, string>;
}

/** Duplicate key: Swedish-folded name + address. */
export const nameAddressKey = (name: string, address: string) => `${swedishSortKey(name)}\u0000${addressKey(address)}`;

/** One file record: its line in the file and its raw column values (what the job keeps in R2). */
export interface ImportRecord {
  line: number;
  raw: Record<ImportColumn, string>;
}

/** What the import does with one record: the one decision both import paths and every preview read. */
export type PlannedRecord = ImportRecord &
  (
    | { kind: 'invalid'; row: null; errors: string[]; message: string }
    | { kind: 'duplicate'; row: ImportRow; where: 'file' | 'db'; message: string }
    | { kind: 'review'; row: ImportRow; match: { venueId: string; name: string }; message: string }
    | { kind: 'new'; row: ImportRow; venueId: string; message: '' }
  );

interface Candidate {
  venueId: string;
  name: string;
  addressKey: string;
}

/** Businesses with a place in these towns (the near-duplicate candidates), by town slug; chunked. */
async function candidatesIn(db: Db, citySlugs: string[]): Promise<Map<string, Candidate[]>> {
  const out = new Map<string, Candidate[]>();
  for (const r of await placesInTowns(db, [...new Set(citySlugs)]))
    out.set(r.citySlug, [...(out.get(r.citySlug) ?? []), { venueId: r.venueId, name: r.name, addressKey: addressKey(r.address) }]);
  return out;
}

/**
 * The one import planner (issue 28.7): every record → invalid (the contract's messages, "column:
 * message") / duplicate / review / new, in file order.
 * - Invalid: ImportRowSchema, built from the forms' own field contracts.
 * - Duplicate: the same Swedish-folded name and address as a business or place in the catalogue (its
 *   address also matched as "adress, stad", the form a whole address is often typed in), or as an
 *   earlier record of the same call that is planned as new.
 * - Review (only with `nearDuplicates`, i.e. in the Workflow's steps): a business with a place in the
 *   same town whose address is the same or whose name is trigram-similar (≥ NEAR_DUPLICATE_SIMILARITY),
 *   including records planned as new earlier in the call. Never merged silently.
 * Reads only; the callers write.
 */
export async function planRecords(db: Db, records: ImportRecord[], opts: { nearDuplicates: boolean }): Promise<PlannedRecord[]> {
  const parsed = records.map((r) => {
    const result = ImportRowSchema.safeParse(r.raw);
    return result.success
      ? { ...r, row: result.data, errors: [] as string[] }
      : { ...r, row: null, errors: result.error.issues.map((i) => `${String(i.path[0] ?? 'rad')}: ${i.message}`) };
  });
  const valid = parsed.flatMap((p) => (p.row ? [p.row] : []));
  const existing = valid.length
    ? await existingNameAddress(
        db,
        valid.map((r) => swedishSortKey(r.name)),
      )
    : [];
  const inCatalogue = new Set(existing.map((e) => `${e.nameKey}\u0000${addressKey(e.address)}`));
  const candidates =
    opts.nearDuplicates && valid.length
      ? await candidatesIn(
          db,
          valid.map((r) => slugify(r.city)),
        )
      : new Map<string, Candidate[]>();
  const inFile = new Set<string>();
  return parsed.map((p): PlannedRecord => {
    const base = { line: p.line, raw: p.raw };
    if (!p.row) return { ...base, kind: 'invalid', row: null, errors: p.errors, message: p.errors.join('; ') };
    const row = p.row;
    const key = nameAddressKey(row.name, row.address);
    if (inCatalogue.has(key) || inCatalogue.has(nameAddressKey(row.name, `${row.address}, ${row.city}`))) {
      return { ...base, kind: 'duplicate', row, where: 'db', message: 'Samma namn och adress finns redan' };
    }
    if (inFile.has(key)) return { ...base, kind: 'duplicate', row, where: 'file', message: 'Samma namn och adress finns tidigare i filen' };
    if (opts.nearDuplicates) {
      const citySlug = slugify(row.city);
      const aKey = addressKey(row.address);
      const town = candidates.get(citySlug) ?? [];
      const near = town.find((c) => c.addressKey === aKey || trigramSimilarity(c.name, row.name) >= NEAR_DUPLICATE_SIMILARITY);
      if (near) {
        const message =
          near.addressKey === aKey
            ? `Samma adress som ${near.name}`
            : `Liknar ${near.name} i samma ort (${trigramSimilarity(near.name, row.name).toFixed(2).replace('.', ',')})`;
        return { ...base, kind: 'review', row, match: { venueId: near.venueId, name: near.name }, message };
      }
    }
    const venueId = newId();
    // Records planned as new are, for the later records of the call, as if in the catalogue already.
    inFile.add(key);
    if (opts.nearDuplicates)
      candidates.set(slugify(row.city), [...(candidates.get(slugify(row.city)) ?? []), { venueId, name: row.name, addressKey: addressKey(row.address) }]);
    return { ...base, kind: 'new', row, venueId, message: '' };
  });
}

/** Reads a file's text into records, or the file's errors (header, columns, quoting, row count). */
export async function readImportFile(
  text: string,
  maxRows: number,
): Promise<{ records: ImportRecord[]; fileErrors: string[]; header: string[]; colIndex: Map<ImportColumn, number> }> {
  const table = await readCsv(text);
  const fileErrors: string[] = [];
  const colIndex = mapColumns(table.header);
  const missing = REQUIRED_COLUMNS.filter((c) => !colIndex.has(c));
  if (!table.header.length) fileErrors.push('Filen saknar rubrikrad.');
  else if (missing.length) fileErrors.push(`Kolumner saknas: ${missing.join(', ')}`);
  if (!table.records.length) fileErrors.push('Filen innehåller inga rader.');
  for (const e of table.errors) fileErrors.push(`Rad ${e.line}: ${e.message}`);
  if (table.records.length > maxRows) fileErrors.push(`Högst ${maxRows.toLocaleString('sv-SE')} rader per fil (filen har ${table.records.length}).`);
  const records = table.records.map(({ line, cells }) => ({ line, raw: rawRow(cells, colIndex) }));
  return { records, fileErrors, header: table.header, colIndex };
}

/** The 300-row JSON preview (`POST /api/admin/import/preview`): the planner's answer for the file. */
export async function analyseImport(deps: Pick<Deps, 'db'>, input: { csv: string }): Promise<{ preview: ImportPreview; planned: PlannedRecord[] }> {
  const { records, fileErrors } = await readImportFile(input.csv, MAX_IMPORT_ROWS);
  const planned = fileErrors.some((e) => e.startsWith('Kolumner saknas') || e.startsWith('Filen saknar'))
    ? []
    : await planRecords(deps.db, records.slice(0, MAX_IMPORT_ROWS), { nearDuplicates: false });
  const invalid = planned.filter((r) => r.kind === 'invalid').length;
  const duplicates = planned.filter((r) => r.kind === 'duplicate').length;
  const toImport = planned.filter((r) => r.kind === 'new').length;
  const preview: ImportPreview = {
    rows: planned.map((r) => ({
      line: r.line,
      name: r.raw.name,
      address: r.raw.address,
      city: r.raw.city,
      weekday: r.row?.weekday.name ?? r.raw.weekday,
      startTime: r.row ? (r.row.start_time ?? '19:00:00').slice(0, 5) : r.raw.start_time,
      pattern: r.row?.pattern ?? r.raw.pattern,
      category: r.row?.category ?? r.raw.category,
      errors: r.kind === 'invalid' ? r.errors : [],
      duplicate: r.kind === 'duplicate' ? r.where : null,
    })),
    fileErrors,
    summary: { total: planned.length, valid: planned.length - invalid, invalid, duplicates, toImport },
    canImport: fileErrors.length === 0 && invalid === 0 && toImport > 0,
  };
  return { preview, planned };
}

/** The house account's id, creating the account (no password, cannot log in) when missing. */
export async function ensureHouseUser(db: Db, houseEmail: string): Promise<string> {
  const found = await houseAccountId({ db }, { houseEmail });
  if (found) return found;
  const id = newId();
  await runBatch(db, houseUserStatements(db, id, houseEmail));
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

/** One INSERT … SELECT per series (queries.ts): tips and the import share it. */
export { seriesInsert };

/**
 * The 300-row all-or-nothing import (`POST /api/admin/import`): a thin wrapper over the planner — any
 * file or row error stores nothing; the new rows are written with the job's own statements
 * (createStatements), BATCH_ROWS businesses per db.batch. Near-duplicate review needs a job, so this
 * path plans as the previews do (exact duplicates only).
 */
export async function commitImport(deps: Pick<Deps, 'db' | 'clock' | 'config'>, input: { csv: string }): Promise<ImportResult> {
  const { db } = deps;
  const ctx = { today: deps.clock.today(), nowIso: deps.clock.now().toISOString(), houseEmail: deps.config.houseAccountEmail };
  const { preview, planned } = await analyseImport(deps, input);
  if (preview.fileErrors.length || preview.summary.invalid) {
    const issues: FieldIssue[] = [
      ...preview.fileErrors.map((m) => ({ path: 'csv', message: m })),
      ...preview.rows.flatMap((r) => r.errors.map((m) => ({ path: `rad ${r.line}`, message: m }))),
    ];
    throw invalidInput(
      `Filen innehåller fel – inget har sparats. ${issues
        .slice(0, 3)
        .map((i) => `${i.path === 'csv' ? '' : `Rad ${i.path.slice(4)}, `}${i.message}`)
        .join('; ')}`,
      issues,
    );
  }
  const toCreate = planned.flatMap((p) => (p.kind === 'new' ? [p] : []));
  const skippedDuplicates = planned.length - toCreate.length;
  if (!toCreate.length) return { created: 0, skippedDuplicates, quizzesCreated: 0 };

  const houseId = await ensureHouseUser(db, ctx.houseEmail);
  const slugs = await planSlugs(
    db,
    toCreate.map((p) => p.row),
  );
  let quizzesCreated = 0;
  const perRow = toCreate.map((p, i) => {
    const w = createStatements(db, p.row, { venueId: p.venueId, slug: slugs[i]!, houseId, today: ctx.today, nowIso: ctx.nowIso });
    quizzesCreated += w.dates;
    return w.stmts;
  });
  for (const part of chunks(perRow, BATCH_ROWS)) await runBatch(db, [...part.flat(), bumpDataVersion(db)]);
  return { created: toCreate.length, skippedDuplicates, quizzesCreated };
}

/** A row's business (house account), its one place and its open-ended series: 3 statements (2 with `locationOnly`). */
export function createStatements(
  db: Db,
  row: ImportRow,
  o: { venueId: string; slug: string; houseId: string; today: string; nowIso: string; locationOnly?: boolean },
): { stmts: BatchStatement[]; dates: number } {
  const locationId = newId();
  const dates = seriesDates(o.today, row.weekday.iso, row.pattern);
  const out: BatchStatement[] = [];
  if (!o.locationOnly) {
    out.push(
      db.insert(venues).values({
        id: o.venueId,
        userId: o.houseId,
        name: row.name,
        slug: o.slug,
        address: row.address,
        city: row.city,
        phone: row.phone || null,
        website: row.website || null,
        isPublic: true,
        createdAt: o.nowIso,
        updatedAt: o.nowIso,
      }),
    );
  }
  out.push(
    db.insert(locations).values({
      id: locationId,
      venueId: o.venueId,
      name: row.name,
      address: row.address,
      city: row.city,
      citySlug: slugify(row.city),
      phone: row.phone || null,
      website: row.website || null,
      latitude: row.lat,
      longitude: row.lng,
      createdAt: o.nowIso,
      updatedAt: o.nowIso,
    }),
    seriesInsert(db, {
      locationId,
      dates,
      startTime: row.start_time,
      category: row.category,
      theme: row.category === 'tema' ? row.theme : null,
      quizmaster: row.quizmaster || null,
      price: row.price,
      language: row.language,
      recurrenceId: newId(),
      pattern: row.pattern,
      days: JSON.stringify([row.weekday.name]),
      nowIso: o.nowIso,
    }),
  );
  return { stmts: out, dates: dates.length };
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
