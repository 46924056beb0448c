/**
 * The listing's map (issue 15): Leaflet with clustered markers over raster tiles from MAP_TILE_URL.
 * Loaded lazily (React.lazy) only when a visitor opens the map, so neither Leaflet nor any tile request
 * is part of a public page's first load. Markers are CSS (divIcon): no image paths to bundle.
 */
import 'leaflet/dist/leaflet.css';
import 'leaflet.markercluster/dist/MarkerCluster.css';
import 'leaflet.markercluster/dist/MarkerCluster.Default.css';
import L from 'leaflet';
import { useEffect, useRef, useState } from 'react';
import { OSM_ATTRIBUTION } from '../../../worker/lib/map-tiles';
import type { QuizMapProps } from './loader';

const pinIcon = (label: string) =>
  L.divIcon({
    className: 'quiz-pin',
    html: `<span class="block h-7 w-7 -translate-y-1 rounded-full border-2 border-white bg-brand-700 shadow-lg" title="${label.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)}"></span>`,
    iconSize: [28, 28],
    iconAnchor: [14, 24],
  });

export default function QuizMap({ points, tileUrl, onOpen, className, label = 'Karta över quizkvällarna', zoom = 13 }: QuizMapProps) {
  const el = useRef<HTMLElement>(null);
  const [ready, setReady] = useState(false);
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  useEffect(() => {
    const node = el.current;
    if (!node) return;
    let map: L.Map | undefined;
    let cancelled = false;
    void (async () => {
      // leaflet.markercluster is a UMD plugin that extends the global L.
      (globalThis as unknown as { L: typeof L }).L = L;
      await import('leaflet.markercluster');
      if (cancelled) return;
      map = L.map(node, { scrollWheelZoom: false });
      L.tileLayer(tileUrl, { maxZoom: 19, attribution: OSM_ATTRIBUTION }).addTo(map);
      map.attributionControl.setPrefix(false);
      const cluster = L.markerClusterGroup({ showCoverageOnHover: false, maxClusterRadius: 40 });
      for (const p of points) {
        const marker = L.marker([p.lat, p.lng], { icon: pinIcon(p.label), title: p.label, alt: p.label, keyboard: true });
        marker.on('click', () => onOpenRef.current?.(p));
        cluster.addLayer(marker);
      }
      map.addLayer(cluster);
      if (points.length === 1) map.setView([points[0]!.lat, points[0]!.lng], zoom);
      else if (points.length > 1) map.fitBounds(L.latLngBounds(points.map((p) => [p.lat, p.lng] as [number, number])), { padding: [30, 30], maxZoom: 15 });
      else map.setView([62.5, 16.5], 4);
      setReady(true);
    })();
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [points, tileUrl, zoom]);
  return (
    <section
      ref={el}
      aria-label={label}
      aria-busy={!ready}
      data-map-ready={ready ? 'true' : undefined}
      className={className ?? 'h-[60vh] min-h-80 w-full overflow-hidden rounded-2xl border border-slate-200'}
    />
  );
}
