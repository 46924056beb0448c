import { useEffect } from 'react';
import { ErrorBoundary } from '../components/layout/ErrorScreen';
import { Layout } from '../components/layout/Layout';
import { NotFound } from '../routes/NotFound';
import { AnnonseraPage } from './AnnonseraPage';
import { CombinedPage } from './CombinedPage';
import { ListingPage } from './ListingPage';
import { extraPages } from './page-registry';
import type { PublicPageData } from './types';
import { VenuePage } from './VenuePage';
import { QuizmasterPage } from './QuizmasterPage';

/** Root of every server-rendered public page; the same tree hydrates in the browser (public-entry.tsx). */
export function PublicApp({ data }: { data: PublicPageData }) {
  // Marks the page interactive (effects run only after hydration); stories wait for it.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <Layout>
      <ErrorBoundary>{renderPage(data)}</ErrorBoundary>
    </Layout>
  );
}

function renderPage(data: PublicPageData) {
  switch (data.kind) {
    case 'listing':
      return <ListingPage data={data} />;
    case 'combined':
      return <CombinedPage data={data} />;
    case 'venue':
      return <VenuePage data={data} />;
    case 'advertise':
      return <AnnonseraPage data={data} />;
    case 'quizmaster':
      return <QuizmasterPage data={data} />;
    case 'results': {
      const Page = extraPages.results;
      return Page ? <Page data={data} /> : null;
    }
    case 'team': {
      const Page = extraPages.team;
      return Page ? <Page data={data} /> : null;
    }
    case 'league': {
      const Page = extraPages.league;
      return Page ? <Page data={data} /> : null;
    }
    case 'notFound':
      return (
        <>
          {data.message && (
            <p role="status" className="mx-auto mt-10 max-w-lg rounded-xl bg-amber-50 px-4 py-3 text-center font-semibold text-amber-900">
              {data.message}
            </p>
          )}
          <NotFound />
        </>
      );
  }
}
