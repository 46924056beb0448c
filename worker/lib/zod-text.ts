/**
 * Text rules shared by every contract (zod only, so the web forms use the same rules).
 *
 * Control characters never belong in what people type: NUL breaks FTS5 MATCH (a 500 before issue 13.6)
 * and the rest hide text or break mails, CSV and calendar files. Multi-line fields (descriptions) may
 * hold tab and line breaks; everything else refuses every C0 character and DEL.
 */
import * as z from 'zod';

/** C0 controls and DEL, except tab, line feed and carriage return. */
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** Every C0 control and DEL (single-line fields). */
export const SINGLE_LINE_CONTROL_CHARS = /[\u0000-\u001F\u007F]/;

export const CONTROL_CHARS_MESSAGE = 'Får inte innehålla kontrolltecken';

/** A single-line string without control characters (search terms, names, addresses). */
export const lineText = () => z.string().refine((v) => !SINGLE_LINE_CONTROL_CHARS.test(v), CONTROL_CHARS_MESSAGE);

/** A multi-line string: tab and line breaks allowed, other control characters not. */
export const multiLineText = () => z.string().refine((v) => !CONTROL_CHARS.test(v), CONTROL_CHARS_MESSAGE);

/** The dotted path of the first string (or object key) in `value` that holds a control character. */
export function findControlChars(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === 'string') return CONTROL_CHARS.test(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findControlChars(value[i], [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (CONTROL_CHARS.test(k)) return [...path, k];
      const found = findControlChars(v, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}
