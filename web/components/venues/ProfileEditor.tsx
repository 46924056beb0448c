import { useEffect, useState } from 'react';
import { ProfileSchema, UpdateVenueSchema } from '../../../worker/features/venues/contract';
import { venuesApi, type OwnerVenue } from '../../api/venues';
import { api } from '../../lib/api';
import AccountTab from '../account/AccountTab';
import SecurityTab from '../account/SecurityTab';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextArea, TextField } from '../ui/Field';
import { Spinner } from '../ui/Spinner';
import { Tabs } from '../ui/Tabs';
import { toast } from '../ui/Toast';
import { ConfirmDialog } from '../quizzes/ConfirmDialog';
import { useValidatedSubmit } from './useValidatedSubmit';

const TABS = ['Verksamhet', 'Kontakt', 'Konto', 'Säkerhet'] as const;
type Tab = (typeof TABS)[number];

/** Business profile editor with tabs Verksamhet, Kontakt, Konto and Säkerhet (spec 02 §2.3). */
export function ProfileEditor({ open, onClose, venue, onSaved, isSuperadmin = false }: { open: boolean; onClose: () => void; venue: OwnerVenue; onSaved: () => void; isSuperadmin?: boolean }) {
  const [tab, setTab] = useState<Tab>('Verksamhet');
  useEffect(() => {
    if (open) setTab('Verksamhet');
  }, [open]);

  return (
    <Dialog open={open} onClose={onClose} title="Verksamhetsprofil" size="lg">
      <Tabs label="Profilens delar" tabs={TABS.map((t) => ({ id: t, label: t }))} active={tab} onChange={setTab} variant="pills" className="mb-5">
        {tab === 'Verksamhet' && <VenueTab venue={venue} onSaved={onSaved} />}
        {tab === 'Kontakt' && <ContactTab />}
        {tab === 'Konto' && (
          <>
            <AccountTab />
            {isSuperadmin && <DeleteVenueSection venue={venue} />}
          </>
        )}
        {tab === 'Säkerhet' && <SecurityTab />}
      </Tabs>
    </Dialog>
  );
}

function VenueTab({ venue, onSaved }: { venue: OwnerVenue; onSaved: () => void }) {
  const [form, setForm] = useState({
    name: venue.name,
    description: venue.description ?? '',
    address: venue.address ?? '',
    city: venue.city ?? '',
    phone: venue.phone ?? '',
    website: venue.website ?? '',
    isPublic: venue.isPublic,
  });
  const { errors, saving, submit: run } = useValidatedSubmit();
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    await run(
      UpdateVenueSchema,
      form,
      async () => {
        await venuesApi.updateVenue(venue.id, form);
        toast({ title: 'Verksamheten har uppdaterats', variant: 'success' });
        onSaved();
      },
      (err) => toast({ title: 'Kunde inte spara verksamheten', description: err instanceof Error ? err.message : undefined, variant: 'destructive' }),
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <TextField label="Verksamhetens namn" required value={form.name} error={errors.name} onChange={set('name')} />
      <TextArea label="Beskrivning" value={form.description} error={errors.description} onChange={set('description')} hint="Visas på verksamhetens publika sida." />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Adress" autoComplete="street-address" value={form.address} error={errors.address} onChange={set('address')} />
        <TextField label="Stad" autoComplete="address-level2" value={form.city} error={errors.city} onChange={set('city')} />
        <TextField label="Telefon" type="tel" autoComplete="tel" value={form.phone} error={errors.phone} onChange={set('phone')} />
        <TextField label="Webbplats" type="url" inputMode="url" placeholder="https://" value={form.website} error={errors.website} onChange={set('website')} />
      </div>
      <label className="flex items-start gap-3 rounded-xl border border-slate-200 p-3">
        <input type="checkbox" className="mt-1 h-4 w-4" checked={form.isPublic} onChange={(e) => setForm((f) => ({ ...f, isPublic: e.target.checked }))} />
        <span>
          <span className="block font-semibold">Synlig för besökare</span>
          <span className="block text-sm text-slate-600">När rutan inte är ikryssad visas verksamhetens quiz inte i listningen.</span>
        </span>
      </label>
      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? 'Sparar...' : 'Spara verksamhet'}
        </Button>
      </div>
    </form>
  );
}

function ContactTab() {
  const [form, setForm] = useState<{ firstName: string; lastName: string; phone: string } | null>(null);
  const [loadError, setLoadError] = useState(false);
  const { errors, saving, submit: run } = useValidatedSubmit();
  useEffect(() => {
    let live = true;
    venuesApi.profile().then(
      (p) => live && setForm({ firstName: p.firstName ?? '', lastName: p.lastName ?? '', phone: p.phone ?? '' }),
      () => live && setLoadError(true),
    );
    return () => {
      live = false;
    };
  }, []);
  if (loadError) return <p role="alert">Kunde inte hämta kontaktuppgifterna. Försök igen senare.</p>;
  if (!form) return <Spinner label="Hämtar kontaktuppgifter..." />;
  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => f && { ...f, [key]: e.target.value });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!form) return;
    await run(
      ProfileSchema,
      form,
      async () => {
        await venuesApi.saveProfile(form);
        toast({ title: 'Kontaktuppgifterna har sparats', variant: 'success' });
      },
      (err) => toast({ title: 'Kunde inte spara kontaktuppgifterna', description: err instanceof Error ? err.message : undefined, variant: 'destructive' }),
    );
  }

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <p className="text-sm text-slate-700">Dina kontaktuppgifter visas inte för besökare.</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Förnamn" autoComplete="given-name" value={form.firstName} error={errors.firstName} onChange={set('firstName')} />
        <TextField label="Efternamn" autoComplete="family-name" value={form.lastName} error={errors.lastName} onChange={set('lastName')} />
      </div>
      <TextField label="Telefon" type="tel" autoComplete="tel" value={form.phone} error={errors.phone} onChange={set('phone')} />
      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? 'Sparar...' : 'Spara kontaktuppgifter'}
        </Button>
      </div>
    </form>
  );
}

/**
 * A superadmin deletes the business (its places and quizzes go with it) instead of an account; their own
 * superadmin account is unaffected, and they return to /superadmin (spec 02 §6).
 */
function DeleteVenueSection({ venue }: { venue: OwnerVenue }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  async function remove() {
    setBusy(true);
    try {
      await api(`/api/admin/venues/${encodeURIComponent(venue.id)}`, { method: 'DELETE' });
      toast({ title: 'Verksamheten har raderats', variant: 'success' });
      window.location.assign('/superadmin');
    } catch (err) {
      toast({ title: 'Kunde inte radera verksamheten', description: err instanceof Error ? err.message : undefined, variant: 'destructive' });
      setBusy(false);
      setConfirming(false);
    }
  }
  return (
    <section aria-labelledby="delete-venue-heading" className="mt-8 rounded-xl border border-red-200 bg-red-50 p-4">
      <h3 id="delete-venue-heading" className="font-bold text-red-900">
        Radera verksamheten
      </h3>
      <p className="mt-1 text-sm text-red-900">
        Som superadmin raderar du verksamheten {venue.name} med alla platser och quiz. Ditt eget konto påverkas inte.
      </p>
      <Button variant="danger" className="mt-3" onClick={() => setConfirming(true)}>
        Radera verksamheten
      </Button>
      <ConfirmDialog
        open={confirming}
        title="Radera verksamheten?"
        description={`${venue.name} med alla platser och quiz raderas. Detta kan inte ångras.`}
        confirmLabel={busy ? 'Raderar...' : 'Radera'}
        busy={busy}
        onConfirm={() => void remove()}
        onClose={() => setConfirming(false)}
      />
    </section>
  );
}
