/**
 * Drag a pin to set a place's coordinates (issue 15). A lazy chunk of the owner screens (Leaflet), opened
 * from PlaceMapPickerToggle in the place dialog; the address text stays what the owner typed. Starts at
 * the place's coordinates, else the centre of its town (gazetteer), else Sweden. The owner screens are a
 * static SPA without page data, so this map uses the default tiles (OpenStreetMap), not MAP_TILE_URL.
 */
import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { useEffect, useRef } from 'react';
import { townCentre } from '../../../worker/lib/gazetteer';
import { DEFAULT_MAP_TILE_URL, OSM_ATTRIBUTION } from '../../../worker/lib/map-tiles';

export interface PlaceMapPickerProps {
  latitude: string;
  longitude: string;
  city: string;
  onPick: (lat: number, lng: number) => void;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

export default function PlaceMapPicker({ latitude, longitude, city, onPick }: PlaceMapPickerProps) {
  const el = useRef<HTMLElement>(null);
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;
  const start = useRef<{ lat: number; lng: number; zoom: number } | null>(null);
  if (!start.current) {
    const lat = Number(latitude.replace(',', '.'));
    const lng = Number(longitude.replace(',', '.'));
    const town = city.trim() ? townCentre(city) : null;
    start.current =
      latitude && longitude && Number.isFinite(lat) && Number.isFinite(lng)
        ? { lat, lng, zoom: 17 }
        : town
          ? { lat: town.lat, lng: town.lng, zoom: 14 }
          : { lat: 62.5, lng: 16.5, zoom: 4 };
  }

  useEffect(() => {
    const node = el.current;
    if (!node || !start.current) return;
    const { lat, lng, zoom } = start.current;
    const map = L.map(node).setView([lat, lng], zoom);
    L.tileLayer(DEFAULT_MAP_TILE_URL, { maxZoom: 19, attribution: OSM_ATTRIBUTION }).addTo(map);
    map.attributionControl.setPrefix(false);
    const icon = L.divIcon({
      className: 'quiz-pin',
      html: '<span class="block h-7 w-7 -translate-y-1 rounded-full border-2 border-white bg-brand-700 shadow-lg"></span>',
      iconSize: [28, 28],
      iconAnchor: [14, 24],
    });
    const marker = L.marker([lat, lng], { draggable: true, icon, title: 'Platsens position', alt: 'Platsens position', keyboard: true }).addTo(map);
    const pick = (p: L.LatLng) => onPickRef.current(round6(p.lat), round6(p.lng));
    marker.on('dragend', () => pick(marker.getLatLng()));
    map.on('click', (e: L.LeafletMouseEvent) => {
      marker.setLatLng(e.latlng);
      pick(e.latlng);
    });
    return () => {
      map.remove();
    };
  }, []);

  return (
    <div className="space-y-1">
      <section ref={el} aria-label="Karta: dra nålen till platsen" className="h-64 w-full overflow-hidden rounded-xl border border-slate-300" />
      <p className="text-sm text-slate-600">Dra nålen (eller klicka på kartan) till ingången. Adressen ändras inte.</p>
    </div>
  );
}
