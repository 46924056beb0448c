/**
 * One text rule for every way in (issue 43.5): every text field of every contract (forms, the API, the CSV import,
 * tips) stores NFC and refuses control characters, whichever helper it is built from. Found by behaviour, not by
 * name: each field of each exported object schema is parsed with a decomposed text and with BEL, ESC and NEL. A
 * field that takes any text must give the NFC form and refuse the controls. Identifiers, tokens, passwords and
 * the tip form's honeypot are not text (NAMES_NOT_TEXT); a new text field built without lib/zod-text fails here.
 * Likewise every field named as a date refuses a date that does not exist.
 */
import { describe, expect, it } from 'vitest';
import * as z from 'zod';

const modules = import.meta.glob(['../../worker/features/*/contract.ts', '../../worker/features/*/*-contract.ts'], { eager: true }) as Record<
  string,
  Record<string, unknown>
>;

/**
 * Field names that hold no text a person writes: ids (`takeoverVenue` too), links' tokens, passwords (never
 * normalised), the honeypot, and the CSV file of the import (each of its rows is parsed by ImportRowSchema, a text
 * field here).
 */
const NAMES_NOT_TEXT = /^(id|\w+Id|takeoverVenue|token|session_id|cursor|redirect|humanToken|company|\w*[pP]assword|csv)$/;

const DECOMPOSED = 'Kva\u0308llsquiz pa\u030a O\u0308land';
const COMPOSED = 'Kvällsquiz på Öland';
const CONTROLS = ['\u0007', '\u001b', '\u0085'];

/** Every [path, schema] of the object fields in `schema`, nested objects and arrays of objects included. */
function fields(schema: z.ZodType, path: string[] = []): [string, z.ZodType][] {
  let node: z.ZodType = schema;
  for (;;) {
    const def = (node as unknown as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType; element?: z.ZodType } } })._zod.def;
    if (['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional'].includes(def.type) && def.innerType) node = def.innerType;
    else if (def.type === 'pipe' && def.in) node = def.in;
    else if (def.type === 'array' && def.element) node = def.element;
    else break;
  }
  if (!(node instanceof z.ZodObject)) return [];
  return Object.entries(node.shape as Record<string, z.ZodType>).flatMap(([k, v]) => [
    [[...path, k].join('.'), v] as [string, z.ZodType],
    ...fields(v, [...path, k]),
  ]);
}

const textFields = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports).flatMap(([name, value]) =>
    value instanceof z.ZodType
      ? fields(value)
          .filter(([path, field]) => !NAMES_NOT_TEXT.test(path.split('.').pop()!) && field.safeParse(DECOMPOSED).success)
          .map(([path, field]) => [`${file.replace('../../worker/features/', '')} ${name}.${path}`, field] as const)
      : [],
  ),
);

describe('one text rule for every contract (issue 43.5)', () => {
  it('finds the text fields (forms, import, tips, reports, searches)', () => {
    const names = textFields.map(([n]) => n);
    expect(names.length).toBeGreaterThan(30);
    for (const expected of [
      'tips/contract.ts TipSchema.venueName',
      'feedback/contract.ts QuizReportSchema.text',
      'admin/import-contract.ts ImportRowSchema.name',
    ])
      expect(names).toContain(expected);
  });

  it.each(textFields.map(([n, f]) => [n, f]))('%s stores NFC and refuses BEL, ESC and NEL', (_, field) => {
    const parsed = field.safeParse(DECOMPOSED);
    expect(parsed.success && parsed.data).toBe(COMPOSED);
    for (const ch of CONTROLS) expect(field.safeParse(`Kvällsquiz${ch}på Öland`).success, JSON.stringify(ch)).toBe(false);
  });
});

/** Every field named as a date (date, until, …Date) in the contracts: a date that does not exist is refused. */
const dateFields = Object.entries(modules).flatMap(([file, exports]) =>
  Object.entries(exports).flatMap(([name, value]) =>
    value instanceof z.ZodType
      ? fields(value)
          .filter(([path]) => /^(date|until|\w+Date)$/.test(path.split('.').pop()!))
          .map(([path, field]) => [`${file.replace('../../worker/features/', '')} ${name}.${path}`, field] as const)
      : [],
  ),
);

describe('dates that do not exist are refused by every contract (issue 43.5)', () => {
  it('finds the date fields (quizzes, series, holidays, listing, tips)', () => {
    expect(dateFields.length).toBeGreaterThan(5);
  });

  it.each(dateFields.map(([n, f]) => [n, f]))('%s refuses 2026-02-29, 2026-13-01, 2026-04-31, 2026-12-99 and 2026-00-10', (_, field) => {
    for (const bad of ['2026-02-29', '2026-13-01', '2026-04-31', '2026-12-99', '2026-00-10']) expect(field.safeParse(bad).success, bad).toBe(false);
  });
});
