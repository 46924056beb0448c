import { useState, type FormEvent } from 'react';
import { CreateVenueSchema } from '../../../worker/features/admin/contract';
import { ApiError } from '../../lib/api';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { toast } from '../ui/Toast';
import { adminApi } from '../../api/admin';

/** Add-business dialog (spec 02 §5): name required, owner e-mail optional; the owner is the viewer. */
export function AddVenueDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [ownerEmail, setOwnerEmail] = useState('');
  const [errors, setErrors] = useState<{ name?: string; ownerEmail?: string }>({});
  const [busy, setBusy] = useState(false);

  const close = () => {
    setName('');
    setOwnerEmail('');
    setErrors({});
    onClose();
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const parsed = CreateVenueSchema.safeParse({ name, ownerEmail });
    if (!parsed.success) {
      const next: typeof errors = {};
      for (const i of parsed.error.issues) next[i.path[0] as 'name' | 'ownerEmail'] ??= i.message;
      setErrors(next);
      return;
    }
    setBusy(true);
    try {
      await adminApi.createVenue({ name: parsed.data.name, ownerEmail: parsed.data.ownerEmail ?? '' });
      toast({ title: 'Verksamheten har skapats framgångsrikt!', variant: 'success' });
      close();
      onCreated();
    } catch (err) {
      if (err instanceof ApiError && err.issues?.length) {
        const next: typeof errors = {};
        for (const i of err.issues) next[i.path as 'name' | 'ownerEmail'] ??= i.message;
        setErrors(next);
      }
      toast({ title: 'Kunde inte skapa verksamheten. Försök igen.', variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog open={open} onClose={close} title="Lägg till verksamhet" description="Skapa en ny verksamhet i katalogen.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <TextField label="Namn *" value={name} onChange={(e) => setName(e.target.value)} error={errors.name} required autoFocus />
        <TextField
          label="Ägarens e-post (valfritt)"
          type="email"
          value={ownerEmail}
          onChange={(e) => setOwnerEmail(e.target.value)}
          error={errors.ownerEmail}
          hint={ownerEmail.trim() ? undefined : 'Lämnas fältet tomt blir du ägare till verksamheten.'}
        />
        {ownerEmail.trim() && (
          <p role="note" className="rounded-xl border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            E-postadressen sparas (i en avisering till superadministratörerna) och verksamheten tilldelas dig, det inloggade kontot.
          </p>
        )}
        <div className="flex justify-end gap-3">
          <Button variant="secondary" onClick={close} disabled={busy}>
            Avbryt
          </Button>
          <Button type="submit" disabled={busy}>
            {busy ? 'Skapar...' : 'Skapa verksamhet'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
