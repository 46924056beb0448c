import { describe, expect, it } from 'vitest';
import { ImportRowSchema } from '../features/admin/import-contract';
import { EditSeriesSchema } from '../features/quizzes/contract';
import { LocationSchema, RegisterVenueSchema, UpdateVenueSchema } from '../features/venues/contract';
import { cleanText, CONTROL_CHARS_MESSAGE, findIllFormed, ILL_FORMED_MESSAGE, lineText, multiLineText, textField } from './zod-text';

/** Characters that split or hide a one-line text: NUL, CR, LF, NEL (U+0085), LINE/PARAGRAPH SEPARATOR. */
const BAD = { NUL: '\u0000', CR: '\r', LF: '\n', CRLF: '\r\n', NEL: '\u0085', LS: '\u2028', PS: '\u2029', DEL: '\u007f' };

describe('one-line text rules: the forms and the CSV import refuse the same characters (issue 26.7)', () => {
  const importRow = {
    name: 'A',
    address: 'B',
    city: 'Umeå',
    phone: '',
    website: '',
    weekday: 'tisdag',
    start_time: '',
    pattern: '',
    category: 'tema',
    theme: 'Musik',
    quizmaster: 'Q',
    price: '',
    lat: '',
    lng: '',
  };
  const place = { name: 'A', address: 'B', city: 'Umeå' };
  const series = { startTime: '19:00', category: 'tema', theme: 'Annat', customTheme: 'Musik', quizmaster: 'Q' };

  it.each(Object.entries(BAD))('%s in a name, address, town, theme or quizmaster', (_, ch) => {
    const messagesOf = (r: { success: boolean; error?: { issues: Array<{ path: PropertyKey[]; message: string }> } }) =>
      (r.error?.issues ?? []).map((i) => [String(i.path[0]), i.message]);
    for (const field of ['name', 'address', 'city', 'theme', 'quizmaster'] as const) {
      expect(messagesOf(ImportRowSchema.safeParse({ ...importRow, [field]: `X${ch}Y` }))).toEqual([[field, CONTROL_CHARS_MESSAGE]]);
    }
    for (const field of ['name', 'address', 'city'] as const) {
      expect(messagesOf(LocationSchema.safeParse({ ...place, [field]: `X${ch}Y` }))).toEqual([[field, CONTROL_CHARS_MESSAGE]]);
      expect(messagesOf(RegisterVenueSchema.safeParse({ ...place, [field]: `X${ch}Y` }))).toEqual([[field, CONTROL_CHARS_MESSAGE]]);
    }
    expect(messagesOf(UpdateVenueSchema.safeParse({ name: `X${ch}Y`, isPublic: true }))).toEqual([['name', CONTROL_CHARS_MESSAGE]]);
    for (const field of ['customTheme', 'quizmaster'] as const) {
      expect(messagesOf(EditSeriesSchema.safeParse({ ...series, [field]: `X${ch}Y` }))).toEqual([[field, CONTROL_CHARS_MESSAGE]]);
    }
  });

  it('multi-line fields keep their line breaks but refuse NUL and NEL', () => {
    expect(UpdateVenueSchema.safeParse({ name: 'A', isPublic: true, description: 'Rad 1\r\nRad 2\n\tRad 3' }).success).toBe(true);
    expect(UpdateVenueSchema.safeParse({ name: 'A', isPublic: true, description: 'Rad 1\u0000' }).success).toBe(false);
    expect(UpdateVenueSchema.safeParse({ name: 'A', isPublic: true, description: 'Rad 1\u0085Rad 2' }).success).toBe(false);
  });

  it('trims surrounding white space before the rule (a tab pasted from a spreadsheet is not an error)', () => {
    expect(ImportRowSchema.parse({ ...importRow, name: '\tKrogen ' }).name).toBe('Krogen');
    expect(LocationSchema.parse({ ...place, name: ' Krogen\t' }).name).toBe('Krogen');
  });
});

describe('text has a UTF-8 form: a lone surrogate is refused (issue 43.6)', () => {
  const LONE = { high: '\uD800', low: '\uDFFF', 'high at the end': 'Krogen\uD83C', 'swapped pair': '\uDF7A\uD83C' };

  it.each(Object.entries(LONE))('%s in one-line, multi-line and form text', (_, bad) => {
    for (const schema of [lineText(), multiLineText(), textField('Namn', 120), textField('Beskrivning', 2000, { multiLine: true })]) {
      expect(schema.safeParse(`X${bad}Y`).error?.issues.map((i) => i.message)).toEqual([ILL_FORMED_MESSAGE]);
    }
    expect(findIllFormed({ a: ['ok', { b: bad }] })).toEqual(['a', 1, 'b']);
    expect(findIllFormed({ [bad]: 'key' })).toEqual([bad]);
  });

  it('a surrogate pair (emoji) is well formed', () => {
    expect(lineText().parse('Öl 🍺')).toBe('Öl 🍺');
    expect(findIllFormed({ a: 'Öl 🍺' })).toBeNull();
  });
});

describe('the one text rule (issue 43.5)', () => {
  const decomposed = 'Kva\u0308llsquiz pa\u030a O\u0308land';
  it('forms store NFC: textField, lineText and multiLineText normalise what they accept', () => {
    expect(textField('Namn', 100).parse(`  ${decomposed} `)).toBe('Kvällsquiz på Öland');
    expect(lineText().parse(decomposed)).toBe('Kvällsquiz på Öland');
    expect(multiLineText().parse(`${decomposed}\nrad två`)).toBe('Kvällsquiz på Öland\nrad två');
  });

  it('forms refuse BEL, ESC and NEL naming nothing but the rule (the route names the field)', () => {
    for (const ch of ['\u0007', '\u001b', '\u0085', '\u009b']) {
      const r = textField('Namn', 100).safeParse(`Quiz${ch}kväll`);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toBe(CONTROL_CHARS_MESSAGE);
    }
  });

  it.each([
    ['Quiz\u0007kväll', 'Quizkväll'],
    ['\u001b[31mRöd\u001b[0m', '[31mRöd[0m'],
    ['Rad ett\u0085rad två', 'Rad ett rad två'],
    ['Rad ett\u2028rad två\u2029tre', 'Rad ett rad två tre'],
    ['Tab\there\r\nand CR\rhere', 'Tab here and CR here'],
    ['  Mellanslag   många  ', 'Mellanslag många'],
    [decomposed, 'Kvällsquiz på Öland'],
    ['Halv \ud83d tecken', 'Halv tecken'],
    ['\u0000\u0007\u009f', null],
    ['', null],
  ])('cleanText(%j) → %j, and what it returns passes textField', (raw, clean) => {
    expect(cleanText(raw, { max: 120 })).toBe(clean);
    // Nothing left (null) is no title at all; anything left is a valid title as it stands.
    expect(clean === null ? null : textField('Titel', 120).parse(clean)).toBe(clean);
  });

  it('cleanText keeps line feeds in multi-line text, cuts at max without halving a character, and takes null', () => {
    expect(cleanText('Rad ett\u0085rad två\r\n\r\n\r\n\ttre\u0007', { max: 100, multiLine: true })).toBe('Rad ett\nrad två\n\ntre');
    expect(cleanText(`${'a'.repeat(9)}😀`, { max: 10 })).toBe('a'.repeat(9));
    expect(cleanText(null, { max: 10 })).toBeNull();
  });
});
