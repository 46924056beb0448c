import { displayDate, shortDate } from '../../worker/lib/swedish';
import { SEASON_PRESET_LABELS } from '../../worker/lib/season-presets';
import type { PublicRow } from '../../worker/features/results/contract';
import { ShareButton } from '../components/share/ShareButton';
import { PageHero } from './PageHero';
import type { ResultsPageData } from './types';

/** 42.5 → "42,5". */
export const points = (n: number) => String(n).replace('.', ',');

/** A results table: place, team (linked to its page), points; ties show the same place. */
/** A season's table with its paging links (the results page and the league page). */
export function SeasonTable({ season, base, headingId }: { season: NonNullable<ResultsPageData['season']>; base: string; headingId: string }) {
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-xl font-bold">
        Säsong: {season.name}
      </h2>
      <p className="text-sm text-slate-700">
        {displayDate(season.startDate)} – {displayDate(season.endDate)} · {SEASON_PRESET_LABELS[season.preset]}
      </p>
      {season.rows.length ? <ResultsTable rows={season.rows} caption={`Tabell ${season.name}`} nights /> : <p>Inga kvällar i säsongen ännu.</p>}
      <nav aria-label="Tabellens sidor" className="flex gap-4">
        {season.page > 1 && (
          <a className="font-semibold text-brand-700 underline" href={`${base}?sasong=${season.id}&tabell=${season.page - 1}`}>
            Föregående
          </a>
        )}
        {season.hasMore && (
          <a className="font-semibold text-brand-700 underline" href={`${base}?sasong=${season.id}&tabell=${season.page + 1}`}>
            Fler lag
          </a>
        )}
      </nav>
    </section>
  );
}

/** The list of seasons, each a link to its table, dates in Swedish (the results page and the league page). */
export function SeasonLinks({
  seasons,
  base,
  today,
  headingId,
  children,
}: {
  seasons: ResultsPageData['seasons'];
  base: string;
  today: string;
  headingId: string;
  children?: React.ReactNode;
}) {
  const thisYear = Number(today.slice(0, 4));
  return (
    <section aria-labelledby={headingId} className="space-y-3">
      <h2 id={headingId} className="text-xl font-bold">
        Säsonger
      </h2>
      <ul className="space-y-1">
        {seasons.map((s) => (
          <li key={s.id}>
            <a className="text-brand-700 underline" href={`${base}?sasong=${s.id}`}>
              {s.name}
            </a>{' '}
            <span className="text-sm text-slate-700">
              · {shortDate(s.startDate, thisYear)} – {shortDate(s.endDate, thisYear)}
            </span>
          </li>
        ))}
      </ul>
      {children}
    </section>
  );
}

export function ResultsTable({ rows, caption, nights }: { rows: PublicRow[]; caption: string; nights?: boolean }) {
  return (
    <table className="w-full border-collapse overflow-hidden rounded-xl bg-white text-left">
      <caption className="sr-only">{caption}</caption>
      <thead className="bg-slate-100 text-sm">
        <tr>
          <th scope="col" className="px-3 py-2">
            Plats
          </th>
          <th scope="col" className="px-3 py-2">
            Lag
          </th>
          {nights && (
            <th scope="col" className="px-3 py-2 text-right">
              Kvällar
            </th>
          )}
          <th scope="col" className="px-3 py-2 text-right">
            Poäng
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r) => (
          <tr key={r.slug} className="border-t border-slate-200" data-rank={r.rank ?? ''}>
            <td className="px-3 py-2 font-bold">{r.rank ?? '–'}</td>
            <td className="px-3 py-2">
              <a href={`/lag/${r.slug}`} className="text-brand-700 underline">
                {r.team}
              </a>
            </td>
            {nights && <td className="px-3 py-2 text-right">{r.nights}</td>}
            <td className="px-3 py-2 text-right">{points(r.score)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** /quiz/{stad}/{ställe}/resultat (issue 46). Readable without JavaScript: every control is a link. */
export function ResultsPage({ data }: { data: ResultsPageData }) {
  const base = `/quiz/${data.city.slug}/${data.venue.slug}/resultat`;
  const { night, season } = data;
  const podium = data.latest && night ? night.rows.slice(0, 3) : [];
  return (
    <>
      <PageHero
        crumbs={[
          { label: data.city.name, href: `/quiz/${data.city.slug}` },
          { label: data.venue.name, href: `/quiz/${data.city.slug}/${data.venue.slug}` },
          { label: 'Resultat' },
        ]}
        title={`Resultat – ${data.venue.name}`}
        subtitle={data.city.name}
      >
        <div className="mt-3 flex flex-wrap items-center gap-3 sm:mt-5">
          <ShareButton
            path={base}
            title={`Resultat – ${data.venue.name}`}
            track={{ venueId: data.venue.id }}
            className="inline-flex items-center gap-1.5 rounded-xl border border-white/40 bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20"
          />
        </div>
      </PageHero>
      <div className="mx-auto max-w-3xl space-y-10 px-4 py-8">
        {!night && !season && data.nights.length === 0 && <p className="text-lg text-slate-700">Inga resultat är publicerade här ännu.</p>}
        {podium.length > 0 && night && (
          <section aria-labelledby="podium-heading" className="space-y-3">
            <h2 id="podium-heading" className="text-2xl font-bold">
              Senaste kvällen: {displayDate(night.date)}
              {night.corrected && <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-sm font-bold text-amber-900">rättad</span>}
            </h2>
            <ol className="grid gap-3 sm:grid-cols-3">
              {podium.map((r) => (
                <li key={r.slug} className="rounded-2xl border border-slate-200 bg-white p-4 text-center">
                  <p className="text-3xl font-extrabold">{r.rank}</p>
                  <p className="font-semibold">
                    <a href={`/lag/${r.slug}`} className="text-brand-700 underline">
                      {r.team}
                    </a>
                  </p>
                  <p className="text-sm text-slate-700">{points(r.score)} poäng</p>
                </li>
              ))}
            </ol>
          </section>
        )}
        {podium.length > 0 && night && (
          <p>
            <a className="font-semibold text-brand-700 underline" href={`${base}?kvall=${night.quizId}`}>
              Hela resultatet ({night.teamCount} lag)
            </a>
          </p>
        )}
        {night && !data.latest && (
          <section aria-labelledby="night-heading" className="space-y-3">
            <h2 id="night-heading" className="text-xl font-bold">
              Kvällen {displayDate(night.date)}
              {night.corrected && <span className="ml-2 rounded-full bg-amber-100 px-2 py-0.5 text-sm font-bold text-amber-900">rättad</span>}
            </h2>
            <ResultsTable rows={night.rows} caption={`Resultat ${night.date}`} />
            {night.more > 0 && <p className="text-sm text-slate-700">…och {night.more} lag till.</p>}
            <p>
              <a className="font-semibold text-brand-700 underline" href={base}>
                Till säsongens tabell
              </a>
            </p>
          </section>
        )}
        {season && <SeasonTable season={season} base={base} headingId="season-heading" />}
        {data.nights.length > 0 && (
          <section aria-labelledby="nights-heading" className="space-y-3">
            <h2 id="nights-heading" className="text-xl font-bold">
              Tidigare kvällar
            </h2>
            <ul className="space-y-1">
              {data.nights.map((n) => (
                <li key={n.quizId}>
                  <a className="text-brand-700 underline" href={`${base}?kvall=${n.quizId}`}>
                    {displayDate(n.date)}
                  </a>{' '}
                  <span className="text-sm text-slate-700">
                    · {n.teamCount} lag{n.corrected ? ' · rättad' : ''}
                  </span>
                </li>
              ))}
            </ul>
            {data.nightsCursor && (
              <a className="font-semibold text-brand-700 underline" href={`${base}?fore=${data.nightsCursor}`}>
                Äldre kvällar
              </a>
            )}
          </section>
        )}
        {data.seasons.length > 1 && <SeasonLinks seasons={data.seasons} base={base} today={data.today} headingId="seasons-heading" />}
      </div>
    </>
  );
}
