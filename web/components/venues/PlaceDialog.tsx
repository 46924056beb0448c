import { zodResolver } from '@hookform/resolvers/zod';
import { FormProvider, useForm, useFormContext } from 'react-hook-form';
import * as z from 'zod';
import { LocationSchema, type LocationData } from '../../../worker/features/venues/contract';
import { useSavePlace, type OwnerPlace } from '../../api/venues';
import { setServerErrors } from '../../lib/form';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { TextField } from '../ui/Field';
import { TownField } from '../ui/TownField';
import { PlaceMapPickerToggle } from './PlaceMapPickerToggle';
import { toast } from '../ui/Toast';

/** The place form as the inputs hold it (coordinates as text); LocationSchema turns it into the contract's data. */
export interface PlaceFormValues {
  name: string;
  address: string;
  city: string;
  phone: string;
  website: string;
  latitude: string;
  longitude: string;
}

type PlaceForm = PlaceFormValues & { single: boolean };

const EMPTY: PlaceFormValues = { name: '', address: '', city: '', phone: '', website: '', latitude: '', longitude: '' };

function fromPlace(p: OwnerPlace): PlaceFormValues {
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
 * Sections read the form through FormProvider (useFormContext<PlaceFormValues>), so a new one (a map
 * pin that sets latitude/longitude with setValue) is one more component in the list.
 */
export function PlaceDialog({
  open,
  onClose,
  venueId,
  venueName,
  place,
}: {
  open: boolean;
  onClose: () => void;
  venueId: string;
  venueName: string;
  /** The place to edit; absent when adding. */
  place?: OwnerPlace | null;
}) {
  const editing = !!place;
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title={editing ? 'Redigera plats' : 'Lägg till plats'}
      description={editing ? 'Ändra uppgifterna för platsen.' : 'En plats är där quizet hålls, t.ex. en pub eller restaurang.'}
    >
      {/* The Dialog mounts its content only while open: every opening starts from the place's values. */}
      <PlaceFields onClose={onClose} venueId={venueId} venueName={venueName} place={place ?? null} />
    </Dialog>
  );
}

function PlaceFields({ onClose, venueId, venueName, place }: { onClose: () => void; venueId: string; venueName: string; place: OwnerPlace | null }) {
  const editing = !!place;
  const save = useSavePlace();
  const form = useForm<PlaceForm, unknown, LocationData>({
    // 'Verksamheten har bara en plats': the place takes the business's name.
    resolver: zodResolver(z.preprocess((v: PlaceForm) => (v.single ? { ...v, name: venueName } : v), LocationSchema)),
    defaultValues: { ...(place ? fromPlace(place) : EMPTY), single: false },
  });
  const { register, handleSubmit, setError, watch, formState } = form;
  const single = watch('single');
  const errors = formState.errors;

  const submit = handleSubmit(async (body) => {
    try {
      await save.mutateAsync({ venueId, placeId: place?.id, body });
      toast({ title: place ? 'Platsen har uppdaterats' : 'Platsen har lagts till', variant: 'success' });
      onClose();
    } catch (err) {
      setServerErrors(setError, err);
      toast({
        title: place ? 'Misslyckades uppdatera plats' : 'Misslyckades skapa plats',
        description: err instanceof Error ? err.message : 'Ett oväntat fel inträffade',
        variant: 'destructive',
      });
    }
  });

  return (
    <FormProvider {...form}>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {!editing && (
          <label className="flex items-start gap-3 rounded-xl border border-slate-200 bg-slate-50 p-3">
            <input type="checkbox" className="mt-1 h-4 w-4" {...register('single')} />
            <span>
              <span className="block font-semibold">Verksamheten har bara en plats</span>
              <span className="block text-sm text-slate-600">Platsen får samma namn som verksamheten ({venueName}).</span>
            </span>
          </label>
        )}
        {single ? (
          <TextField label="Platsens namn" required value={venueName} disabled readOnly />
        ) : (
          <TextField label="Platsens namn" required error={errors.name?.message} {...register('name')} />
        )}
        <TextField label="Adress" required autoComplete="street-address" error={errors.address?.message} {...register('address')} />
        <TownField required error={errors.city?.message} {...register('city')} />
        <TextField label="Telefon (valfritt)" type="tel" autoComplete="tel" error={errors.phone?.message} {...register('phone')} />
        <TextField label="Webbplats (valfritt)" type="url" inputMode="url" placeholder="https://" error={errors.website?.message} {...register('website')} />
        <CoordinateFields />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            Avbryt
          </Button>
          <Button type="submit" disabled={formState.isSubmitting}>
            {formState.isSubmitting ? 'Sparar...' : editing ? 'Spara ändringar' : 'Lägg till plats'}
          </Button>
        </div>
      </form>
    </FormProvider>
  );
}

/** Optional latitude and longitude, typed in (the map works without them). */
function CoordinateFields() {
  const { register, formState, setValue, watch } = useFormContext<PlaceFormValues>();
  const [latitude, longitude, city] = watch(['latitude', 'longitude', 'city']);
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-semibold text-slate-800">Koordinater (valfritt)</legend>
      <p className="text-sm text-slate-600">Används för kartan. Sidorna fungerar utan dem.</p>
      <div className="grid grid-cols-2 gap-3">
        <TextField label="Latitud" inputMode="decimal" placeholder="59.3293" error={formState.errors.latitude?.message} {...register('latitude')} />
        <TextField label="Longitud" inputMode="decimal" placeholder="18.0686" error={formState.errors.longitude?.message} {...register('longitude')} />
      </div>
      <PlaceMapPickerToggle
        latitude={latitude}
        longitude={longitude}
        city={city}
        onPick={(lat, lng) => {
          setValue('latitude', String(lat), { shouldDirty: true, shouldValidate: true });
          setValue('longitude', String(lng), { shouldDirty: true, shouldValidate: true });
        }}
      />
    </fieldset>
  );
}
