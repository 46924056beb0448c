/**
 * zod validators for Hono that turn a failed parse into our 400 envelope with Swedish messages naming
 * the field. Field labels come from `.describe('E-post')` on the contract's fields when present.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import * as z from 'zod';
import { sv } from 'zod/locales';
import { invalidInput, unsupportedMediaType, type FieldIssue } from './errors';
import { CONTROL_CHARS_MESSAGE, findControlChars, findIllFormed, ILL_FORMED_MESSAGE } from './zod-text';

z.config(sv());

function labelFor(schema: z.ZodType, path: PropertyKey[]): string {
  let node: unknown = schema;
  for (const key of path) {
    const shape = (node as { shape?: Record<string, unknown> })?.shape;
    // Array items: step into the element schema, so 'events.0.t' is labelled by the item's field.
    const element = (node as { element?: unknown })?.element;
    node = shape && typeof key === 'string' ? shape[key] : typeof key === 'number' && element ? element : undefined;
    while (node && (node as { unwrap?: () => unknown }).unwrap && !(node as { description?: string }).description) {
      node = (node as { unwrap: () => unknown }).unwrap();
    }
  }
  return (node as { description?: string } | undefined)?.description ?? path.map(String).join('.');
}

/** Maps a zod error to field issues and one readable message: "E-post: Ogiltig e-postadress". */
export function toInvalidInput(schema: z.ZodType, error: z.ZodError) {
  const issues: FieldIssue[] = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const message = error.issues.map((i) => (i.path.length ? `${labelFor(schema, i.path)}: ${i.message}` : i.message)).join(', ');
  return invalidInput(message || 'Ogiltig indata.', issues);
}

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i;

/**
 * Hono middleware: validate `target` (json, query, param, form) with a shared contract.
 * - A `json` target answers 415 for any other Content-Type: Hono's validator reads such a body as `{}`,
 *   which an all-optional contract (e.g. the contact profile) would accept and store as nulls (issue 13.8).
 * - Control characters in any parsed string are refused with 400 naming the field (issue 13.6), so no
 *   route can forget it; contracts add the stricter single-line rule (`lineText`) where it matters.
 * - So is a lone surrogate (text without a UTF-8 form, issue 43.6).
 */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  const validator = zValidator(target, schema, (result) => {
    if (!result.success) throw toInvalidInput(schema, result.error as unknown as z.ZodError);
    for (const [find, message] of [
      [findControlChars, CONTROL_CHARS_MESSAGE],
      [findIllFormed, ILL_FORMED_MESSAGE],
    ] as const) {
      const path = find(result.data);
      if (!path) continue;
      const field = path.map(String).join('.');
      throw invalidInput(`${path.length ? labelFor(schema, path) : 'Indata'}: ${message}`, [{ path: field, message }]);
    }
  });
  if (target !== 'json') return validator;
  const guarded: typeof validator = async (c, next) => {
    if (!JSON_TYPE.test(c.req.header('content-type') ?? '')) throw unsupportedMediaType();
    return validator(c, next);
  };
  return guarded;
}
