import './styles.css';
import { hydrateRoot } from 'react-dom/client';
import { registerMapLoader } from './components/map/loader';
import { PublicApp } from './pages/PublicApp';
import type { PublicPageData } from './pages/types';

// The map (Leaflet) is a lazy chunk, fetched only when a visitor opens a map (issue 15).
registerMapLoader(() => import('./components/map/QuizMap'));

const root = document.getElementById('root');
const dataEl = document.getElementById('__DATA__');
if (root && dataEl?.textContent) {
  const data = JSON.parse(dataEl.textContent) as PublicPageData;
  hydrateRoot(root, <PublicApp data={data} />);
}
