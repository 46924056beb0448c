/** The results and team pages as one chunk (see page-registry.ts). */
import { extraPages } from './page-registry';
import { ResultsPage } from './ResultsPage';
import { TeamPage } from './TeamPage';

export function registerResultPages(): void {
  extraPages.results = ResultsPage;
  extraPages.team = TeamPage;
}
