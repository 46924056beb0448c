/**
 * The data a server-rendered public page is rendered from. The Worker builds it, renders <PublicApp>
 * with it, and embeds it once in the HTML (#__DATA__) so hydration does not refetch.
 */
export interface HomePageData {
  kind: 'home';
}
export interface NotFoundPageData {
  kind: 'notFound';
}
export type PublicPageData = HomePageData | NotFoundPageData;
