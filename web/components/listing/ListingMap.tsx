import { Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import type { ListingMapResponse } from '../../../worker/features/listing/contract';
import { api } from '../../lib/api';
import type { ListingFilters, ListingQuiz } from '../../pages/types';
import { LazyQuizMap, type MapPoint } from '../map/loader';
import { listingApiUrl } from './urls';

/**
 * The listing's map data (issue 15): the current results, not only the cards loaded so far — its own compact
 * request (GET /api/listing/map, same filters, up to 200 positions), read while the map is shown and kept per
 * query; a marker fetches its card and hands it to `onOpen`.
 */
export function useListingMap(filters: ListingFilters, view: 'list' | 'map', onOpen: (quiz: ListingQuiz) => void) {
  const mapQuery = useMemo(() => {
    const q = new URLSearchParams(listingApiUrl(filters, 1).split('?')[1]);
    q.delete('page');
    return q.toString();
  }, [filters]);
  const [mapData, setMapData] = useState<{ query: string; data: ListingMapResponse } | { query: string; failed: true } | null>(null);
  useEffect(() => {
    if (view !== 'map' || mapData?.query === mapQuery) return;
    let live = true;
    api<ListingMapResponse>(`/api/listing/map?${mapQuery}`).then(
      (data) => live && setMapData({ query: mapQuery, data }),
      () => live && setMapData({ query: mapQuery, failed: true }),
    );
    return () => {
      live = false;
    };
  }, [view, mapQuery, mapData?.query]);
  const mapResult = mapData && mapData.query === mapQuery && 'data' in mapData ? mapData.data : null;
  const points = useMemo<MapPoint[]>(
    () => (mapResult ? mapResult.points.map((p) => ({ id: String(p.unit), lat: p.lat, lng: p.lng, label: p.name })) : []),
    [mapResult],
  );
  const openMarker = useCallback(
    (p: MapPoint) => {
      api<{ item: ListingQuiz }>(`/api/listing/card?unit=${encodeURIComponent(p.id)}&${mapQuery}`).then(
        (res) => onOpen(res.item),
        () => undefined,
      );
    },
    [mapQuery, onOpen],
  );
  const failed = !!mapData && 'failed' in mapData && mapData.query === mapQuery;
  return { mapResult, points, openMarker, failed };
}

export type ListingMapState = ReturnType<typeof useListingMap>;

/** The map view: the lazy map with its markers, how many it shows, and a failure notice. */
export function ListingMapPanel({ map, tileUrl, near }: { map: ListingMapState; tileUrl: string; near: boolean }) {
  const { mapResult, points, openMarker, failed } = map;
  return (
    <>
      {failed && (
        <p role="alert" className="rounded-xl bg-red-50 p-4 font-semibold text-red-900">
          Kartan kunde inte laddas. Försök igen senare.
        </p>
      )}
      {!failed && (
        <Suspense
          fallback={
            <p role="status" className="rounded-xl bg-slate-100 p-6 text-center font-semibold text-slate-700">
              Laddar karta…
            </p>
          }
        >
          {mapResult ? (
            <>
              <LazyQuizMap points={points} tileUrl={tileUrl} onOpen={openMarker} />
              {points.length + mapResult.withoutPosition < mapResult.total && (
                <p className="text-sm text-slate-700">
                  Kartan visar {near ? 'de närmaste ' : 'de första '}
                  {points.length} av {mapResult.totalAtLeast ? 'minst ' : ''}
                  {mapResult.total} quiz. Välj fler filter för att se resten.
                </p>
              )}
              {mapResult.withoutPosition > 0 && (
                <p className="text-sm text-slate-700">{mapResult.withoutPosition} quiz saknar position och visas bara i listan.</p>
              )}
            </>
          ) : (
            <p role="status" className="rounded-xl bg-slate-100 p-6 text-center font-semibold text-slate-700">
              Laddar karta…
            </p>
          )}
        </Suspense>
      )}
    </>
  );
}
