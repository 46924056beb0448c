import { lazy, Suspense, useState } from 'react';
import type { PlaceMapPickerProps } from './PlaceMapPicker';

const PlaceMapPicker = lazy(() => import('./PlaceMapPicker'));

/** "Välj på karta" in the place dialog: loads the map picker (Leaflet) only when asked. */
export function PlaceMapPickerToggle(props: PlaceMapPickerProps) {
  const [open, setOpen] = useState(false);
  if (!open) {
    return (
      <button type="button" onClick={() => setOpen(true)} className="text-sm font-semibold text-brand-700 underline">
        Välj på karta
      </button>
    );
  }
  return (
    <Suspense fallback={<p role="status">Laddar karta…</p>}>
      <PlaceMapPicker {...props} />
    </Suspense>
  );
}
