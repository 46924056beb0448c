/**
 * zod validators for Hono that turn a failed parse into our 400 envelope with Swedish messages naming
 * the field. Field labels come from `.describe('E-post')` on the contract's fields when present.
 */
import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { z } from 'zod';
import { sv } from 'zod/locales';
import { invalidInput, type FieldIssue } from './errors';

z.config(sv());

function labelFor(schema: z.ZodType, path: PropertyKey[]): string {
  let node: unknown = schema;
  for (const key of path) {
    const shape = (node as { shape?: Record<string, unknown> })?.shape;
    node = shape && typeof key === 'string' ? shape[key] : undefined;
    while (node && (node as { unwrap?: () => unknown }).unwrap && !(node as { description?: string }).description) {
      node = (node as { unwrap: () => unknown }).unwrap();
    }
  }
  return (node as { description?: string } | undefined)?.description ?? path.map(String).join('.');
}

/** Maps a zod error to field issues and one readable message: "E-post: Ogiltig e-postadress". */
export function toInvalidInput(schema: z.ZodType, error: z.ZodError) {
  const issues: FieldIssue[] = error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const message = error.issues
    .map((i) => (i.path.length ? `${labelFor(schema, i.path)}: ${i.message}` : i.message))
    .join(', ');
  return invalidInput(message || 'Ogiltig indata.', issues);
}

/** Hono middleware: validate `target` (json, query, param, form) with a shared contract. */
export function validate<T extends keyof ValidationTargets, S extends z.ZodType>(target: T, schema: S) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw toInvalidInput(schema, result.error as unknown as z.ZodError);
  });
}
