/**
 * How public pages get the map component without the Worker ever bundling Leaflet: the browser entry
 * (web/pages/hydrate.tsx, imported by web/public-entry.tsx) registers the lazy import of QuizMap; the pages (also rendered by the Worker,
 * where no map is ever opened) only ask for it here when a visitor opens a map.
 */
import { lazy, type ComponentType } from 'react';
import type { ListingQuiz } from '../../pages/types';

export interface MapPoint {
  id: string;
  lat: number;
  lng: number;
  /** Accessible name and tooltip of the marker. */
  label: string;
  quiz?: ListingQuiz;
}

export interface QuizMapProps {
  points: MapPoint[];
  tileUrl: string;
  onOpen?: (p: MapPoint) => void;
  className?: string;
  label?: string;
  zoom?: number;
}

type MapModule = { default: ComponentType<QuizMapProps> };
let loader: (() => Promise<MapModule>) | null = null;

export function registerMapLoader(fn: () => Promise<MapModule>): void {
  loader = fn;
}

/** The map component, loaded on first render (React.lazy). */
export const LazyQuizMap = lazy(() => (loader ? loader() : Promise.reject(new Error('Kartan kan inte visas här.'))));

/** Directions in the phone's map app: one home, worker/lib/geo.ts. */
export { directionsUrl } from '../../../worker/lib/geo';
