/** The superadmin's 'Översikt' tab (issue 18): revenue per week and city, slot occupancy for 4 weeks, most viewed places. */
import { REVENUE_WEEKS, TOP_PLACES_DAYS, type OverviewResponse } from '../../../worker/features/analytics/contract';
import { formatOre } from '../../../worker/features/promotion/contract';
import { cityLabel, weekLabel } from '../../../worker/lib/admin-labels';
import { stockholmDate } from '../../../worker/lib/clock';
import { countText, displayDate } from '../../../worker/lib/swedish';
import { Button } from '../ui/Button';
import { TableScroll } from '../ui/TableScroll';
import { Spinner } from '../ui/Spinner';
import { useOverview } from './api';

export function OverviewPanel() {
  const query = useOverview();
  if (query.isPending) return <Spinner label="Hämtar översikten…" />;
  if (query.isError)
    return (
      <div role="alert" className="rounded-xl bg-red-50 p-4 text-red-800">
        <p className="font-semibold">{query.error.message}</p>
        <Button variant="secondary" className="mt-3" onClick={() => void query.refetch()}>
          Försök igen
        </Button>
      </div>
    );
  return <Overview data={query.data} />;
}

const th = 'px-3 py-2 text-left font-semibold';
const td = 'px-3 py-2';

/** Weeks, cities and dates in words (issue 44.8): "vecka 48", "Göteborg", "måndag 30 november", not "2026-W48", slugs or ISO dates. */
function Overview({ data }: { data: OverviewResponse }) {
  const thisYear = Number(stockholmDate(new Date()).slice(0, 4));
  return (
    <div className="space-y-8">
      <section aria-labelledby="ov-revenue" className="space-y-2">
        <h2 id="ov-revenue" className="text-xl font-bold">
          Intäkter per vecka och stad ({countText(REVENUE_WEEKS, 'vecka', 'veckor')})
        </h2>
        {data.revenue.length === 0 ? (
          <p className="text-slate-700">Inga betalda beställningar de senaste {REVENUE_WEEKS} veckorna.</p>
        ) : (
          <TableScroll label="Intäkter per vecka och stad">
            <table className="w-full rounded-xl bg-white text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className={th}>
                    Vecka
                  </th>
                  <th scope="col" className={th}>
                    Stad
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Beställningar
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Belopp
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.revenue.map((r) => (
                  <tr key={`${r.week}-${r.citySlug}`} className="border-b border-slate-100">
                    <td className={td}>{weekLabel(r.week, thisYear)}</td>
                    <td className={td}>{cityLabel(r.citySlug)}</td>
                    <td className={`${td} text-right tabular-nums`}>{r.orders}</td>
                    <td className={`${td} text-right tabular-nums`}>{formatOre(r.amount)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section aria-labelledby="ov-slots" className="space-y-2">
        <h2 id="ov-slots" className="text-xl font-bold">
          Beläggning {displayDate(data.from)} – {displayDate(data.to)}
        </h2>
        {data.occupancy.length === 0 ? (
          <p className="text-slate-700">Inga sålda eller reserverade platser de kommande 4 veckorna.</p>
        ) : (
          <TableScroll label="Beläggning per stad och dag">
            <table className="w-full rounded-xl bg-white text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className={th}>
                    Stad
                  </th>
                  <th scope="col" className={th}>
                    Datum
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Rekommenderat (av 3)
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Premium Utvald (av 1)
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.occupancy.map((o) => (
                  <tr key={`${o.citySlug}-${o.date}`} className="border-b border-slate-100">
                    <td className={td}>{cityLabel(o.citySlug)}</td>
                    <td className={td}>{displayDate(o.date)}</td>
                    <td className={`${td} text-right tabular-nums`}>{o.recommended}</td>
                    <td className={`${td} text-right tabular-nums`}>{o.premium}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section aria-labelledby="ov-top" className="space-y-2">
        <h2 id="ov-top" className="text-xl font-bold">
          Mest visade ställen ({countText(TOP_PLACES_DAYS, 'dag', 'dagar')})
        </h2>
        {data.topPlaces.length === 0 ? (
          <p className="text-slate-700">Inga visningar räknade ännu.</p>
        ) : (
          <TableScroll label="Mest visade ställen">
            <table className="w-full rounded-xl bg-white text-sm">
              <thead>
                <tr className="border-b border-slate-200">
                  <th scope="col" className={th}>
                    Verksamhet
                  </th>
                  <th scope="col" className={th}>
                    Plats
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Detaljvisningar
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Sidvisningar
                  </th>
                  <th scope="col" className={`${th} text-right`}>
                    Visningar i listan
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.topPlaces.map((p) => (
                  <tr key={`${p.venueId}-${p.locationId}`} className="border-b border-slate-100">
                    <td className={td}>
                      <a className="text-brand-700 underline" href={`/admin/analytics?venueId=${encodeURIComponent(p.venueId)}`}>
                        {p.venueName}
                      </a>
                    </td>
                    <td className={td}>{p.locationId ? `${p.placeName}, ${p.city}` : 'Verksamhetssidan'}</td>
                    <td className={`${td} text-right tabular-nums`}>{p.detail_open}</td>
                    <td className={`${td} text-right tabular-nums`}>{p.venue_view}</td>
                    <td className={`${td} text-right tabular-nums`}>{p.impression}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}
