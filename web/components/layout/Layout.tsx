import { useState, type ReactNode } from 'react';
import { useSession } from '../../lib/session';
import { FeedbackDialog } from '../feedback/FeedbackDialog';
import { Toaster } from '../ui/Toast';
import { Footer } from './Footer';
import { Header } from './Header';

/** Header, main content, footer, the feedback dialog and the toaster: the frame of every page. */
export function Layout({ children, onLogout }: { children: ReactNode; onLogout?: () => void }) {
  const [feedbackOpen, setFeedbackOpen] = useState(false);
  const session = useSession();
  const signedIn = session.status === 'ready' && !!session.session.user;
  return (
    <div className="flex min-h-screen flex-col">
      {/* Moves focus, not only the view (issue 29.11): <main> takes focus (tabIndex -1), so the next Tab starts there. */}
      {/* biome-ignore lint/a11y/useValidAnchor: a skip link is a link (without JavaScript it jumps to #main); the handler only adds the focus move */}
      <a
        href="#main"
        onClick={(e) => {
          const main = document.getElementById('main');
          if (!main) return;
          e.preventDefault();
          main.focus();
          main.scrollIntoView();
        }}
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        Hoppa till innehållet
      </a>
      <Header onFeedback={() => setFeedbackOpen(true)} onLogout={onLogout} />
      <main id="main" tabIndex={-1} className="flex-1 focus:outline-none">
        {children}
      </main>
      <Footer onFeedback={() => setFeedbackOpen(true)} />
      <FeedbackDialog open={feedbackOpen} onClose={() => setFeedbackOpen(false)} signedIn={signedIn} />
      <Toaster />
    </div>
  );
}
