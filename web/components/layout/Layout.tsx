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
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2">
        Hoppa till innehållet
      </a>
      <Header onFeedback={() => setFeedbackOpen(true)} onLogout={onLogout} />
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer onFeedback={() => setFeedbackOpen(true)} />
      <FeedbackDialog open={feedbackOpen} onClose={() => setFeedbackOpen(false)} signedIn={signedIn} />
      <Toaster />
    </div>
  );
}
