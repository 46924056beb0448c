/**
 * A small RFC 4180 CSV reader (quoted fields, doubled quotes, CRLF/LF, a BOM). The delimiter is
 * detected from the header line: ';' when it has more semicolons than commas (Swedish Excel), else ','.
 * Pure: shared by the import service and its unit test.
 */
export interface CsvTable {
  header: string[];
  /** Each record with its 1-based line number in the file (the header is line 1). */
  records: Array<{ line: number; cells: string[] }>;
}

export function parseCsv(input: string): CsvTable {
  const text = input.replace(/^\uFEFF/, '');
  const firstLine = text.split(/\r?\n/, 1)[0] ?? '';
  const delim = (firstLine.match(/;/g)?.length ?? 0) > (firstLine.match(/,/g)?.length ?? 0) ? ';' : ',';
  const rows: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let rowLine = 1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i++;
        } else quoted = false;
      } else {
        if (ch === '\n') line++;
        cell += ch;
      }
      continue;
    }
    if (ch === '"' && cell.trim() === '') {
      quoted = true;
      cell = '';
    } else if (ch === delim) {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      rows.push({ line: rowLine, cells });
      cells = [];
      cell = '';
      line++;
      rowLine = line;
    } else cell += ch;
  }
  if (cell !== '' || cells.length) {
    cells.push(cell);
    rows.push({ line: rowLine, cells });
  }
  const nonEmpty = rows.filter((r) => r.cells.some((c) => c.trim() !== ''));
  const [head, ...records] = nonEmpty;
  return { header: (head?.cells ?? []).map((h) => h.trim()), records };
}
