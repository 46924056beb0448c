import { describe, expect, it } from 'vitest';
import { ListingQuerySchema } from '../features/listing/contract';
import { inLanguageOf, matchesQuizFilters, parseQuizLanguage, quizFilterLabels, quizFiltersFromUrl, startMinutes, topicOf } from './quiz-filters';

const quiz = (over: Partial<Parameters<typeof matchesQuizFilters>[0]> = {}) => ({
  price: null,
  teamSize: null,
  category: 'allmänbildning',
  theme: null,
  startTime: '19:00:00',
  ...over,
});

describe('topicOf (mirrors the trigger SQL)', () => {
  it("maps the forms' values and the older stored categories (spec 01 §3)", () => {
    expect(topicOf('allmänbildning', null)).toBe('allmanbildning');
    expect(topicOf('allmänquiz', null)).toBe('allmanbildning');
    expect(topicOf('general', null)).toBe('allmanbildning');
    expect(topicOf('mixed', null)).toBe('allmanbildning');
    expect(topicOf('tema', 'Musik')).toBe('musik');
    expect(topicOf('musikquiz', null)).toBe('musik');
    expect(topicOf('tema', ' sport ')).toBe('sport');
    expect(topicOf('sportquiz', null)).toBe('sport');
    expect(topicOf('tema', 'Film & TV')).toBe('film-tv');
    expect(topicOf('filmquiz', null)).toBe('film-tv');
    expect(topicOf('tema', 'Harry Potter')).toBe('annat');
    expect(topicOf('theme', null)).toBe('annat');
    expect(topicOf(null, 'Musik')).toBe('musik');
    expect(topicOf(null, null)).toBeNull();
    expect(topicOf('', '')).toBeNull();
  });
});

describe('startMinutes', () => {
  it('reads HH:MM[:SS]; a missing time is 19:00 as shown', () => {
    expect(startMinutes('18:30:00')).toBe(1110);
    expect(startMinutes('20:00')).toBe(1200);
    expect(startMinutes(null)).toBe(1140);
  });
});

describe('matchesQuizFilters', () => {
  it('price: Gratis is 0; Högst 50 kr includes free and 50; an unknown price (null) is in neither (issue 44.3)', () => {
    expect(matchesQuizFilters(quiz({ price: 0 }), { price: 'gratis' })).toBe(true);
    expect(matchesQuizFilters(quiz({ price: 1 }), { price: 'gratis' })).toBe(false);
    expect(matchesQuizFilters(quiz({ price: 0 }), { price: 'max50' })).toBe(true);
    expect(matchesQuizFilters(quiz({ price: 50 }), { price: 'max50' })).toBe(true);
    expect(matchesQuizFilters(quiz({ price: 51 }), { price: 'max50' })).toBe(false);
    expect(matchesQuizFilters(quiz({ price: null }), { price: 'gratis' })).toBe(false);
    expect(matchesQuizFilters(quiz({ price: null }), { price: 'max50' })).toBe(false);
    expect(matchesQuizFilters(quiz({ price: null }), {})).toBe(true);
  });
  it('category: an unknown category (null or blank) has no topic and is in no category filter', () => {
    for (const category of [null, '', '  ']) {
      for (const topic of ['allmanbildning', 'musik', 'sport', 'film-tv', 'annat'] as const) {
        expect(matchesQuizFilters(quiz({ category, theme: null }), { category: topic })).toBe(false);
      }
    }
  });
  it('team size: the max allows the number, or there is none', () => {
    expect(matchesQuizFilters(quiz({ teamSize: 6 }), { team: 6 })).toBe(true);
    expect(matchesQuizFilters(quiz({ teamSize: 6 }), { team: 7 })).toBe(false);
    expect(matchesQuizFilters(quiz({ teamSize: null }), { team: 12 })).toBe(true);
  });
  it('start time bands: före 19 < 19:00 ≤ 19–20 ≤ 20:00 < efter 20', () => {
    expect(matchesQuizFilters(quiz({ startTime: '18:59:00' }), { time: 'fore19' })).toBe(true);
    expect(matchesQuizFilters(quiz({ startTime: '19:00:00' }), { time: 'fore19' })).toBe(false);
    expect(matchesQuizFilters(quiz({ startTime: '19:00:00' }), { time: '19-20' })).toBe(true);
    expect(matchesQuizFilters(quiz({ startTime: '20:00:00' }), { time: '19-20' })).toBe(true);
    expect(matchesQuizFilters(quiz({ startTime: '20:00:00' }), { time: 'efter20' })).toBe(false);
    expect(matchesQuizFilters(quiz({ startTime: '20:01:00' }), { time: 'efter20' })).toBe(true);
    expect(matchesQuizFilters(quiz({ startTime: null }), { time: '19-20' })).toBe(true);
  });
  it('filters combine (all must hold); no filter keeps everything', () => {
    const musicFree = quiz({ category: 'tema', theme: 'Musik', price: 0 });
    expect(matchesQuizFilters(musicFree, { price: 'gratis', category: 'musik' })).toBe(true);
    expect(matchesQuizFilters({ ...musicFree, price: 20 }, { price: 'gratis', category: 'musik' })).toBe(false);
    expect(matchesQuizFilters(quiz(), { price: 'gratis', category: 'musik' })).toBe(false);
    expect(matchesQuizFilters(quiz({ price: 999 }), {})).toBe(true);
  });
});

describe('the listing contract parses the filters', () => {
  const parse = (q: Record<string, string>) => ListingQuerySchema.safeParse(q);
  it('valid values, case-insensitive; alla and empty mean none', () => {
    expect(parse({ price: 'Gratis', team: '4', category: 'FILM-TV', time: '19-20' }).data).toMatchObject({
      price: 'gratis',
      team: 4,
      category: 'film-tv',
      time: '19-20',
    });
    const none = parse({ price: 'alla', team: '', category: 'Alla', time: ' ' }).data!;
    expect([none.price, none.team, none.category, none.time]).toEqual([undefined, undefined, undefined, undefined]);
  });
  it('bad values fail on their own field with a Swedish message', () => {
    for (const [k, v] of [
      ['price', '50'],
      ['team', '0'],
      ['team', '13'],
      ['team', '3.5'],
      ['team', 'fyra'],
      ['category', 'jazz'],
      ['time', '21'],
    ] as const) {
      const r = parse({ [k]: v });
      expect(r.success, `${k}=${v}`).toBe(false);
      expect(r.error!.issues[0]!.path).toEqual([k]);
      expect(r.error!.issues[0]!.message).toMatch(/^(Ogiltig|Ange|Lagstorleken)/);
    }
  });
});

describe('quizFilterLabels', () => {
  it('names the filters that are set, in the panel order, and nothing else', () => {
    expect(quizFilterLabels({})).toEqual([]);
    expect(quizFilterLabels({ time: 'efter20', category: 'film-tv', team: 4, price: 'max50' })).toEqual(['Högst 50 kr', 'Vi är 4', 'Film & TV', 'Efter 20']);
    expect(quizFilterLabels({ price: 'gratis' })).toEqual(['Gratis']);
  });
});

describe('the quiz language (issue 31.3)', () => {
  it('sprak: svenska keeps sv and both, engelska en and both; no filter keeps all; a missing language is svenska', () => {
    const by = (language: string | undefined) => quiz({ language });
    for (const [lang, sv, en] of [
      ['sv', true, false],
      ['en', false, true],
      ['both', true, true],
      [undefined, true, false],
    ] as const) {
      expect(matchesQuizFilters(by(lang), { sprak: 'svenska' }), `${lang} svenska`).toBe(sv);
      expect(matchesQuizFilters(by(lang), { sprak: 'engelska' }), `${lang} engelska`).toBe(en);
      expect(matchesQuizFilters(by(lang), {})).toBe(true);
    }
    expect(matchesQuizFilters(quiz({ language: 'en', price: 100 }), { sprak: 'engelska', price: 'gratis' })).toBe(false);
  });

  it('labels, the URL reading, the contract and inLanguage', () => {
    expect(quizFilterLabels({ price: 'gratis', sprak: 'engelska' })).toEqual(['Gratis', 'På engelska']);
    expect(quizFiltersFromUrl({ sprak: 'engelska', time: 'x' })).toEqual({
      price: undefined,
      team: undefined,
      category: undefined,
      time: undefined,
      sprak: 'engelska',
    });
    expect(quizFiltersFromUrl({ sprak: 'tyska' }).sprak).toBeUndefined();
    expect(ListingQuerySchema.parse({ sprak: 'Engelska' }).sprak).toBe('engelska');
    expect(ListingQuerySchema.parse({ sprak: 'alla' }).sprak).toBeUndefined();
    expect(ListingQuerySchema.safeParse({ sprak: 'en' }).success).toBe(false);
    expect([inLanguageOf('sv'), inLanguageOf('en'), inLanguageOf('both'), inLanguageOf(null)]).toEqual(['sv', 'en', ['sv', 'en'], 'sv']);
  });

  it('parseQuizLanguage: Swedish and English words, stored values and BCP 47 tags', () => {
    for (const v of ['sv', 'SV', 'svenska', 'Svenska ', 'swedish', 'sv-SE']) expect(parseQuizLanguage(v), v).toBe('sv');
    for (const v of ['en', 'engelska', 'English', 'en-GB', 'en-us']) expect(parseQuizLanguage(v), v).toBe('en');
    for (const v of ['both', 'båda', 'BÅDA', 'bada']) expect(parseQuizLanguage(v), v).toBe('both');
    for (const v of ['', 'de', 'tyska', 'english please', null, undefined]) expect(parseQuizLanguage(v), String(v)).toBeNull();
  });
});
