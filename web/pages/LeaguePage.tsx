import { ShareButton } from '../components/share/ShareButton';
import { PageHero } from './PageHero';
import { SeasonLinks, SeasonTable } from './ResultsPage';
import type { LeaguePageData } from './types';

/** /liga/{slug} (issue 46): one table across several venues. Readable without JavaScript: every control is a link. */
export function LeaguePage({ data }: { data: LeaguePageData }) {
  const base = `/liga/${data.league.slug}`;
  const { season } = data;
  return (
    <>
      <PageHero crumbs={[{ label: data.league.name }]} title={data.league.name} subtitle="Liga – en tabell för flera ställen">
        <div className="mt-3 flex flex-wrap items-center gap-3 sm:mt-5">
          <ShareButton
            path={base}
            title={data.league.name}
            className="inline-flex items-center gap-1.5 rounded-xl border border-white/40 bg-white/10 px-4 py-2 font-semibold text-white hover:bg-white/20"
          />
        </div>
      </PageHero>
      <div className="mx-auto max-w-3xl space-y-10 px-4 py-8">
        {season ? (
          <SeasonTable season={season} base={base} headingId="league-season-heading" />
        ) : (
          <p className="text-lg text-slate-700">Ligan har ingen pågående säsong.</p>
        )}
        {data.venues.length > 0 && (
          <section aria-labelledby="league-venues-heading" className="space-y-3">
            <h2 id="league-venues-heading" className="text-xl font-bold">
              Ställen i ligan
            </h2>
            <ul className="space-y-1">
              {data.venues.map((v) => (
                <li key={`${v.citySlug}/${v.slug}`}>
                  <a className="text-brand-700 underline" href={`/quiz/${v.citySlug}/${v.slug}/resultat`}>
                    {v.name}
                  </a>{' '}
                  <span className="text-sm text-slate-700">· {v.city}</span>
                </li>
              ))}
            </ul>
          </section>
        )}
        {data.seasons.length > 0 && (
          <SeasonLinks seasons={data.seasons} base={base} today={data.today} headingId="league-seasons-heading">
            {data.seasonsCursor && (
              <a className="font-semibold text-brand-700 underline" href={`${base}?fore=${data.seasonsCursor}`}>
                Äldre säsonger
              </a>
            )}
          </SeasonLinks>
        )}
      </div>
    </>
  );
}
