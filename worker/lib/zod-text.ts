/**
 * Text rules shared by every contract (zod only, so the web forms use the same rules).
 *
 * Control characters never belong in what people type: NUL breaks FTS5 MATCH (a 500 before issue 13.6)
 * and the rest hide text or break mails, CSV and calendar files. Multi-line fields (descriptions) may
 * hold tab and line breaks; everything else refuses every C0 character and DEL.
 *
 * The one text rule (issue 43.5), for every way text comes in: trimmed, Unicode NFC, no C0/C1 control
 * character (tab and line breaks only in multi-line text), no lone surrogate. What a person sends (forms, the
 * API, the CSV import, tips) is refused with a Swedish message naming the field (`textField`, `lineText`,
 * `multiLineText`, and lib/validate for every route); what a remote calendar sends is cleaned by
 * `cleanText` (the owner cannot fix someone else's calendar), so both store the same kind of text.
 */
import * as z from 'zod';

/** C0 controls, DEL and the C1 controls (NEL U+0085 among them), except tab, line feed and carriage return. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (written as \u escapes)
export const CONTROL_CHARS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;
/**
 * Every C0 and C1 control, DEL, and LINE/PARAGRAPH SEPARATOR (U+2028/2029): what a one-line field
 * (name, address, town, theme, search term) may never hold, from a form or a CSV file alike (issue 26.7).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (written as \u escapes)
export const SINGLE_LINE_CONTROL_CHARS = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/;

export const CONTROL_CHARS_MESSAGE = 'Får inte innehålla kontrolltecken';

/**
 * A lone UTF-16 surrogate ("\uD800" in JSON) has no UTF-8 form: D1 would store U+FFFD or garble it (issue 43.6).
 * With the `u` flag a surrogate pair is one code point outside this range, so only a lone half matches.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
export const ILL_FORMED_MESSAGE = 'Innehåller ogiltiga tecken (ett halvt tecken som inte kan sparas)';
/** Text that has a UTF-8 form: no lone surrogate. Every text rule below checks it; so does lib/validate for every route. */
export const isWellFormedText = (v: string) => !LONE_SURROGATE.test(v);

/** The one-line rule as a predicate, for `.refine(isSingleLine, CONTROL_CHARS_MESSAGE)` after `.trim()`. */
export const isSingleLine = (v: string) => !SINGLE_LINE_CONTROL_CHARS.test(v);
/** The multi-line rule as a predicate (tab and line breaks allowed). */
export const isCleanMultiLine = (v: string) => !CONTROL_CHARS.test(v);

/** A single-line string without control characters (search terms, names, addresses). */
export const lineText = () => z.string().refine(isSingleLine, CONTROL_CHARS_MESSAGE).refine(isWellFormedText, ILL_FORMED_MESSAGE).normalize('NFC');

/** A multi-line string: tab and line breaks allowed, other control characters not. */
export const multiLineText = () => z.string().refine(isCleanMultiLine, CONTROL_CHARS_MESSAGE).refine(isWellFormedText, ILL_FORMED_MESSAGE).normalize('NFC');

/**
 * The text field of every form and of the CSV import: trimmed, NFC, at most `max` characters, one line unless
 * `multiLine`. Optional fields chain `.nullish()`; required ones `.min(1, …)` before this one's checks run.
 */
export const textField = (label: string, max: number, opts: { multiLine?: boolean; missing?: string } = {}) => {
  let s = z
    .string(opts.missing ? { error: opts.missing } : undefined)
    .trim()
    .normalize('NFC');
  if (opts.missing) s = s.min(1, opts.missing);
  return s
    .max(max, `${label} får vara högst ${max} tecken`)
    .refine(opts.multiLine ? isCleanMultiLine : isSingleLine, CONTROL_CHARS_MESSAGE)
    .refine(isWellFormedText, ILL_FORMED_MESSAGE)
    .describe(label);
};

const LINE_BREAKS = /\r\n|[\n\r\u0085\u2028\u2029]/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point (written as \u escapes)
const CONTROLS_BUT_TAB_LF = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;

/**
 * The text rule as a cleaner, for text nobody here can correct (a synced calendar's titles and descriptions):
 * NFC, lone surrogates and control characters removed, line breaks (CR, CRLF, NEL, LS, PS) a line feed in
 * multi-line text and a space otherwise (so is a tab), runs of spaces one space, trimmed, cut to `max` UTF-16
 * units without halving a character. Null when nothing is left. What it returns passes `textField`.
 */
export function cleanText(value: string | null | undefined, opts: { max: number; multiLine?: boolean }): string | null {
  if (typeof value !== 'string') return null;
  let t = value.replace(LONE_SURROGATES, '').normalize('NFC').replace(LINE_BREAKS, '\n').replace(CONTROLS_BUT_TAB_LF, '');
  t = opts.multiLine
    ? t
        .split('\n')
        .map((line) => line.replace(/[ \t]+/g, ' ').trim())
        .join('\n')
        .replace(/\n{3,}/g, '\n\n')
    : t.replace(/\s+/g, ' ');
  t = t.trim();
  if (t.length > opts.max)
    t = t
      .slice(0, opts.max)
      .replace(/[\uD800-\uDBFF]$/, '')
      .trim();
  return t || null;
}

/** The dotted path of the first string (or object key) in `value` for which `bad` holds. */
function findString(value: unknown, bad: (s: string) => boolean, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === 'string') return bad(value) ? path : null;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = findString(value[i], bad, [...path, i]);
      if (found) return found;
    }
    return null;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (bad(k)) return [...path, k];
      const found = findString(v, bad, [...path, k]);
      if (found) return found;
    }
  }
  return null;
}

/** The dotted path of the first string (or object key) in `value` that holds a control character. */
export const findControlChars = (value: unknown) => findString(value, (s) => CONTROL_CHARS.test(s));
/** The dotted path of the first string (or object key) in `value` with a lone surrogate (no UTF-8 form). */
export const findIllFormed = (value: unknown) => findString(value, (s) => !isWellFormedText(s));

/** An id in a path or body (a quiz, business or series id): letters, digits, `-` and `_`, at most 64. */
export const idField = () =>
  z
    .string()
    .trim()
    .min(1, 'Saknas')
    .max(64, 'Ogiltigt id')
    .regex(/^[A-Za-z0-9_-]+$/, 'Ogiltigt id');

/** A six-digit code from an authenticator app (two-step sign-in and its setup). */
export const totpCodeField = () =>
  z
    .string({ error: 'Ange koden' })
    .trim()
    .regex(/^\d{6}$/, 'Koden består av 6 siffror')
    .describe('Kod');
