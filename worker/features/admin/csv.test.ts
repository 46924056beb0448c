import { describe, expect, it } from 'vitest';
import { swedishSortKey } from './contract';
import { parseCsv } from '../../lib/csv-parse';
import { csvCell, decodeCsvBytes, toCsv, uncsvCell } from './csv';
import { ImportRowSchema } from './import-contract';

describe('parseCsv', () => {
  it('reads quoted fields with commas, doubled quotes and line breaks; CRLF; BOM; skips blank lines', () => {
    const t = parseCsv('\uFEFFname,address\r\n"Krogen ""Hörnan""","Gata 1, vån 2"\r\n\r\n"Två\nrader",x\n');
    expect(t.header).toEqual(['name', 'address']);
    expect(t.records).toEqual([
      { line: 2, cells: ['Krogen "Hörnan"', 'Gata 1, vån 2'] },
      { line: 4, cells: ['Två\nrader', 'x'] },
    ]);
  });
  it('detects ; as delimiter from the header', () => {
    expect(parseCsv('namn;adress\nA, B;C').records[0]!.cells).toEqual(['A, B', 'C']);
  });
  it('counts lines for the last record without a trailing newline', () => {
    expect(parseCsv('a\n1\n2').records.map((r) => r.line)).toEqual([2, 3]);
  });
  it('keeps line numbers right after multi-line cells, blank lines and CR-only files', () => {
    const t = parseCsv('a;b\r\n"x\r\ny\r\nz";1\r\n;\r\n\r\nlast;2');
    expect(t.delimiter).toBe(';');
    expect(t.records).toEqual([
      { line: 2, cells: ['x\ny\nz', '1'] },
      { line: 7, cells: ['last', '2'] },
    ]);
    expect(parseCsv('a\r1\r2').records.map((r) => [r.line, r.cells[0]])).toEqual([
      [2, '1'],
      [3, '2'],
    ]);
  });
  it('reads a quote inside an unquoted cell and an empty quoted cell', () => {
    expect(parseCsv('a,b,c\n5" skärm,"",x').records[0]!.cells).toEqual(['5" skärm', '', 'x']);
    expect(parseCsv('a,b,c\n5" skärm,"",x').errors).toEqual([]);
  });
  it('reports an unbalanced quote with the line where it opens (issue 26.7), not one record swallowing the rest', () => {
    const t = parseCsv('a,b\n1,2\n"Ett\ntvå",3\n4,"fem\n6,7\n8,9\n');
    expect(t.errors).toEqual([{ line: 5, message: 'citattecken saknas' }]);
    expect(parseCsv('a;b\r\n"x"y;2\r\n3;4').errors).toEqual([{ line: 2, message: 'citattecken saknas' }]);
  });
});

describe('decodeCsvBytes', () => {
  it('reads UTF-8 (with BOM) as UTF-8', () => {
    const bytes = new TextEncoder().encode('\uFEFFnamn;stad\nKällaren;Göteborg');
    const d = decodeCsvBytes(bytes);
    expect(d.encoding).toBe('utf-8');
    expect(parseCsv(d.text).records[0]!.cells).toEqual(['Källaren', 'Göteborg']);
  });
  it('detects Windows-1252 (invalid UTF-8) so å/ä/ö and € survive', () => {
    // "Åsa's Kök;Malmö;€ – 50" in cp1252
    const bytes = new Uint8Array([
      0xc5, 0x73, 0x61, 0x92, 0x73, 0x20, 0x4b, 0xf6, 0x6b, 0x3b, 0x4d, 0x61, 0x6c, 0x6d, 0xf6, 0x3b, 0x80, 0x20, 0x96, 0x20, 0x35, 0x30,
    ]);
    const d = decodeCsvBytes(bytes);
    expect(d.encoding).toBe('windows-1252');
    expect(d.text).toBe('Åsa\u2019s Kök;Malmö;€ – 50');
    expect(decodeCsvBytes(new Uint8Array([0xe5, 0xe4, 0xf6, 0xc5, 0xc4, 0xd6])).text).toBe('åäöÅÄÖ');
  });
});

describe('csvCell / toCsv', () => {
  it('neutralises formula cells and quotes separators', () => {
    expect(['=1+1', '+46 8', '-2', '@SUM(A1)', '\tx', '\rx', 'ok', 'a,b', 'a"b', null].map(csvCell)).toEqual([
      "'=1+1",
      "'+46 8",
      "'-2",
      "'@SUM(A1)",
      "'\tx",
      `"'\rx"`,
      'ok',
      '"a,b"',
      '"a""b"',
      '',
    ]);
  });
  it('round-trips through parseCsv (apostrophe removed again by uncsvCell)', () => {
    const rows = [
      ['=HYPERLINK("x")', 'Rad\nTvå', '+46 8 12'],
      ['', 'ä;ö', '-1'],
    ];
    const back = parseCsv(toCsv(['a', 'b', 'c'], rows));
    expect(back.header).toEqual(['a', 'b', 'c']);
    expect(back.records.map((r) => r.cells.map(uncsvCell))).toEqual(rows);
  });
});

describe('swedishSortKey', () => {
  it('orders å, ä, ö after z, in that order, case-insensitively', () => {
    const names = ['Östra', 'zeta', 'Älg', 'Åka', 'alfa', 'Ärta', 'Öl'];
    const sorted = [...names].sort((a, b) => (swedishSortKey(a) < swedishSortKey(b) ? -1 : 1));
    expect(sorted).toEqual(['alfa', 'zeta', 'Åka', 'Älg', 'Ärta', 'Öl', 'Östra']);
    expect(sorted).toEqual([...names].sort(new Intl.Collator('sv').compare));
    expect(swedishSortKey('ÅKA')).toBe(swedishSortKey('åka'));
  });
});

describe('ImportRowSchema', () => {
  const base = {
    name: 'A',
    address: 'B',
    city: 'Nacka',
    phone: '',
    website: '',
    weekday: 'Lördag',
    start_time: '9.30',
    pattern: 'varannan vecka',
    category: '',
    theme: '',
    quizmaster: '',
    price: '50 kr',
    lat: '59,1',
    lng: '18,05',
  };
  it('normalises Swedish spellings', () => {
    // An empty category is not given (issue 44.3): unknown, never an invented "allmänbildning".
    expect(ImportRowSchema.parse(base).category).toBeNull();
    const r = ImportRowSchema.parse({ ...base, category: 'Allmänbildning' });
    expect(r).toMatchObject({
      weekday: { iso: 6, name: 'lördag' },
      start_time: '09:30:00',
      pattern: 'biweekly',
      category: 'allmänbildning',
      price: 50,
      lat: 59.1,
      lng: 18.05,
    });
  });
  it('names the column in each error', () => {
    const r = ImportRowSchema.safeParse({ ...base, name: '', website: 'ftp//x', lat: '200' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path[0])).toEqual(['name', 'website', 'lat']);
  });
  it('accepts a website as the place form does (www.x.se → https://www.x.se)', () => {
    expect(ImportRowSchema.parse({ ...base, website: 'www.x.se' }).website).toBe('https://www.x.se');
  });
});
