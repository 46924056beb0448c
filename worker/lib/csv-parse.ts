/**
 * CSV text → table, on papaparse (worker/lib/csv.ts describes the format: separator, line breaks, quoting faults).
 * A lazy module (worker/lazy/csv-parser.bundle.js): the Worker reads CSV through readCsv in csv.ts; tests and
 * scripts may import parseCsv from here directly (docs/decisions/0017-lazy-module-rule.md).
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
