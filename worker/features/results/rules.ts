/**
 * Results (issue 46): the pure rules — ranking with ties, the season presets, the name similarity of
 * "Menade du …?" and team codes. No database, no Hono; unit-tested beside it with hand-computed fixtures.
 * The standings SQL (queries.ts) computes the same presets inside D1; an integration test compares the two.
 */
import { PLACING_POINTS, type SeasonPreset } from '../../lib/season-presets';

/** Standard competition ranking: 1 + the number of strictly higher scores (ties share a rank: 1, 2, 2, 4). Input order kept among ties. */
export function rankScores<T extends { score: number }>(rows: readonly T[]): Array<T & { rank: number }> {
  const sorted = rows.map((r, i) => ({ r, i })).sort((a, b) => b.r.score - a.r.score || a.i - b.i);
  let rank = 0;
  return sorted.map(({ r }, i) => {
    if (i === 0 || r.score !== sorted[i - 1]!.r.score) rank = i + 1;
    return { ...r, rank };
  });
}

export interface SeasonParams {
  bestN?: number;
  minAttendancePct?: number;
}

/** One night's points for one team under a preset (placing presets: by the night's rank; ties share the rank's points). */
export function nightPoints(preset: SeasonPreset, row: { score: number; rank: number }): number {
  if (preset === 'placing_15' || preset === 'placing_6') return PLACING_POINTS[preset][row.rank - 1] ?? 0;
  return row.score;
}

export interface Standing {
  teamId: string;
  points: number;
  nights: number;
  /** null: below the minimum attendance (min_attendance), listed after the ranked teams. */
  rank: number | null;
}

/**
 * A season's table from its nights. total: sum of scores; placing_15 / placing_6: sum of placing points;
 * best_n: the sum of a team's N best scores; min_attendance: sum of scores, ranked only when the team played at
 * least minAttendancePct % of the season's nights. Order: ranked by points (ties share a rank), then the
 * unranked by points; ties in order by team id (the SQL orders by name key; tests use distinct points there).
 */
export function computeStandings(
  preset: SeasonPreset,
  params: SeasonParams,
  nights: ReadonlyArray<ReadonlyArray<{ teamId: string; score: number; rank: number }>>,
): Standing[] {
  const perTeam = new Map<string, number[]>();
  for (const night of nights) {
    for (const row of night) {
      const list = perTeam.get(row.teamId) ?? [];
      list.push(nightPoints(preset, row));
      perTeam.set(row.teamId, list);
    }
  }
  const m = nights.length;
  const rows = [...perTeam].map(([teamId, pts]) => {
    const counted = preset === 'best_n' ? [...pts].sort((a, b) => b - a).slice(0, Math.max(0, params.bestN ?? pts.length)) : pts;
    const points = counted.reduce((a, b) => a + b, 0);
    const ranked = preset !== 'min_attendance' || pts.length * 100 >= (params.minAttendancePct ?? 0) * m;
    return { teamId, points, nights: pts.length, ranked };
  });
  const ranked = rankScores(
    rows
      .filter((r) => r.ranked)
      .sort((a, b) => (a.teamId < b.teamId ? -1 : 1))
      .map((r) => ({ ...r, score: r.points })),
  );
  const unranked = rows.filter((r) => !r.ranked).sort((a, b) => b.points - a.points || (a.teamId < b.teamId ? -1 : 1));
  return [
    ...ranked.map((r) => ({ teamId: r.teamId, points: r.points, nights: r.nights, rank: r.rank })),
    ...unranked.map((r) => ({ teamId: r.teamId, points: r.points, nights: r.nights, rank: null })),
  ];
}

/** Levenshtein distance (two rows, O(|a|·|b|)). */
export function levenshtein(a: string, b: string): number {
  if (a === b) return 0;
  let prev = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    prev = cur;
  }
  return prev[b.length]!;
}

/** Normalized Levenshtein similarity of two name keys: 1 − distance / longer length (1 = equal, 0 = nothing alike). */
export function nameSimilarity(aKey: string, bKey: string): number {
  const longest = Math.max(aKey.length, bKey.length);
  return longest === 0 ? 1 : 1 - levenshtein(aKey, bKey) / longest;
}

/** "Menade du …?" proposes a known team at or above this similarity. */
export const SUGGEST_SIMILARITY = 0.85;

/** The closest known team at or above SUGGEST_SIMILARITY (never an exact key: that is the same team), or null. */
export function closestTeam<T extends { nameKey: string }>(key: string, known: readonly T[]): { team: T; similarity: number } | null {
  let best: { team: T; similarity: number } | null = null;
  for (const team of known) {
    if (team.nameKey === key) continue;
    const similarity = nameSimilarity(key, team.nameKey);
    if (similarity >= SUGGEST_SIMILARITY && (!best || similarity > best.similarity)) best = { team, similarity };
  }
  return best;
}

/** Team code characters: capitals and digits without the look-alikes 0/O, 1/I/L. */
export const TEAM_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const CODE_RE = new RegExp(`^[${TEAM_CODE_ALPHABET}]{6}$`);

/** A typed team that may be a team code: 6 code characters (any case) with at least one digit (every code has one). */
export function looksLikeTeamCode(typed: string): boolean {
  const up = typed.trim().toUpperCase();
  return CODE_RE.test(up) && /\d/.test(up);
}

/** A new random team code (6 characters, at least one digit, so a plain six-letter name is never read as a code). */
export function newTeamCode(random: (n: number) => Uint8Array = (n) => crypto.getRandomValues(new Uint8Array(n))): string {
  for (;;) {
    const bytes = random(6);
    const code = Array.from(bytes, (b) => TEAM_CODE_ALPHABET[b % TEAM_CODE_ALPHABET.length]).join('');
    if (/\d/.test(code)) return code;
  }
}
