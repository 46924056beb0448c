import { useState, type ReactNode } from 'react';
import { Dialog } from '../ui/Dialog';

export type InfoKey = 'about' | 'why' | 'privacy' | 'unclaimed';

export const INFO: Record<InfoKey, { link: string; title: string; body: ReactNode }> = {
  about: {
    link: 'Om skaparen',
    title: 'Om skaparen',
    body: (
      <>
        <p>Quizkväll byggs av ett litet team av quizälskare i Sverige som har suttit på alldeles för många pubar en tisdagskväll och letat efter nästa quiz.</p>
        <p>Vi gör tjänsten på fritiden och med kärlek till pubquizen som folkrörelse.</p>
      </>
    ),
  },
  why: {
    link: 'Varför Quizkväll?',
    title: 'Varför finns Quizkväll?',
    body: (
      <>
        <p>
          Quizkvällar annonseras ofta bara på en krita-tavla, i en Facebookgrupp eller muntligen. Det gör det svårt att hitta ett quiz när man väl är sugen.
        </p>
        <p>Quizkväll samlar alla quizkvällar på ett ställe, sökbart på stad, veckodag och datum, så att fler hittar till pubarna och quizmastrarna.</p>
      </>
    ),
  },
  privacy: {
    link: 'Cookies och integritet',
    title: 'Cookies och integritet',
    body: (
      <>
        <p>Vi använder bara en nödvändig cookie: den som håller dig inloggad. Vi använder inga spårnings- eller reklamcookies.</p>
        <p>
          Uppgifter du lämnar (e-postadress, verksamhetens uppgifter och feedback) används bara för att driva tjänsten. Du kan när som helst radera ditt konto,
          och då raderas dina verksamheter, platser och quiz.
        </p>
      </>
    ),
  },
  unclaimed: {
    link: 'Varför finns min verksamhet redan här?',
    title: 'Varför finns min verksamhet redan här?',
    body: (
      <>
        <p>
          För att besökare ska hitta så många quizkvällar som möjligt har vi samlat in uppgifter om quiz från offentliga källor, till exempel webbplatser och
          sociala medier.
        </p>
        <p>
          Äger eller driver du stället kan du ta kontroll över verksamheten gratis: öppna ett quiz från verksamheten och välj att ta kontroll, eller registrera
          dig via länken. Då kan du själv hålla uppgifterna aktuella och får prioriterad synlighet.
        </p>
        <p>
          Ortsdata:{' '}
          <a className="underline" href="https://www.geonames.org/" rel="noopener">
            GeoNames
          </a>
          ,{' '}
          <a className="underline" href="https://creativecommons.org/licenses/by/4.0/deed.sv" rel="noopener">
            CC BY 4.0
          </a>{' '}
          (ortens mittpunkt när ett ställe saknar egen position). Kartor: © OpenStreetMap-bidragsgivare.
        </p>
      </>
    ),
  },
};

export const FOOTER_LINK = 'rounded text-left text-slate-200 underline-offset-4 hover:text-white hover:underline';

/** The footer's frame: the blurb, the "Information" links (`links`), the year; shared with the mail-link pages' footer (web/pages/LinkFrame.tsx). */
export function FooterFrame({ links, children }: { links: ReactNode; children?: ReactNode }) {
  return (
    <footer className="mt-16 bg-slate-900 text-slate-200">
      <div className="mx-auto grid max-w-6xl gap-8 px-4 py-10 sm:grid-cols-2">
        <div>
          <p className="text-lg font-bold text-white">Quizkväll</p>
          <p className="mt-2 max-w-sm text-sm text-slate-300">Hitta pubquiz och quizkvällar i hela Sverige – på stad, veckodag eller datum.</p>
        </div>
        <nav aria-label="Information" className="flex flex-col items-start gap-2 text-sm">
          {links}
        </nav>
      </div>
      {/* The year is the reader's clock; the server's may differ (a pinned test clock, New Year's Eve across time
          zones): React's documented escape for a timestamp, so hydration keeps the client's text. */}
      <p suppressHydrationWarning className="border-t border-slate-800 py-4 text-center text-xs text-slate-400">
        © {new Date().getFullYear()} Quizkväll · Beta
      </p>
      {children}
    </footer>
  );
}

/** Footer with its information dialogs (spec 01 §1) and the feedback entry. */
export function Footer({ onFeedback }: { onFeedback: () => void }) {
  const [open, setOpen] = useState<InfoKey | null>(null);
  return (
    <FooterFrame
      links={
        <>
          {(Object.keys(INFO) as InfoKey[]).map((key) => (
            <button key={key} type="button" className={FOOTER_LINK} onClick={() => setOpen(key)}>
              {INFO[key].link}
            </button>
          ))}
          <a href="/tipsa" className={FOOTER_LINK}>
            Tipsa om ett quiz
          </a>
          <button type="button" className={FOOTER_LINK} onClick={onFeedback}>
            Lämna feedback
          </button>
        </>
      }
    >
      {open && (
        <Dialog open onClose={() => setOpen(null)} title={INFO[open].title}>
          <div className="space-y-3 text-slate-700">{INFO[open].body}</div>
        </Dialog>
      )}
    </FooterFrame>
  );
}
