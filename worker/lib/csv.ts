/**
 * CSV reading and writing for the import (worker/features/admin) and the exports. Reading is papaparse's (RFC 4180:
 * quoted fields, doubled quotes, line breaks inside quoted cells) in csv-parse.ts, a lazy module reached through
 * readCsv; writing (toCsv) is a few lines here. Pure: shared by the import service, the exports and their unit tests.
 *
 * - Bytes: UTF-8 (with or without BOM); a file that is not valid UTF-8 is read as Windows-1252 (what
 *   Swedish Excel writes with "CSV (semikolonavgränsad)"), so å/ä/ö survive.
 * - Separator: detected from the header line — ';' when it has more semicolons than commas, else ','.
 * - Line breaks: CRLF, LF and CR alike (normalised to LF first, also inside quoted cells).
 */
import { loadCsvParser } from '../lazy';
import type { CsvTable } from './csv-parse';

export type { CsvTable };

/** Windows-1252 bytes 0x80–0x9F (the rest of the upper half is Latin-1). Undefined bytes stay U+FFFD. */
const CP1252_HIGH = [
  0x20ac, 0xfffd, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0xfffd, 0x017d, 0xfffd, 0xfffd, 0x2018, 0x2019,
  0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0xfffd, 0x017e, 0x0178,
];

export function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 4096) {
    const chunk = bytes.subarray(i, i + 4096);
    out += String.fromCharCode(...Array.from(chunk, (b) => (b >= 0x80 && b <= 0x9f ? CP1252_HIGH[b - 0x80]! : b)));
  }
  return out;
}

/** The file's text: UTF-8 when the bytes are valid UTF-8, else Windows-1252. Also says which. */
export function decodeCsvBytes(bytes: Uint8Array): { text: string; encoding: 'utf-8' | 'windows-1252' } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes), encoding: 'utf-8' };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252' };
  }
}

/**
 * Reads CSV text into a table (papaparse, in csv-parse.ts). The parser is a lazy module
 * (worker/lazy/csv-parser.bundle.js), loaded on the first read of an isolate: only the admin import reads CSV.
 */
export async function readCsv(input: string): Promise<CsvTable> {
  return (await loadCsvParser()).parseCsv(input);
}

/**
 * One CSV cell, neutralised against formula injection: a cell starting with =, +, -, @, tab or CR
 * gets a leading apostrophe (OWASP), then RFC 4180 quoting when needed.
 */
export function csvCell(value: unknown): string {
  let s = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",;\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Rows → CSV text (CRLF, comma-separated, UTF-8 BOM so Excel reads å/ä/ö). */
export function toCsv(header: readonly string[], rows: ReadonlyArray<ReadonlyArray<unknown>>): string {
  return `\uFEFF${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

/** Reverses csvCell's neutralisation on import: "'=…", "'+…", "'-…", "'@…" lose the apostrophe. */
export function uncsvCell(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
