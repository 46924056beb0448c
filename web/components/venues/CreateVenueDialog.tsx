import { useEffect, useState } from 'react';
import { CreateVenueSchema } from '../../../worker/features/venues/contract';
import { fieldErrors, venuesApi, type OwnerVenue } from '../../api/venues';
import { ApiError } from '../../lib/api';
import { invalidateSession } from '../../lib/session';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { toast } from '../ui/Toast';

/** Create-business dialog: name only, with an explainer (spec 02 §2.3, §5). */
export function CreateVenueDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (venue: OwnerVenue) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  useEffect(() => {
    if (open) {
      setName('');
      setError(undefined);
    }
  }, [open]);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const parsed = CreateVenueSchema.safeParse({ name });
    if (!parsed.success) {
      setError(fieldErrors(parsed.error.issues).name);
      return;
    }
    setSaving(true);
    try {
      const venue = await venuesApi.createVenue({ name });
      toast({ title: 'Verksamheten har skapats', description: 'Lägg nu till platsen där quizet hålls.', variant: 'success' });
      invalidateSession();
      onCreated(venue);
      onClose();
    } catch (err) {
      if (err instanceof ApiError && err.issues) setError(fieldErrors(err.issues).name);
      toast({ title: 'Misslyckades skapa verksamhet', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
    } finally {
      setSaving(false);
    }
  }

  return (
    <Dialog open={open} onClose={onClose} title="Skapa verksamhet" description="Verksamheten är det besökarna ser som arrangör, t.ex. puben eller restaurangen.">
      <form onSubmit={submit} className="space-y-4" noValidate>
        <div className="rounded-xl bg-brand-50 p-3 text-sm text-slate-800">
          <p className="font-semibold">Så fungerar det</p>
          <ul className="mt-1 list-disc space-y-1 pl-5">
            <li>En verksamhet kan ha en eller flera platser (lokaler).</li>
            <li>Quiz publiceras på en plats och syns direkt för besökare.</li>
            <li>Adress, beskrivning och kontaktuppgifter kan du fylla i senare.</li>
          </ul>
        </div>
        <TextField label="Verksamhetens namn" required autoFocus value={name} error={error} onChange={(e) => setName(e.target.value)} placeholder="T.ex. Puben på hörnet" />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Avbryt
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Skapar...' : 'Skapa verksamhet'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
