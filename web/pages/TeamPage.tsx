import { displayDate } from '../../worker/lib/swedish';
import { PageHero } from './PageHero';
import { points } from './ResultsPage';
import type { TeamPageData } from './types';

/** /lag/{slug} (issue 46): a team's nights across venues, newest first, and its seasons. */
export function TeamPage({ data }: { data: TeamPageData }) {
  const base = `/lag/${data.team.slug}`;
  return (
    <>
      <PageHero crumbs={[{ label: 'Lag' }, { label: data.team.name }]} title={data.team.name} subtitle="Quizlag" />
      <div className="mx-auto max-w-3xl space-y-10 px-4 py-8">
        {data.seasons.length > 0 && (
          <section aria-labelledby="team-seasons-heading" className="space-y-3">
            <h2 id="team-seasons-heading" className="text-xl font-bold">
              Säsonger
            </h2>
            <ul className="space-y-1">
              {data.seasons.map((s) => (
                <li key={s.id}>
                  <span className="font-semibold">{s.name}</span>
                  {s.venue ? ` · ${s.venue}` : ''} · {s.rank ? `plats ${s.rank}` : 'ej rankad'} · {points(s.points)} poäng
                </li>
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="team-nights-heading" className="space-y-3">
          <h2 id="team-nights-heading" className="text-xl font-bold">
            Kvällar
          </h2>
          {data.nights.length === 0 ? (
            <p>Inga kvällar att visa.</p>
          ) : (
            <table className="w-full border-collapse overflow-hidden rounded-xl bg-white text-left">
              <caption className="sr-only">Kvällar för {data.team.name}</caption>
              <thead className="bg-slate-100 text-sm">
                <tr>
                  <th scope="col" className="px-3 py-2">
                    Datum
                  </th>
                  <th scope="col" className="px-3 py-2">
                    Ställe
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Plats
                  </th>
                  <th scope="col" className="px-3 py-2 text-right">
                    Poäng
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.nights.map((n) => (
                  <tr key={n.quizId} className="border-t border-slate-200">
                    <td className="px-3 py-2">{displayDate(n.date)}</td>
                    <td className="px-3 py-2">
                      <a className="text-brand-700 underline" href={`/quiz/${n.venue.citySlug}/${n.venue.slug}/resultat?kvall=${n.quizId}`}>
                        {n.venue.name}
                      </a>
                      <span className="text-sm text-slate-700">, {n.venue.city}</span>
                    </td>
                    <td className="px-3 py-2 text-right font-bold">{n.rank}</td>
                    <td className="px-3 py-2 text-right">{points(n.score)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {data.nextCursor && (
            <a className="font-semibold text-brand-700 underline" href={`${base}?fore=${data.nextCursor}`}>
              Äldre kvällar
            </a>
          )}
        </section>
      </div>
    </>
  );
}
