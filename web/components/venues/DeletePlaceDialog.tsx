import { useDeletePlace, type OwnerPlace } from '../../api/venues';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { toast } from '../ui/Toast';

/** Delete a place after confirmation; its quizzes go with it and it cannot be undone (spec 02 §4.4). */
export function DeletePlaceDialog({ place, onClose }: { place: OwnerPlace | null; onClose: () => void }) {
  const removal = useDeletePlace();
  async function confirm() {
    if (!place) return;
    try {
      await removal.mutateAsync(place.id);
      toast({ title: 'Platsen har tagits bort', variant: 'success' });
      onClose();
    } catch (err) {
      toast({ title: 'Misslyckades ta bort plats', description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade', variant: 'destructive' });
    }
  }
  return (
    <Dialog open={!!place} onClose={onClose} title="Ta bort plats?" size="sm">
      {place && (
        <div className="space-y-4">
          <p>
            Vill du ta bort <strong>{place.name}</strong>?{place.totalQuizzes > 0 && ` Platsens ${place.totalQuizzes} quiz tas också bort.`} Detta kan inte
            ångras.
          </p>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={onClose}>
              Avbryt
            </Button>
            <Button variant="danger" onClick={confirm} disabled={removal.isPending}>
              {removal.isPending ? 'Tar bort...' : 'Ta bort plats'}
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
