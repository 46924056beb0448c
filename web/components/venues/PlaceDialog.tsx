import { useEffect, useState } from 'react';
import { LocationSchema } from '../../../worker/features/venues/contract';
import { venuesApi, type OwnerPlace } from '../../api/venues';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { PlaceMapPickerToggle } from './PlaceMapPickerToggle';
import { toast } from '../ui/Toast';
import { useValidatedSubmit } from './useValidatedSubmit';

const EMPTY = { name: '', address: '', city: '', phone: '', website: '', latitude: '', longitude: '' };
type Form = typeof EMPTY;

function fromPlace(p: OwnerPlace): Form {
  return {
    name: p.name,
    address: p.address,
    city: p.city,
    phone: p.phone ?? '',
    website: p.website ?? '',
    latitude: p.latitude == null ? '' : String(p.latitude),
    longitude: p.longitude == null ? '' : String(p.longitude),
  };
}

/**
 * Add or edit a place (spec 02 §2.3, §5): name, address and city required; phone, website and
 * coordinates optional. When adding, the single-place toggle uses the business name as the place name.
 */
export function PlaceDialog({
  open,
  onClose,
  onSaved,
  venueId,
  venueName,
  place,
}: {
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
  venueId: string;
  venueName: string;
  /** The place to edit; absent when adding. */
  place?: OwnerPlace | null;
}) {
  const editing = !!place;
  const [form, setForm] = useState<Form>(EMPTY);
  const [single, setSingle] = useState(false);
  const { errors, setErrors, saving, submit: run } = useValidatedSubmit();

  useEffect(() => {
    if (!open) return;
    setForm(place ? fromPlace(place) : EMPTY);
    setSingle(false);
    setErrors({});
  }, [open, place]);

  const set = (key: keyof Form) => (e: React.ChangeEvent<HTMLInputElement>) => setForm((f) => ({ ...f, [key]: e.target.value }));

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const body = { ...form, name: single ? venueName : form.name };
    await run(
      LocationSchema,
      body,
      async () => {
        if (place) await venuesApi.updateLocation(place.id, body);
        else await venuesApi.createLocation(venueId, body);
        toast({ title: place ? 'Platsen har uppdaterats' : 'Platsen har lagts till', variant: 'success' });
        onSaved();
        onClose();
      },
      (err) =>
        toast({
          title: place ? 'Misslyckades uppdatera plats' : 'Misslyckades skapa plats',
          description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade',
          variant: 'destructive',
        }),
    );
  }

  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={editing ? 'Redigera plats' : 'Lägg till plats'}
      description={editing ? 'Ändra uppgifterna för platsen.' : 'En plats är där quizet hålls, t.ex. en pub eller restaurang.'}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        {!editing && (
          <label className="flex items-start gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3">
            <input type="checkbox" className="mt-1 h-4 w-4" checked={single} onChange={(e) => setSingle(e.target.checked)} />
            <span>
              <span className="block font-semibold">Verksamheten har bara en plats</span>
              <span className="block text-sm text-slate-600">Platsen får samma namn som verksamheten ({venueName}).</span>
            </span>
          </label>
        )}
        <TextField label="Platsens namn" required value={single ? venueName : form.name} disabled={single} error={errors.name} onChange={set('name')} />
        <TextField label="Adress" required autoComplete="street-address" value={form.address} error={errors.address} onChange={set('address')} />
        <TextField label="Stad" required autoComplete="address-level2" value={form.city} error={errors.city} onChange={set('city')} />
        <TextField label="Telefon (valfritt)" type="tel" autoComplete="tel" value={form.phone} error={errors.phone} onChange={set('phone')} />
        <TextField label="Webbplats (valfritt)" type="url" inputMode="url" placeholder="https://" value={form.website} error={errors.website} onChange={set('website')} />
        <fieldset className="space-y-2">
          <legend className="text-sm font-semibold text-slate-800">Koordinater (valfritt)</legend>
          <p className="text-sm text-slate-600">Används för kartan. Sidorna fungerar utan dem.</p>
          <div className="grid grid-cols-2 gap-3">
            <TextField label="Latitud" inputMode="decimal" placeholder="59.3293" value={form.latitude} error={errors.latitude} onChange={set('latitude')} />
            <TextField label="Longitud" inputMode="decimal" placeholder="18.0686" value={form.longitude} error={errors.longitude} onChange={set('longitude')} />
          </div>
          <PlaceMapPickerToggle latitude={form.latitude} longitude={form.longitude} city={form.city} onPick={(lat, lng) => setForm((f) => ({ ...f, latitude: String(lat), longitude: String(lng) }))} />
        </fieldset>
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Avbryt
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? 'Sparar...' : editing ? 'Spara ändringar' : 'Lägg till plats'}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
