import { describe, expect, it } from 'vitest';
import { CreateQuizForm, editQuizForm, EditSeriesForm, emptyQuizForm, formFromQuiz } from './QuizFields';

const base = emptyQuizForm('2026-12-01'); // a Tuesday

describe('the quiz form schemas (form strings → the contract, checked by the contract)', () => {
  it('create: sends the parsed contract data (numbers, nulls, weekdays)', () => {
    const r = CreateQuizForm.safeParse({ ...base, locationId: 'loc-1', teamSize: '4', price: ' 30 ', quizmaster: '  Kim ', description: '' });
    expect(r.success).toBe(true);
    expect(r.data).toEqual({
      locationId: 'loc-1',
      date: '2026-12-01',
      startTime: '19:00',
      category: 'allmänbildning',
      theme: null,
      customTheme: null,
      quizmaster: 'Kim',
      teamSize: 4,
      price: 30,
      description: null,
      language: 'sv',
      recurring: true,
      pattern: 'weekly',
      days: ['tisdag'],
      until: null,
    });
  });

  it('create: Språk is one of svenska, engelska, båda (issue 31.3)', () => {
    expect(CreateQuizForm.safeParse({ ...base, locationId: 'loc-1', language: 'both' }).data?.language).toBe('both');
    const r = CreateQuizForm.safeParse({ ...base, locationId: 'loc-1', language: 'de' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['language', 'Välj svenska, engelska eller båda']]);
  });

  it("create: the contract's messages on the form's fields", () => {
    const r = CreateQuizForm.safeParse({ ...base, locationId: 'loc-1', category: 'tema', price: '-5' });
    expect(r.success).toBe(false);
    const byField = Object.fromEntries(r.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(byField).toMatchObject({ theme: 'Välj ett tema', price: 'Priset kan inte vara negativt' });
  });

  it("create: 'Till och med ett datum' without a date is refused; a single quiz needs none", () => {
    const r = CreateQuizForm.safeParse({ ...base, locationId: 'loc-1', forever: false, until: '' });
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['until', 'Ange ett slutdatum']]);
    const single = CreateQuizForm.safeParse({ ...base, locationId: 'loc-1', recurring: false, forever: false, until: '' });
    expect(single.success).toBe(true);
    expect(single.data).toMatchObject({ recurring: false });
    expect(single.data?.until).toBeUndefined();
  });

  it('edit one quiz: single → series, occurrence → single, occurrence stays', () => {
    expect(editQuizForm(false).parse({ ...base, recurring: true, forever: false, until: '2026-12-29' })).toMatchObject({
      recurring: true,
      until: '2026-12-29',
      days: ['tisdag'],
    });
    expect(editQuizForm(true).parse({ ...base, recurring: false })).toMatchObject({ recurring: false });
    expect(editQuizForm(true).parse({ ...base, recurring: true })).not.toHaveProperty('recurring');
    // An occurrence's own until is not asked for.
    expect(editQuizForm(true).safeParse({ ...base, recurring: true, forever: false, until: '' }).success).toBe(true);
  });

  it('edit series: the fields only', () => {
    const data = EditSeriesForm.parse({ ...base, category: 'tema', theme: 'Annat', customTheme: ' Schlager ' });
    expect(data).toMatchObject({ category: 'tema', theme: 'Annat', customTheme: 'Schlager' });
    expect(data).not.toHaveProperty('date');
  });
});

describe('unknown facts in the form (issue 44.3)', () => {
  const unknown = {
    startTime: '19:00:00',
    category: null,
    theme: null,
    quizmaster: null,
    teamSize: null,
    price: null,
    description: null,
    language: 'sv' as const,
  };
  it('a quiz without category or price loads with both empty, not as Allmänbildning and Gratis', () => {
    const v = formFromQuiz(unknown, '2026-12-01');
    expect(v.category).toBe('');
    expect(v.price).toBe('');
  });
  it('saving it asks for the category; an empty price is sent as unknown (null), 0 as free', () => {
    const v = formFromQuiz(unknown, '2026-12-01');
    const r = EditSeriesForm.safeParse(v);
    expect(r.success).toBe(false);
    expect(r.error!.issues.map((i) => [i.path.join('.'), i.message])).toContainEqual(['category', 'Välj en kategori']);
    expect(EditSeriesForm.parse({ ...v, category: 'allmänbildning' }).price).toBeNull();
    expect(EditSeriesForm.parse({ ...v, category: 'allmänbildning', price: '0' }).price).toBe(0);
  });
});
