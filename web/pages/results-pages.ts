/** The results, team and league pages as one chunk (see page-registry.ts). */
import { extraPages } from './page-registry';
import { ResultsPage } from './ResultsPage';
import { TeamPage } from './TeamPage';
import { LeaguePage } from './LeaguePage';

export function registerResultPages(): void {
  extraPages.results = ResultsPage;
  extraPages.team = TeamPage;
  extraPages.league = LeaguePage;
}
