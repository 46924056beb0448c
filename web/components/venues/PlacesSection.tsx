import { useState } from 'react';
import type { OwnerPlace, OwnerVenue } from '../../api/venues';
import { Button } from '../ui/Button';
import { DeletePlaceDialog } from './DeletePlaceDialog';
import { PlaceCard } from './PlaceCard';
import { PlaceDialog } from './PlaceDialog';

/**
 * The places of a business with add, edit and delete; shared by /admin and /admin/locations. `primaryActions`
 * false: the dashboard's next step holds the one primary "Skapa quiz" (issue 44.6), so "Lägg till plats" and the cards' "Skapa quiz" are secondary.
 */
export function PlacesSection({ venue, places, primaryActions = true }: { venue: OwnerVenue; places: OwnerPlace[]; primaryActions?: boolean }) {
  const [adding, setAdding] = useState(false);
  const [editing, setEditing] = useState<OwnerPlace | null>(null);
  const [deleting, setDeleting] = useState<OwnerPlace | null>(null);
  return (
    <section aria-labelledby="places-heading" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="places-heading" className="text-2xl font-bold">
          Platser
        </h2>
        {places.length > 0 && (
          <Button variant={primaryActions ? 'primary' : 'secondary'} onClick={() => setAdding(true)}>
            Lägg till plats
          </Button>
        )}
      </div>
      {places.length === 0 ? (
        <div className="rounded-2xl border-2 border-dashed border-slate-300 bg-white p-8 text-center">
          <h3 className="text-lg font-bold">Lägg till din första plats</h3>
          <p className="mx-auto mt-2 max-w-md text-slate-700">En plats är där quizet hålls. Har verksamheten bara en lokal räcker det med en plats.</p>
          <Button className="mt-4" onClick={() => setAdding(true)}>
            Lägg till plats
          </Button>
        </div>
      ) : (
        <div className="grid gap-4">
          {places.map((p) => (
            <PlaceCard key={p.id} place={p} primaryActions={primaryActions} onEdit={() => setEditing(p)} onDelete={() => setDeleting(p)} />
          ))}
        </div>
      )}
      <PlaceDialog open={adding} onClose={() => setAdding(false)} venueId={venue.id} venueName={venue.name} />
      <PlaceDialog open={!!editing} onClose={() => setEditing(null)} venueId={venue.id} venueName={venue.name} place={editing} />
      <DeletePlaceDialog place={deleting} onClose={() => setDeleting(null)} />
    </section>
  );
}
