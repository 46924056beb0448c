import { describe, expect, it } from 'vitest';
import {
  CreateLeagueSchema,
  LEAGUE_MAX_SERIES,
  LEAGUE_MIN_SERIES,
  parseResultRows,
  parseResultsText,
  parseSeasonCursor,
  RESULTS_MAX_TEAMS,
  seasonCursor,
  teamNameKey,
} from './contract';
import { closestTeam, computeStandings, levenshtein, looksLikeTeamCode, nameSimilarity, newTeamCode, rankScores, SUGGEST_SIMILARITY } from './rules';
import { SEASON_FIXTURE, SEASON_FIXTURE_EXPECTED } from '../../../test/fixtures/results-season';

describe('parseResultsText', () => {
  it('reads semicolon, tab and "name number" lines, skipping blank lines', () => {
    const r = parseResultsText('Lag A;42\n\nLag B\t40,5\nQuizzly Bears 2 38\r\nÖl & Bröd ; 7 ');
    expect(r).toEqual({
      ok: true,
      lines: [
        { line: 1, team: 'Lag A', score: 42 },
        { line: 3, team: 'Lag B', score: 40.5 },
        { line: 4, team: 'Quizzly Bears 2', score: 38 },
        { line: 5, team: 'Öl & Bröd', score: 7 },
      ],
    });
  });

  it('names the line of a missing score, a negative score, a missing name and a non-number', () => {
    const issue = (text: string) => (parseResultsText(text) as { ok: false; issues: Array<{ message: string }> }).issues[0]!.message;
    expect(issue('Lag A;42\nLag B')).toBe('Rad 2: poäng saknas för ”Lag B”');
    expect(issue('Lag A;42\nLag B;')).toBe('Rad 2: poäng saknas för ”Lag B”');
    expect(issue('Lag A;-1')).toBe('Rad 1: poängen får inte vara negativ (”Lag A”)');
    expect(issue('Lag A -3')).toBe('Rad 1: poängen får inte vara negativ (”Lag A”)');
    expect(issue(';12')).toBe('Rad 1: lagnamn saknas');
    expect(issue('Lag A;4x')).toMatch(/^Rad 1: ”4x” är inte en poäng/);
    expect(issue('Lag A;42,55')).toMatch(/^Rad 1: ”42,55” är inte en poäng/);
    expect(issue(`${'x'.repeat(61)};3`)).toBe('Rad 1: lagnamnet får vara högst 60 tecken');
    expect(issue('   \n  ')).toBe('Ange minst ett lag och dess poäng');
  });

  it('refuses the same team twice, case and accents aside, naming both lines', () => {
    const r = parseResultsText('Lag Å;3\nLag B;2\nlag a;1');
    expect(r).toEqual({ ok: false, issues: [{ line: 3, message: 'Rad 3: laget ”lag a” finns redan på rad 1' }] });
  });

  it('takes 60 lines and refuses 61', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `Lag ${i + 1};${i}`).join('\n');
    expect(parseResultsText(lines(RESULTS_MAX_TEAMS)).ok).toBe(true);
    expect(parseResultsText(lines(RESULTS_MAX_TEAMS + 1))).toEqual({
      ok: false,
      issues: [{ line: 61, message: 'Rad 61: högst 60 lag per kväll (du angav 61)' }],
    });
  });

  it('checks the row form the same way', () => {
    expect(
      parseResultRows([
        { team: 'Lag A', score: 42 },
        { team: 'Lag B', score: '40,5' },
      ]),
    ).toEqual({
      ok: true,
      lines: [
        { line: 1, team: 'Lag A', score: 42 },
        { line: 2, team: 'Lag B', score: 40.5 },
      ],
    });
    const first = (rows: Array<{ team: string; score: number | string | null }>) =>
      (parseResultRows(rows) as { ok: false; issues: Array<{ message: string }> }).issues[0]!.message;
    expect(first([{ team: 'Lag A', score: null }])).toBe('Rad 1: poäng saknas för ”Lag A”');
    expect(
      first([
        { team: 'Lag A', score: 1 },
        { team: 'Lag B', score: -2 },
      ]),
    ).toBe('Rad 2: poängen får inte vara negativ (”Lag B”)');
    expect(first([{ team: 'Lag A', score: Number.NaN }])).toMatch(/^Rad 1: ”x” är inte en poäng/);
    expect(
      first([
        { team: 'A', score: 1 },
        { team: 'a', score: 2 },
      ]),
    ).toBe('Rad 2: laget ”a” finns redan på rad 1');
  });
});

describe('teamNameKey', () => {
  it('ignores case, accents and extra spaces but keeps punctuation', () => {
    expect(teamNameKey('  Quizzly   BÄRS ')).toBe('quizzly bars');
    expect(teamNameKey('Café Öst')).toBe('cafe ost');
    expect(teamNameKey('Quizzly Bears!')).not.toBe(teamNameKey('Quizzly Bears'));
  });
});

describe('rankScores', () => {
  it('gives ties one rank and skips the next (1, 2, 2, 4)', () => {
    const ranked = rankScores([
      { t: 'C', score: 40 },
      { t: 'A', score: 50 },
      { t: 'B', score: 40 },
      { t: 'D', score: 10 },
    ]);
    expect(ranked.map((r) => [r.t, r.rank])).toEqual([
      ['A', 1],
      ['C', 2],
      ['B', 2],
      ['D', 4],
    ]);
  });
});

describe('computeStandings (hand-computed fixture, fixtures.ts)', () => {
  for (const [preset, expected] of Object.entries(SEASON_FIXTURE_EXPECTED)) {
    it(`${preset}: first two nights, three nights, and after the correction`, () => {
      const { params, afterTwo, afterThree, afterCorrection } = expected;
      expect(computeStandings(SEASON_FIXTURE.presets[preset as keyof typeof SEASON_FIXTURE_EXPECTED], params, SEASON_FIXTURE.nights.slice(0, 2))).toEqual(
        afterTwo,
      );
      expect(computeStandings(SEASON_FIXTURE.presets[preset as keyof typeof SEASON_FIXTURE_EXPECTED], params, SEASON_FIXTURE.nights)).toEqual(afterThree);
      expect(computeStandings(SEASON_FIXTURE.presets[preset as keyof typeof SEASON_FIXTURE_EXPECTED], params, SEASON_FIXTURE.corrected)).toEqual(
        afterCorrection,
      );
    });
  }
});

describe('name similarity', () => {
  it('is a normalized Levenshtein distance', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(nameSimilarity('quizzly bears', 'quizzly bears!')).toBeCloseTo(1 - 1 / 14);
    expect(nameSimilarity('', '')).toBe(1);
  });

  it('proposes the closest known team at 0.85 or more, never the same key', () => {
    const known = [{ nameKey: 'quizzly bears' }, { nameKey: 'quiz bears' }, { nameKey: 'lag a' }];
    expect(closestTeam(teamNameKey('Quizzly Bears!'), known)?.team).toBe(known[0]);
    expect(closestTeam('quizzly bears', known)).toBeNull();
    expect(closestTeam('lag b', known)).toBeNull(); // 0.8: below the threshold
    // Just at the threshold: 1 edit in a 7-character key = 0.857.
    expect(nameSimilarity('abcdefg', 'abcdefx')).toBeGreaterThanOrEqual(SUGGEST_SIMILARITY);
    expect(closestTeam('abcdefx', [{ nameKey: 'abcdefg' }])).not.toBeNull();
    expect(closestTeam('abcdex', [{ nameKey: 'abcdef' }])).toBeNull(); // 0.833
  });
});

describe('team codes', () => {
  it('are 6 code characters with a digit; a six-letter name is never a code', () => {
    for (let i = 0; i < 50; i++) {
      const code = newTeamCode();
      expect(code).toMatch(/^[A-Z2-9]{6}$/);
      expect(looksLikeTeamCode(code)).toBe(true);
      expect(looksLikeTeamCode(code.toLowerCase())).toBe(true);
    }
    expect(looksLikeTeamCode('Bamses')).toBe(false);
    expect(looksLikeTeamCode('ABC10Z')).toBe(false); // 1 and 0 are not code characters
    expect(looksLikeTeamCode('ABC2345')).toBe(false);
  });
});

describe('leagues: the contract', () => {
  const ids = (n: number) => Array.from({ length: n }, (_, i) => `serie-${i}`);
  const messages = (body: unknown) => {
    const r = CreateLeagueSchema.safeParse(body);
    return r.success ? [] : r.error.issues.map((i) => i.message);
  };

  it(`takes ${LEAGUE_MIN_SERIES} to ${LEAGUE_MAX_SERIES} distinct series and a name of 1–80 characters`, () => {
    expect(messages({ name: 'Kedjeligan', seriesIds: ids(LEAGUE_MIN_SERIES) })).toEqual([]);
    expect(messages({ name: 'x'.repeat(80), seriesIds: ids(LEAGUE_MAX_SERIES) })).toEqual([]);
  });

  it('refuses one series too few or too many, a series twice, and a name just past its limits (Swedish, the field named)', () => {
    expect(messages({ name: 'Liga', seriesIds: ids(LEAGUE_MIN_SERIES - 1) })).toEqual(['Serier: välj minst 2 serier']);
    expect(messages({ name: 'Liga', seriesIds: ids(LEAGUE_MAX_SERIES + 1) })).toEqual(['Serier: högst 20 serier']);
    expect(messages({ name: 'Liga', seriesIds: ['a', 'a'] })).toEqual(['Serier: samma serie flera gånger']);
    expect(messages({ name: 'x'.repeat(81), seriesIds: ids(2) })).toEqual(['Namn: högst 80 tecken']);
    expect(messages({ name: ' ', seriesIds: ids(2) })).toEqual(['Namn: ange ett namn']);
    expect(messages({ name: 'Liga\nrad två', seriesIds: ids(2) }).length).toBe(1);
    expect(messages({ name: 'Liga' })).toEqual(['Serier: välj minst två serier']);
  });

  it('pages seasons by a cursor of start date and id; a malformed cursor is the first page', () => {
    expect(parseSeasonCursor(seasonCursor({ startDate: '2030-01-01', id: 'abc-1' }))).toEqual({ startDate: '2030-01-01', id: 'abc-1' });
    for (const bad of [undefined, '', '2030-01-01', '2030-01-01_', "2030-01-01_a' OR 1", '30-01-01_a']) expect(parseSeasonCursor(bad)).toBeNull();
  });
});
