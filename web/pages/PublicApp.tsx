import { ErrorBoundary } from '../components/layout/ErrorScreen';
import { Layout } from '../components/layout/Layout';
import { NotFound } from '../routes/NotFound';
import { HomePage } from './HomePage';
import type { PublicPageData } from './types';

/** Root of every server-rendered public page; the same tree hydrates in the browser (public-entry.tsx). */
export function PublicApp({ data }: { data: PublicPageData }) {
  return (
    <Layout>
      <ErrorBoundary>{renderPage(data)}</ErrorBoundary>
    </Layout>
  );
}

function renderPage(data: PublicPageData) {
  switch (data.kind) {
    case 'home':
      return <HomePage data={data} />;
    case 'notFound':
      return <NotFound />;
  }
}
