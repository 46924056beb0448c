/**
 * CSV reading and writing for the import (worker/features/admin) and the exports, on papaparse (RFC 4180: quoted fields,
 * doubled quotes, line breaks inside quoted cells). Pure: shared by the import service, the exports and
 * their unit tests.
 *
 * - Bytes: UTF-8 (with or without BOM); a file that is not valid UTF-8 is read as Windows-1252 (what
 *   Swedish Excel writes with "CSV (semikolonavgränsad)"), so å/ä/ö survive.
 * - Separator: detected from the header line — ';' when it has more semicolons than commas, else ','.
 * - Line breaks: CRLF, LF and CR alike (normalised to LF first, also inside quoted cells).
 */
import Papa from 'papaparse';

export interface CsvTable {
  header: string[];
  /** Each record with its 1-based line number in the file (the header is line 1). */
  records: Array<{ line: number; cells: string[] }>;
  delimiter: ',' | ';';
  /**
   * Quoting faults, one per line where a record opens a quote it never closes ("citattecken saknas"):
   * papaparse then reads the rest of the file as that one cell, so a reader must refuse the file
   * rather than trust the records (issue 26.7).
   */
  errors: Array<{ line: number; message: string }>;
}

/** The message of an unbalanced quote, after "Rad N: ". */
export const MISSING_QUOTE_MESSAGE = 'citattecken saknas';

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

export function parseCsv(input: string): CsvTable {
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? text.length : text.indexOf('\n'));
  const delimiter = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: Array<{ line: number; cells: string[] }> = [];
  // Line numbers: count LFs up to each row's end (papaparse's cursor), minus the LFs inside its cells.
  let counted = 0;
  let lfs = 0;
  const errors: CsvTable['errors'] = [];
  const lineAt = (index: number) => {
    let n = 1;
    for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) n++;
    return n;
  };
  Papa.parse<string[]>(text, {
    delimiter,
    newline: '\n',
    quoteChar: '"',
    skipEmptyLines: 'greedy',
    step: (r) => {
      // MissingQuotes (and InvalidQuotes, which papaparse reports with it for `"x"y`): the index is where the quoted cell starts.
      for (const e of r.errors) {
        if (e.code !== 'MissingQuotes' || typeof e.index !== 'number') continue;
        const line = lineAt(e.index);
        if (!errors.some((x) => x.line === line)) errors.push({ line, message: MISSING_QUOTE_MESSAGE });
      }
      let end = r.meta.cursor;
      if (text[end - 1] === '\n') end--;
      for (let i = counted; i < end; i++) if (text.charCodeAt(i) === 10) lfs++;
      counted = end;
      const cells = r.data;
      const inner = cells.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);
      if (cells.some((c) => c.trim() !== '')) rows.push({ line: lfs + 1 - inner, cells });
    },
  });
  const [head, ...records] = rows;
  return { header: (head?.cells ?? []).map((h) => h.trim()), records, delimiter, errors };
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
