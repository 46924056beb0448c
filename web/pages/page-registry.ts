/**
 * Public pages kept out of the first-load JavaScript (issue 46: the results and team pages would push every page's
 * entry past its 100 KB budget). The Worker registers them before rendering (worker/features/pages/render.tsx); the
 * browser imports their chunk only when the page is one of them (hydrate.tsx), then hydrates.
 */
import type { ComponentType } from 'react';
import type { LeaguePageData, ResultsPageData, TeamPageData } from './types';

export const extraPages: {
  results?: ComponentType<{ data: ResultsPageData }>;
  team?: ComponentType<{ data: TeamPageData }>;
  league?: ComponentType<{ data: LeaguePageData }>;
} = {};
