/** The season scoring presets (issue 46): the schema's enum and the results contract share this list. No imports. */
export const SEASON_PRESETS = ['total', 'placing_15', 'placing_6', 'best_n', 'min_attendance'] as const;
export type SeasonPreset = (typeof SEASON_PRESETS)[number];

/** Placing points by place (index 0 = first), for the two placing presets; places after the list get 0. */
export const PLACING_POINTS: Record<'placing_15' | 'placing_6', readonly number[]> = {
  placing_15: [15, 12, 9, 6, 3, 1],
  placing_6: [6, 4, 2, 1],
};

/** Swedish names of the presets (the season form and the public table). */
export const SEASON_PRESET_LABELS: Record<SeasonPreset, string> = {
  total: 'Totalpoäng',
  placing_15: 'Placeringspoäng 15/12/9/6/3/1',
  placing_6: 'Placeringspoäng 6/4/2/1',
  best_n: 'Bästa N kvällar',
  min_attendance: 'Minsta närvaro',
};
