import { describe, expect, it } from 'vitest';
import { ftsPhrase, searchPlan } from './search';

describe('searchPlan', () => {
  it('three characters or more: substring; one or two: word prefix; no letter or digit: scan', () => {
    expect(searchPlan('kvarn')).toEqual({ kind: 'substring', match: '"kvarn"' });
    expect(searchPlan('åre')).toEqual({ kind: 'substring', match: '"åre"' });
    expect(searchPlan('kv')).toEqual({ kind: 'word-prefix', match: '"kv"*' });
    expect(searchPlan('Ö')).toEqual({ kind: 'word-prefix', match: '"Ö"*' });
    expect(searchPlan('7')).toEqual({ kind: 'word-prefix', match: '"7"*' });
    expect(searchPlan('&')).toEqual({ kind: 'scan', text: '&' });
    expect(searchPlan('"*')).toEqual({ kind: 'scan', text: '"*' });
  });
});

describe('ftsPhrase', () => {
  it('quotes the whole text as one phrase, doubling quotes, so no FTS syntax survives', () => {
    expect(ftsPhrase('kvarnen')).toBe('"kvarnen"');
    expect(ftsPhrase('a" OR b*')).toBe('"a"" OR b*"');
  });
});
