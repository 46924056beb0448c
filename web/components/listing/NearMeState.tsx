import type { CityOption } from '../../pages/types';
import { Button } from '../ui/Button';
import { CityOptions } from './FilterPanel';
import { NEAR_MESSAGES, type useNearMe } from './useNearMe';

/**
 * "Nära mig" while it runs (issue 15): "Hämtar din position…", or — when the position cannot be had — why,
 * with a town select that works without JavaScript's position (a plain GET form) and "Försök igen".
 */
export function NearMeState({
  state,
  cities,
  onCitiesWanted,
  onRetry,
}: {
  state: ReturnType<typeof useNearMe>['state'];
  cities: CityOption[];
  onCitiesWanted: () => void;
  onRetry: () => void;
}) {
  return (
    <>
      {state.kind === 'locating' && (
        <p role="status" className="rounded-xl bg-brand-50 px-4 py-3 font-semibold text-brand-800">
          Hämtar din position…
        </p>
      )}
      {state.kind === 'failed' && (
        <div role="alert" className="space-y-3 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-amber-950">
          <p className="font-semibold">{NEAR_MESSAGES[state.reason]}</p>
          <form method="get" action="/" className="flex flex-wrap items-end gap-2">
            <div className="space-y-1">
              <label htmlFor="near-fallback-city" className="block text-sm font-semibold">
                Stad
              </label>
              <select
                id="near-fallback-city"
                name="city"
                defaultValue=""
                onFocus={onCitiesWanted}
                onPointerDown={onCitiesWanted}
                className="rounded-xl border border-slate-300 bg-white px-3 py-2.5 text-slate-900"
              >
                <CityOptions cities={cities} />
              </select>
            </div>
            <input type="hidden" name="weekday" value="all" />
            <Button type="submit">Visa quiz</Button>
            <Button type="button" variant="secondary" onClick={onRetry}>
              Försök igen
            </Button>
          </form>
        </div>
      )}
    </>
  );
}
