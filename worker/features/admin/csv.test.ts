import { describe, expect, it } from 'vitest';
import { swedishSortKey } from './contract';
import { parseCsv } from './csv';
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
  const base = { name: 'A', address: 'B', city: 'C', phone: '', website: '', weekday: 'Lördag', start_time: '9.30', pattern: 'varannan vecka', category: '', theme: '', quizmaster: '', price: '50 kr', lat: '59,1', lng: '18,05' };
  it('normalises Swedish spellings', () => {
    const r = ImportRowSchema.parse(base);
    expect(r).toMatchObject({ weekday: { iso: 6, name: 'lördag' }, start_time: '09:30:00', pattern: 'biweekly', category: 'allmänbildning', price: 50, lat: 59.1, lng: 18.05 });
  });
  it('names the column in each error', () => {
    const r = ImportRowSchema.safeParse({ ...base, name: '', website: 'www.x.se', lat: '200' });
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => i.path[0])).toEqual(['name', 'website', 'lat']);
  });
});
