/**
 * The site's frame around a page behind a signed mail link (issue 44.7): the header, a card with the page's
 * title and text, and the footer — the same components and stylesheet as the public pages, rendered once on the
 * server and never hydrated (worker/lib/link-page.ts), so everything here works without JavaScript.
 */
import { FOOTER_LINK, FooterFrame, INFO, type InfoKey } from '../components/layout/Footer';
import { Header } from '../components/layout/Header';

/** A link page's main button (a form's submit). */
export const LINK_BUTTON = 'inline-flex min-h-11 items-center rounded-xl bg-brand-700 px-4 py-2 font-semibold text-white hover:bg-brand-800';
/** A link page's other buttons (pause, remove, push). */
export const LINK_BUTTON_SECONDARY =
  'inline-flex min-h-11 items-center rounded-xl border border-slate-300 bg-white px-4 py-2 font-semibold text-slate-800 hover:bg-slate-50';

const noop = () => undefined;

/** `bodyHtml` is the page's own markup, already escaped by hono/html. */
export function LinkFrame({ title, bodyHtml }: { title: string; bodyHtml: string }) {
  return (
    <div className="flex min-h-screen flex-col">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Hoppa till innehållet
      </a>
      <Header onFeedback={noop} noScript />
      <main id="main" tabIndex={-1} className="flex-1 px-4 py-8 focus:outline-none sm:py-12">
        <div className="mx-auto w-full max-w-xl rounded-2xl border border-slate-200 bg-white p-6 shadow-sm">
          <h1 className="text-2xl font-extrabold text-slate-900">{title}</h1>
          <div
            className="mt-4 space-y-4 text-slate-800 [&_a]:font-semibold [&_a]:text-brand-700 [&_a]:underline [&_form]:inline-block"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: the page's text comes escaped from hono/html (worker/lib/link-page.ts)
            dangerouslySetInnerHTML={{ __html: bodyHtml }}
          />
        </div>
      </main>
      {/* The footer's texts open in place (<details>): this page has no script to open their dialogs. */}
      <FooterFrame
        links={
          <>
            {(Object.keys(INFO) as InfoKey[]).map((key) => (
              <details key={key} className="max-w-md">
                <summary className={`${FOOTER_LINK} cursor-pointer`}>{INFO[key].link}</summary>
                <div className="mt-2 space-y-2 text-slate-300">{INFO[key].body}</div>
              </details>
            ))}
            <a href="/tipsa" className={FOOTER_LINK}>
              Tipsa om ett quiz
            </a>
          </>
        }
      />
    </div>
  );
}
